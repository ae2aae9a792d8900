import { NavLink } from "@remix-run/react";

interface MenuItem {
  to: string;
  label: string;
  show: boolean;
}

/** The side menu of the organisation profile (docs/guide/access-control.md#routes). */
export function OrganizationMenu({ canInvite, canAddRole }: { canInvite: boolean; canAddRole: boolean }) {
  const items: MenuItem[] = [
    { to: "administrators", label: "Administrators", show: true },
    { to: "invite", label: "Invite administrators", show: canInvite },
    { to: "roles", label: "Roles", show: true },
    { to: "roles/new", label: "Add role", show: canAddRole },
    { to: "details", label: "Details", show: true },
    { to: "social-login", label: "Guest sign-in", show: true },
    { to: "mpesa", label: "M-Pesa", show: true },
    { to: "sms", label: "SMS", show: true },
  ];
  return (
    <nav aria-label="Organization" className="card p-2">
      <ul className="space-y-1">
        {items
          .filter((i) => i.show)
          .map((i) => (
            <li key={i.to}>
              <NavLink
                to={i.to}
                end={i.to === "roles"}
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-indigo-50 font-semibold text-indigo-700" : "text-slate-700 hover:bg-slate-50"}`
                }
              >
                {i.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}
