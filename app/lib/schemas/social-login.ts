import { z } from "zod";
import type { OAuthProviderName } from "~/db/schema";

// The organisation's guest sign-in providers: one form per
// provider on /{orgId}/organization/social-login. The client secret is write-only: an empty
// field keeps the stored one, so the form never needs to show it.

/**
 * Ajira Digital's sign-in lives on the programme's own domain: the operator types the endpoints from
 * their registration, but the client secret and guests' tokens may only travel to this domain.
 */
export const AJIRA_DOMAIN = "ajiradigital.go.ke";

export const SOCIAL_PROVIDERS = ["fb", "google", "twitter", "linkedin", "ajira"] as const satisfies readonly OAuthProviderName[];

/** The providers' names, as the console and the guests' "Continue with …" buttons show them. */
export const PROVIDER_LABELS: Record<OAuthProviderName, string> = {
  fb: "Facebook",
  google: "Google",
  twitter: "X (Twitter)",
  linkedin: "LinkedIn",
  ajira: "Ajira Digital",
};

export const SOCIAL_LOGIN_MESSAGES = {
  providerUnknown: "Choose one of the listed providers.",
  clientIdRequired: "Client ID field is required.",
  clientSecretRequired: "Client secret field is required.",
  urlRequired: "This address is required for Ajira Digital.",
  urlInvalid: "Enter a full address starting with https://.",
  ajiraHost: `Ajira Digital's addresses are on ${AJIRA_DOMAIN} or one of its subdomains.`,
  tooLong: "This value is too long.",
} as const;

const provider = z.enum(SOCIAL_PROVIDERS, { errorMap: () => ({ message: SOCIAL_LOGIN_MESSAGES.providerUnknown }) });

/** Ajira's endpoints: typed by the operator, and only https (the client secret and guests' tokens travel to them). */
const endpoint = z
  .string()
  .trim()
  .max(2000, SOCIAL_LOGIN_MESSAGES.tooLong)
  .optional()
  .transform((v) => v || null)
  .refine((v) => v === null || isHttpsUrl(v), SOCIAL_LOGIN_MESSAGES.urlInvalid);

export function isHttpsUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === "https:" && new URL(value).hostname !== "";
}

/** An https address on Ajira Digital's domain (the domain itself or a subdomain), with no user name. */
export function isAjiraUrl(value: string): boolean {
  if (!isHttpsUrl(value)) return false;
  const url = new URL(value);
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return !url.username && !url.password && (host === AJIRA_DOMAIN || host.endsWith(`.${AJIRA_DOMAIN}`));
}

export const AJIRA_ENDPOINTS = ["authorize_url", "token_url", "userinfo_url"] as const;

export const socialLoginSchema = z
  .object({
    provider,
    client_id: z
      .string({ required_error: SOCIAL_LOGIN_MESSAGES.clientIdRequired, invalid_type_error: SOCIAL_LOGIN_MESSAGES.clientIdRequired })
      .trim()
      .min(1, SOCIAL_LOGIN_MESSAGES.clientIdRequired)
      .max(500, SOCIAL_LOGIN_MESSAGES.tooLong),
    client_secret: z
      .string()
      .trim()
      .max(2000, SOCIAL_LOGIN_MESSAGES.tooLong)
      .optional()
      .transform((v) => v || null),
    authorize_url: endpoint,
    token_url: endpoint,
    userinfo_url: endpoint,
  })
  .superRefine((value, ctx) => {
    if (value.provider !== "ajira") return;
    for (const name of AJIRA_ENDPOINTS) {
      const url = value[name];
      if (url === null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: SOCIAL_LOGIN_MESSAGES.urlRequired });
      else if (isHttpsUrl(url) && !isAjiraUrl(url))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: SOCIAL_LOGIN_MESSAGES.ajiraHost });
    }
  });

export type SocialLoginInput = z.infer<typeof socialLoginSchema>;

export const removeSocialLoginSchema = z.object({ provider });
