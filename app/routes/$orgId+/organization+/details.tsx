import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CountCards } from "~/components/shell/count-cards";
import { OrganizationForm } from "~/components/shell/organization-form";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { organizationSchema } from "~/lib/schemas/organizations";
import { clockLabel, timeZoneNames } from "~/lib/time-zone";
import { requireOrg, requireOwner, type OrgContext } from "~/services/guard.server";
import { deleteOrganization, getOrganizationDetails, redirectWithOrganization, updateOrganization } from "~/services/organizations.server";
import { redirectWithToast } from "~/services/session.server";
import { Time, useOrgClock } from "~/components/ui/time";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.organization.name} · Details · Mlango` : "Mlango" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const org = await getOrganizationDetails(ctx);
  return json({
    organization: {
      id: org.id,
      name: org.name,
      address: org.address,
      email: org.email_address,
      phoneNumber: org.phone_number,
      moreInfo: org.more_info,
      timeZone: org.time_zone,
      retentionDays: Number(org.retention_days),
      createdAt: org.created_at,
      updatedAt: org.updated_at,
    },
    counts: org.counts,
    timeZones: timeZoneNames(),
    // The Update and Delete buttons belong to the organisation's administrator (im_admin).
    isAdministrator: ctx.isOwner,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const form = await request.formData();
  switch (form.get("intent") ?? "update") {
    case "update":
      return update(request, ctx, form);
    case "delete":
      return remove(request, ctx, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// PUT organizations/{id}
async function update(request: Request, ctx: OrgContext, form: FormData) {
  requireOwner(ctx);
  const submission = parseForm(form, { schema: organizationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  await updateOrganization(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/organization/details`, "Organization updated.");
}

// DELETE organizations/{id}, after 'Are you sure you want to delete {name}?'
async function remove(request: Request, ctx: OrgContext, form: FormData) {
  requireOwner(ctx);
  const ask = confirmationNeeded(form, "delete", `Are you sure you want to delete ${ctx.org.name}?`);
  if (ask) return json(ask);
  await deleteOrganization(ctx);
  return redirectWithOrganization(request, "/organizations", `${ctx.org.name} has been deleted.`, { forget: ctx.org.id });
}

export default function OrganizationDetails() {
  const { organization: org, counts, isAdministrator, timeZones } = useLoaderData<typeof loader>();
  const clock = useOrgClock();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !isConfirmationRequest(actionData) && !("message" in actionData) ? actionData : null;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">Details</h2>
        <p className="mt-1 text-sm text-slate-500">
          Created <Time ms={org.createdAt} /> · Last updated <Time ms={org.updatedAt} /> · Times in {clockLabel(clock)}
        </p>
      </div>
      <CountCards counts={counts} />
      <ActionFeedback actionData={actionData} cancelTo={`/${org.id}/organization/details`} />
      <section className="card max-w-2xl">
        <h2 className="mb-4 text-lg font-semibold">Organization details</h2>
        {isAdministrator ? null : (
          <p className="mb-4 text-sm text-slate-600">Only the organization's administrator can change these details.</p>
        )}
        <OrganizationForm
          key={org.updatedAt}
          lastResult={lastResult}
          readOnly={!isAdministrator}
          defaultValue={{
            name: org.name,
            address: org.address,
            phone_number: org.phoneNumber,
            email: org.email,
            more_info: org.moreInfo,
            time_zone: org.timeZone,
            retention_days: String(org.retentionDays),
          }}
          timeZones={timeZones}
          submitLabel="Update"
          pendingText="Updating…"
          intent="update"
        />
      </section>
      {isAdministrator ? (
        <section className="card max-w-2xl border-red-200">
          <h2 className="text-lg font-semibold text-red-800">Delete organization</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">
            Deletes the organization with its networks, access points, customers, connections, roles and administrators. This cannot be
            undone.
          </p>
          <ConfirmButton intent="delete" message={`Are you sure you want to delete ${org.name}?`}>
            Delete organization
          </ConfirmButton>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
