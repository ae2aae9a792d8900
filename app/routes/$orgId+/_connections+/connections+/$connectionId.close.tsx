// POST /{orgId}/connections/{id}/close (docs/guide/connections-devices-customers.md#close,
// docs/guide/api.md#mutations): ends an online connection and returns to the list it was closed from
// (redirectTo), which reloads with the answer as a toast. Closing asks first, like every destructive
// action (docs/decisions/0003): with JavaScript the button's confirm() does; without it the
// unconfirmed POST lands on this route's page, which asks 'Are you sure you want to close the
// connection of {customer}?'. The REST and GraphQL closeConnection act directly (no person to ask).
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmPrompt } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { closeQuestion } from "~/lib/connections";
import { parseId } from "~/lib/ids";
import { safeRedirect } from "~/lib/redirect";
import { closeConnection, connectionDetails } from "~/services/connections.server";
import { notFound, requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Close connection | Mlango" }];

async function findConnection(orgId: number, id: number | null) {
  const [row] = id === null ? [] : await connectionDetails(orgId, [id]);
  if (!row) notFound();
  return row;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_connections");
  const row = await findConnection(ctx.org.id, parseId(params.connectionId));
  const back = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), `/${ctx.org.id}/connections`);
  return json({ question: closeQuestion(row), back, online: row.online });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_connections");
  const form = await request.formData();
  const id = parseId(params.connectionId);
  const back = safeRedirect(form.get("redirectTo"), `/${ctx.org.id}/connections`);
  if (form.get("confirmed") !== "yes") {
    await findConnection(ctx.org.id, id); // a foreign or missing connection is a 404 here too
    return redirect(`/${ctx.org.id}/connections/${id}/close?${new URLSearchParams({ redirectTo: back })}`);
  }
  const result = await closeConnection(ctx, id);
  return redirectWithToast(request, back, { type: result.ok ? "success" : "info", message: result.message });
}

export default function ConfirmClose() {
  const { question, back, online } = useLoaderData<typeof loader>();
  return (
    <section className="card max-w-xl">
      <h2 className="mb-3 text-lg font-semibold">Close connection</h2>
      {online ? (
        <ConfirmPrompt request={{ confirm: { message: question, intent: "close", fields: { redirectTo: back } } }} cancelTo={back} />
      ) : (
        <>
          <p className="mb-3">This connection is not online.</p>
          <Link to={back} className="btn-secondary">
            Back
          </Link>
        </>
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
