import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { DEMO_LOGIN, generateDemoData, loadDemoIfEmpty } from "~/tools/demo.server";
import { normalizePhone } from "~/lib/phone";
import { migrations } from "~/db/migrations";
import { verifyLogin } from "~/services/auth.server";
import { applyDeliveryReport, applyInboundMessage } from "~/services/marketing/sms/callbacks.server";
import { makeUser } from "../fixtures";

const SMALL = { connections: 2_000, customers: 200, devices: 300 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** An organisation of generated data, owned by a fresh user. */
async function generate(seed: number, now: number) {
  const owner = await makeUser();
  return generateDemoData({ ...SMALL, seed, now, ownerId: owner.id });
}

/** Figures that summarise an organisation's data; equal figures mean equal data in practice. */
async function figures(orgId: number) {
  const connections = await db
    .selectFrom("connections")
    .where("organization_id", "=", orgId)
    .select((eb) => [
      eb.fn.countAll().as("rows"),
      eb.fn.count("authorized_at").as("authorized"),
      eb.fn.count("ended_at").as("ended"),
      eb.fn.sum("upload").as("upload"),
      eb.fn.sum("download").as("download"),
      eb.fn.sum("created_at").as("createdSum"),
      eb.fn.sum("authorized_at").as("authorizedSum"),
    ])
    .executeTakeFirstOrThrow();
  const modes = await db
    .selectFrom("connections")
    .where("organization_id", "=", orgId)
    .select((eb) => ["authorization_mode", eb.fn.countAll().as("n")])
    .groupBy("authorization_mode")
    .orderBy("authorization_mode")
    .execute();
  const devices = await db
    .selectFrom("devices")
    .where("organization_id", "=", orgId)
    .select((eb) => ["os", eb.fn.countAll().as("n")])
    .groupBy("os")
    .orderBy("os")
    .execute();
  const customers = await db
    .selectFrom("customers")
    .where("organization_id", "=", orgId)
    .select(["identity", "first_name", "last_name"])
    .orderBy("id")
    .execute();
  // Both drivers may return sums and counts as strings or numbers.
  const numbers = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v]));
  return {
    connections: numbers(connections),
    modes: modes.map(numbers),
    devices: devices.map(numbers),
    customers,
  };
}

describe("demo data generator", () => {
  it("gives the same data for the same seed and different data for another seed", async () => {
    const now = Date.now();
    const first = await generate(7, now);
    const second = await generate(7, now);
    const other = await generate(8, now);
    const a = await figures(first.organizationId);
    expect(a.connections.rows).toBe(SMALL.connections);
    expect(await figures(second.organizationId)).toEqual(a);
    const c = await figures(other.organizationId);
    expect(c.connections.download).not.toBe(a.connections.download);
    expect(c.customers).not.toEqual(a.customers);
  });

  it("keeps every connection's times in order, inside the period and never after now", async () => {
    const now = Date.now();
    const { organizationId } = await generateDemoData({ ...SMALL, now, days: 30, ownerId: (await makeUser()).id });
    const rows = await db
      .selectFrom("connections")
      .where("organization_id", "=", organizationId)
      .select(["created_at", "authorized_at", "ended_at", "upload", "download"])
      .execute();
    expect(rows).toHaveLength(SMALL.connections);
    const broken = rows.filter(
      (r) =>
        r.created_at < now - 30 * DAY ||
        r.created_at > now ||
        (r.authorized_at !== null && (r.authorized_at < r.created_at || r.authorized_at > now)) ||
        (r.ended_at !== null && (r.authorized_at === null || r.ended_at < r.authorized_at || r.ended_at > now)) ||
        (r.authorized_at === null && (Number(r.upload) > 0 || Number(r.download) > 0)),
    );
    expect(broken).toEqual([]);
  });

  it("has guests online now, abandoned portal visits, and far more download than upload", async () => {
    const now = Date.now();
    const { organizationId } = await generateDemoData({ ...SMALL, now, ownerId: (await makeUser()).id });
    const rows = await db
      .selectFrom("connections")
      .where("organization_id", "=", organizationId)
      .select(["created_at", "authorized_at", "ended_at", "upload", "download"])
      .execute();
    const online = rows.filter((r) => r.authorized_at !== null && r.ended_at === null);
    expect(online.length).toBeGreaterThan(0);
    expect(online.every((r) => r.created_at >= now - HOUR)).toBe(true);
    const abandoned = rows.filter((r) => r.authorized_at === null).length / rows.length;
    expect(abandoned).toBeGreaterThan(0.1);
    expect(abandoned).toBeLessThan(0.3);
    const sum = (key: "upload" | "download") => rows.reduce((total, r) => total + Number(r[key]), 0);
    expect(sum("download")).toBeGreaterThan(5 * sum("upload"));
  });

  it("tells the truth: voucher and M-Pesa sign-ins have their codes and payments, each kind of network its page, no more conversions than clicks", async () => {
    const { organizationId } = await generateDemoData({ ...SMALL, venues: 5, now: Date.now(), ownerId: (await makeUser()).id });
    const n = (row: { n: unknown } | undefined) => Number(row?.n ?? 0);
    const signedIn = async (mode: string) =>
      n(
        await db
          .selectFrom("connections")
          .where("organization_id", "=", organizationId)
          .where("authorization_mode", "=", mode)
          .where("authorized_at", "is not", null)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirst(),
      );
    const vouchers = await signedIn("VOUCHER");
    expect(vouchers).toBeGreaterThan(0);
    const group = await db
      .selectFrom("voucher_groups")
      .select(["id", "redeemed_entries"])
      .where("organization_id", "=", organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(group.redeemed_entries)).toBe(vouchers);
    const used = await db
      .selectFrom("vouchers")
      .where("voucher_group_id", "=", group.id)
      .where("uses", "=", 1)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    expect(n(used)).toBe(vouchers);

    const mpesa = await signedIn("MPESA");
    expect(mpesa).toBeGreaterThan(0);
    const paid = await db
      .selectFrom("mpesa_transactions")
      .innerJoin("connections", "connections.id", "mpesa_transactions.connection_id")
      .where("mpesa_transactions.organization_id", "=", organizationId)
      .where("mpesa_transactions.status", "=", 1)
      .where("connections.authorization_mode", "=", "MPESA")
      .whereRef("mpesa_transactions.created_at", "<", "connections.authorized_at")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    expect(n(paid)).toBe(mpesa);

    // The catalogue's first five networks: a café, a mall, a hotel, a resort, a mall.
    const pages = await db
      .selectFrom("venues")
      .leftJoin("splash_pages", "splash_pages.id", "venues.splash_page_id")
      .select(["venues.name", "splash_pages.name as page"])
      .where("venues.organization_id", "=", organizationId)
      .orderBy("venues.id")
      .execute();
    expect(pages.map((p) => p.page)).toEqual(["Café welcome", null, "Hotel lobby", null, null]);
    const ruled = await db
      .selectFrom("splash_display_settings as s")
      .innerJoin("splash_pages as p", "p.id", "s.splash_page_id")
      .innerJoin("splash_display_setting_access_points as sa", "sa.display_setting_id", "s.id")
      .innerJoin("access_points as a", "a.id", "sa.access_point_id")
      .innerJoin("venues as v", "v.id", "a.venue_id")
      .select(["p.name as page", "v.name as venue"])
      .distinct()
      .where("s.organization_id", "=", organizationId)
      .execute();
    expect(ruled).toEqual([{ page: "Hotel lobby", venue: pages[3]!.name }]);

    const ads = await db
      .selectFrom("ad_hourly")
      .where("organization_id", "=", organizationId)
      .select((eb) => [eb.fn.sum<number>("clicks").as("clicks"), eb.fn.sum<number>("conversions").as("conversions")])
      .executeTakeFirstOrThrow();
    expect(Number(ads.clicks)).toBeGreaterThan(0);
    expect(Number(ads.conversions)).toBeLessThanOrEqual(Number(ads.clicks));
  });

  it("links every connection to a venue, access point, customer and device of its own organisation", async () => {
    const now = Date.now();
    // Two organisations in one database, so a link across them would show.
    await generate(1, now);
    const { organizationId } = await generate(2, now);
    const linked = await db
      .selectFrom("connections as c")
      .innerJoin("venues as v", "v.id", "c.venue_id")
      .innerJoin("access_points as a", "a.id", "c.access_point_id")
      .innerJoin("devices as d", "d.id", "c.device_id")
      .innerJoin("customers as cu", "cu.id", "c.customer_id")
      .where("c.organization_id", "=", organizationId)
      .whereRef("v.organization_id", "=", "c.organization_id")
      .whereRef("a.organization_id", "=", "c.organization_id")
      .whereRef("a.venue_id", "=", "c.venue_id")
      .whereRef("a.mac_address", "=", "c.access_point_mac")
      .whereRef("d.organization_id", "=", "c.organization_id")
      .whereRef("d.customer_id", "=", "c.customer_id")
      .whereRef("cu.organization_id", "=", "c.organization_id")
      .whereRef("d.created_at", "<=", "c.created_at")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(linked.n)).toBe(SMALL.connections);
  });

  it("stores customers, devices and access points in the app's normal forms", async () => {
    const { organizationId } = await generate(3, Date.now());
    const customers = await db.selectFrom("customers").where("organization_id", "=", organizationId).selectAll().execute();
    expect(customers).toHaveLength(SMALL.customers);
    for (const c of customers) {
      if (c.phone_number) expect(normalizePhone(c.phone_number)).toBe(c.phone_number);
      expect([c.phone_number, c.email_address]).toContain(c.identity);
    }
    expect(new Set(customers.map((c) => c.identity)).size).toBe(customers.length);

    const devices = await db.selectFrom("devices").where("organization_id", "=", organizationId).selectAll().execute();
    expect(devices).toHaveLength(SMALL.devices);
    expect(devices.every((d) => /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(d.mac_address) && d.customer_id !== null)).toBe(true);
    expect(new Set(devices.map((d) => d.os))).toEqual(new Set(["Android", "iOS", "Windows", "macOS", "Linux", "ChromeOS"]));
    expect(new Set(devices.map((d) => d.is_mobile))).toEqual(new Set([0, 1]));

    const accessPoints = await db.selectFrom("access_points").where("organization_id", "=", organizationId).selectAll().execute();
    expect(accessPoints).toHaveLength(30);
    expect(new Set(accessPoints.map((a) => a.mac_address)).size).toBe(30);
    for (const a of accessPoints) expect(["Meraki", "Mikrotik", "Cisco Controller", "Rukus", "Mlango"]).toContain(a.make);
  });

  it("refuses sizes it cannot honour, with a message", async () => {
    const owner = await makeUser();
    await expect(generateDemoData({ customers: 20, devices: 10, ownerId: owner.id })).rejects.toThrow(/devices must be at least customers/);
    await expect(generateDemoData({ venues: 5, accessPoints: 3, ownerId: owner.id })).rejects.toThrow(
      /accessPoints must be at least venues/,
    );
  });
});

describe("loadDemoIfEmpty", () => {
  it("loads the demo into an empty database once, and the demo user can sign in as its owner", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(await loadDemoIfEmpty({ ...SMALL, log })).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/^Demo data loaded in \d+\.\d s \(2,000 connections, [\d,]+ connections\/s\)$/));
    // How to sign in is printed by scripts/demo.sh once the server answers, not before it listens.
    expect(lines.filter((line) => line.includes("/login"))).toEqual([]);

    expect(await loadDemoIfEmpty({ ...SMALL, log })).toBe(false);
    const organizations = await db.selectFrom("organizations").select("id").execute();
    expect(organizations).toHaveLength(1);

    const user = await verifyLogin(DEMO_LOGIN.email, DEMO_LOGIN.password);
    expect(user?.email).toBe("admin@example.com");
    expect(await verifyLogin(DEMO_LOGIN.email, "wrong-password")).toBeNull();
    const membership = await db
      .selectFrom("administrators")
      .where("user_id", "=", user!.id)
      .select(["organization_id", "status", "is_owner"])
      .executeTakeFirstOrThrow();
    expect(membership).toEqual({ organization_id: organizations[0].id, status: "Accepted", is_owner: 1 });

    const roles = await db.selectFrom("roles").select(["name", "role_type"]).orderBy("name").execute();
    expect(roles).toEqual([
      { name: "Full access", role_type: "r_w" },
      { name: "Network manager", role_type: "custom" },
      { name: "Read only", role_type: "r" },
    ]);
    const members = await db
      .selectFrom("administrators")
      .where("is_owner", "=", 0)
      .where("status", "=", "Accepted")
      .select("role_id")
      .execute();
    expect(members).toHaveLength(3);
  });

  it("leaves a database that already has users alone", async () => {
    await makeUser();
    expect(await loadDemoIfEmpty({ ...SMALL, log: () => {} })).toBe(false);
    expect(await db.selectFrom("organizations").select("id").execute()).toHaveLength(0);
  });
});

describe("the demo's SMS callbacks", () => {
  const OLD_FIXED_KEY = "demo-sms-callbacks-0001";
  const keyOf = async (orgId: number) =>
    (await db.selectFrom("sms_settings").select("callback_key").where("organization_id", "=", orgId).executeTakeFirstOrThrow())
      .callback_key;

  it("gives every demo organisation a random key of its own, and the old fixed key reaches none", async () => {
    const now = Date.UTC(2026, 10, 20, 12);
    const first = await generate(1, now);
    const second = await generate(2, now);
    const keys = [await keyOf(first.organizationId), await keyOf(second.organizationId)];
    expect(keys[0]).not.toBe(keys[1]);
    for (const key of keys) {
      expect(key).not.toBe(OLD_FIXED_KEY);
      expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    }
    const consenting = await db
      .selectFrom("customers")
      .select(["id", "phone_number"])
      .where("organization_id", "=", first.organizationId)
      .where("marketing_opt_in_at", "is not", null)
      .where("phone_number", "is not", null)
      .executeTakeFirstOrThrow();
    expect((await applyInboundMessage(OLD_FIXED_KEY, { from: consenting.phone_number, text: "STOP" })).status).toBe(404);
    expect((await applyDeliveryReport(OLD_FIXED_KEY, { id: "ATXid_1", status: "Success" })).status).toBe(404);
    const after = await db.selectFrom("customers").select("marketing_opt_in_at").where("id", "=", consenting.id).executeTakeFirstOrThrow();
    expect(after.marketing_opt_in_at).not.toBeNull();
  });

  it("takes the key npm run demo made for the fake provider, and refuses one that is not a callback key", async () => {
    const owner = await makeUser();
    const key = "Zk3v0Q9yXc1mB7nT2pL5sW8dR4fH6jA0";
    const { organizationId } = await generateDemoData({ ...SMALL, seed: 3, ownerId: owner.id, smsCallbackKey: key });
    expect(await keyOf(organizationId)).toBe(key);
    const other = await makeUser();
    await expect(generateDemoData({ ...SMALL, seed: 4, ownerId: other.id, smsCallbackKey: "short" })).rejects.toThrow(/--sms-callback-key/);
  });

  it("gives an install whose demo was loaded with the old fixed key a random one when it migrates", async () => {
    const { organizationId } = await generate(5, Date.UTC(2026, 10, 20, 12));
    await db.updateTable("sms_settings").set({ callback_key: OLD_FIXED_KEY }).where("organization_id", "=", organizationId).execute();
    await migrations["2026-12-02-0039-demo-sms-key"].up(db);
    const key = await keyOf(organizationId);
    expect(key).not.toBe(OLD_FIXED_KEY);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await applyInboundMessage(OLD_FIXED_KEY, { from: "+254700000001", text: "STOP" })).status).toBe(404);
  });
});
