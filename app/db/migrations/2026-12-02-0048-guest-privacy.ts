import type { Kysely } from "kysely";

// What a guest is told and asked (issue 35, decision 0080). Per network, which sign-up fields are
// asked ('required', 'optional' or 'off'; names are first and last name together); per
// organisation, how many days after a guest's last visit their personal data is kept; per customer,
// when it was anonymised and when the guest asked for it.
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ["signup_phone", "signup_email", "signup_names"]) {
    await db.schema
      .alterTable("venues")
      .addColumn(column, "text", (c) => c.notNull().defaultTo("required"))
      .execute();
  }
  await db.schema
    .alterTable("organizations")
    .addColumn("retention_days", "integer", (c) => c.notNull().defaultTo(730))
    .execute();
  await db.schema.alterTable("customers").addColumn("anonymised_at", "bigint").execute();
  await db.schema.alterTable("customers").addColumn("erasure_requested_at", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("customers").dropColumn("erasure_requested_at").execute();
  await db.schema.alterTable("customers").dropColumn("anonymised_at").execute();
  await db.schema.alterTable("organizations").dropColumn("retention_days").execute();
  for (const column of ["signup_names", "signup_email", "signup_phone"]) await db.schema.alterTable("venues").dropColumn(column).execute();
}
