import { type Kysely } from "kysely";
import { cascade, withId, withTimestamps } from "./_dialect";

// Marketing: customer groups with the spec's filter JSON, broadcasts (e-mail and
// SMS content), their schedules, one delivery row per (schedule, customer, channel) so a dispatch
// never sends twice, and each organisation's SMS provider settings.
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("customer_groups"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("filters", "text", (c) => c.notNull()) // the spec's group filter structure, as JSON
      .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null")),
  ).execute();
  await db.schema.createIndex("customer_groups_org_name").on("customer_groups").columns(["organization_id", "name"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("broadcasts"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("title", "text", (c) => c.notNull()) // also the e-mail's subject
      .addColumn("description", "text")
      .addColumn("sms", "text") // the SMS text
      .addColumn("email_html", "text")
      .addColumn("email_text", "text") // the plain-text part
      .addColumn("email_design", "text") // a visual designer's JSON, when one made the HTML
      .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null")),
  ).execute();
  await db.schema.createIndex("broadcasts_org_created").on("broadcasts").columns(["organization_id", "created_at"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("broadcast_schedules"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("broadcast_id", "integer", (c) => cascade(c.notNull().references("broadcasts.id")))
      .addColumn("channel", "text", (c) => c.notNull()) // BOTH | SMS | EMAIL
      .addColumn("dispatch_at", "bigint", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull()) // Scheduled | Sending | Sent | Failed | Cancelled
      .addColumn("started_at", "bigint")
      .addColumn("finished_at", "bigint")
      .addColumn("error", "text") // why it failed, in words an operator can act on
      .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null")),
  ).execute();
  await db.schema.createIndex("broadcast_schedules_broadcast").on("broadcast_schedules").columns(["broadcast_id", "dispatch_at"]).execute();
  await db.schema.createIndex("broadcast_schedules_due").on("broadcast_schedules").columns(["status", "dispatch_at"]).execute();

  // The groups a schedule was made for; the name is kept so the list still reads after a group is deleted.
  await db.schema
    .createTable("broadcast_schedule_groups")
    .addColumn("schedule_id", "integer", (c) => cascade(c.notNull().references("broadcast_schedules.id")))
    .addColumn("group_id", "integer", (c) => c.references("customer_groups.id").onDelete("set null"))
    .addColumn("group_name", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("broadcast_schedule_groups_schedule").on("broadcast_schedule_groups").columns(["schedule_id"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("broadcast_deliveries"), true)
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("schedule_id", "integer", (c) => cascade(c.notNull().references("broadcast_schedules.id")))
      .addColumn("customer_id", "integer", (c) => c.notNull()) // no foreign key: the record outlives the customer
      .addColumn("channel", "text", (c) => c.notNull()) // SMS | EMAIL
      .addColumn("address", "text", (c) => c.notNull()) // the phone number or e-mail address used
      .addColumn("status", "text", (c) => c.notNull()) // queued | sent | delivered | failed | bounced | opted_out
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "bigint")
      .addColumn("provider_message_id", "text")
      .addColumn("cost", "text") // as the provider reports it ("KES 0.8000")
      .addColumn("error", "text")
      .addColumn("sent_at", "bigint")
      .addColumn("delivered_at", "bigint"),
  ).execute();
  // Exactly once: a second worker, or the same one after a crash, finds the row and does not send again.
  await db.schema
    .createIndex("broadcast_deliveries_once")
    .on("broadcast_deliveries")
    .columns(["schedule_id", "customer_id", "channel"])
    .unique()
    .execute();
  await db.schema.createIndex("broadcast_deliveries_status").on("broadcast_deliveries").columns(["schedule_id", "status"]).execute();
  await db.schema.createIndex("broadcast_deliveries_provider_id").on("broadcast_deliveries").columns(["provider_message_id"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("sms_settings"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().unique().references("organizations.id")))
      .addColumn("provider", "text", (c) => c.notNull()) // africastalking
      .addColumn("username", "text", (c) => c.notNull())
      .addColumn("api_key", "text", (c) => c.notNull()) // ciphertext (encryptSecret)
      .addColumn("sender_id", "text") // the `from` short code or alphanumeric sender; null: the provider's default
      .addColumn("messages_per_second", "integer", (c) => c.notNull())
      .addColumn("callback_key", "text", (c) => c.notNull().unique()), // path segment of the delivery-report and inbound URLs
  ).execute();

  // Opting out (an unsubscribe link, a STOP reply) clears marketing_opt_in_at and is dated here; only a
  // new, explicit opt-in on the connect page sets marketing_opt_in_at again.
  await db.schema.alterTable("customers").addColumn("marketing_opted_out_at", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("customers").dropColumn("marketing_opted_out_at").execute();
  for (const table of [
    "sms_settings",
    "broadcast_deliveries",
    "broadcast_schedule_groups",
    "broadcast_schedules",
    "broadcasts",
    "customer_groups",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
