// What the group screens share: the group id of the URL, a group as the list and the header show it,
// and the delete action (list and settings).
import { json } from "@remix-run/node";
import { confirmationNeeded } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { GROUP_MESSAGES } from "~/lib/schemas/groups";
import { formatDateTime } from "~/lib/time";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { deleteGroup, getGroup, ownerName, type GroupRecord } from "~/services/marketing/groups.server";
import { redirectWithToast } from "~/services/session.server";

export const groupIdParam = (params: { id?: string }) => parseId(params.id);

export const groupBase = (orgId: number, groupId: number) => `/${orgId}/groups/${groupId}`;

export function groupRow(g: GroupRecord & { customersCount: number; countedAt: number }, offsetMs: number) {
  const countedAt = formatDateTime(g.countedAt, offsetMs).slice(11);
  return { id: g.id, name: g.name, description: g.description, owner: ownerName(g), customersCount: g.customersCount, countedAt };
}

/** Delete, after 'Are you sure you want to delete this customers group?'; back to the list. */
export async function deleteGroupAction(request: Request, ctx: OrgContext, groupId: number | null, form: FormData) {
  requirePermission(ctx, "delete_groups");
  const group = await getGroup(ctx, groupId);
  const ask = confirmationNeeded(form, "delete", GROUP_MESSAGES.deleteQuestion, { id: group.id });
  if (ask) return json(ask);
  await deleteGroup(ctx, group.id);
  return redirectWithToast(request, `/${ctx.org.id}/groups`, GROUP_MESSAGES.deleted);
}
