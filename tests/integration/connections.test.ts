import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { pauseRollups, rebuildRollups } from "~/db/rollups.server";
import { buildConnection, buildCustomer } from "~/tools/factories.server";
import { closeQuestion } from "~/lib/connections";
import { parseListParams } from "~/lib/pagination";
import * as closeRoute from "~/routes/$orgId+/_connections+/connections+/$connectionId.close";
import * as connectionsPage from "~/routes/$orgId+/_connections+/connections+/_index";
import * as exportRoute from "~/routes/$orgId+/_connections+/connections[.csv]";
import { issueToken } from "~/services/auth.server";
import { connectionsCsvStream } from "~/services/connections-export.server";
import { SPARSE_LIMIT } from "~/services/connections-search.server";
import { CLOSE_MESSAGES, listConnections } from "~/services/connections.server";
import { COUNT_CAP } from "~/services/list-count.server";
import { makeMember, makeOrg, makeRequest, run } from "../fixtures";
import {
  callRoute,
  contextOf,
  insertAccessPoint,
  insertConnection,
  insertCustomer,
  insertDevice,
  insertVenue,
  makeConnectionWorld,
  toastOf,
} from "../fixtures/records";
import { OFF_SITE_REDIRECTS } from "../fixtures/redirects";

const MINUTE = 60_000;
const BASE = Date.UTC(2026, 10, 20, 12, 0);
const list = (search = "", pageSize = 10, offset = 0) => ({ search, pageSize, offset });

async function ownerOf() {
  const { org, owner } = await makeOrg();
  return { org, owner, ctx: await contextOf(owner.id, org.id) };
}

async function csvOf(res: Response): Promise<string[][]> {
  const text = await res.text();
  return text
    .trim()
    .split("\n")
    .map((line) => line.split(","));
}

describe("listConnections", () => {
  it("lists authorized connections newest first, with names, duration, consumption and status", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 3);
    await insertConnection(org.id, { venue_id: world.venue.id, created_at: BASE + 10 * MINUTE }); // a portal visit, never authorized
    const page = await listConnections(ctx, { authorized: true }, list());
    expect(page.rows.map((r) => r.id)).toEqual(world.connections.map((c) => c.id).reverse());
    expect(page).toMatchObject({ total: 3, capped: false });
    const [online, ended] = page.rows;
    expect(online).toMatchObject({
      online: true,
      customer: { id: world.customer.id, name: "Achieng Odhiambo" },
      device: { id: world.device.id, label: "Achieng's phone" },
      venue: { id: world.venue.id, name: "Java House Westlands" },
      accessPoint: { id: world.accessPoint.id, name: "Lobby AP", macAddress: world.accessPoint.mac_address },
      authorizationMode: "click",
      usage: 3 * 1024 + 3 * 2048,
    });
    expect(ended).toMatchObject({ online: false, durationSeconds: 30 * 60, usage: 2 * 1024 + 2 * 2048 });
  });

  it("filters by status: all includes portal visits, online only open authorized ones", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 3);
    const visit = await insertConnection(org.id, { created_at: BASE + 10 * MINUTE });
    expect((await listConnections(ctx, {}, list())).rows[0].id).toBe(visit.id);
    expect((await listConnections(ctx, {}, list())).total).toBe(4);
    const online = await listConnections(ctx, { authorized: true, online: true }, list());
    expect(online.rows.map((r) => r.id)).toEqual([world.connections[2].id]);
  });

  it("pages with continuous order and clamps nothing into an error past the end", async () => {
    const { org, ctx } = await ownerOf();
    const rows = Array.from({ length: 25 }, (_, i) =>
      buildConnection(org.id, { created_at: BASE + i * MINUTE, authorized_at: BASE + i * MINUTE }),
    );
    await db.insertInto("connections").values(rows).execute();
    const all = await listConnections(ctx, { authorized: true }, list("", 250));
    expect(all.rows.map((r) => r.createdAt)).toEqual(rows.map((r) => r.created_at).reverse());
    const page2 = await listConnections(ctx, { authorized: true }, list("", 10, 10));
    expect(page2.rows.map((r) => r.id)).toEqual(all.rows.slice(10, 20).map((r) => r.id));
    expect(page2.total).toBe(25);
    const beyond = await listConnections(ctx, { authorized: true }, list("", 10, 1_000_000));
    expect(beyond.rows).toEqual([]);
  });

  it("orders connections created at the same moment by id, newest first", async () => {
    const { org, ctx } = await ownerOf();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await insertConnection(org.id, { created_at: BASE, authorized_at: BASE })).id);
    expect((await listConnections(ctx, { authorized: true }, list())).rows.map((r) => r.id)).toEqual(ids.reverse());
  });

  it("counts up to a cap instead of over every connection", { timeout: 120_000 }, async () => {
    const { org, ctx } = await ownerOf();
    await pauseRollups(org.id); // ten thousand rows: the analytics roll-ups are not under test here
    const total = COUNT_CAP + 30;
    for (let start = 0; start < total; start += 2000) {
      const n = Math.min(2000, total - start);
      await db
        .insertInto("connections")
        .values(
          Array.from({ length: n }, (_, i) => buildConnection(org.id, { created_at: BASE + start + i, authorized_at: BASE + start + i })),
        )
        .execute();
    }
    const first = await listConnections(ctx, { authorized: true }, list());
    expect(first).toMatchObject({ total: COUNT_CAP, capped: true });
    // Deep pages count a few pages past themselves, so the next pages stay reachable.
    const deep = await listConnections(ctx, { authorized: true }, list("", 10, COUNT_CAP - 10));
    expect(deep).toMatchObject({ total: total, capped: false });
    expect(deep.rows).toHaveLength(10);

    // With the roll-ups kept (decision 0009), a long list of whole days has its exact total from them, as
    // the dashboard does, so every page is reachable: authorized ones, every one, one venue's.
    await insertConnection(org.id, { created_at: BASE + total }); // not authorized: footfall only
    await rebuildRollups(org.id);
    expect(await listConnections(ctx, { authorized: true }, list())).toMatchObject({ total, capped: false });
    expect(await listConnections(ctx, {}, list())).toMatchObject({ total: total + 1, capped: false });
    // A window the roll-ups do not hold (not whole days) keeps the capped count.
    expect(await listConnections(ctx, { authorized: true, startMs: BASE - 1 }, list())).toMatchObject({ total: COUNT_CAP, capped: true });
  });

  it("filters by venue, access point MAC, customer, device and time window", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const otherVenue = await insertVenue(org.id);
    const otherAp = await insertAccessPoint(org.id, otherVenue.id);
    const otherCustomer = await insertCustomer(org.id);
    const otherDevice = await insertDevice(org.id, { customer_id: otherCustomer.id });
    const elsewhere = await insertConnection(org.id, {
      venue_id: otherVenue.id,
      access_point_id: otherAp.id,
      access_point_mac: otherAp.mac_address,
      customer_id: otherCustomer.id,
      device_id: otherDevice.id,
      created_at: BASE + 5 * MINUTE,
      authorized_at: BASE + 5 * MINUTE,
    });
    const ids = async (filter: Parameters<typeof listConnections>[1]) =>
      (await listConnections(ctx, { authorized: true, ...filter }, list())).rows.map((r) => r.id);
    const worldIds = world.connections.map((c) => c.id).reverse();
    expect(await ids({ venueId: world.venue.id })).toEqual(worldIds);
    expect(await ids({ venueId: otherVenue.id })).toEqual([elsewhere.id]);
    expect(await ids({ accessPointMac: world.accessPoint.mac_address })).toEqual(worldIds);
    expect(await ids({ customerId: otherCustomer.id })).toEqual([elsewhere.id]);
    expect(await ids({ deviceId: world.device.id })).toEqual(worldIds);
    expect(await ids({ venueId: world.venue.id, customerId: otherCustomer.id })).toEqual([]);
    expect(await ids({ startMs: BASE + MINUTE, endMs: BASE + 6 * MINUTE })).toEqual([elsewhere.id, world.connections[1].id]);
  });

  it("answers 404 for a venue, customer or device of another organisation and never lists its connections", async () => {
    const { org, ctx } = await ownerOf();
    const other = await makeOrg("Other Org");
    const theirs = await makeConnectionWorld(other.org.id, 2);
    await makeConnectionWorld(org.id, 1);
    for (const filter of [{ venueId: theirs.venue.id }, { customerId: theirs.customer.id }, { deviceId: theirs.device.id }]) {
      const res = await run(() => listConnections(ctx, filter, list()));
      expect(res.status).toBe(404);
    }
    const mine = await listConnections(ctx, { accessPointMac: theirs.accessPoint.mac_address }, list());
    expect(mine.rows).toEqual([]);
    expect((await listConnections(ctx, {}, list())).total).toBe(1);
  });

  it("searches customer names, phone numbers as typed locally, emails, device names and MACs, venues and access points", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const other = await makeConnectionWorld(org.id, 1, BASE + 60 * MINUTE);
    await db
      .updateTable("customers")
      .set({ first_name: "Baraka", last_name: "Mutua", phone_number: "+254733444555", email_address: "baraka@example.com" })
      .where("id", "=", other.customer.id)
      .execute();
    await db.updateTable("devices").set({ name: "Tecno Spark" }).where("id", "=", other.device.id).execute();
    await db.updateTable("venues").set({ name: "Sarit Centre" }).where("id", "=", other.venue.id).execute();
    await db.updateTable("access_points").set({ name: "Rooftop" }).where("id", "=", other.accessPoint.id).execute();
    const found = async (term: string) => (await listConnections(ctx, { authorized: true }, list(term))).rows.map((r) => r.id);
    const worldIds = world.connections.map((c) => c.id).reverse();
    const otherIds = [other.connections[0].id];
    expect(await found("achieng")).toEqual(worldIds);
    expect(await found("Achieng Odhiambo")).toEqual(worldIds);
    expect(await found("0733 444 555")).toEqual(otherIds);
    expect(await found("+254733")).toEqual(otherIds);
    expect(await found("BARAKA@example")).toEqual(otherIds);
    expect(await found("tecno")).toEqual(otherIds);
    expect(await found(other.device.mac_address.toUpperCase().replace(/:/g, "-"))).toEqual(otherIds);
    expect(await found("sarit")).toEqual(otherIds);
    expect(await found("rooftop")).toEqual(otherIds);
    expect(await found(world.accessPoint.mac_address)).toEqual(worldIds);
    expect(await found("od")).toEqual(worldIds); // shorter than a trigram: scanned
    expect(await found("nobody-here")).toEqual([]);
    expect(await found("100%")).toEqual([]);
    const searched = await listConnections(ctx, { authorized: true }, list("achieng"));
    expect(searched.total).toBe(2);
  });

  it("finds every connection of a common term with many matching customers", async () => {
    const { org, ctx } = await ownerOf();
    const customers = await db
      .insertInto("customers")
      .values(Array.from({ length: SPARSE_LIMIT + 20 }, () => buildCustomer(org.id, { first_name: "Wanjiru" })))
      .returning("id")
      .execute();
    await insertCustomer(org.id, { first_name: "Otieno" });
    await db
      .insertInto("connections")
      .values(customers.map((c, i) => buildConnection(org.id, { customer_id: c.id, created_at: BASE + i, authorized_at: BASE + i })))
      .execute();
    const page = await listConnections(ctx, { authorized: true }, list("wanjiru", 250, 250));
    expect(page.total).toBe(customers.length);
    expect(page.rows).toHaveLength(250);
    expect(page.rows[0].createdAt).toBe(BASE + customers.length - 1 - 250);
  });
});

describe("connections page", () => {
  it("needs view_clients, is 404 for another organisation, and parses the status filter", async () => {
    const { org, owner } = await ownerOf();
    await makeConnectionWorld(org.id, 2);
    const viewer = await makeMember(org.id, "custom", ["view_networks"]);
    const refused = await callRoute(connectionsPage.loader, { userId: viewer.user.id, orgId: org.id, path: `/${org.id}/connections` });
    expect(refused.status).toBe(403);
    const other = await makeOrg("Other");
    const foreign = await callRoute(connectionsPage.loader, {
      userId: owner.id,
      orgId: other.org.id,
      path: `/${other.org.id}/connections`,
    });
    expect(foreign.status).toBe(404);
    const res = await callRoute(connectionsPage.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/connections?status=online&page=abc&per_page=7`,
    });
    const data = await res.json();
    expect(data.status).toBe("online");
    expect(data.page.rows).toHaveLength(1);
    expect(data.list).toMatchObject({ page: 1, pageSize: 5 });
    expect(data.canClose).toBe(true);
    expect(data.exportHref).toBe(`/${org.id}/connections.csv?status=online`);
    const badVenue = await callRoute(connectionsPage.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/connections?venue_id=abc`,
    });
    expect(badVenue.status).toBe(404);
  });

  it("parses prefixed list params so two tables on one page page independently", () => {
    const params = new URLSearchParams("page=3&online_page=2&online_per_page=5&online_search=x");
    expect(parseListParams(params, undefined, 5, "online_")).toMatchObject({ page: 2, pageSize: 5, offset: 5, search: "x" });
    expect(parseListParams(params)).toMatchObject({ page: 3, pageSize: 10 });
  });
});

describe("closing a connection", () => {
  const ended = (id: number) => db.selectFrom("connections").select("ended_at").where("id", "=", id).executeTakeFirstOrThrow();

  it("ends an online connection and returns to the list with a toast", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const online = world.connections[1].id;
    const before = Date.now();
    const res = await callRoute(closeRoute.action, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/connections/${online}/close`,
      params: { connectionId: String(online) },
      form: { redirectTo: `/${org.id}/venues/${world.venue.id}/connections?page=1`, confirmed: "yes" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/venues/${world.venue.id}/connections?page=1`);
    expect(await toastOf(res)).toEqual({ type: "success", message: CLOSE_MESSAGES.closed });
    expect(Number((await ended(online)).ended_at)).toBeGreaterThanOrEqual(before);
    const ctx = await contextOf(owner.id, org.id);
    expect((await listConnections(ctx, { online: true, authorized: true }, list())).rows).toEqual([]);
  });

  it("asks first: an unconfirmed POST closes nothing and leads to the question, whose page confirms (decision 0003)", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const online = world.connections[1].id;
    const back = `/${org.id}/customers/${world.customer.id}/connections`;
    const path = `/${org.id}/connections/${online}/close`;
    const asked = await callRoute(closeRoute.action, {
      userId: owner.id,
      orgId: org.id,
      path,
      params: { connectionId: String(online) },
      form: { redirectTo: back },
    });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`${path}?${new URLSearchParams({ redirectTo: back })}`);
    expect((await ended(online)).ended_at).toBeNull();
    const page = await callRoute(closeRoute.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `${path}?redirectTo=${encodeURIComponent(back)}`,
      params: { connectionId: String(online) },
    });
    expect(await page.json()).toEqual({
      question: "Are you sure you want to close the connection of Achieng Odhiambo?",
      back,
      online: true,
    });
    // A foreign redirectTo is not followed; an ended connection's page says it is not online.
    const closedPage = await callRoute(closeRoute.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/connections/${world.connections[0].id}/close?redirectTo=//evil.example`,
      params: { connectionId: String(world.connections[0].id) },
    });
    expect(await closedPage.json()).toMatchObject({ back: `/${org.id}/connections`, online: false });
    const viewer = await makeMember(org.id, "r");
    expect(
      (await callRoute(closeRoute.loader, { userId: viewer.user.id, orgId: org.id, path, params: { connectionId: String(online) } }))
        .status,
    ).toBe(403);
    expect(closeQuestion({ customer: null, device: { id: 1, label: "aa:bb:cc:dd:ee:ff", macAddress: "aa:bb:cc:dd:ee:ff" } })).toBe(
      "Are you sure you want to close the connection of aa:bb:cc:dd:ee:ff?",
    );
    expect(closeQuestion({ customer: null, device: null })).toBe("Are you sure you want to close this connection?");
  });

  it("says so when the connection is already closed or was never authorized, and changes nothing", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const closed = world.connections[0].id;
    const wasEnded = (await ended(closed)).ended_at;
    const visit = await insertConnection(org.id, { created_at: BASE });
    for (const [id, message] of [
      [closed, CLOSE_MESSAGES.alreadyClosed],
      [visit.id, CLOSE_MESSAGES.notOnline],
    ] as const) {
      const res = await callRoute(closeRoute.action, {
        userId: owner.id,
        orgId: org.id,
        path: `/${org.id}/connections/${id}/close`,
        params: { connectionId: String(id) },
        form: { redirectTo: "//evil.example", confirmed: "yes" },
      });
      expect(res.headers.get("Location")).toBe(`/${org.id}/connections`);
      expect(await toastOf(res)).toEqual({ type: "info", message });
    }
    expect((await ended(closed)).ended_at).toEqual(wasEnded);
    expect((await ended(visit.id)).ended_at).toBeNull();
  });

  it("never sends the operator to another host through a dot segment or an encoded slash in redirectTo", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const online = world.connections[1].id;
    const path = `/${org.id}/connections/${online}/close`;
    for (const target of OFF_SITE_REDIRECTS) {
      const page = await callRoute(closeRoute.loader, {
        userId: owner.id,
        orgId: org.id,
        path: `${path}?redirectTo=${encodeURIComponent(target)}`,
        params: { connectionId: String(online) },
      });
      expect((await page.json()).back, target).toBe(`/${org.id}/connections`);
      const asked = await callRoute(closeRoute.action, {
        userId: owner.id,
        orgId: org.id,
        path,
        params: { connectionId: String(online) },
        form: { redirectTo: target },
      });
      expect(asked.headers.get("Location"), target).toBe(`${path}?${new URLSearchParams({ redirectTo: `/${org.id}/connections` })}`);
    }
    const closed = await callRoute(closeRoute.action, {
      userId: owner.id,
      orgId: org.id,
      path,
      params: { connectionId: String(online) },
      form: { redirectTo: OFF_SITE_REDIRECTS[0], confirmed: "yes" },
    });
    expect(closed.headers.get("Location")).toBe(`/${org.id}/connections`);
  });

  it("refuses without edit_connections and answers 404 for another organisation's or a malformed id", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const online = world.connections[0].id;
    const viewer = await makeMember(org.id, "r");
    const refused = await callRoute(closeRoute.action, {
      userId: viewer.user.id,
      orgId: org.id,
      path: `/${org.id}/connections/${online}/close`,
      params: { connectionId: String(online) },
      form: { confirmed: "yes" },
    });
    expect(refused.status).toBe(403);
    expect((await ended(online)).ended_at).toBeNull();
    const other = await makeOrg("Other");
    const theirs = await makeConnectionWorld(other.org.id, 1);
    const theirId = theirs.connections[0].id;
    for (const id of [String(theirId), "abc", "99999999999"]) {
      for (const confirmed of ["yes", ""]) {
        const res = await callRoute(closeRoute.action, {
          userId: owner.id,
          orgId: org.id,
          path: `/${org.id}/connections/${id}/close`,
          params: { connectionId: id },
          form: { confirmed },
        });
        expect(res.status).toBe(404);
      }
      const page = await callRoute(closeRoute.loader, {
        userId: owner.id,
        orgId: org.id,
        path: `/${org.id}/connections/${id}/close`,
        params: { connectionId: id },
      });
      expect(page.status).toBe(404);
    }
    expect((await ended(theirId)).ended_at).toBeNull();
  });
});

describe("connections.csv", () => {
  it('starts with the UTF-8 byte-order mark, so Excel shows "Kahawa Corner Café" as typed', async () => {
    const { org, owner } = await ownerOf();
    const venue = await insertVenue(org.id, { name: "Kahawa Corner Café" });
    await insertConnection(org.id, { venue_id: venue.id, created_at: BASE, authorized_at: BASE + 1000 });
    const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trim().split("\n");
    expect(lines[0].startsWith("#,Connected At (UTC),")).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1].split(",")).toContain("Kahawa Corner Café");
    // Only one mark: the text after it holds none.
    expect(bytes.subarray(3).includes(Buffer.from("\uFEFF", "utf8"))).toBe(false);
  });

  it("streams every matching connection newest first with the header, as an attachment", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 3);
    await insertConnection(org.id, { created_at: BASE + 10 * MINUTE }); // not authorized: not in the default export
    const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="connections.csv"');
    const [header, ...rows] = await csvOf(res);
    expect(header).toEqual([
      "#",
      "Connected At (UTC)",
      "Customer",
      "Phone Number",
      "Device",
      "Device MAC",
      "Network",
      "Access Point",
      "Access Point MAC",
      "Auth Mode",
      "Duration (seconds)",
      "Upload (bytes)",
      "Download (bytes)",
      "Consumption (bytes)",
      "Status",
    ]);
    expect(rows.map((r) => r[0])).toEqual(["1", "2", "3"]);
    expect(rows.map((r) => r[1])).toEqual(["20-11-2026 12:02", "20-11-2026 12:01", "20-11-2026 12:00"]);
    expect(rows[0].slice(2, 5)).toEqual(["Achieng Odhiambo", "+254712000111", "Achieng's phone"]);
    expect(rows[0][14]).toBe("Online");
    expect(rows[1].slice(6, 15)).toEqual([
      "Java House Westlands",
      "Lobby AP",
      world.accessPoint.mac_address,
      "click",
      "1800",
      "2048",
      "4096",
      "6144",
      "Offline",
    ]);
  });

  it("quotes cells with commas and quotes, and keeps guest text from being read as a formula", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    await db.updateTable("venues").set({ name: 'Java House, "Westlands"' }).where("id", "=", world.venue.id).execute();
    await db.updateTable("devices").set({ name: '=HYPERLINK("http://evil.example")' }).where("id", "=", world.device.id).execute();
    const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    const line = (await res.text()).split("\n")[1];
    expect(line).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
    expect(line).toContain(`,"Java House, ""Westlands""",`);
  });

  it("keeps network and access point names from being read as formulas too", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    await db.updateTable("venues").set({ name: '=HYPERLINK("http://evil.example","Lobby")' }).where("id", "=", world.venue.id).execute();
    await db.updateTable("access_points").set({ name: "@SUM(1+1)" }).where("id", "=", world.accessPoint.id).execute();
    const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    const line = (await res.text()).split("\n")[1];
    expect(line).toContain(`,"'=HYPERLINK(""http://evil.example"",""Lobby"")",'@SUM(1+1),`);
  });

  it("applies the status, venue, customer, device and search filters of the tabs", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const other = await makeConnectionWorld(org.id, 1, BASE + 60 * MINUTE);
    await insertConnection(org.id, { venue_id: world.venue.id, created_at: BASE + 90 * MINUTE });
    const count = async (query: string) => {
      const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv?${query}` });
      expect(res.status).toBe(200);
      return (await csvOf(res)).length - 1;
    };
    expect(await count("")).toBe(3);
    expect(await count("status=all")).toBe(4);
    expect(await count("status=online")).toBe(2);
    expect(await count(`venue_id=${world.venue.id}`)).toBe(2);
    expect(await count(`venue_id=${world.venue.id}&status=all`)).toBe(3);
    expect(await count(`access_point_mac=${other.accessPoint.mac_address.toUpperCase()}`)).toBe(1);
    expect(await count(`customer_id=${other.customer.id}`)).toBe(1);
    expect(await count(`device_id=${world.device.id}`)).toBe(2);
    expect(await count("search=nobody")).toBe(0);
    expect(await count("start=2026-11-20&end=2026-11-20")).toBe(3);
    expect(await count("start=2026-11-21&end=2026-11-21")).toBe(0);
  });

  it("reads batch after batch across connections created at the same moment, without gaps or repeats", async () => {
    const { org, owner } = await ownerOf();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await insertConnection(org.id, { created_at: BASE + Math.floor(i / 3), authorized_at: BASE })).id);
    const stream = await connectionsCsvStream(await contextOf(owner.id, org.id), { authorized: true }, "", 2);
    const lines = (await new Response(stream).text()).trim().split("\n");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    expect(lines).toHaveLength(8);
  });

  it("keeps a date window exact across batches", async () => {
    const { org, owner } = await ownerOf();
    for (let i = 0; i < 9; i++) await insertConnection(org.id, { created_at: BASE + i * MINUTE, authorized_at: BASE });
    const window = { authorized: true, startMs: BASE + 2 * MINUTE, endMs: BASE + 7 * MINUTE };
    const stream = await connectionsCsvStream(await contextOf(owner.id, org.id), window, "", 2);
    const lines = (await new Response(stream).text()).trim().split("\n").slice(1);
    expect(lines.map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
      "1,20-11-2026 12:06",
      "2,20-11-2026 12:05",
      "3,20-11-2026 12:04",
      "4,20-11-2026 12:03",
      "5,20-11-2026 12:02",
    ]);
  });

  it("is reachable with a bearer token, 401 with a bad one, 403 without view_clients, 404 for another organisation or its ids", async () => {
    const { org, owner } = await ownerOf();
    await makeConnectionWorld(org.id, 2);
    const token = await issueToken(owner.id, "api");
    const call = (orgId: number, query = "", auth = `Bearer ${token}`) =>
      run(() =>
        exportRoute.loader({
          request: makeRequest(`/${orgId}/connections.csv${query}`, { headers: { Authorization: auth } }),
          params: { orgId: String(orgId) },
          context: {},
        }),
      );
    const ok = await call(org.id);
    expect(ok.status).toBe(200);
    expect((await csvOf(ok)).length).toBe(3);
    expect((await call(org.id, "", "Bearer wrong")).status).toBe(401);
    const other = await makeOrg("Other");
    const theirs = await makeConnectionWorld(other.org.id, 1);
    expect((await call(other.org.id)).status).toBe(404);
    expect((await call(org.id, `?venue_id=${theirs.venue.id}`)).status).toBe(404);
    expect((await call(org.id, `?customer_id=${theirs.customer.id}`)).status).toBe(404);
    expect((await call(org.id, "?device_id=-1")).status).toBe(404);
    const networkOnly = await makeMember(org.id, "custom", ["view_networks"]);
    const refused = await callRoute(exportRoute.loader, { userId: networkOnly.user.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    expect(refused.status).toBe(403);
  });

  it("is a CSV with only the header when nothing matches", async () => {
    const { org, owner } = await ownerOf();
    const res = await callRoute(exportRoute.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/connections.csv` });
    expect(res.status).toBe(200);
    const rows = await csvOf(res);
    expect(rows).toHaveLength(1);
    expect(rows[0][0]).toBe("#");
  });
});
