import type { DateRange } from "~/lib/date-range";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { VenueSelect } from "./venue-select";

/** The filters of the top networks / access points pages: networks, how many rows, dates (one GET form). */
export function TopListFilters({
  range,
  venues,
  selected,
  limit,
  limits,
}: {
  range: DateRange;
  venues: readonly { id: number; name: string }[];
  selected: readonly number[];
  limit: number;
  limits: readonly number[];
}) {
  return (
    <DateRangeForm range={range} controls={["venues", "limit"]}>
      <VenueSelect venues={venues} selected={selected} />
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">Show</span>
        <select name="limit" defaultValue={limit} className="input w-auto">
          {limits.map((n) => (
            <option key={n} value={n}>
              Top {n}
            </option>
          ))}
        </select>
      </label>
    </DateRangeForm>
  );
}
