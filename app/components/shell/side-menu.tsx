import { Link } from "@remix-run/react";
import type { VisibleMenuItem } from "~/lib/menu";

/** The link of a menu path relative to /{orgId}. */
export function menuHref(orgId: number, path: string): string {
  return path === "" ? `/${orgId}` : `/${orgId}/${path}`;
}

interface SideMenuProps {
  orgId: number;
  items: readonly VisibleMenuItem[];
  /** The path (relative to /{orgId}) of the entry to mark as the current page. */
  current: string | null;
}

/** The left menu of an organisation: plain links in nested lists, so it needs no JavaScript. */
export function SideMenu({ orgId, items, current }: SideMenuProps) {
  return (
    <nav aria-label="Main" className="text-sm">
      <MenuList orgId={orgId} items={items} current={current} depth={0} />
    </nav>
  );
}

function MenuList({ orgId, items, current, depth }: SideMenuProps & { depth: number }) {
  return (
    <ul className={depth === 0 ? "space-y-1" : "mt-1 space-y-1 pl-3"}>
      {items.map((item) => (
        <li key={`${item.label}:${item.path ?? ""}`}>
          {item.path !== undefined ? (
            <Link
              to={menuHref(orgId, item.path)}
              aria-current={item.path === current ? "page" : undefined}
              className={
                item.path === current
                  ? "block rounded-md bg-indigo-50 px-3 py-1.5 font-medium text-indigo-700"
                  : "block rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100"
              }
            >
              {item.label}
            </Link>
          ) : (
            <span
              className={
                depth === 0
                  ? "mt-3 block px-3 text-xs font-semibold uppercase tracking-wide text-slate-500"
                  : "mt-2 block px-3 text-xs font-medium text-slate-500"
              }
            >
              {item.label}
            </span>
          )}
          {item.children ? <MenuList orgId={orgId} items={item.children} current={current} depth={depth + 1} /> : null}
        </li>
      ))}
    </ul>
  );
}
