import { sql, type Kysely } from "kysely";
import { isPostgres } from "./_dialect";
import { analyticsTriggers, postgresTriggerDdl, sqliteTriggerDdl } from "./frozen/analytics-triggers-v1/triggers";
import { UTC_BUCKETS } from "./frozen/analytics-triggers-v1/sql";

// The connections' dimensions update trigger is renamed so PostgreSQL fires it right after the usage
// trigger (it fires a table's triggers in name order): every trigger then locks the roll-up rows in
// the insert trigger's order, and concurrent guests no longer deadlock (decision 0014). A database
// made after the rename already has the new name; only an older one is changed.
const OLD = "analytics_connection_dimensions";
const NEW = "analytics_connection_usage_dimensions";

export async function up(db: Kysely<any>): Promise<void> {
  await rename(db, OLD, NEW);
}

// Nothing to undo: the old name only made PostgreSQL fire the triggers in a deadlocking order, and
// migration 0004's down() drops the trigger by its new name. Renaming it back left, on a database
// 0004 had built with the new name, a trigger 0004's down() did not know, which then failed every
// later down() on SQLite (it names tables that were gone).
export async function down(): Promise<void> {}

async function rename(db: Kysely<any>, from: string, to: string): Promise<void> {
  const postgres = isPostgres(db);
  const exists = postgres
    ? await sql`select 1 from pg_trigger where tgname = ${from}`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'trigger' and name = ${from}`.execute(db);
  if (exists.rows.length === 0) return;
  const trigger = analyticsTriggers(UTC_BUCKETS).find((t) => t.name === NEW)!;
  await sql.raw(`drop trigger ${from}${postgres ? " on connections" : ""}`).execute(db);
  if (postgres) await sql.raw(`drop function ${from}()`).execute(db);
  const renamed = { ...trigger, name: to };
  for (const statement of postgres ? postgresTriggerDdl(renamed) : [sqliteTriggerDdl(renamed)]) await sql.raw(statement).execute(db);
}
