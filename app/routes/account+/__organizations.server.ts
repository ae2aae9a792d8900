// The organisation as the Account service API answers it
// (docs/guide/organizations.md#organisation-form), shared by GET/POST organizations and
// GET/PUT organizations/{id}. Times are ISO strings.
import { isoTime } from "~/services/api.server";
import type { OrgContext } from "~/services/guard.server";
import { getOrganizationDetails, listOrganizationVenues } from "~/services/organizations.server";

interface OrganizationRow {
  id: number;
  name: string;
  address: string | null;
  email_address: string | null;
  phone_number: string | null;
  more_info: string | null;
  created_at: number;
  updated_at: number;
}

/** One organisation of the user's list: its fields, the membership's status and im_admin. */
export function organizationJson(row: OrganizationRow, membership: { status: string; isOwner: boolean }) {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    email_address: row.email_address,
    phone_number: row.phone_number,
    more_info: row.more_info,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    admin_status: membership.status,
    im_admin: membership.isOwner,
  };
}

/** The organisation of the guard's context with its counts and venues (id and name, by name). */
export async function organizationDetailsJson(ctx: OrgContext) {
  const [{ counts, ...org }, venues] = await Promise.all([getOrganizationDetails(ctx), listOrganizationVenues(ctx)]);
  return { ...organizationJson(org, { status: "Accepted", isOwner: ctx.isOwner }), ...counts, venues };
}
