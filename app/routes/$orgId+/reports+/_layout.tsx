import { Outlet, useParams } from "@remix-run/react";
import { ReportTabs } from "~/components/reports/report-header";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";

// The reports (docs/guide/reports.md#routes) under one tab bar. No loader: every report page runs
// its own guard, and the tabs need only the organisation id of the URL.
export default function ReportsLayout() {
  const { orgId } = useParams();
  return (
    <div className="mx-auto max-w-7xl">
      <ReportTabs orgId={Number(orgId)} />
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
