import type { Kysely } from "kysely";

// Guest pages in Kiswahili and English (issue 35, decision 0079): a network's default language for
// its guest pages, used when the guest's browser names neither (Accept-Language) and the guest has
// not chosen one on the page. 'en' or 'sw'.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("venues")
    .addColumn("guest_language", "text", (c) => c.notNull().defaultTo("en"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("venues").dropColumn("guest_language").execute();
}
