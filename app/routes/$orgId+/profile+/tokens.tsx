import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SubmitButton } from "~/components/ui/field";
import { parseId } from "~/lib/ids";
import { formatUtcDateTime } from "~/lib/time";
import { listApiTokens, revokeApiToken } from "~/services/api-tokens.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "API tokens | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireOrg(request, params);
  return json({ tokens: await listApiTokens(user.id) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const form = await request.formData();
  if (form.get("intent") !== "revoke") return json({ message: "Unknown action." }, { status: 400 });
  await revokeApiToken(ctx.user.id, parseId(form.get("id")));
  return redirectWithToast(request, `/${ctx.org.id}/profile/tokens`, "The API token has been revoked.");
}

const when = (ms: number | null) => (ms === null ? "Never" : `${formatUtcDateTime(ms)} UTC`);

/** The user's API tokens (made by POST /account/api/v1/auth/login), each with a Revoke button. */
export default function ApiTokens() {
  const { tokens } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">API tokens</h2>
      <p className="mb-4 text-sm text-slate-600">
        Scripts get a token by signing in to the API (<code>POST /account/api/v1/auth/login</code>). Each works for 90 days; revoke one you no longer use.
      </p>
      {tokens.length === 0 ? (
        <p className="text-sm text-slate-500">You have no API tokens.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{when(t.createdAt)}</td>
                <td>{when(t.lastUsedAt)}</td>
                <td>{when(t.expiresAt)}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="id" value={t.id} />
                    <SubmitButton name="intent" value="revoke" className="btn-secondary">
                      Revoke
                    </SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
