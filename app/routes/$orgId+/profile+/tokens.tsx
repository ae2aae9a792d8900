import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SubmitButton } from "~/components/ui/field";
import { Time, useOrgClock } from "~/components/ui/time";
import { parseId } from "~/lib/ids";
import { formatOffset } from "~/lib/time-zone";
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

const when = (ms: number | null) => (ms === null ? "Never" : <Time ms={ms} />);

/** The user's API tokens (made by POST /account/api/v1/auth/login), each with a Revoke button. */
export default function ApiTokens() {
  const { tokens } = useLoaderData<typeof loader>();
  const zone = formatOffset(useOrgClock().offsetMs);
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">API tokens</h2>
      <p className="mb-4 text-sm text-slate-600">
        Scripts get a token by signing in to the API (<code>POST /account/api/v1/auth/login</code>). Each works for 90 days; revoke one you
        no longer use.
      </p>
      <DataTable
        rows={tokens}
        rowKey={(t) => t.id}
        empty="You have no API tokens."
        columns={[
          { header: `Created (${zone})`, nowrap: true, cell: (t) => when(t.createdAt) },
          { header: `Last used (${zone})`, nowrap: true, cell: (t) => when(t.lastUsedAt) },
          { header: `Expires (${zone})`, nowrap: true, cell: (t) => when(t.expiresAt) },
        ]}
        actions={(t) => (
          <Form method="post" className="inline">
            <input type="hidden" name="id" value={t.id} />
            <SubmitButton name="intent" value="revoke" className="btn-secondary">
              Revoke
            </SubmitButton>
          </Form>
        )}
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
