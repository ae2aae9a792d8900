import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildAccessPoint, buildConnection, buildCustomer, buildDevice, buildVenue } from "~/tools/factories.server";
import { loader as splatLoader } from "~/routes/$orgId+/$";
import { loader as layoutLoader } from "~/routes/$orgId+/_layout";
import { loader as homeLoader } from "~/routes/$orgId+/_dashboard+/_index";
import { sessionStorage } from "~/services/session.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";

interface MenuNode {
  label: string;
  path?: string;
  children?: MenuNode[];
}
const menuPaths = (items: MenuNode[]): string[] =>
  items.flatMap((i) => [...(i.path !== undefined ? [i.path] : []), ...(i.children ? menuPaths(i.children) : [])]);

const args = (path: string, cookie: string, orgId: string, extra: Record<string, string> = {}) => ({
  request: makeRequest(path, { cookie }),
  params: { orgId, ...extra },
  context: {},
});

/** A network with an access point, two customers with a device each, and connections (one online). */
async function seedActivity(orgId: number, now = Date.now()) {
  const venue = await db
    .insertInto("venues")
    .values(buildVenue(orgId, { name: "Lobby" }))
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("access_points").values(buildAccessPoint(orgId, venue.id)).execute();
  for (let n = 0; n < 2; n++) {
    const customer = await db.insertInto("customers").values(buildCustomer(orgId)).returning("id").executeTakeFirstOrThrow();
    await db
      .insertInto("devices")
      .values(buildDevice(orgId, { customer_id: customer.id }))
      .execute();
  }
  const at = (fields: Parameters<typeof buildConnection>[1]) => buildConnection(orgId, { venue_id: venue.id, ...fields });
  await db
    .insertInto("connections")
    .values([
      at({ created_at: now - 3000 }), // portal visit only
      at({ created_at: now - 2000, authorized_at: now - 1900, ended_at: now - 100 }), // ended
      at({ created_at: now - 1000, authorized_at: now - 900 }), // online
    ])
    .execute();
}

describe("organisation home (/{orgId})", () => {
  it("shows the organisation's own counts only", async () => {
    const { org, owner } = await makeOrg("Counted");
    const { org: other } = await makeOrg("Elsewhere");
    await seedActivity(org.id);
    await seedActivity(other.id);
    const res = await run(async () => homeLoader(args(`/${org.id}`, await sessionCookie(owner.id), String(org.id))));
    const data = await res.json();
    expect(data.org).toEqual({ id: org.id, name: "Counted", clock: { timeZone: "UTC", offsetMs: 0 } });
    // The default dashboard starts with the organisation overview dashlet.
    expect(data.dashlets.organization_overview).toEqual({
      venuesCount: 1,
      accessPointsCount: 1,
      customersCount: 2,
      devicesCount: 2,
      connectionsCount: 3,
      onlineConnectionsCount: 1,
    });
  });

  it("answers 404 for another organisation, malformed ids and ids beyond the id column", async () => {
    const { owner } = await makeOrg("Mine");
    const { org: foreign } = await makeOrg("Theirs");
    const cookie = await sessionCookie(owner.id);
    for (const orgId of [String(foreign.id), "abc", "0", "99999999999999999999"]) {
      expect((await run(() => homeLoader(args(`/${orgId}`, cookie, orgId)))).status, orgId).toBe(404);
      expect((await run(() => layoutLoader(args(`/${orgId}`, cookie, orgId)))).status, orgId).toBe(404);
    }
  });

  it("sends a visitor without a session to login", async () => {
    const res = await run(() => homeLoader({ request: makeRequest("/5"), params: { orgId: "5" }, context: {} }));
    expect(res.status).toBe(302);
  });
});

describe("dashboard shell (layout of /{orgId})", () => {
  it("gives the user, the organisation, the accepted organisations and the full menu to the owner", async () => {
    const owner = await makeUser({ first_name: "Wanjiru", last_name: "Kamau" });
    const { org } = await makeOrg("Shell Cafe", owner);
    const { org: second } = await makeOrg("Second", owner);
    const { org: pending } = await makeOrg("Pending");
    await db
      .insertInto("administrators")
      .values({
        organization_id: pending.id,
        user_id: owner.id,
        role_id: null,
        invited_email_address: null,
        status: "Pending",
        is_owner: 0,
        invite_token_hash: null,
        invited_by_user_id: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    const res = await run(async () => layoutLoader(args(`/${org.id}`, await sessionCookie(owner.id, org.id), String(org.id))));
    const data = await res.json();
    expect(data.org).toEqual({ id: org.id, name: "Shell Cafe", clock: { timeZone: "UTC", offsetMs: 0 } });
    expect(data.user).toEqual({ name: "Wanjiru Kamau", email: owner.email });
    expect(data.organizations.map((o: { id: number }) => o.id).sort()).toEqual([org.id, second.id].sort());
    expect(data.canCreate).toBe(true);
    expect(menuPaths(data.menu)).toEqual(expect.arrayContaining(["", "venues", "groups/new", "broadcasts/create", "organization"]));
  });

  it("leaves the permission-gated create items out of a read-only member's menu", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "r");
    const data = await (await run(async () => layoutLoader(args(`/${org.id}`, await sessionCookie(user.id), String(org.id))))).json();
    const paths = menuPaths(data.menu);
    expect(paths).toEqual(expect.arrayContaining(["venues", "customers", "groups", "broadcasts", "service_plans", "organization"]));
    expect(paths).not.toContain("groups/new");
    expect(paths).not.toContain("broadcasts/create");
    expect(paths).not.toContain("reports/footfall");
    expect(data.canCreate).toBe(false);
  });

  it("stores the organisation opened in the route as the session's organisation", async () => {
    const { org: first, owner } = await makeOrg("First");
    const { org: second } = await makeOrg("Second", owner);
    const cookie = await sessionCookie(owner.id, first.id);
    const res = await run(() => layoutLoader(args(`/${second.id}`, cookie, String(second.id))));
    const setCookie = res.headers.get("Set-Cookie");
    expect(setCookie).toBeTruthy();
    const session = await sessionStorage().getSession(setCookie!.split(";")[0]);
    expect(session.get("orgId")).toBe(second.id);
    expect(session.get("token")).toBeTruthy();
  });

  it("sets no cookie when the route's organisation is already the session's", async () => {
    const { org, owner } = await makeOrg();
    const res = await run(async () => layoutLoader(args(`/${org.id}`, await sessionCookie(owner.id, org.id), String(org.id))));
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it("does not store an organisation the user is not an accepted member of", async () => {
    const user = await makeUser();
    const { org: mine } = await makeOrg("Mine", user);
    const { org: foreign } = await makeOrg("Foreign");
    const res = await run(async () => layoutLoader(args(`/${foreign.id}`, await sessionCookie(user.id, mine.id), String(foreign.id))));
    expect(res.status).toBe(404);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("pages not built yet (/{orgId}/*)", () => {
  const splat = async (orgId: number | string, rest: string, userId: number) =>
    run(async () => splatLoader(args(`/${orgId}/${rest}`, await sessionCookie(userId), String(orgId), { "*": rest })));

  it("says a menu entry is not available yet, with its section", async () => {
    const { org, owner } = await makeOrg();
    const res = await splat(org.id, "ads", owner.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      org: { id: org.id, name: org.name, clock: { timeZone: "UTC", offsetMs: 0 } },
      label: "Dashboard",
      section: "Ads",
    });
    expect(await (await splat(org.id, "ads/banners/7", owner.id)).json()).toMatchObject({ label: "Dashboard", section: "Ads" });
    expect(await (await splat(org.id, "reports/footfall", owner.id)).json()).toMatchObject({ label: "Footfall", section: "Reports" });
    expect(await (await splat(org.id, "prepaid/mpesa-transactions", owner.id)).json()).toMatchObject({
      label: "M-Pesa Transactions",
      section: "Advanced › Prepaid",
    });
  });

  it("answers 404 for paths outside the menu", async () => {
    const { org, owner } = await makeOrg();
    for (const rest of ["nonsense", "adsx", "profile-x", "venues-old"]) {
      expect((await splat(org.id, rest, owner.id)).status, rest).toBe(404);
    }
  });

  it("honours the entry's permission", async () => {
    const { org } = await makeOrg();
    const { user } = await makeMember(org.id, "custom", ["view_broadcasts"]);
    expect((await splat(org.id, "venues", user.id)).status).toBe(403);
    expect((await splat(org.id, "broadcasts", user.id)).status).toBe(200);
    expect((await splat(org.id, "broadcasts/create", user.id)).status).toBe(403);
    // Survey and Ads take view_surveys / view_ads.
    expect((await splat(org.id, "surveys", user.id)).status).toBe(403);
    const { user: surveyor } = await makeMember(org.id, "custom", ["view_surveys"]);
    expect((await splat(org.id, "surveys", surveyor.id)).status).toBe(200);
  });

  it("answers 404 under another organisation", async () => {
    const { owner } = await makeOrg("Mine");
    const { org: foreign } = await makeOrg("Theirs");
    expect((await splat(foreign.id, "ads", owner.id)).status).toBe(404);
    expect((await splat("abc", "ads", owner.id)).status).toBe(404);
  });
});
