import { db } from "~/db/db.server";

export interface OrganizationInput {
  name: string;
  address?: string | null;
  email?: string | null;
  phone_number?: string | null;
  more_info?: string | null;
}

/** Creates an organisation; its creator becomes its administrator (im_admin), accepted at once. */
export async function createOrganization(userId: number, input: OrganizationInput) {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({
        name: input.name,
        address: input.address ?? null,
        email_address: input.email ?? null,
        phone_number: input.phone_number ?? null,
        more_info: input.more_info ?? null,
        created_by_user_id: userId,
        created_at: now,
        updated_at: now,
      })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: userId,
        role_id: null,
        invited_email_address: null,
        status: "Accepted",
        is_owner: 1,
        invite_token_hash: null,
        invited_by_user_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return org;
  });
}
