import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { confirmationNeeded } from "~/lib/confirm";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { ROLE_TYPES } from "~/lib/permissions";
import { removeRoleSchema } from "~/lib/schemas/access-control";
import { formatUtcDate } from "~/lib/time";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { listRoles, removeRole } from "~/services/roles.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Roles | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const list = parseListParams(new URL(request.url).searchParams);
  const { roles, total } = await listRoles(ctx, list);
  return json({
    roles: roles.map((r) => ({ ...r, created: formatUtcDate(r.created_at) })),
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
  const submission = parseWithZod(formData, { schema: removeRoleSchema });
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
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              <th>Name</th>
              <th>Description</th>
              <th>Role type</th>
              <th>Created</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {roles.length === 0 ? (
              <tr>
                <td colSpan={6} className="text-center text-slate-500">
                  {list.search ? "No role matches the search." : "No roles yet."}
                </td>
              </tr>
            ) : null}
            {roles.map((role, index) => (
              <tr key={role.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/organization/roles/${role.id}`} className="link">
                    {role.name}
                  </Link>
                </td>
                <td>{role.description ?? ""}</td>
                <td>{roleTypeLabel(role.role_type)}</td>
                <td>{role.created}</td>
                <td className="flex gap-2">
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
                </td>
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
