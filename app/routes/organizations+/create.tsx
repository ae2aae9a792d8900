import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { OrganizationForm } from "~/components/shell/organization-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { organizationSchema } from "~/lib/schemas/organizations";
import { DEFAULT_TIME_ZONE, timeZoneNames } from "~/lib/time-zone";
import { requireUser } from "~/services/guard.server";
import {
  createOrganization,
  listUserOrganizations,
  redirectWithOrganization,
  requireCanCreateOrganization,
} from "~/services/organizations.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Create organization · Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  await requireCanCreateOrganization(user.id);
  const organizations = await listUserOrganizations(user.id);
  return json({ first: organizations.length === 0, timeZones: timeZoneNames() });
}

// POST organizations: name, address, more_info, phone_number, email.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  await requireCanCreateOrganization(user.id);
  const submission = parseForm(await request.formData(), { schema: organizationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const org = await createOrganization(user.id, submission.value);
  return redirectWithOrganization(request, `/${org.id}`, "Organization created.", { select: org.id });
}

export default function CreateOrganization() {
  const { first, timeZones } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-xl px-4 py-10">
      <Link to="/" className="link text-sm">
        ← Select organization
      </Link>
      <h1 className="mt-1 text-2xl font-semibold">{first ? "Create your organization" : "Create organization"}</h1>
      <p className="mt-2 text-sm text-slate-600">
        You will be the organization's administrator, with every permission in it. Only the name is required.
      </p>
      <div className="card mt-6">
        <OrganizationForm
          lastResult={lastResult}
          defaultValue={{ time_zone: DEFAULT_TIME_ZONE }}
          timeZones={timeZones}
          guessTimeZone
          submitLabel="Create"
          pendingText="Creating…"
        />
      </div>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
