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

/** Whether a network asks a sign-up field, and whether a guest must fill it in. */
export type SignupFieldRule = "required" | "optional" | "off";
export const SIGNUP_FIELD_RULES: readonly SignupFieldRule[] = ["required", "optional", "off"];

/** A network's sign-up fields (names: first and last name together; the middle name is always optional). */
export interface SignupFields {
  phone: SignupFieldRule;
  email: SignupFieldRule;
  names: SignupFieldRule;
}

/** What networks asked before operators could choose: everything, everything required. */
export const ALL_REQUIRED: SignupFields = { phone: "required", email: "required", names: "required" };

/** A stored rule, or "required" for anything else (the column's default). */
export const signupFieldRule = (value: unknown): SignupFieldRule => (value === "optional" || value === "off" ? value : "required");

type Existing = { first_name: string | null; last_name: string | null; email_address: string | null; phone_number: string | null };

/**
 * Whether the connect page shows the sign-up form: a field the network requires is missing from
 * the record, or the network requires nothing and the record has none of what it asks.
 */
export function signupNeeded(fields: SignupFields, c: Existing): boolean {
  const missing = {
    phone: !c.phone_number,
    email: !c.email_address,
    names: !(c.first_name && c.last_name),
  };
  const keys = (Object.keys(missing) as (keyof SignupFields)[]).filter((k) => fields[k] !== "off");
  if (keys.some((k) => fields[k] === "required" && missing[k])) return true;
  return !keys.some((k) => fields[k] === "required") && keys.length > 0 && keys.every((k) => missing[k]);
}

/**
 * The field errors of a sign-up, given what the customer record already holds (a field the
 * record has need not be typed again) and which fields the network asks, and the details
 * normalised. A field the network does not ask is dropped.
 */
export function checkSignup(
  input: SignupInput,
  existing: Existing,
  fields: SignupFields = ALL_REQUIRED,
): { errors: Record<string, string[]>; details: SignupDetails } {
  const errors: Record<string, string[]> = {};
  const asks = (k: keyof SignupFields) => fields[k] !== "off";
  const requires = (k: keyof SignupFields) => fields[k] === "required";
  const email = asks("email") ? (input.email_address?.toLowerCase() ?? null) : null;
  if (email && !z.string().email().safeParse(email).success) errors.email_address = [SIGNUP_MESSAGES.emailInvalid];
  if (requires("email") && !email && !existing.email_address) errors.email_address = [SIGNUP_MESSAGES.emailRequired];
  const typedPhone = asks("phone") ? input.phone_number : null;
  const phone = typedPhone ? normalizePhone(typedPhone) : null;
  if (typedPhone && !phone) errors.phone_number = [SIGNUP_MESSAGES.phoneInvalid];
  if (requires("phone") && !typedPhone && !existing.phone_number) errors.phone_number = [SIGNUP_MESSAGES.phoneRequired];
  const names = asks("names");
  if (requires("names") && !input.first_name && !existing.first_name) errors.first_name = [SIGNUP_MESSAGES.firstNameRequired];
  if (requires("names") && !input.last_name && !existing.last_name) errors.last_name = [SIGNUP_MESSAGES.lastNameRequired];
  return {
    errors,
    details: {
      first_name: names ? input.first_name : null,
      middle_name: names ? input.middle_name : null,
      last_name: names ? input.last_name : null,
      email_address: email,
      phone_number: phone,
    },
  };
}
