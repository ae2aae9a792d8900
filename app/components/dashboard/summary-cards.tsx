import type { UsageTotals } from "~/lib/analytics";
import { formatBytes, formatCount, formatHms } from "~/lib/format";

/** The aggregate usage summary (docs/guide/dashboard.md#summary-cards), as a row of cards. */
export function SummaryCards({ totals }: { totals: UsageTotals }) {
  const cards: [string, string][] = [
    ["Upload", formatBytes(totals.upload)],
    ["Download", formatBytes(totals.download)],
    ["Bandwidth", formatBytes(totals.bandwidth)],
    ["New customers", formatCount(totals.newCustomers)],
    ["Repeat customers", formatCount(totals.repeatCustomers)],
    ["Connections", formatCount(totals.connections)],
    ["Footfall", formatCount(totals.footfall)],
    ["Dwell time", formatHms(totals.dwellTime)],
    ["Abandoned", formatCount(totals.abandoned)],
    ["Average dwell time", formatHms(totals.avgDwellTime)],
  ];
  return (
    <dl aria-label="Usage summary" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {cards.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
