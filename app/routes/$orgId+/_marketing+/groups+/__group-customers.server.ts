// A group's Customers section (the default, groups/{id} and groups/{id}/customers): its customers
// now, paged, newest first. Names and contacts need view_clients; without it, only how many.
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { parseListParams } from "~/lib/pagination";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { requireOrg } from "~/services/guard.server";
import { getGroup, groupMembers, membersCount } from "~/services/marketing/groups.server";
import { groupIdParam } from "./__groups.server";

export async function groupCustomersLoader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const group = await getGroup(ctx, groupIdParam(params));
  const list = parseListParams(new URL(request.url).searchParams);
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const [total, rows] = await Promise.all([membersCount(ctx, group), personal ? groupMembers(ctx, group, list) : Promise.resolve(null)]);
  return json({ total, rows, list, broken: group.filters === null });
}
