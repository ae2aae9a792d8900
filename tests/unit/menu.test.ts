import { describe, expect, it } from "vitest";
import { MENU, currentMenuPath, findMenuItem, mayOpen, visibleMenu, type VisibleMenuItem } from "~/lib/menu";
import { ALL_PERMISSIONS, VIEW_PERMISSIONS } from "~/lib/permissions";

/** Every label path of a visible menu, e.g. "Customers/New Group". */
function labels(items: readonly VisibleMenuItem[], prefix = ""): string[] {
  return items.flatMap((item) => {
    const name = prefix + item.label;
    return [name, ...(item.children ? labels(item.children, `${name}/`) : [])];
  });
}

function paths(items: readonly VisibleMenuItem[]): string[] {
  return items.flatMap((item) => [...(item.path !== undefined ? [item.path] : []), ...(item.children ? paths(item.children) : [])]);
}

describe("visibleMenu", () => {
  it("shows every section and item of the spec to a holder of every permission, Footfall excepted", () => {
    expect(labels(visibleMenu(ALL_PERMISSIONS))).toEqual([
      "Dashboard",
      "Networks",
      "Splash Pages",
      "Connections",
      "Customers",
      "Customers/Customers",
      "Customers/Groups",
      "Customers/New Group",
      "Marketing",
      "Marketing/Broadcast Messages",
      "Marketing/New Message",
      "Survey",
      "Survey/Create Survey",
      "Survey/Survey List",
      "Survey/Survey Analytics",
      "Ads",
      "Ads/Dashboard",
      "Ads/Create Campaign",
      "Ads/Campaign List",
      "Ads/Analytics",
      "Advanced",
      "Advanced/Fair Usage",
      "Advanced/Fair Usage/Free plan",
      "Advanced/Fair Usage/Bandwidth Policies",
      "Advanced/Prepaid",
      "Advanced/Prepaid/Service Plans",
      "Advanced/Prepaid/Subscriptions",
      "Advanced/Prepaid/Vouchers",
      "Advanced/Prepaid/M-Pesa Transactions",
      "Advanced/Prepaid/Payment Exceptions",
      "Settings",
      "Reports",
      "Reports/Overview",
      "Reports/First Timers",
      "Reports/Repeat Customers",
      "Reports/All Visitors",
    ]);
    expect(paths(visibleMenu(ALL_PERMISSIONS))).not.toContain("reports/footfall");
  });

  it("shows only the unchecked entries (Dashboard, Reports) without permissions", () => {
    expect(labels(visibleMenu([]))).toEqual([
      "Dashboard",
      "Reports",
      "Reports/Overview",
      "Reports/First Timers",
      "Reports/Repeat Customers",
      "Reports/All Visitors",
    ]);
  });

  it("shows Survey and Ads by their view_ and edit_ permissions", () => {
    expect(labels(visibleMenu(["view_surveys"]))).toEqual(expect.arrayContaining(["Survey/Survey List", "Survey/Survey Analytics"]));
    expect(labels(visibleMenu(["view_surveys"]))).not.toContain("Survey/Create Survey");
    expect(labels(visibleMenu(["edit_surveys"]))).toEqual([
      "Dashboard",
      "Survey",
      "Survey/Create Survey",
      "Reports",
      "Reports/Overview",
      "Reports/First Timers",
      "Reports/Repeat Customers",
      "Reports/All Visitors",
    ]);
    expect(labels(visibleMenu(["view_ads"]))).toEqual(expect.arrayContaining(["Ads/Dashboard", "Ads/Campaign List", "Ads/Analytics"]));
    expect(labels(visibleMenu(["view_ads"]))).not.toContain("Ads/Create Campaign");
  });

  it("hides the create items from a read-only role", () => {
    const menu = paths(visibleMenu(VIEW_PERMISSIONS));
    expect(menu).toEqual(
      expect.arrayContaining(["venues", "splash_pages", "connections", "customers", "groups", "broadcasts", "organization"]),
    );
    expect(menu).not.toContain("groups/new");
    expect(menu).not.toContain("broadcasts/create");
  });

  it("shows the Marketing section with view_broadcasts or create_broadcasts, and New Message with create_broadcasts alone", () => {
    expect(labels(visibleMenu(["view_broadcasts"]))).toContain("Marketing/Broadcast Messages");
    expect(labels(visibleMenu(["view_broadcasts"]))).not.toContain("Marketing/New Message");
    expect(labels(visibleMenu(["create_broadcasts"]))).toEqual(
      expect.arrayContaining(["Marketing", "Marketing/Broadcast Messages", "Marketing/New Message"]),
    );
  });

  it("gates each entry by its own permission", () => {
    expect(paths(visibleMenu(["view_networks"]))).toContain("venues");
    expect(paths(visibleMenu(["view_splash_pages"]))).toContain("splash_pages");
    expect(paths(visibleMenu(["view_clients"]))).toEqual(expect.arrayContaining(["connections", "customers"]));
    expect(paths(visibleMenu(["view_groups"]))).toContain("groups");
    expect(paths(visibleMenu(["view_groups"]))).not.toContain("customers");
    expect(paths(visibleMenu(["create_groups"]))).toContain("groups/new");
    expect(paths(visibleMenu(["view_service_plan"]))).toEqual(expect.arrayContaining(["free_plan/free", "service_plans"]));
    expect(paths(visibleMenu(["view_bandwidth_policy"]))).toContain("bandwidth_policies");
    expect(paths(visibleMenu(["view_subscriptions"]))).toContain("subscriptions");
    expect(paths(visibleMenu(["view_vouchers"]))).toContain("vouchers");
    expect(paths(visibleMenu(["view_settings"]))).toContain("organization");
    expect(paths(visibleMenu(["view_networks"]))).not.toContain("organization");
  });

  it("leaves out a section none of whose items is visible", () => {
    expect(labels(visibleMenu([]))).not.toContain("Customers");
    expect(labels(visibleMenu([]))).not.toContain("Advanced/Fair Usage");
  });
});

describe("findMenuItem", () => {
  it("finds an entry by its path and by a path below it, with its sections", () => {
    expect(findMenuItem("ads")).toMatchObject({ item: { label: "Dashboard" }, sections: ["Ads"] });
    expect(findMenuItem("ads/banners/4")?.item.label).toBe("Dashboard");
    expect(findMenuItem("ads/create")?.item.label).toBe("Create Campaign");
    expect(findMenuItem("/groups/new/")?.item.label).toBe("New Group");
    expect(findMenuItem("free_plan/free")).toMatchObject({ item: { label: "Free plan" }, sections: ["Advanced", "Fair Usage"] });
  });

  it("finds the hidden Footfall report", () => {
    expect(findMenuItem("reports/footfall")?.item.label).toBe("Footfall");
  });

  it("finds nothing for unknown paths, and the Dashboard only for the empty path", () => {
    expect(findMenuItem("nonsense")).toBeNull();
    expect(findMenuItem("adsx")).toBeNull();
    expect(findMenuItem("")?.item.label).toBe("Dashboard");
  });

  it("collects the section's check and the item's own", () => {
    const match = findMenuItem("broadcasts/create")!;
    expect(match.checks).toEqual([
      ["view_broadcasts", "create_broadcasts"],
      ["create_broadcasts", "create_groups"],
    ]);
    expect(mayOpen(match, ["create_broadcasts"])).toBe(true);
    expect(mayOpen(match, ["view_broadcasts"])).toBe(false);
    expect(mayOpen(findMenuItem("ads/analytics")!, ["view_ads"])).toBe(true);
    expect(mayOpen(findMenuItem("ads/analytics")!, [])).toBe(false);
  });
});

describe("currentMenuPath", () => {
  const menu = visibleMenu(ALL_PERMISSIONS);

  it("marks the deepest entry at or above the path", () => {
    expect(currentMenuPath(menu, "")).toBe("");
    expect(currentMenuPath(menu, "groups/new")).toBe("groups/new");
    expect(currentMenuPath(menu, "groups/12/filters")).toBe("groups");
    expect(currentMenuPath(menu, "customers/12")).toBe("customers");
    expect(currentMenuPath(menu, "organization/details")).toBe("organization");
  });

  it("marks nothing for a path outside the menu", () => {
    expect(currentMenuPath(menu, "profile")).toBeNull();
  });

  it("every catalogue path is unique", () => {
    const all: string[] = [];
    const visit = (items: typeof MENU) =>
      items.forEach((i) => {
        if (i.path !== undefined) all.push(i.path);
        if (i.children) visit(i.children);
      });
    visit(MENU);
    expect(new Set(all).size).toBe(all.length);
  });
});
