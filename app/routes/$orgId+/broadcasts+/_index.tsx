import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { hasAny } from "~/lib/permissions";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { formatUtcDateTime } from "~/lib/time";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, listBroadcasts, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";

export const meta: MetaFunction = () => [{ title: "Broadcast messages | Mlango" }];

// broadcasts (spec 3 §2): the organisation's broadcasts, newest first, paged and searched by title.
// New Message needs create_broadcasts or create_groups (§6).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listBroadcasts(ctx, list);
  return json({
    orgId: ctx.org.id,
    list,
    total,
    broadcasts: rows.map((b) => ({
      id: b.id,
      title: b.title,
      description: b.description,
      created_on: formatUtcDateTime(b.created_at),
      owner: b.owner ? `${b.owner.first_name} ${b.owner.last_name}`.trim() : "—",
    })),
    canCreate: hasAny(ctx.permissions, ...EDIT_BROADCASTS),
  });
}

const COLUMNS = ["Title", "Created on (UTC)", "Owner", "Description"];

export default function Broadcasts() {
  const { orgId, list, total, broadcasts, canCreate } = useLoaderData<typeof loader>();
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
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              {COLUMNS.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {broadcasts.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 1} className="text-center text-slate-500">
                  {list.search ? "No broadcast matches the search." : "No broadcasts yet."}
                </td>
              </tr>
            ) : null}
            {broadcasts.map((b, index) => (
              <tr key={b.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/broadcast/${b.id}`} className="link">
                    {b.title}
                  </Link>
                </td>
                <td className="whitespace-nowrap">{b.created_on}</td>
                <td>{b.owner}</td>
                <td>{b.description ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
