import { z } from "zod";
import type { MpesaEnvironment, MpesaShortCodeType } from "~/db/schema";

// The organisation's M-Pesa (Daraja) credentials on /{orgId}/organization/mpesa.
// The consumer secret and the passkey are write-only: an empty field keeps the stored one,
// so the form never needs to show them.

export const MPESA_ENVIRONMENTS = ["sandbox", "production"] as const satisfies readonly MpesaEnvironment[];
export const MPESA_SHORTCODE_TYPES = ["paybill", "till"] as const satisfies readonly MpesaShortCodeType[];

export const MPESA_MESSAGES = {
  environmentInvalid: "Choose sandbox or production.",
  typeInvalid: "Choose paybill or till.",
  consumerKeyRequired: "Consumer key field is required.",
  consumerSecretRequired: "Consumer secret field is required.",
  shortcodeRequired: "Shortcode field is required.",
  passkeyRequired: "Passkey field is required.",
  tillRequired: "Till number field is required.",
  numberInvalid: "Enter the number only: 5 to 8 digits.",
  tooLong: "This value is too long.",
} as const;

const required = (message: string, max = 200) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, MPESA_MESSAGES.tooLong);

/** Write-only: empty keeps the stored value (null). */
const secret = z
  .string()
  .trim()
  .max(500, MPESA_MESSAGES.tooLong)
  .optional()
  .transform((v) => v || null);

const shortCodeNumber = /^\d{5,8}$/;

export const mpesaSettingsSchema = z
  .object({
    environment: z.enum(MPESA_ENVIRONMENTS, { errorMap: () => ({ message: MPESA_MESSAGES.environmentInvalid }) }),
    type: z.enum(MPESA_SHORTCODE_TYPES, { errorMap: () => ({ message: MPESA_MESSAGES.typeInvalid }) }),
    consumer_key: required(MPESA_MESSAGES.consumerKeyRequired),
    consumer_secret: secret,
    shortcode: required(MPESA_MESSAGES.shortcodeRequired, 20).regex(shortCodeNumber, MPESA_MESSAGES.numberInvalid),
    passkey: secret,
    // The till number (till); for a paybill, the paybill number, which is the shortcode unless given.
    party_b: z
      .string()
      .trim()
      .max(20, MPESA_MESSAGES.tooLong)
      .optional()
      .transform((v) => v || null)
      .refine((v) => v === null || shortCodeNumber.test(v), MPESA_MESSAGES.numberInvalid),
    // Daraja's initiator, for checking receipts (Transaction Status) and refunds (Reversal): optional.
    initiator_name: z
      .string()
      .trim()
      .max(100, MPESA_MESSAGES.tooLong)
      .optional()
      .transform((v) => v ?? ""),
    security_credential: z
      .string()
      .trim()
      .max(2000, MPESA_MESSAGES.tooLong)
      .optional()
      .transform((v) => v || null),
  })
  .superRefine((value, ctx) => {
    if (value.type === "till" && value.party_b === null)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["party_b"], message: MPESA_MESSAGES.tillRequired });
  });

/** The initiator fields are optional (settings saved before they existed, scripts). */
export type MpesaSettingsInput = Omit<z.infer<typeof mpesaSettingsSchema>, "initiator_name" | "security_credential"> &
  Partial<Pick<z.infer<typeof mpesaSettingsSchema>, "initiator_name" | "security_credential">>;
