import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { DEVICE_MESSAGES } from "~/lib/records";
import * as customerDevices from "~/routes/$orgId+/_customers+/customers+/$customerId+/devices";
import * as blockRoute from "~/routes/$orgId+/_customers+/devices+/$deviceId.block";
import { listDevices, setDeviceBlocked } from "~/services/devices.server";
import { makeMember, makeOrg, run } from "../fixtures";
import { callRoute, contextOf, insertConnection, insertDevice, insertVenue, makeConnectionWorld, toastOf } from "../fixtures/records";
import { OFF_SITE_REDIRECTS } from "../fixtures/redirects";

const BASE = Date.UTC(2026, 10, 20, 12, 0);
const list = (search = "", pageSize = 10, offset = 0) => ({ search, pageSize, offset });
const blockedAt = async (id: number) =>
  (await db.selectFrom("devices").select("blocked_at").where("id", "=", id).executeTakeFirstOrThrow()).blocked_at;

async function ownerOf() {
  const { org, owner } = await makeOrg();
  return { org, owner, ctx: await contextOf(owner.id, org.id) };
}

describe("listDevices", () => {
  it("lists the organisation's devices newest first with customer, connections, last seen, consumption and status", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 3);
    const idle = await insertDevice(org.id, {
      name: "Idle laptop",
      is_mobile: 0,
      os: "Windows",
      os_version: "11",
      created_at: Date.now() + 1000,
    });
    const page = await listDevices(ctx, {}, list());
    expect(page.rows.map((d) => d.id)).toEqual([idle.id, world.device.id]);
    expect(page).toMatchObject({ total: 2, capped: false });
    expect(page.rows[0]).toMatchObject({
      name: "Idle laptop",
      type: "Desktop",
      os: "Windows",
      osVersion: "11",
      connectionsCount: 0,
      usage: 0,
      online: false,
      customer: null,
    });
    expect(page.rows[1]).toMatchObject({
      name: "Achieng's phone",
      type: "Mobile",
      macAddress: world.device.mac_address,
      customer: { id: world.customer.id, name: "Achieng Odhiambo" },
      connectionsCount: 3,
      usage: 6 * 1024 + 12 * 1024,
      lastSeenAt: world.connections[2].created_at,
      online: true,
      blocked: false,
    });
  });

  it("filters by customer, by venue (devices with a connection there) and by access point MAC, and searches name and MAC", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    const other = await makeConnectionWorld(org.id, 1, BASE + 3_600_000);
    const elsewhere = await insertVenue(org.id);
    await insertConnection(org.id, { venue_id: elsewhere.id, device_id: world.device.id, created_at: BASE, authorized_at: BASE });
    const ids = async (filter: Parameters<typeof listDevices>[1], search = "") =>
      (await listDevices(ctx, filter, list(search))).rows.map((d) => d.id);
    expect(await ids({ customerId: world.customer.id })).toEqual([world.device.id]);
    expect(await ids({ venueId: other.venue.id })).toEqual([other.device.id]);
    expect(await ids({ venueId: elsewhere.id })).toEqual([world.device.id]);
    expect(await ids({ accessPointMac: world.accessPoint.mac_address })).toEqual([world.device.id]);
    expect(await ids({}, "achieng's")).toEqual([other.device.id, world.device.id]);
    expect(await ids({}, other.device.mac_address.toUpperCase())).toEqual([other.device.id]);
    expect(await ids({ venueId: other.venue.id, startMs: BASE + 7_200_000 })).toEqual([]);
    // Counts within a venue are that venue's connections only.
    const atElsewhere = await listDevices(ctx, { venueId: elsewhere.id }, list());
    expect(atElsewhere.rows[0].connectionsCount).toBe(1);
  });

  it("answers 404 for another organisation's customer and never lists its devices", async () => {
    const { ctx } = await ownerOf();
    const other = await makeOrg("Other");
    const theirs = await makeConnectionWorld(other.org.id, 1);
    expect((await run(() => listDevices(ctx, { customerId: theirs.customer.id }, list()))).status).toBe(404);
    expect((await listDevices(ctx, {}, list())).rows).toEqual([]);
    expect((await listDevices(ctx, { venueId: theirs.venue.id }, list())).rows).toEqual([]);
  });

  it("pages from 10 rows by default on the customer's devices tab, clamping smaller sizes to 10", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    for (let i = 0; i < 11; i++) await insertDevice(org.id, { customer_id: world.customer.id, created_at: BASE + i });
    const res = await callRoute(customerDevices.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/customers/${world.customer.id}/devices?per_page=5&page=2`,
      params: { customerId: String(world.customer.id) },
    });
    const data = await res.json();
    expect(data.list).toMatchObject({ pageSize: 10, page: 2 });
    expect(data.devices.total).toBe(12);
    expect(data.devices.rows).toHaveLength(2);
    expect(data.canBlock).toBe(true);
  });
});

describe("blocking a device", () => {
  const post = (userId: number, orgId: number, deviceId: number | string, form: Record<string, string>) =>
    callRoute(blockRoute.action, {
      userId,
      orgId,
      path: `/${orgId}/devices/${deviceId}/block`,
      params: { deviceId: String(deviceId) },
      form,
    });

  it("asks first without JavaScript: an unconfirmed block lands on the question and changes nothing", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const back = `/${org.id}/customers/${world.customer.id}/devices`;
    const res = await post(owner.id, org.id, world.device.id, { intent: "block", redirectTo: back });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toBe(`/${org.id}/devices/${world.device.id}/block?${new URLSearchParams({ redirectTo: back })}`);
    expect(await blockedAt(world.device.id)).toBeNull();
    const page = await callRoute(blockRoute.loader, {
      userId: owner.id,
      orgId: org.id,
      path: location,
      params: { deviceId: String(world.device.id) },
    });
    expect(await page.json()).toEqual({ question: "Are you sure you want to block device Achieng's phone?", back, blocked: false });
  });

  it("names the device by MAC when it has no name", async () => {
    const { org, owner } = await ownerOf();
    const device = await insertDevice(org.id, { name: null });
    const page = await callRoute(blockRoute.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/devices/${device.id}/block`,
      params: { deviceId: String(device.id) },
    });
    expect((await page.json()).question).toBe(`Are you sure you want to block device ${device.mac_address}?`);
  });

  it("blocks when confirmed, stays blocked, and unblocks, with the spec's messages", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const back = `/${org.id}/customers/${world.customer.id}/devices?page=1`;
    const blocked = await post(owner.id, org.id, world.device.id, { intent: "block", confirmed: "yes", redirectTo: back });
    expect(blocked.headers.get("Location")).toBe(back);
    expect(await toastOf(blocked)).toEqual({ type: "success", message: "Device blocked successfully!" });
    const at = await blockedAt(world.device.id);
    expect(at).not.toBeNull();
    const again = await post(owner.id, org.id, world.device.id, { intent: "block", confirmed: "yes", redirectTo: back });
    expect(await toastOf(again)).toEqual({ type: "error", message: DEVICE_MESSAGES.alreadyBlocked });
    expect(await blockedAt(world.device.id)).toEqual(at);
    const ctx = await contextOf(owner.id, org.id);
    expect((await listDevices(ctx, {}, list())).rows[0].blocked).toBe(true);
    const unblocked = await post(owner.id, org.id, world.device.id, { intent: "unblock", redirectTo: back });
    expect(await toastOf(unblocked)).toEqual({ type: "success", message: "Device unblocked successfully!" });
    expect(await blockedAt(world.device.id)).toBeNull();
  });

  it("never sends the operator to another host through a dot segment or an encoded slash in redirectTo", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const fallback = `/${org.id}/customers`;
    for (const target of OFF_SITE_REDIRECTS) {
      const page = await callRoute(blockRoute.loader, {
        userId: owner.id,
        orgId: org.id,
        path: `/${org.id}/devices/${world.device.id}/block?redirectTo=${encodeURIComponent(target)}`,
        params: { deviceId: String(world.device.id) },
      });
      expect((await page.json()).back, target).toBe(fallback);
      const asked = await post(owner.id, org.id, world.device.id, { intent: "block", redirectTo: target });
      expect(asked.headers.get("Location"), target).toBe(
        `/${org.id}/devices/${world.device.id}/block?${new URLSearchParams({ redirectTo: fallback })}`,
      );
      const unblocked = await post(owner.id, org.id, world.device.id, { intent: "unblock", redirectTo: target });
      expect(unblocked.headers.get("Location"), target).toBe(fallback);
    }
  });

  it("needs edit_clients on the server (the old client had no check)", async () => {
    const { org } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const viewer = await makeMember(org.id, "custom", ["view_clients"]);
    const res = await post(viewer.user.id, org.id, world.device.id, { intent: "block", confirmed: "yes" });
    expect(res.status).toBe(403);
    expect(await blockedAt(world.device.id)).toBeNull();
    const page = await callRoute(blockRoute.loader, {
      userId: viewer.user.id,
      orgId: org.id,
      path: `/${org.id}/devices/${world.device.id}/block`,
      params: { deviceId: String(world.device.id) },
    });
    expect(page.status).toBe(403);
    const ctx = await contextOf(viewer.user.id, org.id);
    expect((await run(() => setDeviceBlocked(ctx, world.device.id, true))).status).toBe(403);
    const editor = await makeMember(org.id, "custom", ["view_clients", "edit_clients"]);
    const ok = await post(editor.user.id, org.id, world.device.id, { intent: "block", confirmed: "yes" });
    expect(await toastOf(ok)).toEqual({ type: "success", message: DEVICE_MESSAGES.blocked });
    expect(ok.headers.get("Location")).toBe(`/${org.id}/customers`);
  });

  it("answers 404 for another organisation's or a malformed device and 400 for an unknown intent", async () => {
    const { org, owner } = await ownerOf();
    const other = await makeOrg("Other");
    const theirs = await insertDevice(other.org.id);
    for (const id of [theirs.id, "abc", 0]) {
      expect((await post(owner.id, org.id, id, { intent: "block", confirmed: "yes" })).status).toBe(404);
      expect((await post(owner.id, org.id, id, { intent: "block" })).status).toBe(404);
    }
    expect(await blockedAt(theirs.id)).toBeNull();
    const mine = await insertDevice(org.id);
    const res = await post(owner.id, org.id, mine.id, { intent: "explode" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Unknown action." });
  });
});
