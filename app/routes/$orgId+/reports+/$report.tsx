import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReportHeader } from "~/components/reports/report-header";
import { VisitorsTable } from "~/components/reports/visitors-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseListParams } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { VISITOR_REPORT_DESCRIPTIONS, isVisitorReport, reportFileName } from "~/lib/reports";
import { notFound } from "~/services/guard.server";
import { listVisitors } from "~/services/reports.server";
import { loadReportPage, reportSubscriptionAction } from "./__report-page.server";

// The visitor lists: new_visitors, unique_visitors, all_visitors, repeat_visitors (the overview and
// footfall have routes of their own); any other report name is a 404.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.header.title} report | Mlango` : "Reports | Mlango" },
];

function visitorReport(raw: string | undefined) {
  return isVisitorReport(raw) ? raw : notFound();
}

export async function loader(args: LoaderFunctionArgs) {
  const report = visitorReport(args.params.report);
  const { ctx, url, scope, header } = await loadReportPage(args, report);
  // Without view_clients the page shows how many visitors there were, not who: no rows, and no
  // search (a search's count would tell whether a given name or phone number visited).
  const personalData = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const list = parseListParams(url.searchParams);
  const listed = await listVisitors(scope, report, personalData ? list : { ...list, search: "" });
  const { total, capped } = listed;
  const rows = personalData ? listed.rows : [];
  const exportQuery = new URLSearchParams();
  for (const key of ["start", "end", "venue_id", "search"]) for (const v of url.searchParams.getAll(key)) exportQuery.append(key, v);
  return json({
    header,
    description: VISITOR_REPORT_DESCRIPTIONS[report],
    rows,
    total,
    capped,
    list,
    exportHref: `/${ctx.org.id}/reports/${reportFileName(report)}?${exportQuery}`,
    personalData,
  });
}

export function action(args: ActionFunctionArgs) {
  const report = visitorReport(args.params.report);
  return reportSubscriptionAction(args, report);
}

export default function VisitorReportPage() {
  const { header, description, rows, total, capped, list, exportHref, personalData } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div>
      <ReportHeader header={header} actionData={actionData} />
      <p className="mb-3 text-sm text-slate-600">{description}</p>
      <VisitorsTable
        orgId={header.orgId}
        rows={rows}
        total={total}
        capped={capped}
        list={list}
        exportHref={exportHref}
        personalData={personalData}
        key={header.report}
      />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
