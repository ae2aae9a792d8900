import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { GROUP_MESSAGES } from "~/lib/schemas/groups";
import { requireOrg } from "~/services/guard.server";
import { listGroups, withCounts } from "~/services/marketing/groups.server";
import { deleteGroupAction, groupRow } from "./__groups.server";

export const meta: MetaFunction = () => [{ title: "Customer Groups | Mlango" }];

// groups (spec 3 §2 "Customer groups list"): Name (a link), Customers (counted now), Owner,
// Description; newest first, paged and searched by name. New Group needs create_groups, Delete
// delete_groups.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listGroups(ctx, list);
  return json({
    orgId: ctx.org.id,
    groups: (await withCounts(ctx, rows)).map(groupRow),
    total,
    list,
    can: { create: ctx.permissions.has("create_groups"), delete: ctx.permissions.has("delete_groups") },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const form = await request.formData();
  if (form.get("intent") !== "delete") return json({ message: "Unknown action." }, { status: 400 });
  return deleteGroupAction(request, ctx, parseId(form.get("id")), form);
}

const COLUMNS = ["Name", "Customers", "Owner", "Description"];

export default function Groups() {
  const { orgId, groups, total, list, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Customer Groups</h1>
        {can.create ? (
          <Link to={`/${orgId}/groups/new`} className="btn-primary">
            New Group
          </Link>
        ) : null}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/groups`} />
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search groups by name" />
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              {COLUMNS.map((c) => (
                <th key={c} className={c === "Customers" ? "text-right" : undefined}>
                  {c}
                </th>
              ))}
              {can.delete ? <th>
                <span className="sr-only">Actions</span>
              </th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {groups.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 2} className="text-center text-slate-500">
                  {list.search ? "No group matches the search." : "No customer groups yet."}
                </td>
              </tr>
            ) : null}
            {groups.map((g, index) => (
              <tr key={g.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/groups/${g.id}`} className="link">
                    {g.name}
                  </Link>
                </td>
                <td className="text-right" title={`Counted at ${g.countedAt} UTC`}>
                  {formatCount(g.customersCount)}
                </td>
                <td>{g.owner}</td>
                <td>{g.description ?? ""}</td>
                {can.delete ? (
                  <td className="text-right">
                    <ConfirmButton intent="delete" message={GROUP_MESSAGES.deleteQuestion} fields={{ id: g.id }} className="btn-danger text-xs">
                      Delete<span className="sr-only"> {g.name}</span>
                    </ConfirmButton>
                  </td>
                ) : null}
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
