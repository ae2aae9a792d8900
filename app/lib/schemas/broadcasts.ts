import { z } from "zod";
import type { BroadcastChannel } from "~/db/schema";
import { smsCount } from "~/lib/sms-segments";
import { parseDateTimeAt } from "~/lib/time";
import { optionalText, requiredText } from "./venues";

// The broadcast forms (docs/guide/marketing.md#broadcasts, docs/guide/api.md#data-api-graphql),
// shared by the pages and the data API. The spec marks the
// subject (the title: it is also the e-mail's subject) required without checking it; we check it.

export const BROADCAST_MESSAGES = {
  titleRequired: "Title field is required.",
  tooLong: "This value is too long.",
  nul: "This text contains a character that is not allowed.",
  designInvalid: "The design must be the designer's JSON.",
  smsTooLong: (parts: number, max: number) => `The SMS is too long: ${parts} parts, at most ${max}.`,
  channel: "Choose BOTH, SMS or EMAIL.",
  groupsRequired: "Choose at least one group.",
  tooManyGroups: (max: number) => `Choose at most ${max} groups.`,
  dispatchAtRequired: "Choose the date and time to send it.",
  dispatchAtInvalid: "Use a date and time like 2026-12-31 09:30.",
  // Not in the spec, which saves an empty message without a word.
  smsRequired: "Write the SMS first: an empty SMS is not saved.",
  emailRequired: "Write the e-mail first (HTML or plain text): an empty e-mail is not saved.",
} as const;

/** Sizes kept well inside the form body limit (256 KB; the e-mail form posts multipart, not percent-encoded). */
export const EMAIL_HTML_MAX = 200_000;
export const EMAIL_TEXT_MAX = 50_000;
export const EMAIL_DESIGN_MAX = 1_000_000;
/** A marketing SMS of more parts than this is almost surely a mistake (each part is paid for). */
export const SMS_MAX_SEGMENTS = 10;
/**
 * The line every broadcast SMS ends with (issue 35): the SMS inbound callback opts out a number
 * that replies STOP (marketing/sms/callbacks.server.ts, STOP_WORDS).
 */
export const SMS_STOP_LINE = "Reply STOP to opt out";

/** A broadcast's SMS as sent: its text, then the stop line on a line of its own (unless it already ends with it). */
export function withStopLine(text: string): string {
  const trimmed = text.replace(/\s+$/, "");
  if (trimmed.toLowerCase().endsWith(SMS_STOP_LINE.toLowerCase())) return trimmed;
  return trimmed ? `${trimmed}\n${SMS_STOP_LINE}` : SMS_STOP_LINE;
}
/** Groups one schedule may name. */
export const SCHEDULE_MAX_GROUPS = 50;

const noNul = (v: string | null | undefined) => !v?.includes("\u0000");

export const broadcastSchema = z.object({
  title: requiredText(BROADCAST_MESSAGES.titleRequired, 200).refine(noNul, BROADCAST_MESSAGES.nul),
  description: optionalText(1000).refine(noNul, BROADCAST_MESSAGES.nul),
});
export type BroadcastInput = z.infer<typeof broadcastSchema>;

/** An optional long text: empty or blank becomes null; NUL is refused (PostgreSQL cannot store it). */
function longText(max: number) {
  return z
    .string()
    .max(max, BROADCAST_MESSAGES.tooLong)
    .refine(noNul, BROADCAST_MESSAGES.nul)
    .optional()
    .transform((v) => (v && v.trim() ? v : null));
}

const emailFields = z.object({
  email_html: longText(EMAIL_HTML_MAX),
  email_text: longText(EMAIL_TEXT_MAX),
  /** A visual designer's JSON (the data API's `design`); stored as given, with the HTML it made. */
  email_design: longText(EMAIL_DESIGN_MAX).refine((v) => v === null || isJson(v), BROADCAST_MESSAGES.designInvalid),
});

function hasContent(email: { email_html: string | null; email_text: string | null }, ctx: z.RefinementCtx): void {
  if (email.email_html === null && email.email_text === null)
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["email_html"], message: BROADCAST_MESSAGES.emailRequired });
}

export const broadcastEmailSchema = emailFields.superRefine(hasContent);
export type BroadcastEmailInput = z.infer<typeof broadcastEmailSchema>;
/** The e-mail page's own form (HTML and text typed in; the designer posts the whole schema). */
export const broadcastEmailPageSchema = emailFields.omit({ email_design: true }).superRefine(hasContent);

function isJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

export const broadcastSmsSchema = z.object({
  // A browser posts a textarea's line breaks as CRLF: stored as LF, so the count matches what was typed.
  sms: z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/\r\n?/g, "\n"))
    .refine(noNul, BROADCAST_MESSAGES.nul)
    .superRefine((v, ctx) => {
      // Counted as sent, with the stop line.
      const { segments } = smsCount(withStopLine(v));
      if (segments > SMS_MAX_SEGMENTS)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: BROADCAST_MESSAGES.smsTooLong(segments, SMS_MAX_SEGMENTS) });
    })
    .refine((v) => v.trim() !== "", BROADCAST_MESSAGES.smsRequired),
});
export type BroadcastSmsInput = z.infer<typeof broadcastSmsSchema>;

/** The confirmation of a schedule's Cancel (the dispatch time as the list shows it). */
export const cancelQuestion = (dispatchAt: string, zone: string) => `Cancel the dispatch of ${dispatchAt} (${zone})? Nothing will be sent.`;

/** The delete confirmation (docs/guide/marketing.md#broadcasts). */
export const DELETE_BROADCAST_QUESTION = "Are you sure you want to delete this broadcast?";

export const CHANNELS: readonly BroadcastChannel[] = ["BOTH", "SMS", "EMAIL"];
export const CHANNEL_LABELS: Record<BroadcastChannel, string> = { BOTH: "E-mail and SMS", SMS: "SMS", EMAIL: "E-mail" };

/**
 * A dispatch time: "2026-12-31T09:30" as a date-time field sends it (on the organisation's clock,
 * `offsetMs` from UTC, as the console shows times), or an ISO 8601 time with Z or an offset (the data
 * API; without one it is UTC there). Null when it is no real time (31 February included).
 */
export function parseDispatchAt(raw: string, offsetMs = 0): number | null {
  return parseDateTimeAt(raw, offsetMs);
}

/**
 * The schedule form: channel (BOTH by default), one or more groups, now or at a time read at `offsetMs`
 * from UTC (the organisation's clock on the page; UTC for the data API).
 */
export const scheduleSchemaAt = (offsetMs: number) =>
  z
    .object({
      channel: z.enum(["BOTH", "SMS", "EMAIL"], { errorMap: () => ({ message: BROADCAST_MESSAGES.channel }) }).default("BOTH"),
      groups: z
        .array(
          z.coerce
            .number({ invalid_type_error: BROADCAST_MESSAGES.groupsRequired })
            .int()
            .positive()
            .max(2 ** 31 - 1),
          {
            required_error: BROADCAST_MESSAGES.groupsRequired,
            invalid_type_error: BROADCAST_MESSAGES.groupsRequired,
          },
        )
        .min(1, BROADCAST_MESSAGES.groupsRequired)
        .max(SCHEDULE_MAX_GROUPS, BROADCAST_MESSAGES.tooManyGroups(SCHEDULE_MAX_GROUPS))
        .transform((ids) => [...new Set(ids)]),
      dispatch: z.enum(["now", "later"]).default("now"),
      dispatch_at: z.string().trim().max(40, BROADCAST_MESSAGES.dispatchAtInvalid).optional(),
    })
    .transform((v, ctx) => {
      let dispatchAt: number | "now" = "now";
      if (v.dispatch === "later") {
        const parsed = v.dispatch_at ? parseDispatchAt(v.dispatch_at, offsetMs) : null;
        if (parsed === null) {
          const message = v.dispatch_at ? BROADCAST_MESSAGES.dispatchAtInvalid : BROADCAST_MESSAGES.dispatchAtRequired;
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["dispatch_at"], message });
          return z.NEVER;
        }
        dispatchAt = parsed;
      }
      return { channel: v.channel, groups: v.groups, dispatchAt };
    });
/** The data API's schedule form (times without a zone are UTC there) and the page's browser-side check. */
export const scheduleSchema = scheduleSchemaAt(0);
export type ScheduleInput = z.infer<typeof scheduleSchema>;
