import { NavLink, useLocation } from "@remix-run/react";

/** The network profile's tabs (docs/guide/networks.md#network-profile); Layout Designer and Map are H3's pages. */
export const VENUE_TABS = [
  { to: "overview", label: "Overview" },
  { to: "layout", label: "Layout Designer" },
  { to: "map", label: "Map" },
  { to: "connections", label: "Connections" },
  { to: "devices", label: "Devices" },
  { to: "clients", label: "Clients" },
  { to: "access-points", label: "Access points" },
  { to: "settings", label: "Settings" },
  { to: "radius", label: "RADIUS" },
] as const;

/** Tabs listing customer data: shown to holders of view_clients only. */
export const CLIENT_TABS: readonly string[] = ["connections", "devices", "clients"];

/** Tabs that read the profile's date range. */
export const RANGED_TABS: readonly string[] = ["overview", "connections", "devices", "clients", "access-points"];

/** The current tab of a network profile path (/{orgId}/venues/{venueId}/{tab}/…). */
export function currentVenueTab(pathname: string): string {
  return pathname.split("/").filter(Boolean)[3] ?? "overview";
}

/** Plain links that carry the chosen date range from tab to tab, so they work without JavaScript. */
export function VenueMenu({ base, canViewClients }: { base: string; canViewClients: boolean }) {
  const { search } = useLocation();
  const range = new URLSearchParams();
  const current = new URLSearchParams(search);
  for (const key of ["start", "end"]) {
    const value = current.get(key);
    if (value) range.set(key, value);
  }
  const query = range.size ? `?${range}` : "";
  return (
    <nav aria-label="Network" className="border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1 text-sm">
        {VENUE_TABS.filter((tab) => canViewClients || !CLIENT_TABS.includes(tab.to)).map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={`${base}/${tab.to}${query}`}
              className={({ isActive }) =>
                `inline-block border-b-2 px-3 py-2 ${isActive ? "border-indigo-600 font-semibold text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
