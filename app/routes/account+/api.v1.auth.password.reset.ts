import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { resetPasswordSchema } from "~/lib/schemas/accounts";
import { apiError, apiValidationFailed, dispatch, readApiInput, type ApiMethods } from "~/services/api.server";
import { PASSWORD_RESET_DONE, resetPassword } from "~/services/password-reset.server";

// POST /account/api/v1/auth/password/reset — login_id, reset_token, password and
// password_confirmation. The page's schema plus the token the page takes from its URL. Answers
// { message }; a dead token is a 401 with the page's message, a login id that is not the
// token's account a 422 on login_id.

const RESET_TOKEN_REQUIRED = "Reset token field is required.";

const schema = resetPasswordSchema.and(
  z.object({
    reset_token: z
      .string({ required_error: RESET_TOKEN_REQUIRED, invalid_type_error: RESET_TOKEN_REQUIRED })
      .trim()
      .min(1, RESET_TOKEN_REQUIRED)
      .max(200, "This value is too long."),
  }),
);

const methods: ApiMethods = {
  async POST({ request }) {
    const input = await readApiInput(request, schema);
    const outcome = await resetPassword({ token: input.reset_token, loginId: input.login_id, password: input.password });
    if (!outcome.ok) {
      return outcome.field === "form" ? apiError(401, outcome.message) : apiValidationFailed({ [outcome.field]: [outcome.message] });
    }
    return json({ message: PASSWORD_RESET_DONE }, { headers: { "Cache-Control": "no-store" } });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
