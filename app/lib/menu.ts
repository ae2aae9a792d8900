import { hasAny, type Permission } from "./permissions";

// The left menu of the dashboard shell (docs/guide/organizations.md#shell), as data. Paths are
// relative to /{orgId}; a check passes when any one listed permission is held
// (docs/guide/access-control.md#what-each-permission-shows). Reports have no check; Survey and
// Ads take the view_/edit_ permissions Mlango added (the old client checked none:
// docs/guide/access-control.md#differences-from-the-old-client). It gave M-Pesa none either, but
// its page sells internet like Subscriptions: it takes view_subscriptions
// (MPESA_TRANSACTIONS_PERMISSION).

export interface MenuItem {
  label: string;
  /** Relative to /{orgId}; "" is the organisation's home. Sections without a page of their own have none. */
  path?: string;
  /** Any one of these is enough; none listed means no check. */
  permissions?: readonly Permission[];
  /** Exists (its page is reachable) but is not listed in the menu. */
  hidden?: boolean;
  children?: readonly MenuItem[];
}

export const MENU: readonly MenuItem[] = [
  { label: "Dashboard", path: "" },
  { label: "Networks", path: "venues", permissions: ["view_networks"] },
  { label: "Splash Pages", path: "splash_pages", permissions: ["view_splash_pages"] },
  { label: "Connections", path: "connections", permissions: ["view_clients"] },
  {
    label: "Customers",
    children: [
      { label: "Customers", path: "customers", permissions: ["view_clients"] },
      { label: "Groups", path: "groups", permissions: ["view_groups"] },
      { label: "New Group", path: "groups/new", permissions: ["create_groups"] },
    ],
  },
  {
    label: "Marketing",
    permissions: ["view_broadcasts", "create_broadcasts"],
    children: [
      { label: "Broadcast Messages", path: "broadcasts" },
      { label: "New Message", path: "broadcasts/create", permissions: ["create_broadcasts", "create_groups"] },
    ],
  },
  {
    label: "Survey",
    permissions: ["view_surveys", "edit_surveys"],
    children: [
      { label: "Create Survey", path: "surveys/create", permissions: ["edit_surveys"] },
      { label: "Survey List", path: "surveys", permissions: ["view_surveys"] },
      { label: "Survey Analytics", path: "surveys/report", permissions: ["view_surveys"] },
    ],
  },
  {
    label: "Ads",
    permissions: ["view_ads", "edit_ads"],
    children: [
      { label: "Dashboard", path: "ads", permissions: ["view_ads"] },
      { label: "Create Campaign", path: "ads/create", permissions: ["edit_ads"] },
      { label: "Campaign List", path: "ads/campaigns", permissions: ["view_ads"] },
      { label: "Analytics", path: "ads/analytics", permissions: ["view_ads"] },
    ],
  },
  {
    label: "Advanced",
    children: [
      {
        label: "Fair Usage",
        children: [
          { label: "Free plan", path: "free_plan/free", permissions: ["view_service_plan"] },
          { label: "Bandwidth Policies", path: "bandwidth_policies", permissions: ["view_bandwidth_policy"] },
        ],
      },
      {
        label: "Prepaid",
        children: [
          { label: "Service Plans", path: "service_plans", permissions: ["view_service_plan"] },
          { label: "Subscriptions", path: "subscriptions", permissions: ["view_subscriptions"] },
          { label: "Vouchers", path: "vouchers", permissions: ["view_vouchers"] },
          { label: "M-Pesa Transactions", path: "prepaid/mpesa-transactions", permissions: ["view_subscriptions"] },
          { label: "Payment Exceptions", path: "prepaid/payment-exceptions", permissions: ["view_subscriptions"] },
        ],
      },
    ],
  },
  { label: "Settings", path: "organization", permissions: ["view_settings"] },
  {
    label: "Reports",
    children: [
      { label: "Overview", path: "reports/overview" },
      { label: "First Timers", path: "reports/new_visitors" },
      { label: "Repeat Customers", path: "reports/repeat_visitors" },
      { label: "All Visitors", path: "reports/all_visitors" },
      { label: "Footfall", path: "reports/footfall", hidden: true },
    ],
  },
];

/** The menu as shown to a holder of these permissions (serialisable: no functions). */
export interface VisibleMenuItem {
  label: string;
  path?: string;
  children?: VisibleMenuItem[];
}

function passes(item: MenuItem, held: ReadonlySet<string> | readonly string[]): boolean {
  return !item.permissions?.length || hasAny(held, ...item.permissions);
}

/**
 * The items a user with these permissions sees: an item needs its own check and its section's;
 * hidden items are left out; a section without any visible item is left out.
 */
export function visibleMenu(held: ReadonlySet<string> | readonly string[], items: readonly MenuItem[] = MENU): VisibleMenuItem[] {
  const out: VisibleMenuItem[] = [];
  for (const item of items) {
    if (item.hidden || !passes(item, held)) continue;
    if (item.children) {
      const children = visibleMenu(held, item.children);
      if (children.length === 0) continue;
      out.push(item.path === undefined ? { label: item.label, children } : { label: item.label, path: item.path, children });
    } else {
      out.push(item.path === undefined ? { label: item.label } : { label: item.label, path: item.path });
    }
  }
  return out;
}

/** A menu entry found by path, with the sections above it and every permission check on the way. */
export interface MenuMatch {
  item: MenuItem;
  /** Labels of the sections above the item, outermost first (empty for top-level items). */
  sections: string[];
  /** Each entry is one check (any one of its permissions suffices); all must pass. */
  checks: (readonly Permission[])[];
}

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function isBelow(path: string, base: string): boolean {
  const p = segments(path);
  const b = segments(base);
  return b.length > 0 && b.length <= p.length && b.every((s, i) => s === p[i]);
}

function* walk(items: readonly MenuItem[], sections: string[], checks: (readonly Permission[])[]): Generator<MenuMatch> {
  for (const item of items) {
    const own = item.permissions?.length ? [...checks, item.permissions] : checks;
    if (item.path !== undefined) yield { item, sections, checks: own };
    if (item.children) yield* walk(item.children, [...sections, item.label], own);
  }
}

/**
 * The catalogue entry whose path is `relativePath` or the deepest one above it (hidden ones
 * included; the Dashboard's empty path matches only itself). null when none matches.
 */
export function findMenuItem(relativePath: string, items: readonly MenuItem[] = MENU): MenuMatch | null {
  const wanted = segments(relativePath).join("/");
  let best: MenuMatch | null = null;
  for (const match of walk(items, [], [])) {
    const path = match.item.path ?? "";
    const hit = path === "" ? wanted === "" : isBelow(wanted, path);
    if (hit && (!best || segments(path).length > segments(best.item.path ?? "").length)) best = match;
  }
  return best;
}

/** Whether a holder of these permissions passes every check of the matched entry. */
export function mayOpen(match: MenuMatch, held: ReadonlySet<string> | readonly string[]): boolean {
  return match.checks.every((check) => hasAny(held, ...check));
}

/**
 * The path of the visible entry to mark as current for a path relative to /{orgId}: the
 * deepest entry at or above it, so /groups/new marks New Group and /customers/12 marks Customers.
 */
export function currentMenuPath(menu: readonly VisibleMenuItem[], relativePath: string): string | null {
  const wanted = segments(relativePath).join("/");
  let best: string | null = null;
  const visit = (items: readonly VisibleMenuItem[]) => {
    for (const item of items) {
      if (item.path !== undefined) {
        const hit = item.path === "" ? wanted === "" : isBelow(wanted, item.path);
        if (hit && (best === null || segments(item.path).length > segments(best).length)) best = item.path;
      }
      if (item.children) visit(item.children);
    }
  };
  visit(menu);
  return best;
}
