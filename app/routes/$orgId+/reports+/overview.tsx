import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReportHeader } from "~/components/reports/report-header";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { authModeLabel } from "~/lib/auth-modes";
import { formatBytes, formatClock, formatCount } from "~/lib/format";
import { average, connectionModes, overview } from "~/services/reports.server";
import { loadReportPage, reportSubscriptionAction } from "./__report-page.server";

export const meta: MetaFunction = () => [{ title: "Overview report | Mlango" }];

export async function loader(args: LoaderFunctionArgs) {
  const { scope, header } = await loadReportPage(args, "overview");
  const [figures, modes] = await Promise.all([overview(scope), connectionModes(scope)]);
  const daily = (n: number) => average(n, figures.days);
  const count = (label: string, n: number) => ({ label, total: formatCount(n), daily: formatCount(daily(n)) });
  return json({
    header,
    periods: { days: figures.days, weeks: figures.weeks, months: figures.months, years: figures.years },
    figures: [
      count("Footfall", figures.footfall),
      count("Connections", figures.connections),
      count("Abandoned", figures.abandoned),
      count("New customers", figures.newCustomers),
      count("Repeat customers", figures.repeatCustomers),
      count("Total customers", figures.totalCustomers),
      { label: "Upload", total: formatBytes(figures.upload), daily: formatBytes(daily(figures.upload)) },
      { label: "Download", total: formatBytes(figures.download), daily: formatBytes(daily(figures.download)) },
      { label: "Bandwidth", total: formatBytes(figures.bandwidth), daily: formatBytes(daily(figures.bandwidth)) },
      { label: "Dwell time", total: formatClock(figures.dwellTime), daily: formatClock(daily(figures.dwellTime)) },
    ],
    modes,
  });
}

export const action = (args: ActionFunctionArgs) => reportSubscriptionAction(args, "overview");

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

export default function OverviewReport() {
  const { header, periods, figures, modes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div>
      <ReportHeader header={header} actionData={actionData} />
      <section aria-label="Figures" className="mb-6">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-5">
          {figures.map((f) => (
            <div key={f.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`figure-${f.label}`}>
              <dt className="text-sm text-slate-500">{f.label}</dt>
              <dd className="mt-1 text-2xl font-semibold text-slate-900">{f.total}</dd>
              <dd className="text-xs text-slate-500">Daily average {f.daily}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="modes-title">
        <h2 id="modes-title" className="text-lg font-semibold">
          Connection modes
        </h2>
        <p className="mb-3 text-sm text-slate-500">
          Averages over the {plural(periods.days, "day")}, {plural(periods.weeks, "week")} (from Monday), {plural(periods.months, "month")}{" "}
          and {plural(periods.years, "year")} the period touches.
        </p>
        <DataTable
          rows={modes}
          rowKey={(m) => m.mode}
          empty="No connections in this period."
          columns={[
            { header: "Mode", cell: (m) => authModeLabel(m.mode) },
            { header: "Daily average", nowrap: true, cell: (m) => formatCount(m.daily) },
            { header: "Weekly average", nowrap: true, cell: (m) => formatCount(m.weekly) },
            { header: "Monthly average", nowrap: true, cell: (m) => formatCount(m.monthly) },
            { header: "Annual average", nowrap: true, cell: (m) => formatCount(m.annual) },
            { header: "Total", nowrap: true, cell: (m) => formatCount(m.connections) },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
