import { Form, Link, useLocation } from "@remix-run/react";
import { asksAfterToday, DATE_RANGE_MESSAGES, rangePresets, todayIso, type DateRange } from "~/lib/date-range";
import { clockLabel } from "~/lib/time-zone";
import { useOrgClock } from "./time";

/**
 * The date range picker of the analytics screens: a GET form (works without JavaScript) with two
 * date inputs capped at today, Apply, Cancel (back to the current range) and quick ranges whose
 * week starts on Monday. Other search params (venues, per_page …) are kept; the page resets to 1. A
 * range after today (typed into the URL: the inputs stop at today) is shown up to today with a message.
 */
export function DateRangeForm({
  range,
  children,
  controls = [],
}: {
  range: DateRange;
  children?: React.ReactNode;
  /** Names of the params the children's fields send (e.g. a venue multi-select), so they are not also kept as hidden fields. */
  controls?: readonly string[];
}) {
  const location = useLocation();
  const clock = useOrgClock();
  const today = todayIso(Date.now(), clock.offsetMs);
  const params = new URLSearchParams(location.search);
  const keep = [...params].filter(([k]) => !["start", "end", "page"].includes(k));
  const hidden = keep.filter(([k]) => !controls.includes(k));
  const presetHref = (start: string, end: string) => {
    const next = new URLSearchParams(keep);
    next.set("start", start);
    next.set("end", end);
    return `${location.pathname}?${next}`;
  };
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3 text-sm" aria-label="Date range">
      {asksAfterToday(params, today) ? (
        <p role="alert" className="w-full rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800">
          {DATE_RANGE_MESSAGES.afterToday(today)}
        </p>
      ) : null}
      {hidden.map(([k, v], i) => (
        <input key={`${k}${i}`} type="hidden" name={k} value={v} />
      ))}
      {children}
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">From</span>
        <input type="date" name="start" lang="en-GB" className="input w-auto" defaultValue={range.start} max={today} />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">To</span>
        <input type="date" name="end" lang="en-GB" className="input w-auto" defaultValue={range.end} max={today} />
      </label>
      <button type="submit" className="btn-primary">
        Apply
      </button>
      <Link to={presetHref(range.start, range.end)} className="btn-secondary">
        Cancel
      </Link>
      <details className="relative">
        <summary className="btn-secondary cursor-pointer list-none">Quick ranges</summary>
        <ul className="absolute z-10 mt-1 w-40 rounded border border-slate-200 bg-white py-1 shadow">
          {rangePresets(clock.offsetMs).map((p) => (
            <li key={p.label}>
              <Link className="block px-3 py-1 hover:bg-slate-100" to={presetHref(p.start, p.end)}>
                {p.label}
              </Link>
            </li>
          ))}
        </ul>
      </details>
      <p className="w-full text-xs text-slate-500">Days and hours in {clockLabel(clock)}.</p>
    </Form>
  );
}
