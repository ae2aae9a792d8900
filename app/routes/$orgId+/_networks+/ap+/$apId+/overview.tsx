import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { lastDays } from "~/lib/date-range";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { makeLabel } from "~/lib/schemas/access-points";
import { accessPointOverview, getAccessPoint } from "~/services/access-points.server";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Access point overview | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  // The access point pages look at one year (docs/guide/access-points.md#access-point-details).
  const range = lastDays(365, ctx.org.clock);
  return json({
    ap: { make: ap.make, serial_number: ap.serial_number, description: ap.description },
    range: { start: range.start, end: range.end },
    overview: await accessPointOverview(ctx, ap.mac_address, range),
  });
}

export default function AccessPointOverview() {
  const { ap, range, overview } = useLoaderData<typeof loader>();
  const cards = [
    { label: "Devices", value: overview.devices },
    { label: "Unique Clients", value: overview.uniqueClients },
    { label: "Total Connections", value: overview.totalConnections },
    { label: "Online", value: overview.online },
  ];
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-500">
        From {range.start} to {range.end} (the last year); Online is now.
      </p>
      <dl className="grid grid-cols-2 gap-4 xl:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-500">{c.label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900">{formatCount(c.value)}</dd>
          </div>
        ))}
      </dl>
      <section className="card">
        <h2 className="mb-2 text-lg font-semibold">Hardware</h2>
        <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-500">Make</dt>
          <dd>{makeLabel(ap.make)}</dd>
          <dt className="text-slate-500">Serial number</dt>
          <dd>{ap.serial_number}</dd>
          <dt className="text-slate-500">Description</dt>
          <dd>{ap.description ?? "—"}</dd>
        </dl>
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
