import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { OrganizationMenu } from "~/components/access-control/organization-menu";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { requireOrg } from "~/services/guard.server";
import { canInvite } from "~/services/invitations.server";

export const meta: MetaFunction = () => [{ title: "Organization | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  return json({
    orgName: ctx.org.name,
    canInvite: canInvite(ctx),
    canAddRole: ctx.permissions.has("create_administrators"),
  });
}

/** The organisation profile: a side menu (access control and details) beside the chosen page. */
export default function OrganizationLayout() {
  const { orgName, canInvite, canAddRole } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl">
      <header className="mb-4">
        <p className="text-sm text-slate-500">Organization</p>
        <h1 className="text-2xl font-semibold">{orgName}</h1>
      </header>
      <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
        <aside>
          <OrganizationMenu canInvite={canInvite} canAddRole={canAddRole} />
        </aside>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
