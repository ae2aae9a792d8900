import { bucketLabel, LineChart } from "~/components/charts";
import { toGigabytes } from "~/lib/format";
import { DashletCard } from "./dashlet-card";
import { chartWidth } from "./sizes";
import type { DashletProps } from "~/lib/dashlet-data";
import { useOrgClock } from "~/components/ui/time";

/** Connections trend: guests (authorized connections) and bandwidth in GB per hour or day. */
export function ConnectionsGraphDashlet({ data, env }: DashletProps<"connections_graph">) {
  const { offsetMs } = useOrgClock();
  const x = (t: number) => bucketLabel(t, data.bucket, offsetMs);
  const width = chartWidth(env.width);
  return (
    <DashletCard title="Connections trend">
      <div className="space-y-6">
        <LineChart
          title="Guests count"
          width={width}
          height={240}
          yLegend="Guests"
          series={[
            { id: "Guests", points: data.points.map((p) => ({ x: x(p.time), y: p.connections })) },
            { id: "Footfall", points: data.points.map((p) => ({ x: x(p.time), y: p.footfall })) },
          ]}
        />
        <LineChart
          title="Bandwidth usage"
          width={width}
          height={240}
          yLegend="GB"
          format={(n) => n.toFixed(2)}
          series={[
            { id: "Download", points: data.points.map((p) => ({ x: x(p.time), y: toGigabytes(p.download) })) },
            { id: "Upload", points: data.points.map((p) => ({ x: x(p.time), y: toGigabytes(p.upload) })) },
          ]}
        />
      </div>
    </DashletCard>
  );
}
