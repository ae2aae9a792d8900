import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { hasAny } from "~/lib/permissions";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { formatDateTime } from "~/lib/time";
import { formatOffset } from "~/lib/time-zone";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, listBroadcasts, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";

export const meta: MetaFunction = () => [{ title: "Broadcast messages | Mlango" }];

// broadcasts (docs/guide/marketing.md#broadcasts): the organisation's broadcasts, newest first,
// paged and searched by title. New Message needs create_broadcasts or create_groups
// (docs/guide/access-control.md#what-each-permission-shows).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listBroadcasts(ctx, list);
  return json({
    orgId: ctx.org.id,
    zone: formatOffset(ctx.org.clock.offsetMs),
    list,
    total,
    broadcasts: rows.map((b) => ({
      id: b.id,
      title: b.title,
      description: b.description,
      created_on: formatDateTime(b.created_at, ctx.org.clock.offsetMs),
      owner: b.owner ? `${b.owner.first_name} ${b.owner.last_name}`.trim() : "—",
    })),
    canCreate: hasAny(ctx.permissions, ...EDIT_BROADCASTS),
  });
}

export default function Broadcasts() {
  const { orgId, list, total, broadcasts, canCreate, zone } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Broadcast messages</h1>
        {canCreate ? (
          <Link to={`/${orgId}/broadcasts/create`} className="btn-primary">
            New Message
          </Link>
        ) : null}
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search broadcasts by title" />
      <DataTable
        rows={broadcasts}
        rowKey={(b) => b.id}
        empty={list.search ? "No broadcast matches the search." : "No broadcasts yet."}
        columns={[
          { header: "#", cell: (_b, index) => rowNumber(list, index) },
          {
            header: "Title",
            cell: (b) => (
              <Link to={`/${orgId}/broadcast/${b.id}`} className="link">
                {b.title}
              </Link>
            ),
          },
          { header: `Created on (${zone})`, nowrap: true, cell: (b) => b.created_on },
          { header: "Owner", cell: (b) => b.owner },
          { header: "Description", cell: (b) => b.description ?? "" },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
