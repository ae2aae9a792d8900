import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseListParams } from "~/lib/pagination";
import { VENUE_PAGE_SIZES } from "~/lib/schemas/venues";
import { requireOrg } from "~/services/guard.server";
import { listVenues } from "~/services/venues.server";

export const meta: MetaFunction = () => [{ title: "Networks | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const list = parseListParams(new URL(request.url).searchParams, VENUE_PAGE_SIZES, 10);
  const { venues, total } = await listVenues(ctx, list);
  return json({
    venues: venues.map((v) => ({
      id: v.id,
      name: v.name,
      address: v.address,
      email: v.email,
      phone_number: v.phone_number,
      accessPointsCount: v.accessPointsCount,
      customersCount: v.customersCount,
      connectionsCount: v.connectionsCount,
      onlineConnectionsCount: v.onlineConnectionsCount,
    })),
    total,
    list,
    orgId: ctx.org.id,
    canCreate: ctx.permissions.has("create_networks"),
  });
}

export default function Venues() {
  const { venues, total, list, orgId, canCreate } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Networks</h1>
        {canCreate ? (
          <Link to={`/${orgId}/venue/create`} className="btn-primary">
            New Network
          </Link>
        ) : null}
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} pageSizes={VENUE_PAGE_SIZES} searchLabel="Search networks" />
      <DataTable
        rows={venues}
        rowKey={(v) => v.id}
        empty={list.search ? "No network matches the search." : "No networks yet."}
        columns={[
          {
            header: "Name",
            cell: (v) => (
              <Link to={`/${orgId}/venues/${v.id}`} className="link">
                {v.name}
              </Link>
            ),
          },
          { header: "Address", cell: (v) => v.address },
          { header: "Email", long: true, cell: (v) => v.email ?? "" },
          { header: "Phone number", nowrap: true, cell: (v) => v.phone_number ?? "" },
          { header: "Access points", numeric: true, cell: (v) => formatCount(v.accessPointsCount) },
          { header: "Clients", numeric: true, cell: (v) => formatCount(v.customersCount) },
          { header: "Connections", numeric: true, cell: (v) => formatCount(v.connectionsCount) },
          { header: "Online", numeric: true, cell: (v) => formatCount(v.onlineConnectionsCount) },
        ]}
      />
      <p className="mt-2 text-xs text-slate-500">Clients and Connections count all history; Online is now.</p>
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
