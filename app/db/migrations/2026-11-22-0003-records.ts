import { sql, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";

// Connections, devices and customers lists at scale (docs/decisions/0005-connections-at-scale.md).
//
// search_text: the lower-cased fields a list's search box looks in, as one generated column, so a
// search tests one value per row. On SQLite it is a virtual column stored only in an index with
// organization_id, so a search reads that index and never the table; PostgreSQL stores it.
const CUSTOMER_SEARCH_TEXT = sql`lower(
  identity || ' ' || coalesce(first_name || ' ', '') || coalesce(middle_name || ' ', '') || coalesce(last_name || ' ', '')
  || coalesce(phone_number || ' ', '') || coalesce(email_address, '')
)`;
const DEVICE_SEARCH_TEXT = sql`lower(coalesce(name || ' ', '') || mac_address)`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [table, expression] of [
    ["customers", CUSTOMER_SEARCH_TEXT],
    ["devices", DEVICE_SEARCH_TEXT],
  ] as const) {
    await sql`alter table ${sql.table(table)} add column search_text text generated always as (${expression}) ${sql.raw(postgres ? "stored" : "virtual")}`.execute(
      db,
    );
    if (!postgres) {
      await db.schema.createIndex(`${table}_org_search`).on(table).columns(["organization_id", "search_text"]).execute();
    }
  }

  // The connections table's default list (authorized ones, newest first) and its capped count
  // read this index alone; (created_at, id) is also the export's keyset order.
  await db.schema
    .createIndex("connections_org_authorized")
    .on("connections")
    .columns(["organization_id", "created_at", "id"])
    .where(sql.ref("authorized_at"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_org_authorized").ifExists().execute();
  for (const table of ["customers", "devices"]) {
    await db.schema.dropIndex(`${table}_org_search`).ifExists().execute();
    await sql`alter table ${sql.table(table)} drop column search_text`.execute(db);
  }
}
