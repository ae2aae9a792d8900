import { NavLink } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";

const ITEMS = [
  { to: "overview", label: "Overview", clients: false },
  { to: "connections", label: "Connections", clients: true },
  { to: "devices", label: "Devices", clients: true },
  { to: "customers", label: "Clients", clients: true },
  { to: "settings", label: "Settings", clients: false },
] as const;

/**
 * The access point's side menu (docs/guide/access-points.md#access-point-details); Delete asks
 * first and posts to the settings page, whose action deletes (and, without JavaScript, asks
 * there). The tabs of customer data (connections, devices, clients) need view_clients.
 */
export function AccessPointMenu({
  base,
  deleteQuestion,
  canViewClients,
}: {
  base: string;
  deleteQuestion: string | null;
  canViewClients: boolean;
}) {
  return (
    <nav aria-label="Access point" className="card p-2">
      <ul className="space-y-1">
        {ITEMS.filter((item) => canViewClients || !item.clients).map((item) => (
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
