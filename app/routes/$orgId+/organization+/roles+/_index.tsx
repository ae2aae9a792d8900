import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { confirmationNeeded } from "~/lib/confirm";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { ROLE_TYPES } from "~/lib/permissions";
import { removeRoleSchema } from "~/lib/schemas/access-control";
import { formatDate } from "~/lib/time";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { listRoles, removeRole } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Roles | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const list = parseListParams(new URL(request.url).searchParams);
  const { roles, total } = await listRoles(ctx, list);
  return json({
    roles: roles.map((r) => ({ ...r, created: formatDate(r.created_at, ctx.org.clock.offsetMs) })),
    total,
    list,
    orgId: ctx.org.id,
    canAdd: ctx.permissions.has("create_administrators"),
    canDelete: ctx.permissions.has("delete_roles"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const formData = await request.formData();
  if (formData.get("intent") !== "remove") return json({ message: "Unknown action." }, { status: 400 });
  requirePermission(ctx, "delete_roles");
  const submission = parseForm(formData, { schema: removeRoleSchema });
  if (submission.status !== "success") return json({ message: "Invalid request." }, { status: 400 });
  const roleId = submission.value.role_id;
  const ask = confirmationNeeded(formData, "remove", "Are you sure you want to remove this role?", { role_id: String(roleId ?? "") });
  if (ask) return json(ask);
  const { name, members } = await removeRole(ctx, roleId);
  const consequence =
    members === 0
      ? ""
      : ` ${members === 1 ? "One administrator" : `${members} administrators`} who had it no longer ${members === 1 ? "holds" : "hold"} its permissions until given another role.`;
  return redirectWithToast(request, `/${ctx.org.id}/organization/roles`, { type: "info", message: `Role ${name} removed.${consequence}` });
}

const roleTypeLabel = (value: string) => ROLE_TYPES.find((t) => t.value === value)?.label ?? value;

export default function Roles() {
  const { roles, total, list, orgId, canAdd, canDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Roles</h2>
        {canAdd ? (
          <Link to={`/${orgId}/organization/roles/new`} className="btn-primary">
            Add role
          </Link>
        ) : null}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/organization/roles`} />
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search roles by name" />
      <DataTable
        rows={roles}
        rowKey={(role) => role.id}
        empty={list.search ? "No role matches the search." : "No roles yet."}
        columns={[
          { header: "#", nowrap: true, cell: (_role, index) => rowNumber(list, index) },
          {
            header: "Name",
            cell: (role) => (
              <Link to={`/${orgId}/organization/roles/${role.id}`} className="link">
                {role.name}
              </Link>
            ),
          },
          { header: "Description", cell: (role) => role.description ?? "" },
          { header: "Role type", cell: (role) => roleTypeLabel(role.role_type) },
          { header: "Created", nowrap: true, cell: (role) => role.created },
        ]}
        actions={(role) => (
          <>
            <Link to={`/${orgId}/organization/roles/${role.id}`} className="btn-secondary">
              Details
            </Link>
            {canDelete ? (
              <ConfirmButton
                intent="remove"
                fields={{ role_id: role.id }}
                action={`/${orgId}/organization/roles?index`}
                message={`Are you sure you want to remove the role ${role.name}? Administrators who have it lose its permissions.`}
              >
                Remove
              </ConfirmButton>
            ) : null}
          </>
        )}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
