import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { confirmationNeeded } from "~/lib/confirm";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { INVITATION_INTENTS } from "~/lib/schemas/organizations";
import { formatUtcDateTime } from "~/lib/time";
import { requireUser } from "~/services/guard.server";
import {
  ORGANIZATION_REFUSALS,
  canCreateOrganization,
  findMembership,
  listMemberships,
  redirectWithOrganization,
  respondToInvitation,
} from "~/services/organizations.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Organizations · Mlango" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = parseListParams(new URL(request.url).searchParams);
  const [{ rows, total }, canCreate] = await Promise.all([listMemberships(user.id, params), canCreateOrganization(user.id)]);
  return json({
    page: params.page,
    pageSize: params.pageSize,
    offset: params.offset,
    total,
    canCreate,
    memberships: rows.map((r) => ({
      organizationId: r.id,
      name: r.name,
      address: r.address,
      email: r.email_address,
      phoneNumber: r.phone_number,
      description: r.more_info,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      status: r.status,
      isOwner: r.is_owner,
      actions: r.actions,
    })),
  });
}

// Accept, Decline or Delete (leave) a membership: PUT administrators {status, organization_id}.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const status = Object.hasOwn(INVITATION_INTENTS, intent) ? INVITATION_INTENTS[intent] : undefined;
  if (!status) return json({ message: "Unknown action." }, { status: 400 });
  const membership = await findMembership(user.id, form.get("organization_id"));
  if (membership.is_owner === 1 && status !== "Accepted") {
    return json({ message: ORGANIZATION_REFUSALS.ownerCannotLeave }, { status: 403 });
  }
  if (status === "Delete") {
    const ask = confirmationNeeded(form, intent, `Are you sure you want to delete ${membership.name}?`, {
      organization_id: membership.id,
    });
    if (ask) return json(ask);
  }
  const message = await respondToInvitation(user.id, membership.id, status);
  if (status === "Accepted") return redirectWithToast(request, "/organizations", message);
  // Leaving or declining the organisation stored in the session forgets it there.
  return redirectWithOrganization(request, "/organizations", message, { forget: membership.id });
}

const STATUS_LABELS: Record<string, string> = { Accepted: "Accepted", Declined: "Declined", Pending: "Pending invitation" };

export default function Organizations() {
  const { memberships, canCreate, page, pageSize, offset, total } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link to="/" className="link text-sm">
            ← Select organization
          </Link>
          <h1 className="mt-1 text-2xl font-semibold">Organizations</h1>
        </div>
        {canCreate ? (
          <Link to="/organizations/create" className="btn-primary">
            New organization
          </Link>
        ) : null}
      </div>

      <div className="mt-6">
        <ActionFeedback actionData={actionData} cancelTo="/organizations" />
      </div>

      <section className="card">
        <DataTable
          rows={memberships}
          rowKey={(m) => m.organizationId}
          empty="You have no organizations and no invitations."
          columns={[
            { header: "#", nowrap: true, cell: (_m, i) => rowNumber({ offset }, i) },
            {
              header: "Name",
              cell: (m) =>
                m.status === "Accepted" ? (
                  <Link to={`/${m.organizationId}`} className="link font-medium">
                    {m.name}
                  </Link>
                ) : (
                  <span className="font-medium">{m.name}</span>
                ),
            },
            { header: "Address", cell: (m) => m.address },
            { header: "Email", long: true, cell: (m) => m.email },
            { header: "Phone number", nowrap: true, cell: (m) => m.phoneNumber },
            { header: "Description", cell: (m) => m.description },
            { header: "Created at", nowrap: true, cell: (m) => formatUtcDateTime(m.createdAt) },
            { header: "Last updated", nowrap: true, cell: (m) => formatUtcDateTime(m.updatedAt) },
            { header: "Status", cell: (m) => (m.isOwner ? "Administrator" : STATUS_LABELS[m.status]) },
          ]}
          actions={(m) =>
            m.actions.accept || m.actions.decline || m.actions.delete || m.isOwner ? (
              <>
                {m.actions.accept || m.actions.decline ? (
                  <Form method="post" className="inline-flex gap-2">
                    <input type="hidden" name="organization_id" value={m.organizationId} />
                    {m.actions.accept ? (
                      <button type="submit" name="intent" value="accept" className="btn-primary">
                        Accept
                      </button>
                    ) : null}
                    {m.actions.decline ? (
                      <button type="submit" name="intent" value="decline" className="btn-secondary">
                        Decline
                      </button>
                    ) : null}
                  </Form>
                ) : null}
                {m.actions.delete ? (
                  <ConfirmButton
                    intent="delete"
                    message={`Are you sure you want to delete ${m.name}?`}
                    fields={{ organization_id: m.organizationId }}
                  >
                    Delete
                  </ConfirmButton>
                ) : null}
                {m.isOwner ? (
                  <Link to={`/${m.organizationId}/organization/details`} className="link text-sm">
                    Manage
                  </Link>
                ) : null}
              </>
            ) : null
          }
        />
      </section>
      <Pagination page={page} pageSize={pageSize} total={total} />
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
