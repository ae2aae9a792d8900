import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { confirmationNeeded } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { DELETE_BROADCAST_QUESTION } from "~/lib/schemas/broadcasts";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { DELETE_BROADCASTS, deleteBroadcast, getBroadcast, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.broadcast.title} · Broadcasts · Mlango` : "Mlango" },
];

// broadcast/{id}/{path?} (docs/guide/marketing.md#broadcasts): the frame of a broadcast's
// sections (messages, email, sms, schedules, settings) and its Delete (delete_groups). Each
// section's route runs its own guard.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const broadcast = await getBroadcast(ctx, parseId(params.id));
  return json({
    orgId: ctx.org.id,
    broadcast: { id: broadcast.id, title: broadcast.title, description: broadcast.description },
    canDelete: ctx.permissions.has(DELETE_BROADCASTS),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const form = await request.formData();
  if (form.get("intent") !== "delete") return json({ message: "Unknown action." }, { status: 400 });
  requirePermission(ctx, DELETE_BROADCASTS);
  const id = parseId(params.id);
  const ask = confirmationNeeded(form, "delete", DELETE_BROADCAST_QUESTION);
  if (ask) {
    await getBroadcast(ctx, id); // 404 before asking about a broadcast that is not there
    return json(ask);
  }
  const outcome = await deleteBroadcast(ctx, id);
  if (!outcome.ok) return json({ message: outcome.message }, { status: 409 });
  return redirectWithToast(request, `/${ctx.org.id}/broadcasts`, { type: "info", message: outcome.message });
}

const SECTIONS = [
  { to: "", label: "Messages" },
  { to: "email", label: "E-mail" },
  { to: "sms", label: "SMS" },
  { to: "schedules", label: "Schedules" },
  { to: "settings", label: "Settings" },
] as const;

export default function BroadcastLayout() {
  const { orgId, broadcast, canDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const base = `/${orgId}/broadcast/${broadcast.id}`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/broadcasts`} className="link">
          Broadcast messages
        </Link>{" "}
        › <span>{broadcast.title}</span>
      </nav>
      <ActionFeedback actionData={actionData} cancelTo={base} />
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-medium uppercase tracking-wide text-slate-500">Broadcast</p>
          <h1 className="text-2xl font-semibold">{broadcast.title}</h1>
          {broadcast.description ? <p className="mt-1 text-sm text-slate-600">{broadcast.description}</p> : null}
        </div>
        {canDelete ? (
          <ConfirmButton intent="delete" message={DELETE_BROADCAST_QUESTION}>
            Delete
          </ConfirmButton>
        ) : null}
      </header>
      <nav aria-label="Broadcast" className="border-b border-slate-200">
        <ul className="-mb-px flex flex-wrap gap-1 text-sm">
          {SECTIONS.map((s) => (
            <li key={s.label}>
              <NavLink
                to={s.to ? `${base}/${s.to}` : base}
                end
                className={({ isActive }) =>
                  `inline-block border-b-2 px-3 py-2 ${isActive ? "border-indigo-600 font-semibold text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
                }
              >
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
