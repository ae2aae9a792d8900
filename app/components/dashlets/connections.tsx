import { ConnectionsTable } from "~/components/connections/connections-table";
import { DashletCard } from "./dashlet-card";
import type { ConnectionsDashletData, DashletEnv, DashletProps } from "~/lib/dashlet-data";

const PAGE_SIZES = [5] as const;

function ConnectionsDashlet({
  title,
  data,
  env,
  prefix,
}: {
  title: string;
  data: ConnectionsDashletData;
  env: DashletEnv;
  prefix: string;
}) {
  if (!data.allowed) {
    return (
      <DashletCard title={title}>
        <p className="text-sm text-slate-500">Viewing connections needs the view_clients permission.</p>
      </DashletCard>
    );
  }
  return (
    <section className="card min-w-0 p-4">
      <ConnectionsTable
        title={title}
        page={data.page}
        params={data.params}
        canClose={env.canCloseConnections}
        compact
        prefix={prefix}
        pageSizes={PAGE_SIZES}
      />
    </section>
  );
}

/** Who is online: connections authorized and not ended, 5 a page. */
export function WhoIsOnlineDashlet({ data, env }: DashletProps<"who_is_online">) {
  return <ConnectionsDashlet title="Who is online" data={data} env={env} prefix="online_" />;
}

/** Recent connections: authorized connections of the date range, newest first, 5 a page. */
export function RecentConnectionsDashlet({ data, env }: DashletProps<"recent_connections">) {
  return <ConnectionsDashlet title="Recent connections" data={data} env={env} prefix="recent_" />;
}
