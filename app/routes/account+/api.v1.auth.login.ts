import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loginSchema } from "~/lib/schemas/accounts";
import { apiData, apiError, dispatch, readApiInput, type ApiMethods } from "~/services/api.server";
import { CREDENTIALS_MISMATCH, issueToken, verifyLogin } from "~/services/auth.server";
import { unconfirmedSignIn } from "~/services/registration.server";
import { loginSucceeded, clientAddress, limitLogin, retryAfterHeaders } from "~/services/rate-limit.server";

// POST /account/api/v1/auth/login — body login_id and password (JSON or form-encoded).
// Answers { data: { api_token } } for `Authorization: Bearer …`; same schema and rate limit as /login.

const methods: ApiMethods = {
  async POST({ request, context }) {
    const { login_id, password } = await readApiInput(request, loginSchema);

    const address = clientAddress(request, context);
    const limited = await limitLogin(login_id, address);
    if (limited) return apiError(429, limited.message, retryAfterHeaders(limited));

    const user = await verifyLogin(login_id, password);
    if (!user) return apiError(401, CREDENTIALS_MISMATCH);
    const unconfirmed = await unconfirmedSignIn(user);
    if (unconfirmed) return apiError(403, unconfirmed);
    await loginSucceeded(login_id, address);
    return apiData({ api_token: await issueToken(user.id, "api") });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
