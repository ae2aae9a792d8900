import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AccessPointForm } from "~/components/access-points/access-point-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { accessPointSchema } from "~/lib/schemas/access-points";
import { createAccessPoint, findVenueForAccessPoint } from "~/services/access-points.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { venueOptions } from "~/services/venues.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New hotspot | Mlango" }];

// /{orgId}/ap/create?venue_id=… — the network is chosen beforehand (a foreign one is a 404) or in the form.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_ap");
  const rawVenueId = new URL(request.url).searchParams.get("venue_id");
  const venue = rawVenueId ? await findVenueForAccessPoint(ctx, rawVenueId) : null;
  return json({ orgId: ctx.org.id, venue, venues: await venueOptions(ctx) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_ap");
  const submission = parseForm(await request.formData(), { schema: accessPointSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const outcome = await createAccessPoint(ctx, submission.value);
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.fieldErrors, formErrors: outcome.formErrors }), { status: 400 });
  return redirectWithToast(request, `/${ctx.org.id}/ap/${outcome.id}/overview`, `Access point ${submission.value.name} created.`);
}

export default function CreateAccessPoint() {
  const { orgId, venue, venues } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const backTo = venue ? `/${orgId}/venues/${venue.id}/access-points` : `/${orgId}/venues`;
  return (
    <section className="card">
      <h1 className="mb-1 text-xl font-semibold">New hotspot</h1>
      {venue ? <p className="mb-4 text-sm text-slate-600">In {venue.name}</p> : null}
      {venues.length === 0 ? (
        <p className="text-slate-600">
          An access point belongs to a network.{" "}
          <Link to={`/${orgId}/venue/create`} className="link">
            Create a network
          </Link>{" "}
          first.
        </p>
      ) : (
        <AccessPointForm
          lastResult={lastResult}
          defaultValue={venue ? { venue_id: String(venue.id) } : undefined}
          venues={venues}
          submitLabel="Create"
          pendingText="Creating…"
          backTo={backTo}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
