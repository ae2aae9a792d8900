import { Link, useLocation } from "@remix-run/react";

/**
 * The menu's Edit Dashboard toggle (docs/guide/dashboard.md#controls: shown only on the home
 * dashboard). Edit mode is the `edit=1` URL param, so the toggle is a plain link and works without
 * JavaScript.
 */
export function EditDashboardToggle() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const on = params.get("edit") === "1";
  if (on) params.delete("edit");
  else params.set("edit", "1");
  const search = params.toString();
  return (
    <Link
      to={`${location.pathname}${search ? `?${search}` : ""}`}
      role="switch"
      aria-checked={on}
      className="mx-3 mt-4 flex items-center justify-between rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
    >
      <span>Edit Dashboard</span>
      <span aria-hidden="true" className={`relative inline-block h-4 w-7 rounded-full ${on ? "bg-indigo-600" : "bg-slate-300"}`}>
        <span className={`absolute top-0.5 h-3 w-3 rounded-full bg-white ${on ? "left-3.5" : "left-0.5"}`} />
      </span>
    </Link>
  );
}
