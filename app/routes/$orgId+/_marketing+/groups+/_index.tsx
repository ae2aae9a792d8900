import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { GROUP_MESSAGES } from "~/lib/schemas/groups";
import { requireOrg } from "~/services/guard.server";
import { listGroups, withCounts } from "~/services/marketing/groups.server";
import { formatOffset } from "~/lib/time-zone";
import { deleteGroupAction, groupRow } from "./__groups.server";

export const meta: MetaFunction = () => [{ title: "Customer Groups | Mlango" }];

// groups (docs/guide/marketing.md#customer-groups): Name (a link), Customers (counted now), Owner,
// Description; newest first, paged and searched by name. New Group needs create_groups, Delete
// delete_groups.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listGroups(ctx, list);
  return json({
    zone: formatOffset(ctx.org.clock.offsetMs),
    orgId: ctx.org.id,
    groups: (await withCounts(ctx, rows)).map((g) => groupRow(g, ctx.org.clock.offsetMs)),
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

export default function Groups() {
  const { orgId, zone, groups, total, list, can } = useLoaderData<typeof loader>();
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
      <DataTable
        rows={groups}
        rowKey={(g) => g.id}
        empty={list.search ? "No group matches the search." : "No customer groups yet."}
        columns={[
          { header: "#", cell: (_g, index) => rowNumber(list, index) },
          {
            header: "Name",
            cell: (g) => (
              <Link to={`/${orgId}/groups/${g.id}`} className="link">
                {g.name}
              </Link>
            ),
          },
          {
            header: "Customers",
            numeric: true,
            cell: (g) => <span title={`Counted at ${g.countedAt} (${zone})`}>{formatCount(g.customersCount)}</span>,
          },
          { header: "Owner", cell: (g) => g.owner },
          { header: "Description", cell: (g) => g.description ?? "" },
        ]}
        actions={
          can.delete
            ? (g) => (
                <ConfirmButton intent="delete" message={GROUP_MESSAGES.deleteQuestion} fields={{ id: g.id }} className="btn-danger text-xs">
                  Delete<span className="sr-only"> {g.name}</span>
                </ConfirmButton>
              )
            : undefined
        }
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
