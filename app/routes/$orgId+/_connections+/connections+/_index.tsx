// /{orgId}/connections (menu "Connections", view_clients): the organisation's connections with a
// status filter (authorized by default, online, all), search, paging, Close and Export CSV.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
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
      toolbar={<StatusFilter status={status} search={list.search} pageSize={list.pageSize} />}
    />
  );
}

/** A GET form, so the filter is in the URL and works without JavaScript. */
function StatusFilter({ status, search, pageSize }: { status: ConnectionStatus; search: string; pageSize: number }) {
  return (
    <Form method="get" className="flex items-center gap-2 text-sm">
      {search ? <input type="hidden" name="search" value={search} /> : null}
      <input type="hidden" name="per_page" value={pageSize} />
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
    </Form>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
