import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MESSAGES, registerSchema } from "~/lib/schemas/accounts";
import { apiData, apiError, dispatch, readApiInput, type ApiMethods } from "~/services/api.server";
import { clientAddress, limitRegister, retryAfterHeaders } from "~/services/rate-limit.server";
import { register, registrationSentMessage } from "~/services/registration.server";

// POST /account/api/v1/auth/register — first_name, last_name, phone_number, email, password (and the
// spec's `login`, still accepted). Same schema and rules as /register. The account is usable once the
// link mailed to the address is opened, so the answer is the same 201 { data: { message } } whether
// or not the address or phone number has an account, and carries no token (decision 0013: a
// departure from the old client, which was signed in at once; docs/guide/api.md#account-service).

const schema = registerSchema.omit({ redirectTo: true }).extend({
  login: z.enum(["true", "false", "1", "0", "on", "off"], { errorMap: () => ({ message: "Login must be true or false." }) }).optional(),
});

const methods: ApiMethods = {
  async POST({ request, context }) {
    const { login: _login, ...input } = await readApiInput(request, schema);
    const limited = await limitRegister(input.email, clientAddress(request, context));
    if (limited) return apiError(429, limited.message, retryAfterHeaders(limited));
    try {
      await register(input);
    } catch (error) {
      console.error(
        JSON.stringify({
          at: new Date().toISOString(),
          event: "register_failed",
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      return apiError(500, MESSAGES.registerFailed);
    }
    return apiData({ message: registrationSentMessage(input.email) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
