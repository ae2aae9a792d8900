// RADIUS through the real FreeRADIUS on SQLite and PostgreSQL: a MikroTik hands a
// guest over, the connect page authorizes, the grant page posts one-time credentials, and the
// (fake) router logs in with PAP or CHAP through FreeRADIUS and Mlango; replies carry the plan's
// limits; accounting moves the console's figures; quota exhaustion and closing in the console send
// a Disconnect-Message; wrong secrets, strangers and garbage are refused without a crash.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { closeConnection } from "~/services/connections.server";
import { setDeviceBlocked } from "~/services/devices.server";
import { hashToken } from "~/services/crypto.server";
import { runDueJobs } from "~/services/jobs/index.server";
import { authorizeGuest, CONNECT_MESSAGES } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { HELD_MESSAGES } from "~/services/prepaid/subscriptions.server";
import { RADIUS_MESSAGES } from "~/services/radius/authorize.server";
import { changeSpeed } from "~/services/radius/coa.server";
import { chapResponse, radiusPassword, radiusUsername } from "~/services/radius/login.server";
import { mikrotikLoginHtml } from "~/services/portal/gateways/mikrotik.server";
import { makeOrg } from "../fixtures";
import { makeNetwork, randomMac } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";
import {
  hasFreeRadius,
  RADIUS_API_SECRET,
  randomSessionId,
  registerMikrotik,
  startRadiusWorld,
  type RadiusWorld,
} from "../fixtures/radius";

let world: RadiusWorld;
beforeAll(async () => {
  if (hasFreeRadius) world = await startRadiusWorld();
});
afterAll(async () => {
  await world?.close();
});

const HOUR = 3_600_000;

async function network(fields: Parameters<typeof makeNetwork>[1] = {}) {
  const { org, owner } = await makeOrg(`Radius ${Math.random()}`);
  const { venue, ap } = await makeNetwork(org.id, { session_minutes: 60, ...fields });
  const ctx = await contextOf(owner.id, org.id);
  const nas = await registerMikrotik(world, ctx, venue.id);
  return { org, venue, ap, ctx, nas };
}
type Net = Awaited<ReturnType<typeof network>>;

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#(39|x27);/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The grant page's form: where it posts and what. */
async function loginForm(path: string) {
  const response = await fetch(`${world.origin}${path}`);
  const page = await response.text();
  const action = decode(/<form id="login" method="post" action="([^"]*)"/.exec(page)?.[1] ?? "");
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)].map((m) => [m[1]!, decode(m[2]!)]),
  );
  return { status: response.status, csp: response.headers.get("content-security-policy"), action, fields, page };
}

/** A phone on the MikroTik: entry, connect page (click-through), and the grant page's form. */
async function guest(n: Net, { chap = false, mac = randomMac() } = {}) {
  const query = new URLSearchParams({
    mac,
    ip: "10.5.50.23",
    "link-login-only": n.nas.router.loginUrl,
    "link-orig": "http://example.com/",
    identity: n.ap.mac_address,
  });
  if (chap) {
    query.set("chap-id", n.nas.router.chap.idText);
    query.set("chap-challenge", n.nas.router.chap.challengeText);
  }
  const entry = await enterFromGateway({ make: "mikrotik", portalKey: n.venue.portal_key, rest: "", query, userAgent: null });
  if (!entry.ok) throw new Error(entry.message);
  const granted = await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" });
  if (!granted.ok) throw new Error(granted.message);
  const url = new URL(granted.redirect);
  const form = await loginForm(url.pathname + url.search);
  return { id: entry.connectionId, token: entry.token, mac, form, username: form.fields.username!, password: form.fields.password! };
}

const connection = (id: number) => db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** The NAS of a login is written while the Access-Accept goes out (authorize.server.ts rememberNas): wait for it. */
async function nasKept(id: number): Promise<void> {
  for (let i = 0; i < 100 && (await connection(id)).radius_client_id === null; i++) await new Promise((r) => setTimeout(r, 20));
  expect((await connection(id)).radius_client_id).not.toBeNull();
}

async function underPlan(orgId: number, connectionId: number, fields: Record<string, unknown>) {
  const now = Date.now();
  const sub = await db
    .insertInto("subscriptions")
    .values({
      organization_id: orgId,
      customer_id: null,
      device_id: null,
      service_plan_id: null,
      plan_name: "Test plan",
      price_cents: 5000,
      source: "voucher",
      status: "Active",
      started_on: now,
      expires_on: now + 24 * HOUR,
      time_limit_minutes: null,
      usage_limit_bytes: null,
      simultaneous_connections: 1,
      max_upload_kbps: null,
      max_download_kbps: null,
      created_at: now,
      updated_at: now,
      ...fields,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("connections").set({ subscription_id: sub.id }).where("id", "=", connectionId).execute();
  return Number(sub.id);
}

describe.skipIf(!hasFreeRadius)("RADIUS logins through FreeRADIUS", () => {
  it("PAP: the grant page posts the connection's credentials to link-login-only, and the router's login is accepted with the session's limits", async () => {
    const n = await network();
    const g = await guest(n);
    expect(g.form.status).toBe(200);
    expect(g.form.action).toBe(n.nas.router.loginUrl);
    expect(g.form.csp).toMatch(/sandbox allow-forms allow-scripts/);
    expect(g.form.page).toContain("Go online"); // the button for browsers without JavaScript
    expect(g.username).toBe(radiusUsername(g.id));
    expect(g.password).toBe(radiusPassword(g.id, hashToken(g.token)));
    // The gateway's link-orig: where the guest was going (no success URL is set on the network).
    expect(g.form.fields.dst).toBe("http://example.com/");

    const answer = await n.nas.router.login(g.username, g.password, g.mac);
    expect(answer?.code).toBe("Access-Accept");
    expect(Number(answer!.attributes["Session-Timeout"])).toBeGreaterThan(3590);
    expect(Number(answer!.attributes["Session-Timeout"])).toBeLessThanOrEqual(3600);
    expect(answer!.attributes["Idle-Timeout"]).toBe(15 * 60);
    expect(answer!.attributes["Acct-Interim-Interval"]).toBe(60);
    await nasKept(g.id);
    expect((await connection(g.id)).radius_client_id).toBe(n.nas.id);

    // A wrong password, and the right one from another device, are refused.
    expect((await n.nas.router.login(g.username, "x".repeat(24), g.mac))?.code).toBe("Access-Reject");
    const stolen = await n.nas.router.login(g.username, g.password, randomMac());
    expect(stolen?.code).toBe("Access-Reject");
    expect(stolen?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.invalid);
  });

  it("CHAP: the grant page sends MikroTik's md5 response, which FreeRADIUS's chap module accepts", async () => {
    const n = await network();
    const g = await guest(n, { chap: true });
    const plain = radiusPassword(g.id, hashToken(g.token));
    expect(g.password).toBe(chapResponse(n.nas.router.chap.id.toString("hex"), plain, n.nas.router.chap.challenge.toString("hex")));
    expect((await n.nas.router.login(g.username, g.password, g.mac, { chap: true }))?.code).toBe("Access-Accept");
    const wrong = chapResponse(n.nas.router.chap.id.toString("hex"), "not-the-password", n.nas.router.chap.challenge.toString("hex"));
    expect((await n.nas.router.login(g.username, wrong, g.mac, { chap: true }))?.code).toBe("Access-Reject");
  });

  it("carries the plan's data quota and speeds in MikroTik's, CoovaChilli's and WISPr's attributes", async () => {
    const n = await network();
    const g = await guest(n);
    const fiveGiB = 5 * 2 ** 30;
    await underPlan(n.org.id, g.id, { usage_limit_bytes: fiveGiB, used_bytes: 2 ** 30, max_upload_kbps: 512, max_download_kbps: 2048 });
    const answer = await n.nas.router.login(g.username, g.password, g.mac);
    expect(answer?.code).toBe("Access-Accept");
    const left = 4 * 2 ** 30;
    expect(answer!.attributes["Vendor-Specific"]).toMatchObject({
      "Mikrotik-Rate-Limit": "512k/2048k",
      "Mikrotik-Total-Limit": left % 2 ** 32,
      "Mikrotik-Total-Limit-Gigawords": Math.floor(left / 2 ** 32),
      "WISPr-Bandwidth-Max-Up": 512_000,
      "WISPr-Bandwidth-Max-Down": 2_048_000,
    });
  });

  it("an Access-Reject carries only the Reply-Message, never the session's limits (RFC 2865 §5.44)", async () => {
    const n = await network();
    const g = await guest(n);
    await underPlan(n.org.id, g.id, { usage_limit_bytes: 5 * 2 ** 30, max_upload_kbps: 512, max_download_kbps: 2048 });
    const allowed = ["Reply-Message", "Message-Authenticator", "Proxy-State"];
    // A wrong PAP password and a wrong CHAP response fail after authorize put the limits in the reply.
    const pap = await n.nas.router.login(g.username, "x".repeat(24), g.mac);
    expect(pap?.code).toBe("Access-Reject");
    expect(Object.keys(pap!.attributes).filter((a) => !allowed.includes(a))).toEqual([]);
    const wrong = chapResponse(n.nas.router.chap.id.toString("hex"), "not-the-password", n.nas.router.chap.challenge.toString("hex"));
    const chap = await n.nas.router.login(g.username, wrong, g.mac, { chap: true });
    expect(chap?.code).toBe("Access-Reject");
    expect(Object.keys(chap!.attributes).filter((a) => !allowed.includes(a))).toEqual([]);
    // Mlango's own refusal keeps its reason.
    const other = await n.nas.router.login(g.username, g.password, randomMac());
    expect(other?.attributes).toEqual({ "Reply-Message": RADIUS_MESSAGES.invalid });
  });

  it("refuses an Access-Request without Calling-Station-Id: the login is the device's own", async () => {
    const n = await network();
    const g = await guest(n);
    const answer = await n.nas.router.login(g.username, g.password, g.mac, { withoutCallingStationId: true });
    expect(answer?.code).toBe("Access-Reject");
    expect(answer?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.invalid);
    expect((await n.nas.router.login(g.username, g.password, g.mac))?.code).toBe("Access-Accept");
  });

  it("Mlango's login.html shows the router's $(error) after a refused login instead of starting over", async () => {
    const n = await network();
    const router = n.nas.router;
    router.loginHtml = mikrotikLoginHtml(`http://mlango.example/hotspot/mikrotik/${n.venue.portal_key}`);
    // The first visit: the page sends the phone on to Mlango at once.
    const first = await (await fetch(router.loginUrl.replace(/\/login$/, "/login.html"))).text();
    expect(first).toContain("document.mlango.submit()");
    expect(first).not.toContain("$(");
    // A used-up voucher: the router answers the login with its login.html and the Reply-Message as $(error).
    const used = await guest(n, { mac: router.hostMac });
    await underPlan(n.org.id, used.id, { status: "Exhausted", usage_limit_bytes: 1000, used_bytes: 1000 });
    const refused = await fetch(router.loginUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: used.username, password: used.password, dst: "http://example.com/" }),
    });
    expect(refused.status).toBe(200);
    const page = await refused.text();
    expect(page).toContain(RADIUS_MESSAGES.voucherUsed);
    // The guest reads it: no script sends them to a fresh connect page, a button does when they choose.
    expect(page).not.toContain("document.mlango.submit()");
    expect(page).toContain('<form name="mlango" method="post" action="http://mlango.example/hotspot/mikrotik/');
    expect(page).not.toContain("$(");
  });

  it("refuses a login past the plan's simultaneous use, with a message the guest can read", async () => {
    const n = await network();
    const first = await guest(n);
    const second = await guest(n);
    const plan = await underPlan(n.org.id, first.id, { simultaneous_connections: 1 });
    await db.updateTable("connections").set({ subscription_id: plan }).where("id", "=", second.id).execute();
    const answer = await n.nas.router.login(second.username, second.password, second.mac);
    expect(answer?.code).toBe("Access-Reject");
    expect(answer?.attributes["Reply-Message"]).toBe(HELD_MESSAGES.full(1));
  });

  it("refuses a blocked device, an ended session and a used-up voucher with their reasons", async () => {
    const n = await network();
    const blocked = await guest(n);
    await db.updateTable("devices").set({ blocked_at: Date.now() }).where("mac_address", "=", blocked.mac).execute();
    expect((await n.nas.router.login(blocked.username, blocked.password, blocked.mac))?.attributes["Reply-Message"]).toBe(
      CONNECT_MESSAGES.blocked,
    );

    const ended = await guest(n);
    await db.updateTable("connections").set({ ended_at: Date.now(), terminate_cause: "User-Request" }).where("id", "=", ended.id).execute();
    expect((await n.nas.router.login(ended.username, ended.password, ended.mac))?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.ended);

    const used = await guest(n);
    await underPlan(n.org.id, used.id, { status: "Exhausted", usage_limit_bytes: 1000, used_bytes: 1000 });
    const answer = await n.nas.router.login(used.username, used.password, used.mac);
    expect(answer?.code).toBe("Access-Reject");
    expect(answer?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.voucherUsed);
  });
});

describe.skipIf(!hasFreeRadius)("RADIUS accounting", () => {
  it("Start, Interim-Update (with Gigawords) and Stop move the connection and the console's roll-ups", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac);
    const session = n.nas.router.sessions.get(g.username)!;
    expect((await n.nas.router.account("Start", session))?.code).toBe("Accounting-Response");
    const upload = 5 * 2 ** 32 + 10;
    expect((await n.nas.router.account("Interim-Update", session, { input: upload, output: 7000, time: 60 }))?.code).toBe(
      "Accounting-Response",
    );
    let row = await connection(g.id);
    expect(Number(row.upload)).toBe(upload);
    expect(Number(row.download)).toBe(7000);
    expect(row.ended_at).toBeNull();
    expect((await n.nas.router.account("Stop", session, { input: upload + 5, output: 9000, time: 120, cause: "User-Request" }))?.code).toBe(
      "Accounting-Response",
    );
    row = await connection(g.id);
    expect(Number(row.download)).toBe(9000);
    expect(row.terminate_cause).toBe("User-Request");
    // Ended when the router says (authorized_at + Acct-Session-Time), never later than now.
    expect(Number(row.ended_at)).toBeGreaterThanOrEqual(Number(row.authorized_at));
    expect(Number(row.ended_at)).toBeLessThanOrEqual(Date.now());
    // The roll-up the dashboard reads moved with it.
    const rollup = await db
      .selectFrom("usage_daily")
      .select(["upload", "download"])
      .where("organization_id", "=", n.org.id)
      .where("venue_id", "=", n.venue.id)
      .executeTakeFirstOrThrow();
    expect(Number(rollup.upload)).toBe(upload + 5);
    expect(Number(rollup.download)).toBe(9000);
    // After Stop the login is over.
    expect((await n.nas.router.login(g.username, g.password, g.mac))?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.ended);
  });

  it("ends the session and sends a Disconnect-Message when the plan's data runs out", async () => {
    const n = await network();
    const g = await guest(n);
    await underPlan(n.org.id, g.id, { usage_limit_bytes: 1_000_000 });
    await n.nas.router.login(g.username, g.password, g.mac);
    const session = n.nas.router.sessions.get(g.username)!;
    await n.nas.router.account("Start", session);
    expect(n.nas.router.sessions.has(g.username)).toBe(true);
    await n.nas.router.account("Interim-Update", session, { input: 400_000, output: 700_000, time: 30 });
    expect((await connection(g.id)).ended_at).not.toBeNull();
    await runDueJobs();
    expect(n.nas.router.messages.at(-1)).toMatchObject({
      code: "Disconnect-Request",
      answer: "Disconnect-ACK",
      attributes: { "User-Name": g.username },
    });
    expect(n.nas.router.sessions.has(g.username)).toBe(false);
    const kept = await db.selectFrom("radius_messages").selectAll().where("connection_id", "=", g.id).execute();
    expect(kept).toMatchObject([{ kind: "Disconnect", outcome: "ACK", radius_client_id: n.nas.id }]);
    // Logging in again is refused with the reason.
    expect((await n.nas.router.login(g.username, g.password, g.mac))?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.ended);
  });

  it("acknowledges records of unknown sessions and malformed ones without changing anything", async () => {
    const n = await network();
    const session = { username: "mlg999999999", mac: randomMac(), sessionId: randomSessionId() };
    expect((await n.nas.router.account("Interim-Update", session, { input: 5, output: 5 }))?.code).toBe("Accounting-Response");
    expect((await n.nas.router.account("Interim-Update", { ...session, username: "not-ours" }, { input: 5 }))?.code).toBe(
      "Accounting-Response",
    );
  });
});

describe.skipIf(!hasFreeRadius)("Disconnect and CoA from the console", () => {
  it("closing a connection tells the router with a Disconnect-Message, and the answer is kept for the operator", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac);
    await nasKept(g.id);
    const outcome = await closeConnection(n.ctx, g.id);
    expect(outcome).toMatchObject({
      ok: true,
      gateway: { make: "mikrotik", revocation: "controller", note: "The MikroTik router is being told to disconnect the guest." },
    });
    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    expect(n.nas.router.messages).toMatchObject([{ code: "Disconnect-Request", answer: "Disconnect-ACK" }]);
    // RouterOS writes the MAC in capital letters with colons, and the router matched the session by it.
    expect(n.nas.router.messages[0]!.attributes["Calling-Station-Id"]).toBe(g.mac.toUpperCase());
  });

  it("blocking the device ends its connection and tells the router with a Disconnect-Message", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac);
    await nasKept(g.id);
    const deviceId = Number((await connection(g.id)).device_id);
    const outcome = await setDeviceBlocked(n.ctx, deviceId, true);
    expect(outcome).toMatchObject({
      ok: true,
      message: "Device blocked successfully! The MikroTik router is being told to disconnect the guest.",
    });
    expect((await connection(g.id)).ended_at).not.toBeNull();
    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    expect(n.nas.router.messages).toMatchObject([{ code: "Disconnect-Request", answer: "Disconnect-ACK" }]);
    expect(n.nas.router.messages[0]!.attributes["Calling-Station-Id"]).toBe(g.mac.toUpperCase());
  });

  it("names the session as RouterOS matches it: the Acct-Session-Id and Framed-IP-Address from accounting, at the NAS that accounted it", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac, { ip: "10.5.50.77" });
    await nasKept(g.id);
    // The NAS is known from accounting too (a login remembered nowhere, e.g. Mlango restarted meanwhile).
    await db.updateTable("connections").set({ radius_client_id: null }).where("id", "=", g.id).execute();
    const session = n.nas.router.sessions.get(g.username)!;
    expect((await n.nas.router.account("Start", session))?.code).toBe("Accounting-Response");
    expect(await connection(g.id)).toMatchObject({
      radius_client_id: n.nas.id,
      nas_session_id: session.sessionId,
      framed_ip: "10.5.50.77",
    });

    await closeConnection(n.ctx, g.id);
    await runDueJobs();
    const sent = n.nas.router.messages.at(-1)!;
    expect(sent).toMatchObject({ code: "Disconnect-Request", answer: "Disconnect-ACK" });
    expect(sent.attributes).toMatchObject({
      "User-Name": g.username,
      "Acct-Session-Id": session.sessionId,
      "Framed-IP-Address": "10.5.50.77",
      "Calling-Station-Id": g.mac.toUpperCase(),
    });
    expect(n.nas.router.sessions.has(g.username)).toBe(false);
  });

  it("a router that does not answer fails the job (retried later) and the timeout is kept", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac);
    await nasKept(g.id);
    n.nas.router.silent = true;
    await closeConnection(n.ctx, g.id);
    await runDueJobs();
    const kept = await db.selectFrom("radius_messages").select(["outcome"]).where("connection_id", "=", g.id).execute();
    expect(kept).toEqual([{ outcome: "timeout" }]);
    const job = await db
      .selectFrom("jobs")
      .select(["attempts", "status"])
      .where("dedupe_key", "=", `gateway.revoke:${g.id}`)
      .executeTakeFirstOrThrow();
    expect(job.status).not.toBe("done");
  });

  it("CoA pushes a new speed to the router", async () => {
    const n = await network();
    const g = await guest(n);
    await n.nas.router.login(g.username, g.password, g.mac);
    await nasKept(g.id);
    expect(await changeSpeed(g.id, { upKbps: 256, downKbps: 1024 })).toEqual({ outcome: "ACK" });
    expect(n.nas.router.messages.at(-1)).toMatchObject({ code: "CoA-Request", answer: "CoA-ACK" });
    expect(n.nas.router.messages.at(-1)!.attributes["Vendor-Specific"]).toMatchObject({
      "Mikrotik-Rate-Limit": "256k/1024k",
      "WISPr-Bandwidth-Max-Down": 1_024_000,
    });
  });
});

describe.skipIf(!hasFreeRadius)("who may talk to Mlango's RADIUS", () => {
  it("a NAS with the wrong secret is refused, and nothing changes", async () => {
    const n = await network();
    const g = await guest(n);
    const impostor = await registerMikrotik(world, n.ctx, n.venue.id, { secret: "not-the-secret-of-this-nas" });
    // Its PAP password reaches FreeRADIUS garbled (RADIUS hides it with the secret): Mlango rejects,
    // and the impostor cannot even check the answer's signature.
    expect((await impostor.router.login(g.username, g.password, g.mac))?.code).toBe("bad-authenticator");
    expect((await connection(g.id)).radius_client_id).toBeNull();
    // Accounting-Requests are signed with the secret: FreeRADIUS drops them unanswered.
    expect(await impostor.router.account("Interim-Update", { username: g.username, mac: g.mac, sessionId: "x" }, { input: 99 })).toBeNull();
    expect(Number((await connection(g.id)).upload)).toBe(0);
    await impostor.router.close();
  });

  it("a router of another network cannot log this network's guests in", async () => {
    const n = await network();
    const other = await network();
    const g = await guest(n);
    const answer = await other.nas.router.login(g.username, g.password, g.mac);
    expect(answer?.attributes["Reply-Message"]).toBe(RADIUS_MESSAGES.invalid);
  });

  it("the HTTP calls need FreeRADIUS's secret and answer garbage with a 4xx", async () => {
    const n = await network();
    const body = JSON.stringify({ "User-Name": { type: "string", value: ["mlg1"] } });
    const post = (path: string, init: RequestInit = {}) =>
      fetch(`${world.origin}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body, ...init });
    expect((await post(`/radius/authorize?nas=nas-${n.nas.id}`)).status).toBe(401);
    expect((await post(`/radius/client?ip=${n.nas.address}`)).status).toBe(401);
    const auth = {
      Authorization: `Basic ${Buffer.from(`freeradius:${RADIUS_API_SECRET}`).toString("base64")}`,
      "Content-Type": "application/json",
    };
    const secretLeak = await post(`/radius/client?ip=${n.nas.address}`, { headers: auth });
    expect(secretLeak.status).toBe(200);
    expect((await post(`/radius/client?ip=127.254.254.254`, { headers: auth })).status).toBe(404);
    for (const bad of [
      "[1,2]",
      '{"User-Name": "x"}',
      '{"User-Name":{"value":[{"a":1}]}}',
      "{not json",
      JSON.stringify({ "User-Name": { value: ["a\u0000b"] } }),
    ]) {
      const response = await post(`/radius/authorize?nas=nas-${n.nas.id}`, { headers: auth, body: bad });
      expect(response.status, bad).toBeGreaterThanOrEqual(400);
      expect(response.status, bad).toBeLessThan(500);
    }
    expect((await post(`/radius/authorize?nas=nas-x`, { headers: auth })).status).toBe(400);
    const huge = await post(`/radius/accounting?nas=nas-${n.nas.id}`, {
      headers: auth,
      body: JSON.stringify({ x: { value: ["a".repeat(100_000)] } }),
    });
    expect(huge.status).toBe(413);
    // FreeRADIUS is still answering after all that.
    const g = await guest(n);
    expect((await n.nas.router.login(g.username, g.password, g.mac))?.code).toBe("Access-Accept");
  });

  it("a User-Name that is not a Mlango login, or names a connection of another organisation, is rejected", async () => {
    const n = await network();
    const other = await network();
    const theirs = await guest(other);
    for (const username of ["admin", "mlg0", "mlg99999999999999999999", theirs.username, "mlg" + "9".repeat(15)]) {
      const answer = await n.nas.router.login(username, theirs.password, theirs.mac);
      expect(answer?.code, username).toBe("Access-Reject");
    }
  });
});
