import type { SubmissionResult } from "@conform-to/react";
import { NavLink, useLocation, useSubmit } from "@remix-run/react";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { FormErrors } from "~/components/ui/field";
import { REPORTS, type ReportPageHeader } from "~/lib/reports";
import { SubscribeBell } from "./subscribe-bell";

/** Query params a report keeps when moving to another report: the period and the venues. */
function sharedQuery(search: string): string {
  const params = new URLSearchParams(search);
  const next = new URLSearchParams();
  for (const key of ["start", "end", "venue_id"]) for (const v of params.getAll(key)) next.append(key, v);
  const query = next.toString();
  return query ? `?${query}` : "";
}

/** The six reports as tabs (docs/guide/reports.md#routes). */
export function ReportTabs({ orgId }: { orgId: number }) {
  const { search } = useLocation();
  const query = sharedQuery(search);
  return (
    <nav aria-label="Reports" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
      {REPORTS.map((r) => (
        <NavLink
          key={r.slug}
          to={`/${orgId}/reports/${r.slug}${query}`}
          className={({ isActive }) =>
            `-mb-px border-b-2 px-3 py-2 text-sm ${isActive ? "border-indigo-600 font-semibold text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
          }
        >
          {r.title}
        </NavLink>
      ))}
    </nav>
  );
}

/**
 * Venue filter, in the date range's GET form so the dates typed go with it (works without JavaScript;
 * applies on change with it).
 */
function VenueFilter({ header }: { header: ReportPageHeader }) {
  const submit = useSubmit();
  if (header.venues.length === 0) return null;
  return (
    <div className="flex items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor="report-venue" className="text-slate-600">
          Venue
        </label>
        <select
          id="report-venue"
          name="venue_id"
          defaultValue={header.venueIds[0] ?? ""}
          className="input w-auto"
          onChange={(e) => submit(e.currentTarget.form)}
        >
          <option value="">All venues</option>
          {header.venues.map((v) => (
            <option key={v.value} value={v.value}>
              {v.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary">
        Filter
      </button>
    </div>
  );
}

/** Title, period (dd/mm/yyyy), date range picker, venue filter and subscribe bell of a report page. */
export function ReportHeader({ header, actionData }: { header: ReportPageHeader; actionData?: unknown }) {
  // The bell's action answers with conform's result (a bad hour) or a plain refusal message.
  const lastResult =
    actionData && typeof actionData === "object" && "status" in actionData ? (actionData as SubmissionResult<string[]>) : null;
  const message = (actionData as { message?: unknown } | null | undefined)?.message;
  return (
    <header className="mb-4 space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{header.title}</h1>
          <p className="text-sm text-slate-600">
            Period: <span data-testid="report-period">{header.period}</span>
            {header.range.days > 1 ? ` (${header.range.days} days)` : ""}
          </p>
        </div>
        <SubscribeBell header={header} lastResult={lastResult} />
      </div>
      {typeof message === "string" ? <FormErrors errors={[message]} /> : null}
      <div className="flex flex-wrap items-end gap-4">
        <DateRangeForm key={`${header.range.start}/${header.range.end}`} range={header.range} controls={["venue_id"]}>
          <VenueFilter header={header} />
        </DateRangeForm>
      </div>
    </header>
  );
}
