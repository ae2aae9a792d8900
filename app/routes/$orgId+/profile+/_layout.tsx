import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Profile | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, org } = await requireOrg(request, params);
  return json({
    orgId: org.id,
    user: {
      name: [user.first_name, user.middle_name, user.last_name].filter(Boolean).join(" "),
      email: user.email,
      phoneNumber: user.phone_number,
    },
  });
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-indigo-50 font-semibold text-indigo-700" : "text-slate-700 hover:bg-slate-50"}`;

/** The user profile (docs/guide/accounts.md#profile): who is signed in, a sidebar, and the chosen panel. */
export default function ProfileLayout() {
  const { orgId, user } = useLoaderData<typeof loader>();
  // Billing and My Account both lead to the account panel; Settings is hidden (docs/guide/accounts.md#profile).
  const items = [
    { to: `/${orgId}/connections`, label: "Connections", end: false },
    { to: `/${orgId}/profile`, label: "Billing", end: true, plain: true },
    { to: `/${orgId}/profile`, label: "My Account", end: true },
    { to: `/${orgId}/profile/password`, label: "Reset Password", end: true },
    { to: `/${orgId}/profile/tokens`, label: "API tokens", end: true },
  ];
  return (
    <div className="mx-auto max-w-5xl">
      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <aside className="space-y-4">
          <section className="card p-4" aria-label="Signed-in user">
            <p className="text-lg font-semibold">{user.name}</p>
            <p className="text-sm text-slate-600">{user.phoneNumber}</p>
            <p className="break-all text-sm text-slate-600">{user.email}</p>
          </section>
          <nav aria-label="Profile" className="card p-2">
            <ul className="space-y-1">
              {items.map((item) => (
                <li key={item.label}>
                  <NavLink to={item.to} end={item.end} className={item.plain ? () => linkClass({ isActive: false }) : linkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
