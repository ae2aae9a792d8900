import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { AccessPointMenu } from "~/components/access-points/access-point-menu";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { accessPointDeleteQuestion, getAccessPoint } from "~/services/access-points.server";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.ap.name} · Access point · Mlango` : "Mlango" }];

// The access point details frame: breadcrumb, name, MAC and the side menu. Each page below runs
// its own guard; this one only shapes the frame.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const ap = await getAccessPoint(ctx, parseId(params.apId));
  return json({
    orgId: ctx.org.id,
    ap: { id: ap.id, name: ap.name, mac_address: ap.mac_address, venue_id: ap.venue_id, venue_name: ap.venue_name },
    deleteQuestion: ctx.permissions.has("delete_ap") ? accessPointDeleteQuestion(ap.name) : null,
    canViewClients: ctx.permissions.has("view_clients"),
  });
}

export default function AccessPointDetails() {
  const { orgId, ap, deleteQuestion, canViewClients } = useLoaderData<typeof loader>();
  const base = `/${orgId}/ap/${ap.id}`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/venues`} className="link">
          Networks
        </Link>{" "}
        ›{" "}
        <Link to={`/${orgId}/venues/${ap.venue_id}/access-points`} className="link">
          {ap.venue_name}
        </Link>{" "}
        › <span>{ap.name}</span>
      </nav>
      <header>
        <h1 className="text-2xl font-semibold">{ap.name}</h1>
        <p className="mt-1 font-mono text-sm text-slate-600">{ap.mac_address || "Not available"}</p>
      </header>
      <div className="grid gap-4 md:grid-cols-[12rem_1fr]">
        <aside>
          <AccessPointMenu base={base} deleteQuestion={deleteQuestion} canViewClients={canViewClients} />
        </aside>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
