import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MESSAGES, registerSchema } from "~/lib/schemas/accounts";
import { apiData, apiError, apiValidationFailed, dispatch, readApiInput, type ApiMethods } from "~/services/api.server";
import { issueToken, registerUser } from "~/services/auth.server";
import { attachInvitationsToUser } from "~/services/invitations.server";

// POST /account/api/v1/auth/register — first_name, last_name, phone_number, email, password and
// login (true to be signed in at once). Same schema and rules as /register; answers 201 with
// { data: { message, user, api_token? } }.

const REGISTERED = "Your account has been created.";

const schema = registerSchema.omit({ redirectTo: true }).extend({
  login: z
    .enum(["true", "false", "1", "0", "on", "off"], { errorMap: () => ({ message: "Login must be true or false." }) })
    .optional()
    .transform((v) => v === "true" || v === "1" || v === "on"),
});

const methods: ApiMethods = {
  async POST({ request }) {
    const { login, ...input } = await readApiInput(request, schema);
    let outcome: Awaited<ReturnType<typeof registerUser>>;
    try {
      outcome = await registerUser(input);
      if (outcome.ok) await attachInvitationsToUser(outcome.user.id, outcome.user.email);
    } catch (error) {
      console.error(
        JSON.stringify({
          at: new Date().toISOString(),
          event: "register_failed",
          error: error instanceof Error ? error.message : String(error),
        })
      );
      return apiError(500, MESSAGES.registerFailed);
    }
    if (!outcome.ok) return apiValidationFailed(outcome.errors as Record<string, string[]>);
    const { id, first_name, last_name, email, phone_number } = outcome.user;
    const user = { id, first_name, last_name, email, phone_number };
    const data = login ? { message: REGISTERED, user, api_token: await issueToken(id, "api") } : { message: REGISTERED, user };
    return apiData(data, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
