import { z } from "zod";
import { SIGNUP_FIELD_RULES, type SignupFieldRule } from "./portal";
import { optionalUrl, VENUE_MESSAGES } from "./venues";

// A network's guest portal settings (the settings page's "Guest portal" form and
// PUT /account/api/v1/venues/{id}/gateway). Secret fields are write-only: left empty they keep the
// stored value, so the form never needs (and never gets) the secret to show it.

/** The languages guest pages come in (app/guest/i18n). */
export const GUEST_PAGE_LANGUAGES = ["en", "sw"] as const;
export const GUEST_LANGUAGE_OPTIONS = [
  { value: "en", label: "English" },
  { value: "sw", label: "Kiswahili" },
];

export const GATEWAY_SETTINGS_MESSAGES = {
  secretLength: "The gateway secret must be 24 to 256 characters long.",
  secretCharacters: "The gateway secret may hold letters, digits and punctuation only, without spaces.",
  secretTaken: "This secret is already used by another network.",
  faskeyInvalid: "The faskey must be at most 256 letters, digits or punctuation marks, without spaces, quotes or backslashes.",
  faskeyPercent:
    "The faskey may not contain %: openNDS hashes it through the shell's printf, which reads % as a format, so no guest could be let in.",
  faskeyAndClear: "Enter a new faskey or tick “Remove the faskey”, not both.",
  unifiUrlMissing: "Enter the controller's address, or tick “Remove the UniFi controller”.",
  unifiUrlParts: "Enter the controller's address without a user name, query (?…) or fragment (#…), e.g. https://unifi.example.com:8443.",
  unifiUsernameMissing: "Enter the username Mlango signs in to the controller with.",
  unifiPasswordMissing: "Enter the password of that controller user.",
  unifiPasswordTooLong: "The controller password must be at most 256 characters.",
  unifiPasswordAndClear: "Enter a new controller password or tick “Remove the UniFi controller”, not both.",
  sessionRequired: "Session length field is required.",
  sessionInvalid: "Enter the session length as whole minutes, from 1 to 43200 (30 days).",
  guestSignupInvalid: "Choose whether guests fill in the sign-up form or only click Connect.",
  guestLanguageInvalid: "Choose English or Kiswahili.",
  splashPageInvalid: "Choose one of this organization's published splash pages, or the built-in page.",
  signupFieldInvalid: "Choose Required, Optional or Not asked.",
} as const;

/** A sign-up field's rule; absent keeps the stored one. */
const signupField = z
  .string({ invalid_type_error: GATEWAY_SETTINGS_MESSAGES.signupFieldInvalid })
  .trim()
  .optional()
  .refine((v) => v === undefined || (SIGNUP_FIELD_RULES as readonly string[]).includes(v), GATEWAY_SETTINGS_MESSAGES.signupFieldInvalid)
  .transform((v) => v as SignupFieldRule | undefined);

export const SESSION_MINUTES_MAX = 43_200;
/** Asked before the console stops trusting a UniFi controller's pinned certificate. */
export const FORGET_CERTIFICATE_QUESTION =
  "Stop trusting this certificate? Mlango then calls the controller only with a certificate a public authority signed for its address.";
/** Never echoed back to a browser, not even after a failed submission. */
export const SECRET_FIELDS = ["gateway_secret", "opennds_faskey", "unifi_password"] as const;
/** Visible ASCII without spaces: the secret travels as a bearer token and keys an HMAC. */
const SECRET_CHARACTERS = /^[\x21-\x7e]+$/;
/** openNDS reads the faskey from a quoted UCI option: visible ASCII without quotes or backslashes. */
const FASKEY = /^[\x21\x23-\x26\x28-\x5b\x5d-\x7e]{1,256}$/;
/** openNDS 9.10 checks tok by running `printf '<hid><faskey>' | sha256sum` (src/util.c, hash_str). */
const NO_PERCENT = /^[^%]*$/;
const TRUE = ["1", "true", "on", "yes"];
const FALSE = ["0", "false", "off", "no"];

/** Empty or absent: keep the stored secret (undefined); otherwise the new value. */
function writeOnlySecret(check: z.ZodString) {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(check.optional());
}

/** True for an address without credentials, query or fragment (or one optionalUrl already refused). */
function controllerUrlHasOnlyHostAndPath(value: string): boolean {
  if (typeof value !== "string" || !URL.canParse(value)) return true;
  const url = new URL(value);
  return !url.username && !url.password && !url.search && !url.hash && !value.includes("?") && !value.includes("#");
}

const checkbox = z
  .string()
  .optional()
  .transform((v) => v !== undefined && TRUE.includes(v.toLowerCase()));

const fields = z.object({
  gateway_secret: writeOnlySecret(
    z
      .string()
      .min(24, GATEWAY_SETTINGS_MESSAGES.secretLength)
      .max(256, GATEWAY_SETTINGS_MESSAGES.secretLength)
      .regex(SECRET_CHARACTERS, GATEWAY_SETTINGS_MESSAGES.secretCharacters),
  ),
  opennds_faskey: writeOnlySecret(
    z.string().regex(NO_PERCENT, GATEWAY_SETTINGS_MESSAGES.faskeyPercent).regex(FASKEY, GATEWAY_SETTINGS_MESSAGES.faskeyInvalid),
  ),
  clear_opennds_faskey: checkbox,
  // Mlango adds the API paths itself: a query or fragment would make them the query instead.
  unifi_url: optionalUrl().refine((v) => v === null || controllerUrlHasOnlyHostAndPath(v), GATEWAY_SETTINGS_MESSAGES.unifiUrlParts),
  unifi_username: z
    .string()
    .trim()
    .max(128, VENUE_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null)),
  unifi_password: writeOnlySecret(z.string().max(256, GATEWAY_SETTINGS_MESSAGES.unifiPasswordTooLong)),
  clear_unifi: checkbox,
  session_minutes: z
    .string({ required_error: GATEWAY_SETTINGS_MESSAGES.sessionRequired, invalid_type_error: GATEWAY_SETTINGS_MESSAGES.sessionRequired })
    .trim()
    .regex(/^\d{1,5}$/, GATEWAY_SETTINGS_MESSAGES.sessionInvalid)
    .transform(Number)
    .refine((n) => n >= 1 && n <= SESSION_MINUTES_MAX, GATEWAY_SETTINGS_MESSAGES.sessionInvalid),
  guest_signup: z
    .string({
      required_error: GATEWAY_SETTINGS_MESSAGES.guestSignupInvalid,
      invalid_type_error: GATEWAY_SETTINGS_MESSAGES.guestSignupInvalid,
    })
    .transform((v, ctx) => {
      const answer = v.trim().toLowerCase();
      if (TRUE.includes(answer)) return true;
      if (FALSE.includes(answer)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: GATEWAY_SETTINGS_MESSAGES.guestSignupInvalid });
      return z.NEVER;
    }),
  /** The guest pages' language when the guest's browser names neither (decision 0079); left out: unchanged. */
  guest_language: z
    .enum(GUEST_PAGE_LANGUAGES, { errorMap: () => ({ message: GATEWAY_SETTINGS_MESSAGES.guestLanguageInvalid }) })
    .optional(),
  // Which sign-up fields guests are asked (issue 35): phone only is a real choice.
  signup_phone: signupField,
  signup_email: signupField,
  signup_names: signupField,
  terms_url: optionalUrl(),
  privacy_url: optionalUrl(),
  /** The network's own splash page when no display rule applies; empty: the built-in page. */
  splash_page_id: z
    .string({ invalid_type_error: GATEWAY_SETTINGS_MESSAGES.splashPageInvalid })
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!/^\d{1,9}$/.test(v) || Number(v) < 1) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: GATEWAY_SETTINGS_MESSAGES.splashPageInvalid });
        return z.NEVER;
      }
      return Number(v);
    }),
});

type GatewaySettingsInput = z.output<typeof fields>;
/** What an update changes: a field left out keeps its value. */
export type GatewaySettingsChanges = Partial<GatewaySettingsInput>;
type GatewaySettingsField = keyof GatewaySettingsInput;

const GATEWAY_SETTINGS_FIELDS = Object.keys(fields.shape) as GatewaySettingsField[];

function noSecretWithItsClear(value: GatewaySettingsChanges, ctx: z.RefinementCtx) {
  if (value.clear_opennds_faskey && value.opennds_faskey) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["opennds_faskey"], message: GATEWAY_SETTINGS_MESSAGES.faskeyAndClear });
  }
  if (value.clear_unifi && value.unifi_password) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["unifi_password"], message: GATEWAY_SETTINGS_MESSAGES.unifiPasswordAndClear });
  }
}

/** The page's form: every field is posted, so an emptied field clears its value. */
export const gatewaySettingsSchema = fields.superRefine(noSecretWithItsClear);

/**
 * The API's partial update: only the fields the body names are read, the others keep their
 * values (an empty string clears a field, as the form does).
 */
export function gatewaySettingsChangesSchema(sent: (field: string) => boolean): z.ZodType<GatewaySettingsChanges, z.ZodTypeDef, unknown> {
  const mask = Object.fromEntries(GATEWAY_SETTINGS_FIELDS.filter(sent).map((f) => [f, true])) as Partial<
    Record<GatewaySettingsField, true>
  >;
  return fields.pick(mask).superRefine(noSecretWithItsClear);
}
