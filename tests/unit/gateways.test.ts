// What each gateway make's grant carries of a plan's limits (docs/decisions/0017, "Enforcement per
// make"), called on the adapters directly: Meraki and openNDS have no place for them, UniFi sends
// them to the controller, Mlango's make signs them into the grant.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meraki } from "~/services/portal/gateways/meraki.server";
import {
  entryMessage,
  GRANT_V3,
  grantIsValid,
  grantMessage,
  grantMessageOf,
  hmac,
  mlango,
  MLANGO_MESSAGES,
} from "~/services/portal/gateways/mlango.server";
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
    unifi: { url: controller.url, username: "admin", password: "unifi-fake-password", fingerprint: null },
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
  const DEVICE = "02:00:00:00:00:01";
  const NOW = Date.UTC(2026, 11, 2, 9, 0, 0);

  function signedEntry(values: Record<string, string>): URLSearchParams {
    return new URLSearchParams({ ...values, signature: hmac(SECRET, entryMessage(values)) });
  }
  const ENTRY = {
    ap_mac: "02:00:00:00:00:aa",
    client_mac: DEVICE,
    client_ip: "10.1.1.9",
    ssid: "Kahawa Guest",
    grant_url: GRANT_URL,
    continue_url: "http://example.com/",
    ts: String(NOW / 1000),
    nonce: "n0nce-0123456789abcdef",
  };

  it("takes an entry whose eight values are signed, and hands its nonce on to be used once", () => {
    const parsed = mlango.parseEntry(signedEntry(ENTRY), "", network(), NOW);
    expect(parsed).toMatchObject({
      ok: true,
      entry: { clientMac: DEVICE, ssid: "Kahawa Guest", nonce: { value: ENTRY.nonce, expiresAt: NOW + 300_000 } },
    });
  });

  it("refuses an entry whose SSID, nonce or any value was changed after signing", () => {
    for (const field of Object.keys(ENTRY)) {
      const q = signedEntry(ENTRY);
      q.set(field, field === "ts" ? String(NOW / 1000 + 1) : `${q.get(field)}x`);
      expect(mlango.parseEntry(q, "", network(), NOW), field).toEqual({ ok: false, message: MLANGO_MESSAGES.badSignature });
    }
    // A value cannot move into its neighbour: no value may hold a newline.
    const shifted = { ...ENTRY, ssid: `${ENTRY.ssid}\n${ENTRY.grant_url}`, grant_url: "" };
    expect(mlango.parseEntry(signedEntry(shifted), "", network(), NOW)).toMatchObject({ ok: false });
  });

  it("refuses the first version's entries (no nonce, SSID unsigned) and stale ones", () => {
    const v1 = { ...ENTRY } as Partial<typeof ENTRY>;
    delete v1.nonce;
    delete v1.ssid;
    const oldSignature = hmac(SECRET, [v1.ap_mac, v1.client_mac, v1.client_ip, v1.grant_url, v1.continue_url, v1.ts].join("\n"));
    const q = new URLSearchParams({ ...(v1 as Record<string, string>), signature: oldSignature });
    expect(mlango.parseEntry(q, "", network(), NOW)).toEqual({ ok: false, message: MLANGO_MESSAGES.oldFirmware });
    expect(mlango.parseEntry(signedEntry(ENTRY), "", network(), NOW + 301_000)).toEqual({ ok: false, message: MLANGO_MESSAGES.expired });
    expect(mlango.parseEntry(signedEntry({ ...ENTRY, nonce: "short" }), "", network(), NOW)).toMatchObject({ ok: false });
  });

  it("signs a grant that names the device, with every limit field present (empty = no limit)", async () => {
    for (const limits of [undefined, { upKbps: null, downKbps: null, bytes: null }]) {
      const req = request({ grant_url: `${GRANT_URL}?up=9&bytes=1&client_mac=02:00:00:00:00:99` }, { limits });
      const q = new URL(await mlango.grant(req)).searchParams;
      expect(Object.fromEntries(q)).toMatchObject({ token: req.token, client_mac: DEVICE, duration: "1800", up: "", down: "", bytes: "" });
      expect(grantIsValid(SECRET, q, DEVICE)).toBe(true);
    }
    const req = request({ grant_url: GRANT_URL }, { limits: { upKbps: 1000, downKbps: null, bytes: 123_456 } });
    const q = new URL(await mlango.grant(req)).searchParams;
    const expires = Number(q.get("expires"));
    const message = `${GRANT_V3}\n${req.token}\n${DEVICE}\n1800\n${expires}\n1000\n\n123456`;
    expect(grantMessage(req.token, DEVICE, 1800, expires, { upKbps: 1000, downKbps: null, bytes: 123_456 })).toBe(message);
    expect(grantMessageOf(q)).toBe(message);
    expect(q.get("signature")).toBe(hmac(SECRET, message));
    expect(grantIsValid("another-secret", q, DEVICE)).toBe(false);
    expect(grantIsValid(SECRET, q, DEVICE, (expires + 1) * 1000)).toBe(false);
  });

  it("opens nothing for another device, and fails when a limit or the MAC is changed", async () => {
    const q = new URL(await mlango.grant(request({ grant_url: GRANT_URL }, { limits: LIMITS }))).searchParams;
    expect(grantIsValid(SECRET, q, DEVICE)).toBe(true);
    expect(grantIsValid(SECRET, q, "02:00:00:00:00:02")).toBe(false);
    const tampered = (change: (t: URLSearchParams) => void, device = DEVICE) => {
      const t = new URLSearchParams(q);
      change(t);
      return grantIsValid(SECRET, t, device);
    };
    expect(tampered((t) => t.set("client_mac", "02:00:00:00:00:02"), "02:00:00:00:00:02")).toBe(false);
    expect(tampered((t) => t.set("down", "20000"))).toBe(false);
    expect(tampered((t) => t.set("down", ""))).toBe(false);
    expect(tampered((t) => t.set("bytes", String(10 * 1024 * MB)))).toBe(false);
    expect(tampered((t) => t.delete("bytes"))).toBe(false);
    expect(tampered((t) => t.set("up", "513"))).toBe(false);
    expect(tampered((t) => t.set("duration", "86400"))).toBe(false);
    // Values folded into the token (a newline inside) are refused before the signature is checked.
    const [, token, mac, duration] = grantMessageOf(q).split("\n");
    expect(tampered((t) => t.set("token", [token, mac, duration].join("\n")))).toBe(false);
  });
});
