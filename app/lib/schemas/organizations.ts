import { z } from "zod";
import { normalizePhone } from "~/lib/phone";
import { isTimeZone } from "~/lib/time-zone";

// The organisation form (create and edit), shared by the pages and the API
// (POST/PUT organizations: name, address, more_info, phone_number, email, time_zone).

export const ORGANIZATION_MESSAGES = {
  nameRequired: "Name field is required.",
  emailInvalid: "Please enter a valid email address.",
  phoneInvalid: "Please enter a valid phone number, such as 0712 345 678 or +254 712 345 678.",
  tooLong: "This value is too long.",
  timeZoneInvalid: "Please choose a time zone from the list.",
  retentionInvalid: "Enter the number of days as a whole number from 30 to 3650 (ten years).",
} as const;

/** An optional text field: empty or blank becomes null. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, ORGANIZATION_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null));
}

export const organizationSchema = z.object({
  name: z
    .string({ required_error: ORGANIZATION_MESSAGES.nameRequired, invalid_type_error: ORGANIZATION_MESSAGES.nameRequired })
    .trim()
    .min(1, ORGANIZATION_MESSAGES.nameRequired)
    .max(150, ORGANIZATION_MESSAGES.tooLong),
  address: optionalText(255),
  phone_number: z
    .string()
    .trim()
    .max(32, ORGANIZATION_MESSAGES.phoneInvalid)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const phone = normalizePhone(v);
      if (!phone) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ORGANIZATION_MESSAGES.phoneInvalid });
        return z.NEVER;
      }
      return phone;
    }),
  email: z
    .string()
    .trim()
    .max(254, ORGANIZATION_MESSAGES.emailInvalid)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!z.string().email().safeParse(v).success) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ORGANIZATION_MESSAGES.emailInvalid });
        return z.NEVER;
      }
      return v.toLowerCase();
    }),
  more_info: optionalText(2000),
  /** IANA name; left out: a new organisation takes Africa/Nairobi, an existing one keeps its zone. */
  time_zone: z
    .string({ invalid_type_error: ORGANIZATION_MESSAGES.timeZoneInvalid })
    .trim()
    .optional()
    .refine((v) => !v || isTimeZone(v), ORGANIZATION_MESSAGES.timeZoneInvalid)
    .transform((v) => v || undefined),
  /** Days a guest's personal data is kept after their last visit; left out: kept as it is (730 for a new organisation). */
  retention_days: z
    .union([z.string(), z.number()], { invalid_type_error: ORGANIZATION_MESSAGES.retentionInvalid })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || String(v).trim() === "") return undefined;
      const text = String(v).trim();
      const n = Number(text);
      if (!/^\d{1,4}$/.test(text) || n < 30 || n > 3650) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ORGANIZATION_MESSAGES.retentionInvalid });
        return z.NEVER;
      }
      return n;
    }),
});

export type OrganizationFormValue = z.infer<typeof organizationSchema>;

/** The answer to an invitation (PUT administrators: status, organization_id). */
export const INVITATION_STATUSES = ["Accepted", "Declined", "Delete"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Form intents of the organisations list and the status each one sends. */
export const INVITATION_INTENTS: Record<string, InvitationStatus> = {
  accept: "Accepted",
  decline: "Declined",
  delete: "Delete",
};
