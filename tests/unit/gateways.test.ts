// What each gateway make's grant carries of a plan's limits (docs/decisions/0017, "Enforcement per
// make"), called on the adapters directly: Meraki and openNDS have no place for them, UniFi sends
// them to the controller, Mlango's make signs them into the grant.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meraki } from "~/services/portal/gateways/meraki.server";
import { GRANT_V2, grantIsValid, grantMessage, grantMessageOf, hmac, mlango } from "~/services/portal/gateways/mlango.server";
import { opennds } from "~/services/portal/gateways/opennds.server";
import { grantLimits } from "~/services/portal/gateways/params";
import type { GatewayNetwork, GrantLimits, GrantRequest } from "~/services/portal/gateways/types";
import { unifi } from "~/services/portal/gateways/unifi.server";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";

const MB = 1024 ** 2;
const SECRET = "gateway-secret-for-unit-tests";
const LIMITS: GrantLimits = { upKbps: 512, downKbps: 2000, bytes: 5 * 1024 * MB + 1 };

let controller: FakeUnifi;
beforeAll(async () => {
  controller = await startFakeUnifi();
});
afterAll(() => controller?.close());

function network(): GatewayNetwork {
  return {
    id: 1,
    organizationId: 1,
    portalKey: "portal-key",
    gatewaySecret: SECRET,
    openndsFaskey: "fas-key-123",
    unifi: { url: controller.url, username: "admin", password: "unifi-fake-password" },
  };
}

function request(context: Record<string, string>, extra: Partial<GrantRequest> = {}): GrantRequest {
  return {
    network: network(),
    connectionId: 7,
    token: crypto.randomBytes(24).toString("base64url"),
    clientMac: "02:00:00:00:00:01",
    apMac: "02:00:00:00:00:aa",
    context,
    successUrl: "http://example.com/welcome",
    seconds: 1800,
    ...extra,
  };
}

describe("grantLimits", () => {
  it("keeps whole numbers, null for no limit, and reads numbers that come back as text", () => {
    expect(grantLimits(undefined)).toEqual({ upKbps: null, downKbps: null, bytes: null });
    expect(grantLimits({ upKbps: 512.7, downKbps: null, bytes: "1048576" as unknown as number })).toEqual({
      upKbps: 512,
      downKbps: null,
      bytes: MB,
    });
    expect(grantLimits({ upKbps: 0, downKbps: Number.NaN, bytes: -5 })).toEqual({ upKbps: 1, downKbps: null, bytes: 0 });
  });
});

describe("Meraki click-through", () => {
  it("carries the time as duration and nothing else: the grant URL has no place for speeds or data", async () => {
    const url = new URL(await meraki.grant(request({ base_grant_url: "https://n1.network-auth.com/splash/grant" }, { limits: LIMITS })));
    expect(Object.fromEntries(url.searchParams)).toEqual({ continue_url: "http://example.com/welcome", duration: "1800" });
  });
});

describe("openNDS FAS level 1", () => {
  it("carries nothing but tok and redir", async () => {
    const url = new URL(await opennds.grant(request({ hid: "ab12", gatewayaddress: "192.168.8.1:2050" }, { limits: LIMITS })));
    expect([...url.searchParams.keys()]).toEqual(["tok", "redir"]);
    expect(url.searchParams.get("tok")).toBe(crypto.createHash("sha256").update("ab12fas-key-123").digest("hex"));
  });
});

describe("UniFi", () => {
  it("sends up and down in kbit/s and the data left in MB rounded up, with the minutes", async () => {
    const clientMac = "02:00:00:00:01:01";
    expect(await unifi.grant(request({ site: "default" }, { clientMac, limits: LIMITS }))).toBe("http://example.com/welcome");
    expect(controller.commands.at(-1)).toEqual({
      site: "default",
      cmd: "authorize-guest",
      mac: clientMac,
      minutes: 30,
      up: 512,
      down: 2000,
      bytes: 5121,
      ap_mac: "02:00:00:00:00:aa",
    });
  });

  it("sends only the limits that are set, and never 0 MB (the controller's 'no limit')", async () => {
    await unifi.grant(
      request({ site: "default" }, { clientMac: "02:00:00:00:01:02", limits: { upKbps: null, downKbps: 1000, bytes: 10 } }),
    );
    expect(controller.commands.at(-1)).toEqual({
      site: "default",
      cmd: "authorize-guest",
      mac: "02:00:00:00:01:02",
      minutes: 30,
      down: 1000,
      bytes: 1,
      ap_mac: "02:00:00:00:00:aa",
    });
    await unifi.grant(request({ site: "default" }, { clientMac: "02:00:00:00:01:03", apMac: null, seconds: 61 }));
    expect(controller.commands.at(-1)).toEqual({ site: "default", cmd: "authorize-guest", mac: "02:00:00:00:01:03", minutes: 2 });
  });
});

describe("Mlango's make", () => {
  const GRANT_URL = "http://127.0.0.1:2060/mlango/grant";

  it("keeps the v1 grant, byte for byte, when there are no limits", async () => {
    for (const limits of [undefined, { upKbps: null, downKbps: null, bytes: null }]) {
      const req = request({ grant_url: `${GRANT_URL}?up=9&bytes=1` }, { limits });
      const url = new URL(await mlango.grant(req));
      const q = url.searchParams;
      expect([...q.keys()]).toEqual(["token", "duration", "expires", "signature"]);
      expect(q.get("signature")).toBe(hmac(SECRET, `${req.token}\n1800\n${q.get("expires")}`));
      expect(grantIsValid(SECRET, q)).toBe(true);
    }
  });

  it("signs up, down and bytes into a v2 grant (empty = no limit)", async () => {
    const req = request({ grant_url: GRANT_URL }, { limits: { upKbps: 1000, downKbps: null, bytes: 123_456 } });
    const q = new URL(await mlango.grant(req)).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ token: req.token, duration: "1800", up: "1000", down: "", bytes: "123456" });
    const expires = Number(q.get("expires"));
    const message = `${GRANT_V2}\n${req.token}\n1800\n${expires}\n1000\n\n123456`;
    expect(grantMessage(req.token, 1800, expires, { upKbps: 1000, downKbps: null, bytes: 123_456 })).toBe(message);
    expect(grantMessageOf(q)).toBe(message);
    expect(q.get("signature")).toBe(hmac(SECRET, message));
    expect(grantIsValid(SECRET, q)).toBe(true);
    expect(grantIsValid("another-secret", q)).toBe(false);
    expect(grantIsValid(SECRET, q, (expires + 1) * 1000)).toBe(false);
  });

  it("fails verification when a limit is changed, dropped or added", async () => {
    const q = new URL(await mlango.grant(request({ grant_url: GRANT_URL }, { limits: LIMITS }))).searchParams;
    expect(grantIsValid(SECRET, q)).toBe(true);
    const tampered = (change: (t: URLSearchParams) => void) => {
      const t = new URLSearchParams(q);
      change(t);
      return grantIsValid(SECRET, t);
    };
    expect(tampered((t) => t.set("down", "20000"))).toBe(false);
    expect(tampered((t) => t.set("down", ""))).toBe(false);
    expect(tampered((t) => t.set("bytes", String(10 * 1024 * MB)))).toBe(false);
    expect(tampered((t) => t.delete("bytes"))).toBe(false);
    expect(tampered((t) => t.set("up", "513"))).toBe(false);
    expect(tampered((t) => ["up", "down", "bytes"].forEach((f) => t.delete(f)))).toBe(false);
    expect(tampered((t) => t.set("duration", "86400"))).toBe(false);

    // A v2 message read as v1 (the limits folded into the token, no limit parameters left) has the
    // same text: only the check of each value's form stops it.
    const [, token, duration, expires, up, down, bytes] = grantMessageOf(q).split("\n");
    const folded = new URLSearchParams({
      token: [GRANT_V2, token, duration, expires, up].join("\n"),
      duration: down!,
      expires: bytes!,
      signature: q.get("signature")!,
    });
    expect(grantMessageOf(folded)).toBe(grantMessageOf(q));
    expect(Number(bytes)).toBeGreaterThan(Date.now() / 1000);
    expect(grantIsValid(SECRET, folded)).toBe(false);

    const v1 = new URL(await mlango.grant(request({ grant_url: GRANT_URL }))).searchParams;
    const added = new URLSearchParams(v1);
    added.set("bytes", "1");
    expect(grantIsValid(SECRET, v1)).toBe(true);
    expect(grantIsValid(SECRET, added)).toBe(false);
  });
});
