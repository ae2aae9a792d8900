// The permission catalogue: every identifier the three spec documents name.
// Role types: r_w holds all of them, r holds every view_*, custom holds the chosen ones.

export const PERMISSIONS = [
  { identifier: "view_networks", name: "View networks", description: "See the Networks menu and network pages." },
  { identifier: "create_networks", name: "Create networks", description: "Create networks (venues)." },
  { identifier: "edit_networks", name: "Edit networks", description: "Update network settings." },
  { identifier: "edit_network_layout", name: "Edit network layout", description: "Upload or change a network's layout and map." },
  { identifier: "create_ap", name: "Create access points", description: "Add access points to a network." },
  { identifier: "edit_ap", name: "Edit access points", description: "Update access points." },
  { identifier: "delete_ap", name: "Delete access points", description: "Delete access points." },
  {
    identifier: "view_clients",
    name: "View clients",
    description:
      "See guests' names and contacts: the Connections and Customers menus, and the visitor lists of reports with their exports.",
  },
  { identifier: "edit_clients", name: "Edit clients", description: "Update a customer's account information." },
  { identifier: "edit_connections", name: "Edit connections", description: "Close live connections." },
  { identifier: "view_splash_pages", name: "View splash pages", description: "See the Splash Pages menu and published pages." },
  { identifier: "create_splash_pages", name: "Create splash pages", description: "Create splash pages." },
  { identifier: "edit_splash_pages", name: "Edit splash pages", description: "Set up and edit splash pages and their options." },
  { identifier: "delete_splash_pages", name: "Delete splash pages", description: "Delete splash pages." },
  { identifier: "publish_splash_pages", name: "Publish splash pages", description: "Publish splash pages to guests." },
  {
    identifier: "change_splash_pages_presentation",
    name: "Change splash page presentation",
    description: "Save display rules for splash pages.",
  },
  { identifier: "view_groups", name: "View groups", description: "See customer groups." },
  { identifier: "create_groups", name: "Create groups", description: "Create groups, messages and schedules." },
  { identifier: "delete_groups", name: "Delete groups", description: "Delete groups and broadcasts." },
  { identifier: "view_broadcasts", name: "View broadcasts", description: "See broadcast messages." },
  { identifier: "create_broadcasts", name: "Create broadcasts", description: "Create broadcast messages." },
  { identifier: "view_service_plan", name: "View service plans", description: "See the free plan and service plans." },
  { identifier: "create_service_plan", name: "Create service plans", description: "Create service plans." },
  { identifier: "edit_service_plan", name: "Edit service plans", description: "Update service plans." },
  { identifier: "delete_service_plan", name: "Delete service plans", description: "Delete service plans." },
  { identifier: "view_bandwidth_policy", name: "View bandwidth policies", description: "See bandwidth policies." },
  { identifier: "create_bandwidth_policy", name: "Create bandwidth policies", description: "Create bandwidth policies." },
  { identifier: "edit_bandwidth_policy", name: "Edit bandwidth policies", description: "Update bandwidth policies." },
  { identifier: "delete_bandwidth_policy", name: "Delete bandwidth policies", description: "Delete bandwidth policies." },
  { identifier: "view_subscriptions", name: "View subscriptions", description: "See prepaid subscriptions." },
  { identifier: "view_vouchers", name: "View vouchers", description: "See vouchers." },
  // Not in the spec (its vouchers screens check view_vouchers only): generating codes sells internet.
  { identifier: "edit_vouchers", name: "Generate vouchers", description: "Generate voucher codes and edit voucher groups." },
  // Not in the spec (it shows no checks for surveys and ads): answers are guests' data,
  // and campaigns carry an advertiser's revenue.
  { identifier: "view_surveys", name: "View surveys", description: "See surveys, their responses and the survey report with its exports." },
  { identifier: "edit_surveys", name: "Edit surveys", description: "Create, edit and delete surveys." },
  { identifier: "view_ads", name: "View ads", description: "See ad campaigns, banners, the ads dashboard and analytics." },
  { identifier: "edit_ads", name: "Edit ads", description: "Create, edit, pause and delete ad campaigns and banners." },
  { identifier: "view_settings", name: "View settings", description: "See the organization's settings and access control." },
  { identifier: "create_organizations", name: "Create organizations", description: "Create further organizations." },
  { identifier: "create_administrators", name: "Invite administrators", description: "Invite administrators and open the Add role form." },
  { identifier: "edit_administrators", name: "Edit administrators", description: "Change an administrator's role." },
  { identifier: "delete_administrators", name: "Delete administrators", description: "Remove administrators." },
  { identifier: "create_roles", name: "Create roles", description: "Create roles." },
  { identifier: "update_roles", name: "Update roles", description: "Update role details and permissions." },
  { identifier: "edit_roles", name: "Edit role permissions", description: "Tick and untick a role's permissions." },
  { identifier: "delete_roles", name: "Delete roles", description: "Delete roles." },
] as const;

export type Permission = (typeof PERMISSIONS)[number]["identifier"];

/**
 * Guests' personal data — names, phone numbers, e-mail addresses, social ids — wherever it is shown
 * (customers, connections, devices, visitor lists and their CSV exports) needs this permission.
 * Figures about guests (counts, totals, charts) need only membership or view_networks.
 */
export const PERSONAL_DATA_PERMISSION: Permission = "view_clients";

export const ALL_PERMISSIONS: readonly Permission[] = PERMISSIONS.map((p) => p.identifier);
export const VIEW_PERMISSIONS: readonly Permission[] = ALL_PERMISSIONS.filter((p) => p.startsWith("view_"));

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** A check passes if any one of the listed permissions is held (docs/guide/access-control.md#what-each-permission-shows). */
export function hasAny(held: ReadonlySet<string> | readonly string[], ...wanted: Permission[]): boolean {
  const set = held instanceof Set ? held : new Set(held as readonly string[]);
  return wanted.some((p) => set.has(p));
}

// Messages the spec gives for refused actions, word for word; the others share one sentence.
export const PERMISSION_MESSAGES: Partial<Record<Permission, string>> = {
  edit_administrators: "Not allowed to edit organization administrators",
  delete_administrators: "Not allowed to delete organization administrators",
  update_roles: "Not allowed to update role details.",
  edit_roles: "Not allowed to change role permissions",
  delete_roles: "Not allowed to delete administrator roles",
  edit_splash_pages: "Not allowed to edit splash page",
};

export function refusalMessage(permission: Permission): string {
  return PERMISSION_MESSAGES[permission] ?? "You do not have permission to do that.";
}

export const ROLE_TYPES = [
  { value: "r", label: "Read only" },
  { value: "r_w", label: "Full access" },
  { value: "custom", label: "Custom" },
] as const;
export type RoleTypeValue = (typeof ROLE_TYPES)[number]["value"];
