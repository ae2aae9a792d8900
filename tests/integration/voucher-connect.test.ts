// Vouchers on the connect page over HTTP against the built server, on SQLite and PostgreSQL: the
// voucher box, a code's plan as the session, each use once (also when two guests race), expired,
// unknown and used codes in plain words, and generation's codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { servicePlanSchema } from "~/lib/schemas/plans";
import { CODE_ALPHABET, displayCode, voucherGroupSchema } from "~/lib/schemas/vouchers";
import { hashToken } from "~/services/crypto.server";
import { escapeHtml } from "~/lib/escape-html";
import { createPlan } from "~/services/prepaid/plans.server";
import { generateVouchers, VOUCHER_RESULT_MESSAGES } from "~/services/prepaid/vouchers.server";
import { encryptSecret } from "~/services/secrets.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";
import { makeMember, makeOrg, run } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, postForm, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
let unifi: FakeUnifi;
beforeAll(async () => {
  server = await startBuiltServer();
  unifi = await startFakeUnifi();
});
afterAll(async () => {
  await server?.close();
  await unifi?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

async function world(group: Record<string, string> = {}, venue: Parameters<typeof makeNetwork>[1] = {}) {
  const { org, owner } = await makeOrg(`Vouchers ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const network = await makeNetwork(org.id, { guest_signup: 0, ...venue });
  const plan = await createPlan(
    ctx,
    servicePlanSchema(false).parse({
      name: "Two hours",
      price: "50",
      plan_kind: "Limited",
      limit_type: "Time",
      time_limit: "2",
      time_limit_unit: "Hrs",
      validity: "1",
      validity_units: "Days",
    }),
  );
  if (!plan.ok) throw new Error("plan");
  const input = voucherGroupSchema(today(), true).parse({
    name: "Till 1",
    face_value: "50",
    valid_till: today(),
    service_plan_id: String(plan.id),
    codes_count: "3",
    ...group,
  });
  const generated = await generateVouchers(ctx, input);
  if (!generated.ok) throw new Error("vouchers");
  const codes = (await db.selectFrom("vouchers").select("code").where("voucher_group_id", "=", generated.id).orderBy("id").execute()).map(
    (r) => r.code,
  );
  return { org, ctx, ...network, plan, groupId: generated.id, codes };
}

const visit = async (w: Awaited<ReturnType<typeof world>>) =>
  (await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address, randomMac())}`)).token!;
const redeem = (token: string, code: string) => postForm(server.origin, "/connect", { token, mode: "VOUCHER", voucher_code: code });
const connectionOf = (token: string) =>
  db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();

describe("vouchers on the connect page", () => {
  it("keeps a redeemed voucher's plan on the device when the gateway refuses the grant: the guest continues it", async () => {
    const w = await world({}, { unifi_url: unifi.url, unifi_username: "admin", unifi_password: encryptSecret("unifi-fake-password") });
    const clientMac = randomMac();
    const entry = await enter(
      server.origin,
      `/hotspot/unifi/${w.venue.portal_key}/guest/s/default/?ap=${w.ap.mac_address}&id=${clientMac}&t=1700000000&url=http%3A%2F%2Fexample.com%2F&ssid=Guest`,
    );
    unifi.failing = true;
    try {
      expect((await redeem(entry.token!, w.codes[0]!)).status).toBe(502);
    } finally {
      unifi.failing = false;
    }
    expect((await connectionOf(entry.token!)).authorized_at).toBeNull();
    const page = await (await fetch(`${server.origin}/connect?token=${entry.token}`)).text();
    expect(page).toContain("You have <b>Two hours</b> on this device");
    expect((await postForm(server.origin, "/connect", { token: entry.token!, mode: "SUBSCRIPTION" })).status).toBe(303);
    expect(unifi.commands.at(-1)).toMatchObject({ cmd: "authorize-guest", mac: clientMac, minutes: 120 });
  });

  it("generates unguessable, typeable, unique codes", async () => {
    const w = await world({ codes_count: "200" });
    expect(w.codes).toHaveLength(200);
    expect(new Set(w.codes).size).toBe(200);
    for (const code of w.codes) expect([...code].every((c) => CODE_ALPHABET.includes(c)) && code.length === 10).toBe(true);
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });

  it("shows a voucher box; a code gives its plan's time once, typed in any case with a dash", async () => {
    const w = await world();
    const token = await visit(w);
    const page = await (await fetch(`${server.origin}/connect?token=${token}`)).text();
    expect(page).toContain('name="voucher_code"');
    const typed = displayCode(w.codes[0]!).toLowerCase();
    const granted = await redeem(token, ` ${typed} `);
    expect(granted.status).toBe(303);
    expect(new URL(granted.headers.get("location")!).searchParams.get("duration")).toBe("7200");
    const connection = await connectionOf(token);
    expect(connection.authorization_mode).toBe("VOUCHER");
    const subscription = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", "=", Number(connection.subscription_id))
      .executeTakeFirstOrThrow();
    expect(subscription).toMatchObject({
      source: "voucher",
      status: "Active",
      plan_name: "Two hours",
      price_cents: 5000,
      time_limit_minutes: 120,
    });
    const group = await db.selectFrom("voucher_groups").select("redeemed_entries").where("id", "=", w.groupId).executeTakeFirstOrThrow();
    expect(group.redeemed_entries).toBe(1);

    const second = await visit(w);
    const used = await redeem(second, w.codes[0]!);
    expect(used.status).toBe(409);
    const body = await used.text();
    expect(body).toContain(escapeHtml(VOUCHER_RESULT_MESSAGES.used));
    expect(body).toContain(`value="${w.codes[0]}"`);
    expect((await connectionOf(second)).authorized_at).toBeNull();
  });

  it("refuses unknown, malformed and expired codes in plain words and writes nothing", async () => {
    const w = await world();
    const token = await visit(w);
    for (const code of ["", "ABC", "'; drop table vouchers; --", "ZZZZZ-ZZZZZ"]) {
      const refused = await redeem(token, code);
      expect(refused.status, code).toBe(422);
      expect(await refused.text()).toContain(escapeHtml(VOUCHER_RESULT_MESSAGES.unknownCode));
    }
    await db.updateTable("voucher_groups").set({ valid_till: "2020-01-31" }).where("id", "=", w.groupId).execute();
    const expired = await redeem(token, w.codes[1]!);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain(VOUCHER_RESULT_MESSAGES.expired("2020-01-31"));
    expect(await db.selectFrom("subscriptions").select("id").where("organization_id", "=", w.org.id).execute()).toEqual([]);
    expect((await db.selectFrom("vouchers").select("uses").where("code", "=", w.codes[1]!).executeTakeFirstOrThrow()).uses).toBe(0);
  });

  it("gives a single-use code to exactly one of two guests typing it at once, and a multi-use code its uses", async () => {
    const w = await world({ uses_per_code: "2" });
    await db.updateTable("voucher_groups").set({ uses_per_code: 1 }).where("id", "=", w.groupId).execute();
    const [a, b] = await Promise.all([visit(w), visit(w)]);
    const answers = await Promise.all([redeem(a, w.codes[0]!), redeem(b, w.codes[0]!)]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    await db.updateTable("voucher_groups").set({ uses_per_code: 3 }).where("id", "=", w.groupId).execute();
    for (let i = 0; i < 2; i++) expect((await redeem(await visit(w), w.codes[1]!)).status).toBe(303);
    expect(
      (await db.selectFrom("voucher_groups").select("redeemed_entries").where("id", "=", w.groupId).executeTakeFirstOrThrow())
        .redeemed_entries,
    ).toBe(3);
  });

  it("is another organisation's code unknown here; generating needs edit_vouchers", async () => {
    const mine = await world();
    const theirs = await world();
    const refused = await redeem(await visit(mine), theirs.codes[0]!);
    expect(refused.status).toBe(422);
    const viewer = await makeMember(mine.org.id, "custom", ["view_vouchers"]);
    const ctx = await contextOf(viewer.user.id, mine.org.id);
    const input = voucherGroupSchema(today(), true).parse({
      name: "x",
      face_value: "1",
      valid_till: today(),
      service_plan_id: String(mine.plan.ok ? mine.plan.id : 0),
    });
    expect((await run(() => generateVouchers(ctx, input))).status).toBe(403);
    const foreignPlan = voucherGroupSchema(today(), true).parse({
      name: "x",
      face_value: "1",
      valid_till: today(),
      service_plan_id: String(theirs.plan.ok ? theirs.plan.id : 0),
    });
    expect(await generateVouchers(mine.ctx, foreignPlan)).toMatchObject({ ok: false, errors: { service_plan_id: [expect.any(String)] } });
  });
});
