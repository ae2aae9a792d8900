import { z } from "zod";

// The organisation's SMS provider (Africa's Talking) on /{orgId}/organization/sms.
// The API key is write-only: an empty field keeps the stored one, so the form never
// needs to show it.

export const SMS_MESSAGES_PER_SECOND = { min: 1, max: 100, default: 10 } as const;

export const SMS_SETTINGS_MESSAGES = {
  usernameRequired: "Username field is required.",
  usernameInvalid: "Enter the username of your Africa's Talking app (letters, digits, dots, dashes and underscores), or sandbox.",
  apiKeyRequired: "API key field is required.",
  apiKeyInvalid: "Enter the API key exactly as Africa's Talking shows it, without spaces.",
  senderIdInvalid:
    "Enter the sender ID Africa's Talking approved for you: at most 11 letters, digits or spaces, or leave it empty to use their default.",
  rateInvalid: `Enter a whole number of messages per second from ${SMS_MESSAGES_PER_SECOND.min} to ${SMS_MESSAGES_PER_SECOND.max}.`,
  tooLong: "This value is too long.",
} as const;

const M = SMS_SETTINGS_MESSAGES;

export const smsSettingsSchema = z.object({
  username: z
    .string({ required_error: M.usernameRequired, invalid_type_error: M.usernameRequired })
    .trim()
    .min(1, M.usernameRequired)
    .max(100, M.tooLong)
    .regex(/^[A-Za-z0-9._-]+$/, M.usernameInvalid),
  /** Write-only: empty keeps the stored key (null). */
  api_key: z
    .string({ invalid_type_error: M.apiKeyInvalid })
    .trim()
    .max(200, M.tooLong)
    .regex(/^[\x21-\x7e]*$/, M.apiKeyInvalid)
    .optional()
    .transform((v) => v || null),
  /** Empty: Africa's Talking's default sender (null). */
  sender_id: z
    .string({ invalid_type_error: M.senderIdInvalid })
    .trim()
    .regex(/^[A-Za-z0-9 ]{0,11}$/, M.senderIdInvalid)
    .optional()
    .transform((v) => v || null),
  messages_per_second: z
    .string({ invalid_type_error: M.rateInvalid })
    .trim()
    .optional()
    .transform((v) => v || String(SMS_MESSAGES_PER_SECOND.default))
    .pipe(
      z
        .string()
        .regex(/^\d{1,3}$/, M.rateInvalid)
        .transform(Number)
        .pipe(z.number().int().min(SMS_MESSAGES_PER_SECOND.min, M.rateInvalid).max(SMS_MESSAGES_PER_SECOND.max, M.rateInvalid)),
    ),
});

export type SmsSettingsInput = z.infer<typeof smsSettingsSchema>;
