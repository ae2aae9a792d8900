import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { EditDashboardToggle } from "~/components/shell/edit-dashboard-toggle";
import { ShellHeader } from "~/components/shell/header";
import { SideMenu } from "~/components/shell/side-menu";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { currentMenuPath, visibleMenu } from "~/lib/menu";
import { requireOrg } from "~/services/guard.server";
import { canCreateOrganization, listUserOrganizations, rememberOrganization } from "~/services/organizations.server";

// The dashboard shell of an organisation. This guard only shapes the shell: every route below
// runs its own (layout loaders run in parallel with their children).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const [organizations, canCreate, setCookie] = await Promise.all([
    listUserOrganizations(ctx.user.id),
    canCreateOrganization(ctx.user.id),
    // Opening an organisation in the route stores it as the session's organisation.
    rememberOrganization(request, ctx.org.id),
  ]);
  return json(
    {
      org: ctx.org,
      user: { name: [ctx.user.first_name, ctx.user.last_name].filter(Boolean).join(" "), email: ctx.user.email },
      organizations: organizations.map((o) => ({ id: o.id, name: o.name })),
      canCreate,
      menu: visibleMenu(ctx.permissions),
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export default function OrganizationShell() {
  const { org, user, organizations, canCreate, menu } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const relative = pathname.slice(`/${org.id}`.length).replace(/^\/+|\/+$/g, "");
  const search = relative === "customers" ? (searchParams.get("search") ?? "") : "";
  // With JavaScript, a link followed from the phone menu lands on a page with the menu folded again.
  const menuToggle = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (menuToggle.current) menuToggle.current.checked = false;
  }, [pathname]);
  return (
    <div className="flex min-h-full flex-col">
      <ShellHeader org={org} user={user} organizations={organizations} canCreate={canCreate} search={search} />
      <div className="flex flex-1 flex-col md:flex-row">
        <aside className="border-b border-slate-200 bg-white px-2 py-2 md:w-60 md:shrink-0 md:border-b-0 md:border-r md:py-4">
          {/* On a phone the menu folds behind a button: a checkbox and its label, so it opens without JavaScript. */}
          <input ref={menuToggle} id="main-menu-toggle" type="checkbox" aria-controls="main-menu" className="peer sr-only" />
          <label
            htmlFor="main-menu-toggle"
            className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 md:hidden"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2}>
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </svg>
            Menu
          </label>
          <div id="main-menu" className="hidden peer-checked:block md:block">
            <SideMenu orgId={org.id} items={menu} current={currentMenuPath(menu, relative)} />
            {relative === "" ? <EditDashboardToggle /> : null}
          </div>
        </aside>
        <main className="min-w-0 flex-1 p-4 md:p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <main className="min-h-full p-4">
      <GeneralErrorBoundary />
    </main>
  );
}
