// The demo's marketing set-up, made through the marketing services as an operator would: SMS
// settings with the fake Africa's Talking's demo credentials (scripts/fakes/africastalking.ts, which
// `npm run demo` starts and points AFRICASTALKING_URL at), two customer groups, and a broadcast with
// its e-mail and SMS written, ready to schedule. Half the generated customers gave marketing consent
// on the connect page (the generator writes no consent), so a broadcast has someone to reach.
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { broadcastEmailSchema, broadcastSchema, broadcastSmsSchema } from "~/lib/schemas/broadcasts";
import { groupSchema } from "~/lib/schemas/groups";
import { groupFiltersSchema } from "~/lib/schemas/group-filters";
import { smsSettingsSchema } from "~/lib/schemas/sms-settings";
import type { OrgContext } from "~/services/guard.server";
import { createBroadcast, updateBroadcastEmail, updateBroadcastSms } from "~/services/marketing/broadcasts.server";
import { createGroup, updateGroupFilters } from "~/services/marketing/groups.server";
import { saveSmsSettings } from "~/services/marketing/sms/settings.server";
import { DEMO_AT_CREDENTIALS } from "../../../scripts/fakes/africastalking";

/** What an SMS callback key looks like (the callback routes take no other). */
const CALLBACK_KEY = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * `smsCallbackKey`: the key `npm run demo` made for this install and gave the fake Africa's Talking
 * (started before the demo loads), so the fake's delivery reports reach the demo organisation.
 * Without it the organisation keeps the random key its SMS settings got. Never a fixed key: anyone
 * who knows a key can opt the organisation's customers out or forge delivery reports.
 */
export async function createDemoMarketing(ctx: OrgContext, now: number, smsCallbackKey?: string): Promise<void> {
  if (smsCallbackKey !== undefined && !CALLBACK_KEY.test(smsCallbackKey)) {
    throw new Error("The demo SMS callback key (--sms-callback-key) must be 16 to 64 letters, digits, '-' or '_'.");
  }
  const orgId = ctx.org.id;
  await db
    .updateTable("customers")
    .set({ marketing_opt_in_at: sql<number>`created_at` })
    .where("organization_id", "=", orgId)
    .where(sql<boolean>`id % 2 = 0`)
    .execute();

  await saveSmsSettings(
    ctx,
    smsSettingsSchema.parse({
      username: DEMO_AT_CREDENTIALS.username,
      api_key: DEMO_AT_CREDENTIALS.apiKey,
      sender_id: "MLANGO",
      messages_per_second: "10",
    }),
    now,
  );
  if (smsCallbackKey !== undefined) {
    // Unique per install; another organisation of this database that has it already keeps it.
    await db
      .updateTable("sms_settings")
      .set({ callback_key: smsCallbackKey })
      .where("organization_id", "=", orgId)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom("sms_settings as taken").select("taken.id").where("taken.callback_key", "=", smsCallbackKey))),
      )
      .execute();
  }

  const regulars = await createGroup(ctx, groupSchema.parse({ name: "Regulars", description: "Ten connections or more" }));
  await updateGroupFilters(ctx, regulars, groupFiltersSchema.parse({ connections: 10 }));
  const gmail = await createGroup(ctx, groupSchema.parse({ name: "Gmail users", description: "Reachable at a Gmail address" }));
  await updateGroupFilters(
    ctx,
    gmail,
    groupFiltersSchema.parse({ profile: [{ field: "emailAddress", equation: "endsWith", value: "@gmail.com" }] }),
  );

  const { id } = await createBroadcast(
    ctx,
    broadcastSchema.parse({ title: "Happy hour at the café", description: "Weekday offer, 16:00–18:00" }),
  );
  await updateBroadcastEmail(
    ctx,
    id,
    broadcastEmailSchema.parse({
      email_html: "<h1>Happy hour</h1><p>Half-price coffee on weekdays from 16:00 to 18:00, and an hour of Wi-Fi on us.</p>",
      email_text: "Happy hour: half-price coffee on weekdays from 16:00 to 18:00, and an hour of Wi-Fi on us.",
    }),
  );
  await updateBroadcastSms(
    ctx,
    id,
    broadcastSmsSchema.parse({
      sms: "Happy hour: half-price coffee weekdays 16:00-18:00, plus an hour of Wi-Fi on us. Reply STOP to opt out.",
    }),
  );
}
