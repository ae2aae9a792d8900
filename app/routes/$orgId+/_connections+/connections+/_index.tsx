// /{orgId}/connections (menu "Connections", view_clients): the organisation's connections with a
// status filter (authorized by default, online, all), search, paging, Close and Export CSV.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConnectionsTable } from "~/components/connections/connections-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { CONNECTION_STATUSES, connectionsCsvHref, parseConnectionFilter, type ConnectionStatus } from "~/lib/connections";
import { parseListParams } from "~/lib/pagination";
import { listConnections } from "~/services/connections.server";
import { notFound, requireOrg } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Connections | Mlango" }];

const TITLES: Record<ConnectionStatus, string> = {
  authorized: "Authorized connections",
  online: "Online connections",
  all: "All connections",
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const searchParams = new URL(request.url).searchParams;
  const list = parseListParams(searchParams);
  const parsed = parseConnectionFilter(searchParams, ctx.org.clock.offsetMs);
  if (!parsed.ok) notFound();
  const page = await listConnections(ctx, parsed.filter, list);
  return json({
    page,
    list,
    status: parsed.status,
    canClose: ctx.permissions.has("edit_connections"),
    exportHref: connectionsCsvHref(ctx.org.id, parsed.filter, list.search),
  });
}

export default function Connections() {
  const { page, list, status, canClose, exportHref } = useLoaderData<typeof loader>();
  return (
    <ConnectionsTable
      title={TITLES[status]}
      page={page}
      params={list}
      canClose={canClose}
      exportHref={exportHref}
      filters={<StatusFilter status={status} />}
      filterNames={["status"]}
    />
  );
}

/** The status select and its Filter button, in the list's GET form (page size and search go with it). */
function StatusFilter({ status }: { status: ConnectionStatus }) {
  return (
    <>
      <label className="flex items-center gap-2">
        Status
        <select name="status" defaultValue={status} className="input w-auto">
          {CONNECTION_STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn-secondary">
        Filter
      </button>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
