import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { VenueForm } from "~/components/venues/venue-form";
import { venueSchema } from "~/lib/schemas/venues";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { createVenue } from "~/services/venues.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New network | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_networks");
  return json({ orgId: ctx.org.id });
}

// POST venues; afterwards the user lands on the networks list, as spec 2 says, with the new
// network named in the message (the list is newest first, so it is at the top).
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_networks");
  const submission = parseForm(await request.formData(), { schema: venueSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const venue = await createVenue(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/venues`, `Network ${venue.name} created.`);
}

export default function CreateVenue() {
  const { orgId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <section className="card">
      <h1 className="mb-4 text-xl font-semibold">New network</h1>
      <VenueForm lastResult={lastResult} submitLabel="Create" pendingText="Creating…" cancelTo={`/${orgId}/venues`} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
