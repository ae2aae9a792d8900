import { PieChart } from "~/components/charts";
import type { DeviceUsage } from "~/lib/analytics";
import { authModeLabel } from "~/lib/auth-modes";
import { exportHref, type ExportFile } from "~/lib/dashboard-exports";
import { DashletCard, ExportLink } from "./dashlet-card";
import { pieWidth } from "./sizes";
import type { DashletEnv, DashletProps } from "~/lib/dashlet-data";

function SharePie({
  title,
  slices,
  file,
  doughnut,
  env,
}: {
  title: string;
  slices: { label: string; value: number }[];
  file: ExportFile;
  doughnut: boolean;
  env: DashletEnv;
}) {
  const width = pieWidth(env.width);
  return (
    <DashletCard title={title} actions={<ExportLink href={exportHref(env.orgId, file, env.filterQuery)} />}>
      {/* The card carries the heading; the chart's own title names what the slices count. */}
      <PieChart title={`${title} by connections`} slices={slices} doughnut={doughnut} width={width} height={Math.round(width * 0.65)} />
    </DashletCard>
  );
}

const deviceSlices = (rows: readonly DeviceUsage[]) => rows.map((r) => ({ label: r.key, value: r.connections }));

export function AuthModePieDashlet({ data, env }: DashletProps<"auth_mode_pie">) {
  return (
    <SharePie
      title="Authorization modes"
      file="auth_mode_summary.csv"
      doughnut={false}
      env={env}
      slices={data.map((r) => ({ label: authModeLabel(r.mode), value: r.connections }))}
    />
  );
}

export function DeviceTypePieDashlet({ data, env }: DashletProps<"device_type_pie">) {
  return <SharePie title="Device types" file="device_type_summary.csv" doughnut={false} env={env} slices={deviceSlices(data)} />;
}

export function OsDoughnutDashlet({ data, env }: DashletProps<"os_doughnut">) {
  return <SharePie title="Operating systems" file="os_summary.csv" doughnut env={env} slices={deviceSlices(data)} />;
}

export function BrandDoughnutDashlet({ data, env }: DashletProps<"device_brand_doughnut">) {
  return <SharePie title="Device brands" file="device_brand_summary.csv" doughnut env={env} slices={deviceSlices(data)} />;
}

export function BrowserDoughnutDashlet({ data, env }: DashletProps<"browser_doughnut">) {
  return <SharePie title="Browsers" file="browser_summary.csv" doughnut env={env} slices={deviceSlices(data)} />;
}
