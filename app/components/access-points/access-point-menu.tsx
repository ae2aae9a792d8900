import { NavLink } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";

const ITEMS = [
  { to: "overview", label: "Overview" },
  { to: "connections", label: "Connections" },
  { to: "devices", label: "Devices" },
  { to: "customers", label: "Clients" },
  { to: "settings", label: "Settings" },
] as const;

/**
 * The access point's side menu (spec 2 §2 "Access point details"); Delete asks first and posts to
 * the settings page, whose action deletes (and, without JavaScript, asks there).
 */
export function AccessPointMenu({ base, deleteQuestion }: { base: string; deleteQuestion: string | null }) {
  return (
    <nav aria-label="Access point" className="card p-2">
      <ul className="space-y-1">
        {ITEMS.map((item) => (
          <li key={item.to}>
            <NavLink
              to={`${base}/${item.to}`}
              className={({ isActive }) =>
                `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-indigo-50 font-semibold text-indigo-700" : "text-slate-700 hover:bg-slate-50"}`
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
        {deleteQuestion ? (
          <li className="px-3 py-2">
            <ConfirmButton intent="delete" message={deleteQuestion} action={`${base}/settings`} className="btn-danger w-full">
              Delete
            </ConfirmButton>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
