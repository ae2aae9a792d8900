import { z } from "zod";
import type { OAuthProviderName } from "~/db/schema";

// The organisation's guest sign-in providers (issue [portal] §2 social buttons): one form per
// provider on /{orgId}/organization/social-login. The client secret is write-only: an empty
// field keeps the stored one, so the form never needs to show it.

export const SOCIAL_PROVIDERS = ["fb", "google", "twitter", "linkedin", "ajira"] as const satisfies readonly OAuthProviderName[];

export const SOCIAL_LOGIN_MESSAGES = {
  providerUnknown: "Choose one of the listed providers.",
  clientIdRequired: "Client ID field is required.",
  clientSecretRequired: "Client secret field is required.",
  urlRequired: "This address is required for Ajira Digital.",
  urlInvalid: "Enter a full address starting with https://.",
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
      if (value[name] === null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: SOCIAL_LOGIN_MESSAGES.urlRequired });
    }
  });

export type SocialLoginInput = z.infer<typeof socialLoginSchema>;

export const removeSocialLoginSchema = z.object({ provider });
