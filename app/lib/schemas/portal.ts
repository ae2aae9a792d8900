import { z } from "zod";
import { normalizePhone } from "~/lib/phone";

// The guest sign-up of the connect page and POST /splash/connect/auto
// (docs/guide/guest-connect.md#the-page: token, first_name, middle_name, last_name,
// email_address, phone_number, mode=SIGNUP). Which fields are required depends on what the
// customer record already has, so the schema only shapes the input; signupErrors decides what
// is missing.

export const SIGNUP_MESSAGES = {
  emailRequired: "Email address is required.",
  phoneRequired: "Phone number is required.",
  firstNameRequired: "First name is required.",
  lastNameRequired: "Last name is required.",
  emailInvalid: "Enter a valid email address, such as amina@example.com.",
  phoneInvalid: "Enter a valid phone number, such as 0712 345 678.",
  tooLong: "This value is too long.",
} as const;

/** The phone field starts with the local prefix (docs/guide/guest-connect.md#the-page); the prefix alone counts as empty. */
export const PHONE_PREFIX = "07";
/** Changes when the wording of the consent checkboxes changes: each consent records the version it was given under. */
export const CONSENT_WORDING_VERSION = "2026-11-25";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, SIGNUP_MESSAGES.tooLong)
    .optional()
    .transform((v) => v || null);

const checkbox = z
  .union([z.string(), z.boolean()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1" || v === "yes");

export const signupSchema = z.object({
  token: z.string().trim().max(128).optional().default(""),
  mode: z.string().trim().max(32).optional(),
  first_name: text(100),
  middle_name: text(100),
  last_name: text(100),
  email_address: text(254),
  phone_number: text(32).transform((v) => (v === PHONE_PREFIX ? null : v)),
  marketing_opt_in: checkbox,
});

export type SignupInput = z.infer<typeof signupSchema>;

export interface SignupDetails {
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  email_address: string | null;
  phone_number: string | null;
}

/**
 * The field errors of a sign-up, given what the customer record already holds (a field the
 * record has need not be typed again), and the details normalised.
 */
export function checkSignup(
  input: SignupInput,
  existing: { first_name: string | null; last_name: string | null; email_address: string | null; phone_number: string | null },
): { errors: Record<string, string[]>; details: SignupDetails } {
  const errors: Record<string, string[]> = {};
  const email = input.email_address?.toLowerCase() ?? null;
  if (email && !z.string().email().safeParse(email).success) errors.email_address = [SIGNUP_MESSAGES.emailInvalid];
  if (!email && !existing.email_address) errors.email_address = [SIGNUP_MESSAGES.emailRequired];
  const phone = input.phone_number ? normalizePhone(input.phone_number) : null;
  if (input.phone_number && !phone) errors.phone_number = [SIGNUP_MESSAGES.phoneInvalid];
  if (!input.phone_number && !existing.phone_number) errors.phone_number = [SIGNUP_MESSAGES.phoneRequired];
  if (!input.first_name && !existing.first_name) errors.first_name = [SIGNUP_MESSAGES.firstNameRequired];
  if (!input.last_name && !existing.last_name) errors.last_name = [SIGNUP_MESSAGES.lastNameRequired];
  return {
    errors,
    details: {
      first_name: input.first_name,
      middle_name: input.middle_name,
      last_name: input.last_name,
      email_address: email,
      phone_number: phone,
    },
  };
}
