import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { GatewaySettings } from "~/components/venues/gateway-settings";
import { VenueForm } from "~/components/venues/venue-form";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { FORGET_CERTIFICATE_QUESTION, gatewaySettingsSchema, SECRET_FIELDS } from "~/lib/schemas/gateway-settings";
import { venueSchema } from "~/lib/schemas/venues";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { normaliseFingerprint } from "~/services/outbound.server";
import {
  forgetUnifiCertificate,
  getGatewaySettings,
  regeneratePortalKey,
  regenerateQuestion,
  testUnifiConnection,
  trustQuestion,
  trustUnifiCertificate,
  UNIFI_TRUST_MESSAGES,
  updateGatewaySettings,
} from "~/services/portal/settings.server";
import { redirectWithToast } from "~/services/session.server";
import { countVenueAccessPoints, deleteVenue, getVenue, getVenueHeader, updateVenue, venueDeleteQuestion } from "~/services/venues.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Network settings | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenue(ctx, parseId(params.venueId));
  return json({
    orgId: ctx.org.id,
    venue: {
      id: venue.id,
      name: venue.name,
      address: venue.address,
      email: venue.email,
      phone_number: venue.phone_number,
      custom_splash_url: venue.custom_splash_url,
      success_url: venue.success_url,
      more_info: venue.more_info,
      updated_at: venue.updated_at,
    },
    deleteQuestion: venueDeleteQuestion(venue.name, await countVenueAccessPoints(ctx, venue.id)),
    gateway: await getGatewaySettings(ctx, venue.id),
    portalKeyQuestion: regenerateQuestion(venue.name),
    canEdit: ctx.permissions.has("edit_networks"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const form = await request.formData();
  switch (form.get("intent") ?? "update") {
    case "update":
      return update(request, ctx, params.venueId, form);
    case "delete":
      return remove(request, ctx, params.venueId, form);
    case "gateway":
      return updateGateway(request, ctx, params.venueId, form);
    case "regenerate-portal-key":
      return regenerate(request, ctx, params.venueId, form);
    case "test-unifi":
      return testUnifi(request, ctx, params.venueId);
    case "trust-unifi-certificate":
      return trustCertificate(request, ctx, params.venueId, form);
    case "forget-unifi-certificate":
      return forgetCertificate(request, ctx, params.venueId, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// PUT venues/{id}
async function update(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const venueId = parseId(rawId);
  const submission = parseForm(form, { schema: venueSchema });
  if (submission.status !== "success") {
    await getVenue(ctx, venueId); // a foreign or unknown network is a 404 whatever the form holds
    return json(submission.reply(), { status: 400 });
  }
  await updateVenue(ctx, venueId, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/venues/${rawId}/settings`, "Network updated.");
}

// DELETE venues/{id}, after a confirmation that says what goes and what stays. There is no
// delete_networks permission in the catalogue: edit_networks guards it.
async function remove(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const venue = await getVenue(ctx, parseId(rawId));
  const ask = confirmationNeeded(form, "delete", venueDeleteQuestion(venue.name, await countVenueAccessPoints(ctx, venue.id)));
  if (ask) return json(ask);
  const deleted = await deleteVenue(ctx, venue.id);
  const aps =
    deleted.accessPoints === 0
      ? ""
      : ` ${deleted.accessPoints === 1 ? "Its access point was" : `Its ${deleted.accessPoints} access points were`} deleted too.`;
  return redirectWithToast(request, `/${ctx.org.id}/venues`, { type: "info", message: `Network ${deleted.name} deleted.${aps}` });
}

// PUT venues/{id}/gateway. Its answer is wrapped in { gateway } so the network form above does not
// take it for its own; the secrets typed are not sent back.
async function updateGateway(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const venueId = parseId(rawId);
  const submission = parseForm(form, { schema: gatewaySettingsSchema });
  if (submission.status !== "success") {
    await getVenueHeader(ctx, venueId);
    return json({ gateway: submission.reply({ hideFields: [...SECRET_FIELDS] }) }, { status: 400 });
  }
  const result = await updateGatewaySettings(ctx, venueId, submission.value);
  if (!result.ok)
    return json({ gateway: submission.reply({ fieldErrors: result.errors, hideFields: [...SECRET_FIELDS] }) }, { status: 400 });
  return redirectWithToast(request, `/${ctx.org.id}/venues/${rawId}/settings`, "Guest portal settings updated.");
}

async function regenerate(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const venue = await getVenueHeader(ctx, parseId(rawId));
  const ask = confirmationNeeded(form, "regenerate-portal-key", regenerateQuestion(venue.name));
  if (ask) return json(ask);
  await regeneratePortalKey(ctx, venue.id);
  return redirectWithToast(request, `/${ctx.org.id}/venues/${venue.id}/settings`, {
    type: "info",
    message: "New portal key made. The old gateway URLs no longer work: paste the new URL into each gateway of this network.",
  });
}

// "Test connection": a self-signed certificate is answered with the question whether to trust its
// fingerprint (the confirmation carries the fingerprint shown, so what is trusted is what was asked).
async function testUnifi(request: Request, ctx: OrgContext, rawId: string | undefined) {
  requirePermission(ctx, "edit_networks");
  const result = await testUnifiConnection(ctx, parseId(rawId));
  if (result.ok) return redirectWithToast(request, `/${ctx.org.id}/venues/${rawId}/settings`, result.message);
  if ("trust" in result) {
    return json({
      confirm: { message: result.trust.question, intent: "trust-unifi-certificate", fields: { fingerprint: result.trust.fingerprint } },
    });
  }
  return json({ message: result.message });
}

async function trustCertificate(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const fingerprint = normaliseFingerprint(String(form.get("fingerprint") ?? ""));
  if (!fingerprint) return json({ message: UNIFI_TRUST_MESSAGES.invalid }, { status: 400 });
  const ask = confirmationNeeded(form, "trust-unifi-certificate", trustQuestion(fingerprint), { fingerprint });
  if (ask) return json(ask);
  await trustUnifiCertificate(ctx, parseId(rawId), fingerprint);
  return redirectWithToast(
    request,
    `/${ctx.org.id}/venues/${rawId}/settings`,
    "Certificate trusted. Test the connection again to check it.",
  );
}

async function forgetCertificate(request: Request, ctx: OrgContext, rawId: string | undefined, form: FormData) {
  requirePermission(ctx, "edit_networks");
  const ask = confirmationNeeded(form, "forget-unifi-certificate", FORGET_CERTIFICATE_QUESTION);
  if (ask) return json(ask);
  await forgetUnifiCertificate(ctx, parseId(rawId));
  return redirectWithToast(request, `/${ctx.org.id}/venues/${rawId}/settings`, {
    type: "info",
    message:
      "The controller's certificate is no longer trusted: Mlango calls it only with a certificate a public authority signed for its address.",
  });
}

export default function VenueSettings() {
  const { orgId, venue, deleteQuestion, gateway, portalKeyQuestion, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && !isConfirmationRequest(actionData) && !("message" in actionData) && !("gateway" in actionData) ? actionData : null;
  const gatewayResult = actionData && "gateway" in actionData ? actionData.gateway : null;
  return (
    <div className="space-y-4">
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/venues/${venue.id}/settings`} />
      <section className="card">
        <h2 className="mb-4 text-lg font-semibold">Settings</h2>
        {canEdit ? null : (
          <p className="mb-4 text-sm text-slate-600">You can view these settings; changing them needs the Edit networks permission.</p>
        )}
        <VenueForm
          key={venue.updated_at}
          lastResult={lastResult}
          readOnly={!canEdit}
          defaultValue={venue}
          submitLabel="Update"
          pendingText="Updating…"
          intent="update"
        />
      </section>
      <GatewaySettings
        key={venue.updated_at}
        settings={gateway}
        canEdit={canEdit}
        lastResult={gatewayResult}
        regenerateQuestion={portalKeyQuestion}
      />
      {canEdit ? (
        <section className="card border-red-200">
          <h2 className="text-lg font-semibold text-red-800">Delete network</h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">
            Deletes the network and its access points. Its connection history is kept, no longer linked to a network. This cannot be undone.
          </p>
          <ConfirmButton intent="delete" message={deleteQuestion}>
            Delete network
          </ConfirmButton>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
