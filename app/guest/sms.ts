// What Africa's Talking POSTs back, authenticated by the callback key in the path
// (services/marketing/sms/callbacks.server.ts has the rules):
//   POST /marketing/sms/{callbackKey}/delivery   a delivery report
//   POST /marketing/sms/{callbackKey}/inbound    a message to the short code ("STOP" opts out)
import type { IncomingMessage, ServerResponse } from "node:http";
import { applyDeliveryReport, applyInboundMessage } from "~/services/marketing/sms/callbacks.server";
import { sendJson, type GuestInput } from "./http";

export async function smsDeliveryReport(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await applyDeliveryReport(params.callbackKey!, body);
  sendJson(res, answer.status, answer.body);
}

export async function smsInbound(_req: IncomingMessage, res: ServerResponse, { params, body }: GuestInput): Promise<void> {
  const answer = await applyInboundMessage(params.callbackKey!, body);
  sendJson(res, answer.status, answer.body);
}
