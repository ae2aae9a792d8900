import { sql, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";

// Connections, devices and customers lists at scale (docs/decisions/0006-connections-at-scale.md).
//
// search_text: the lower-cased fields a list's search box looks in, as one generated column. A
// search for three characters or more reads a trigram index of it: an FTS5 "trigram" table kept by
// triggers on SQLite, a pg_trgm GIN index on PostgreSQL (when the extension is available). Shorter
// terms scan search_text: on SQLite a virtual column stored only in an index with organization_id,
// so that scan reads the index alone.
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
  if (postgres) await postgresTrigrams(db);
  else await sqliteTrigrams(db);

  // The connections table's default list (authorized ones, newest first) and its capped count
  // read this index alone; (created_at, id) is also the export's keyset order. The trailing ids
  // let a search test each row's customer, device, venue and access point without reading it.
  await db.schema
    .createIndex("connections_org_authorized")
    .on("connections")
    .columns(["organization_id", "created_at", "id", "customer_id", "device_id", "venue_id", "access_point_id"])
    .where(sql.ref("authorized_at"), "is not", null)
    .execute();
  // "Who is online" in the same (created_at, id) order: with the core's (organization_id,
  // created_at desc) the index above gives the order and SQLite preferred it, then walked millions
  // of authorized rows to find the few online ones.
  await db.schema.dropIndex("connections_online").execute();
  await onlineIndex(db, ["organization_id", "created_at", "id"]);
}

const WATCHED = {
  customers: "identity, first_name, middle_name, last_name, phone_number, email_address",
  devices: "name, mac_address",
} as const;

/** {table}_search: an external-content FTS5 table over search_text, kept current by triggers. */
async function sqliteTrigrams(db: Kysely<any>): Promise<void> {
  for (const table of ["customers", "devices"] as const) {
    const fts = `${table}_search`;
    const remove = `insert into ${fts} (${fts}, rowid, search_text) values ('delete', old.id, old.search_text);`;
    const add = `insert into ${fts} (rowid, search_text) values (new.id, new.search_text);`;
    await sql
      .raw(`create virtual table ${fts} using fts5(search_text, content='${table}', content_rowid='id', tokenize='trigram')`)
      .execute(db);
    await sql.raw(`create trigger ${fts}_insert after insert on ${table} begin ${add} end`).execute(db);
    await sql.raw(`create trigger ${fts}_delete after delete on ${table} begin ${remove} end`).execute(db);
    await sql.raw(`create trigger ${fts}_update after update of ${WATCHED[table]} on ${table} begin ${remove} ${add} end`).execute(db);
    await sql.raw(`insert into ${fts} (${fts}) values ('rebuild')`).execute(db);
  }
}

async function postgresTrigrams(db: Kysely<any>): Promise<void> {
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return; // searches scan search_text instead
  await sql`create extension if not exists pg_trgm`.execute(db);
  for (const table of ["customers", "devices"] as const) {
    await sql.raw(`create index ${table}_search_trgm on ${table} using gin (search_text gin_trgm_ops)`).execute(db);
  }
}

function onlineIndex(db: Kysely<any>, columns: string[]) {
  return db.schema
    .createIndex("connections_online")
    .on("connections")
    .columns(columns)
    .where(sql.ref("authorized_at"), "is not", null)
    .where(sql.ref("ended_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_online").execute();
  await onlineIndex(db, ["organization_id", "created_at desc"]);
  await db.schema.dropIndex("connections_org_authorized").ifExists().execute();
  for (const table of ["customers", "devices"]) {
    if (isPostgres(db)) {
      await db.schema.dropIndex(`${table}_search_trgm`).ifExists().execute();
    } else {
      for (const event of ["insert", "delete", "update"]) await sql.raw(`drop trigger if exists ${table}_search_${event}`).execute(db);
      await sql.raw(`drop table if exists ${table}_search`).execute(db);
    }
    await db.schema.dropIndex(`${table}_org_search`).ifExists().execute();
    await sql`alter table ${sql.table(table)} drop column search_text`.execute(db);
  }
}
