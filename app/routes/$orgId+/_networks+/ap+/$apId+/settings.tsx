import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AccessPointForm } from "~/components/access-points/access-point-form";
import { ActionFeedback } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { accessPointSchema } from "~/lib/schemas/access-points";
import { accessPointDeleteQuestion, deleteAccessPoint, getAccessPoint, updateAccessPoint } from "~/services/access-points.server";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { venueOptions } from "~/services/venues.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Access point settings | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  return json({
    orgId: ctx.org.id,
    ap: {
      id: ap.id,
      name: ap.name,
      make: ap.make,
      mac_address: ap.mac_address,
      serial_number: ap.serial_number,
      custom_splash_url: ap.custom_splash_url,
      success_url: ap.success_url,
      description: ap.description,
      venue_id: String(ap.venue_id),
      lat: ap.lat,
      lng: ap.lng,
      layout_x: ap.layout_x,
      layout_y: ap.layout_y,
      updated_at: ap.updated_at,
    },
    venues: await venueOptions(ctx),
    canEdit: ctx.permissions.has("edit_ap"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const form = await request.formData();
  switch (form.get("intent") ?? "update") {
    case "update":
      return update(request, ctx, params.apId, form);
    case "delete":
      return remove(request, ctx, params.apId, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// PUT access_points/{id}
async function update(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_ap");
  const ap = await getAccessPoint(ctx, parseId(rawId));
  const submission = parseForm(form, { schema: accessPointSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const outcome = await updateAccessPoint(ctx, ap.id, submission.value);
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.fieldErrors, formErrors: outcome.formErrors }), { status: 400 });
  return redirectWithToast(request, `/${ctx.org.id}/ap/${ap.id}/settings`, "Access point updated.");
}

// DELETE access_points/{id}, after a confirmation; back to its network's access points.
async function remove(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "delete_ap");
  const ap = await getAccessPoint(ctx, parseId(rawId));
  const ask = confirmationNeeded(form, "delete", accessPointDeleteQuestion(ap.name));
  if (ask) return json(ask);
  const deleted = await deleteAccessPoint(ctx, ap.id);
  return redirectWithToast(request, `/${ctx.org.id}/venues/${deleted.venueId}/access-points`, {
    type: "info",
    message: `Access point ${deleted.name} deleted.`,
  });
}

export default function AccessPointSettings() {
  const { orgId, ap, venues, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !isConfirmationRequest(actionData) && !("message" in actionData) ? actionData : null;
  return (
    <div className="space-y-4">
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/ap/${ap.id}/settings`} />
      <section className="card">
        <h2 className="mb-4 text-lg font-semibold">Settings</h2>
        {canEdit ? null : (
          <p className="mb-4 text-sm text-slate-600">You can view these settings; changing them needs the Edit access points permission.</p>
        )}
        <AccessPointForm
          key={ap.updated_at}
          lastResult={lastResult}
          defaultValue={ap}
          venues={venues}
          readOnly={!canEdit}
          submitLabel="Update"
          pendingText="Updating…"
          intent="update"
          backTo={`/${orgId}/ap/${ap.id}/overview`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
