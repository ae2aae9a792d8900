import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { forgotPasswordSchema } from "~/lib/schemas/accounts";
import { apiData, apiError, dispatch, readApiInput, type ApiMethods } from "~/services/api.server";
import { publicOrigin } from "~/services/email.server";
import { FORGOT_PASSWORD_SENT, requestPasswordReset } from "~/services/password-reset.server";
import { clientAddress, limitPasswordForgot, retryAfterHeaders } from "~/services/rate-limit.server";

// POST /account/api/v1/auth/password/forgot — login_id, and optionally reset_link: a link with a
// token placeholder ({token}, {reset_token} or :token). The link is used only when it points at our own
// origin; any other is ignored and our /password/reset/{token} link is mailed, so a reset token
// never travels to a foreign host. Same neutral answer and rate limit as /password/forgot.

const TOKEN_PLACEHOLDER = /\{(?:reset_)?token\}|:(?:reset_)?token\b/;
const TOKEN_PLACEHOLDERS = new RegExp(TOKEN_PLACEHOLDER.source, "g");

const schema = forgotPasswordSchema.extend({
  reset_link: z.string().max(2000, "The reset link is too long.").optional(),
});

/** Where a link points, or null when it is no http(s) URL. */
function originOf(link: string): string | null {
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The mailed link for a reset_link template: the template with the token in place of its
 * placeholder when the result points at our origin, else our own reset link. No template, or one
 * without a placeholder: undefined (the service's own link).
 */
function resetLinkBuilder(template: string | undefined, origin: string): ((token: string) => string) | undefined {
  if (!template || !TOKEN_PLACEHOLDER.test(template)) return undefined;
  const ours = originOf(origin);
  // Checked on a sample first, then on every real link, so no placeholder trick changes the host.
  if (ours === null || originOf(template.replace(TOKEN_PLACEHOLDERS, "sample")) !== ours) return undefined;
  return (token) => {
    const link = template.replace(TOKEN_PLACEHOLDERS, encodeURIComponent(token));
    return originOf(link) === ours ? link : `${origin}/password/reset/${token}`;
  };
}

const methods: ApiMethods = {
  async POST({ request, context }) {
    const { login_id, reset_link } = await readApiInput(request, schema);
    const limited = await limitPasswordForgot(login_id, clientAddress(request, context));
    if (limited) return apiError(429, limited.message, retryAfterHeaders(limited));
    const origin = publicOrigin();
    await requestPasswordReset(login_id, origin, resetLinkBuilder(reset_link, origin));
    // The same answer whether or not an account matches: nobody learns who has one.
    return apiData({ message: FORGOT_PASSWORD_SENT });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
