import { z } from "zod";
import { normalizePhone } from "~/lib/phone";

// The network (venue) form, create and settings, shared by the pages and the API
// (POST/PUT venues: name, address, phone_number, email, custom_splash_url, success_url, more_info).
// Required messages are the guide's, word for word (docs/guide/networks.md#validation).

export const VENUE_MESSAGES = {
  nameRequired: "Name field is required.",
  addressRequired: "Address field is required.",
  emailInvalid: "Please enter a valid email address.",
  phoneInvalid: "Please enter a valid phone number, such as 0712 345 678 or +254 712 345 678.",
  urlInvalid: "Please enter a full web address starting with https:// (or http://).",
  tooLong: "This value is too long.",
} as const;

/** The networks list's page sizes (docs/guide/networks.md#networks-list: the venues list also offers 1); default 10. */
export const VENUE_PAGE_SIZES = [1, 10, 25, 50, 100, 250] as const;

/** A required text field: conform turns an empty field into undefined, so the message goes on both. */
export function requiredText(message: string, max: number) {
  return z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, VENUE_MESSAGES.tooLong);
}

/** An optional text field: empty or blank becomes null. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, VENUE_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null));
}

/**
 * An optional web address (splash and success pages). Guests are sent there, so only http(s)
 * addresses are taken: a javascript: or data: URL would run in the guest's browser.
 */
export function optionalUrl() {
  return z
    .string()
    .trim()
    .max(2000, VENUE_MESSAGES.tooLong)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      let url: URL | null = null;
      try {
        url = new URL(v);
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: VENUE_MESSAGES.urlInvalid });
        return z.NEVER;
      }
      return v;
    });
}

export const venueSchema = z.object({
  name: requiredText(VENUE_MESSAGES.nameRequired, 150),
  address: requiredText(VENUE_MESSAGES.addressRequired, 255),
  email: z
    .string()
    .trim()
    .max(254, VENUE_MESSAGES.emailInvalid)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!z.string().email().safeParse(v).success) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: VENUE_MESSAGES.emailInvalid });
        return z.NEVER;
      }
      return v.toLowerCase();
    }),
  phone_number: z
    .string()
    .trim()
    .max(32, VENUE_MESSAGES.phoneInvalid)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const phone = normalizePhone(v);
      if (!phone) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: VENUE_MESSAGES.phoneInvalid });
        return z.NEVER;
      }
      return phone;
    }),
  custom_splash_url: optionalUrl(),
  success_url: optionalUrl(),
  more_info: optionalText(2000),
});

export type VenueInput = z.infer<typeof venueSchema>;
