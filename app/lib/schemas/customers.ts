import { z } from "zod";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";
import { PROFILE_MESSAGES } from "./profile";

// The customer profile's Account info form
// (docs/guide/connections-devices-customers.md#account-info; the customer's payload names). A
// guest may be known by a phone number or an email only, so every field is optional, but what is
// given must be valid: an email address, a phone number (stored in E.164).

export const CUSTOMER_MESSAGES = {
  emailInvalid: PROFILE_MESSAGES.emailInvalid,
  phoneInvalid: PROFILE_MESSAGES.phoneInvalid,
  emailTaken: "This email address belongs to another customer.",
  phoneTaken: "This phone number belongs to another customer.",
  tooLong: PROFILE_MESSAGES.tooLong,
  notAllowed: "You are not allowed to update customers (edit_clients is needed).",
  updated: "Customer account information updated.",
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, CUSTOMER_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null));

export const customerAccountSchema = z.object({
  first_name: optionalText(100),
  middle_name: optionalText(100),
  last_name: optionalText(100),
  email_address: z
    .string()
    .trim()
    .max(254, CUSTOMER_MESSAGES.tooLong)
    .email(CUSTOMER_MESSAGES.emailInvalid)
    .optional()
    .transform((v) => (v ? v.toLowerCase() : null)),
  phone_number: z
    .string()
    .trim()
    .max(32, CUSTOMER_MESSAGES.tooLong)
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      const phone = looksLikeEmail(value) ? null : normalizePhone(value);
      if (phone) return phone;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: CUSTOMER_MESSAGES.phoneInvalid });
      return z.NEVER;
    }),
});
export type CustomerAccountInput = z.infer<typeof customerAccountSchema>;
