import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiData, dispatch, requireApiUser, type ApiMethods } from "~/services/api.server";
import { revokeToken } from "~/services/auth.server";

// DELETE /account/api/v1/auth/token — revokes the bearer token of the request itself (a script
// signing out). Other tokens are revoked on /{orgId}/profile/tokens.

const methods: ApiMethods = {
  async DELETE({ request }) {
    await requireApiUser(request);
    const token = request.headers.get("Authorization")!.match(/^Bearer\s+(\S+)$/i)![1];
    await revokeToken(token);
    return apiData({ message: "The token has been revoked." });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
