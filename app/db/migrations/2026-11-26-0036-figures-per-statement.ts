import type { Kysely } from "kysely";
import { LOCAL_BUCKETS } from "./frozen/analytics-triggers-v1/sql";
import { analyticsTriggers, switchTriggers } from "./frozen/analytics-triggers-v1/triggers";

// Accounting at RADIUS rates on PostgreSQL (decision 0021): a batch's byte and end
// changes are summed per roll-up row by one trigger per statement instead of two upserts of each
// roll-up row per connection. The roll-ups hold the same sums, so nothing is rebuilt. SQLite keeps
// its row triggers (it has no statement triggers, and its row triggers are cheap).
const PER_STATEMENT = analyticsTriggers(LOCAL_BUCKETS, { presence: true, totals: true, figuresPerStatement: true });
// Migration 0035's triggers, which down() restores.
const ROW_BY_ROW = analyticsTriggers(LOCAL_BUCKETS, { presence: true, totals: true });

export async function up(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, ROW_BY_ROW, PER_STATEMENT);
}

export async function down(db: Kysely<any>): Promise<void> {
  await switchTriggers(db, PER_STATEMENT, ROW_BY_ROW);
}
