// POST /{orgId}/connections/{id}/close (spec 2 §4, §7 closeConnection): ends an online connection and
// returns to the list it was closed from (redirectTo), which reloads with the answer as a toast.
import type { ActionFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { safeRedirect } from "~/lib/redirect";
import { closeConnection } from "~/services/connections.server";
import { notFound, requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";

export async function loader() {
  notFound();
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_connections");
  const form = await request.formData();
  const result = await closeConnection(ctx, parseId(params.connectionId));
  const back = safeRedirect(form.get("redirectTo"), `/${ctx.org.id}/connections`);
  return redirectWithToast(request, back, { type: result.ok ? "success" : "info", message: result.message });
}
