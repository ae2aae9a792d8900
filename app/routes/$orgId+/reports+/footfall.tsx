import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BarChart } from "~/components/charts";
import { ReportHeader } from "~/components/reports/report-header";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { formatCount } from "~/lib/format";
import { formatBucket } from "~/lib/reports";
import { formatOffset } from "~/lib/time-zone";
import { footfallReport } from "~/services/reports.server";
import { loadReportPage, reportSubscriptionAction } from "./__report-page.server";

export const meta: MetaFunction = () => [{ title: "Footfall report | Mlango" }];

export async function loader(args: LoaderFunctionArgs) {
  const { scope, header } = await loadReportPage(args, "footfall");
  const report = await footfallReport(scope);
  return json({
    header,
    bucket: report.bucket,
    zone: formatOffset(scope.range.offsetMs),
    total: report.total,
    points: report.points.map((p) => ({ label: formatBucket(p.time, report.bucket, scope.range.offsetMs), footfall: p.footfall })),
  });
}

export const action = (args: ActionFunctionArgs) => reportSubscriptionAction(args, "footfall");

export default function FootfallReport() {
  const { header, bucket, total, points, zone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const timeLabel = bucket === "hour" ? `Hour (${zone})` : "Day";
  return (
    <div>
      <ReportHeader header={header} actionData={actionData} />
      <section className="card mb-6" aria-label="Footfall chart">
        <p className="mb-3 text-sm text-slate-600">
          Portal visits in the period: <strong data-testid="footfall-total">{formatCount(total)}</strong>
        </p>
        <BarChart
          title={bucket === "hour" ? "Footfall per hour" : "Footfall per day"}
          series={[{ id: "Footfall", points: points.map((p) => ({ x: p.label, y: p.footfall })) }]}
          xLegend={timeLabel}
          width={880}
          height={300}
          format={formatCount}
        />
      </section>
      <section className="card" aria-labelledby="footfall-table-title">
        <h2 id="footfall-table-title" className="mb-3 text-lg font-semibold">
          Footfall by {bucket === "hour" ? "hour" : "day"}
        </h2>
        <DataTable
          rows={points}
          rowKey={(p) => p.label}
          empty="No portal visits in this period."
          columns={[
            { header: timeLabel, nowrap: true, cell: (p) => p.label },
            { header: "Footfall", nowrap: true, cell: (p) => formatCount(p.footfall) },
          ]}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
