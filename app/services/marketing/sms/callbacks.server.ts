// What Africa's Talking POSTs back (app/guest/sms.ts; no session, no same-origin check: machine to
// machine). The callback key in the path, made on the first save of the SMS settings, is what authenticates the caller and names the organisation:
//   POST /marketing/sms/{callbackKey}/delivery   a delivery report (id, status, phoneNumber, networkCode, failureReason)
//   POST /marketing/sms/{callbackKey}/inbound    a message to the short code (from, to, text, date, id, linkId): "STOP" opts out
// Answers:
//   - an unknown key: 404, nothing written;
//   - a report for a message id the organisation never sent (forged, another organisation's, or of a
//     broadcast deleted since): 200 and nothing written, logged as `sms_report_unknown`. Not a 4xx:
//     providers retry what is not 2xx, and no retry would ever find the message;
//   - a body that is not a report or a message: 400; one that holds a NUL or is over 16 KB, the request boundary refuses.
// Reports apply idempotently and in any order: Success makes a delivery `delivered` (whatever came
// before: the handset has it); Rejected/Failed/Expired make it `failed` unless it was delivered or
// failed already; intermediate statuses change nothing. A report that arrives before the dispatch
// has stored the message id is unknown (Africa's Talking sends reports seconds later, not sooner).
import { db } from "~/db/db.server";
import { normalizePhone } from "~/lib/phone";
import { optOut } from "../consent.server";
import { parseDeliveryReport } from "./africastalking.server";

const CALLBACK_KEY = /^[A-Za-z0-9_-]{16,64}$/;
/** The first word of an inbound text that opts the sender out (case-insensitive). */
export const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);

type Answer = { status: number; body: Record<string, unknown> };
const ok: Answer = { status: 200, body: { ok: true } };
const refuse = (status: number, message: string): Answer => ({ status, body: { error: { message } } });
const unknownKey = refuse(404, "There is no SMS callback at this address.");

const log = (event: string, fields: Record<string, unknown>) =>
  console.log(JSON.stringify({ at: new Date().toISOString(), event, ...fields }));

async function organizationOf(callbackKey: string): Promise<number | null> {
  if (!CALLBACK_KEY.test(callbackKey)) return null;
  const row = await db.selectFrom("sms_settings").select("organization_id").where("callback_key", "=", callbackKey).executeTakeFirst();
  return row ? row.organization_id : null;
}

/** Applies a delivery report to the organisation's SMS delivery with that message id. */
export async function applyDeliveryReport(callbackKey: string, body: unknown, now = Date.now()): Promise<Answer> {
  const organizationId = await organizationOf(callbackKey);
  if (organizationId === null) return unknownKey;
  const report = parseDeliveryReport(body);
  if (!report) return refuse(400, "This is not a delivery report: id and status are required.");

  const delivery = await db
    .selectFrom("broadcast_deliveries")
    .select(["id", "address"])
    .where("organization_id", "=", organizationId)
    .where("channel", "=", "SMS")
    .where("provider_message_id", "=", report.messageId)
    .executeTakeFirst();
  // The number, when given, must be the one the message went to.
  if (!delivery || (report.phoneNumber !== null && normalizePhone(delivery.address) !== report.phoneNumber)) {
    log("sms_report_unknown", { organizationId, messageId: report.messageId });
    return ok;
  }
  if (report.outcome === "delivered") {
    await db
      .updateTable("broadcast_deliveries")
      .set({ status: "delivered", delivered_at: now, error: null, updated_at: now })
      .where("id", "=", delivery.id)
      .where("status", "!=", "delivered")
      .execute();
  } else if (report.outcome === "failed") {
    await db
      .updateTable("broadcast_deliveries")
      .set({ status: "failed", error: report.failureReason, updated_at: now })
      .where("id", "=", delivery.id)
      .where("status", "not in", ["delivered", "failed"])
      .execute();
  }
  return ok;
}

/** Whether an inbound text asks to stop: its first word is a stop word. */
export function isStopRequest(text: string): boolean {
  // A whole word: "STOP." and "stop please" stop, "stop-gap" and "STOPPED" do not.
  const first = /^[\s"'.,!¡¿?*-]*([A-Za-z]+)(?![\w'-])/.exec(text)?.[1];
  return first !== undefined && STOP_WORDS.has(first.toUpperCase());
}

/** An inbound message: "STOP" from a customer's number opts each of the organisation's customers with that number out. */
export async function applyInboundMessage(callbackKey: string, body: unknown, now = Date.now()): Promise<Answer> {
  const organizationId = await organizationOf(callbackKey);
  if (organizationId === null) return unknownKey;
  const fields = (body && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const { from, text } = fields;
  if (typeof from !== "string" || typeof text !== "string" || from.trim() === "")
    return refuse(400, "This is not an inbound message: from and text are required.");
  if (!isStopRequest(text)) return ok;
  const phone = normalizePhone(from.slice(0, 32));
  if (phone === null) return ok;

  const customers = await db
    .selectFrom("customers")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("phone_number", "=", phone)
    // A repeated STOP (or the provider sending the message again) records nothing more.
    .where((eb) => eb.or([eb("marketing_opted_out_at", "is", null), eb("marketing_opt_in_at", "is not", null)]))
    .execute();
  for (const customer of customers) await optOut(organizationId, customer.id, "sms-stop", now);
  log("sms_stop", { organizationId, customers: customers.length });
  return ok;
}
