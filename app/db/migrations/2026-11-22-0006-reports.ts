import type { Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Report subscriptions (docs/guide/reports.md#report-subscriptions, docs/guide/api.md#data-api-graphql)
// and their deliveries, which double as the scheduler's claim: one row per subscription and UTC day,
// so two app instances can never both send the same day's report (unique constraint), and a failed
// send keeps its row with a retry time.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("report_subscriptions"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("user_id", "integer", (c) => cascade(c.notNull().references("users.id")))
      .addColumn("report", "text", (c) => c.notNull())
      // Hour of the UTC day, 1–24; 24 is midnight at the end of the day.
      .addColumn("send_at", "integer", (c) => c.notNull())
      // The first UTC day (YYYY-MM-DD) to deliver: a subscription made after today's hour starts tomorrow.
      .addColumn("first_day", "text", (c) => c.notNull())
      // The last UTC day whose report was delivered (for display).
      .addColumn("last_sent_on", "text")
      .addUniqueConstraint("report_subscriptions_org_user_report", ["organization_id", "user_id", "report"]),
  ).execute();
  await db.schema.createIndex("report_subscriptions_send_at").on("report_subscriptions").column("send_at").execute();
  await db.schema.createIndex("report_subscriptions_user").on("report_subscriptions").column("user_id").execute();

  await withId(db, db.schema.createTable("report_deliveries"))
    .addColumn("subscription_id", "integer", (c) => cascade(c.notNull().references("report_subscriptions.id")))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // sending | sent | failed
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("claim_token", "text")
    .addColumn("claimed_at", "bigint")
    .addColumn("next_attempt_at", "bigint")
    .addColumn("last_error", "text")
    .addColumn("sent_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("report_deliveries_subscription_day", ["subscription_id", "day"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("report_deliveries").ifExists().execute();
  await db.schema.dropTable("report_subscriptions").ifExists().execute();
}
