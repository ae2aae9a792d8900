// The RADIUS makes' entries and login forms (MikroTik, Cisco WLC, Ruckus), the one-time credentials,
// MikroTik's CHAP encoding, and the reply attributes each limit becomes — called directly.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { cisco } from "~/services/portal/gateways/cisco.server";
import { mikrotik, mikrotikLoginHtml } from "~/services/portal/gateways/mikrotik.server";
import { ruckus } from "~/services/portal/gateways/ruckus.server";
import { count, limitAttributes, octets, readAttributes } from "~/services/radius/attributes";
import { radiusRecord } from "~/services/radius/accounting.server";
import { loginPage } from "~/guest/pages";
import { chapResponse, connectionIdOf, octalBytesHex, radiusPassword, radiusUsername } from "~/services/radius/login.server";
import { isIpAddress } from "~/lib/schemas/radius-clients";

const network = { id: 1, organizationId: 1, portalKey: "k", gatewaySecret: null, openndsFaskey: null, unifi: null };
const parse = (adapter: typeof mikrotik, query: Record<string, string>) =>
  adapter.parseEntry(new URLSearchParams(query), "", network, Date.now());
const creds = { username: "mlg42", password: "p4ssw0rd-p4ssw0rd-p4ssw0" };

describe("MikroTik", () => {
  const base = {
    mac: "AA:BB:CC:00:11:22",
    ip: "10.5.50.2",
    "link-login-only": "http://10.5.50.1/login",
    "link-orig": "http://example.com/",
    identity: "04:18:D6:00:00:01",
  };

  it("reads login.html's variables: the router's identity as the access point when it is a MAC", () => {
    const parsed = parse(mikrotik, base);
    expect(parsed).toEqual({
      ok: true,
      entry: {
        apMac: "04:18:d6:00:00:01".toLowerCase(),
        clientMac: "aa:bb:cc:00:11:22",
        clientIp: "10.5.50.2",
        ssid: null,
        continueUrl: "http://example.com/",
        context: { link_login_only: "http://10.5.50.1/login", identity: "04:18:D6:00:00:01" },
      },
    });
    expect(parse(mikrotik, { ...base, identity: "Lobby router" })).toMatchObject({
      ok: true,
      entry: { apMac: null, context: { identity: "Lobby router" } },
    });
  });

  it("refuses what a router would not send", () => {
    expect(parse(mikrotik, { ...base, mac: "nope" })).toEqual({ ok: false, message: "The router did not send a valid mac." });
    expect(parse(mikrotik, { ...base, "link-login-only": "javascript:alert(1)" })).toEqual({
      ok: false,
      message: "The router did not send a valid link-login-only.",
    });
    expect(parse(mikrotik, { ...base, "chap-id": "\\123" })).toMatchObject({ ok: false });
    expect(parse(mikrotik, { ...base, "chap-id": "abc", "chap-challenge": "\\001" })).toMatchObject({ ok: false });
  });

  it("posts PAP credentials, or the CHAP response MikroTik's page would compute, to link-login-only", () => {
    const pap = mikrotik.loginForm!({ link_login_only: "http://10.5.50.1/login" }, creds, "https://mlango.example/connect/online?token=t");
    expect(pap).toEqual({
      action: "http://10.5.50.1/login",
      fields: [
        ["username", "mlg42"],
        ["password", creds.password],
        ["dst", "https://mlango.example/connect/online?token=t"],
        ["popup", "false"],
      ],
    });
    const parsed = parse(mikrotik, { ...base, "chap-id": "\\357", "chap-challenge": "\\001\\002\\377" });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.entry.context).toMatchObject({ chap_id: "ef", chap_challenge: "0102ff" });
    const chap = mikrotik.loginForm!(parsed.entry.context, creds, "x");
    const expected = crypto
      .createHash("md5")
      .update(Buffer.concat([Buffer.from([0o357]), Buffer.from(creds.password), Buffer.from([1, 2, 255])]))
      .digest("hex");
    expect(chap.fields[1]).toEqual(["password", expected]);
  });

  it("ships a login.html that posts the router's variables to the network's entry", () => {
    const page = mikrotikLoginHtml("https://mlango.example/hotspot/mikrotik/KEY");
    expect(page).toContain('action="https://mlango.example/hotspot/mikrotik/KEY"');
    for (const v of ["mac", "ip", "link-login-only", "link-orig", "chap-id", "chap-challenge", "identity"])
      expect(page).toContain(`name="${v}" value="$(${v})"`);
    expect(page).toContain("<button");
  });

  it("the walled-garden step gives dst-host a host name and the port its own dst-port", () => {
    const step = (origin: string) => mikrotik.setup(origin, { portalKey: "KEY" }).steps.find((s) => s.startsWith("Walled garden"));
    expect(step("http://portal.example:8080")).toContain("/ip hotspot walled-garden add dst-host=portal.example dst-port=8080,");
    expect(step("http://portal.example")).toContain("/ip hotspot walled-garden add dst-host=portal.example,");
    expect(step("http://portal.example")).not.toContain("walled-garden ip");
    // https never passes the HTTP walled garden: an IP rule by host name opens it.
    expect(step("https://portal.example")).toContain(
      "/ip hotspot walled-garden add dst-host=portal.example; /ip hotspot walled-garden ip add dst-host=portal.example protocol=tcp dst-port=443 action=accept",
    );
    for (const origin of ["http://portal.example:8080", "https://portal.example:8443"]) expect(step(origin)).not.toMatch(/dst-host=\S*:/);
  });
});

describe("Cisco WLC and Ruckus", () => {
  it("Cisco: switch_url, client_mac, ap_mac, wlan and redirect; the web-auth form to switch_url", () => {
    const parsed = parse(cisco, {
      switch_url: "https://1.1.1.1/login.html",
      client_mac: "aa:bb:cc:dd:ee:ff",
      ap_mac: "00:11:22:33:44:55",
      wlan: "Guest",
      redirect: "http://example.com/",
    });
    expect(parsed).toMatchObject({
      ok: true,
      entry: { clientMac: "aa:bb:cc:dd:ee:ff", apMac: "00:11:22:33:44:55", ssid: "Guest", continueUrl: "http://example.com/" },
    });
    if (!parsed.ok) return;
    expect(cisco.loginForm!(parsed.entry.context, creds, "https://s/")).toEqual({
      action: "https://1.1.1.1/login.html",
      fields: [
        ["buttonClicked", "4"],
        ["err_flag", "0"],
        ["username", "mlg42"],
        ["password", creds.password],
        ["redirect_url", "https://s/"],
      ],
    });
    expect(parse(cisco, { client_mac: "aa:bb:cc:dd:ee:ff" })).toEqual({
      ok: false,
      message: "The controller did not send a valid switch_url.",
    });
    expect(parse(cisco, { switch_url: "https://1.1.1.1/login.html", client_mac: "aa:bb:cc:dd:ee:ff", ap_mac: "x" })).toMatchObject({
      ok: false,
    });
  });

  it("Ruckus: sip, client_mac, mac (access point), uip, ssid and url; username and password to {sip}:9997/login", () => {
    const parsed = parse(ruckus, {
      sip: "192.168.0.10",
      client_mac: "aa:bb:cc:dd:ee:ff",
      mac: "00:11:22:33:44:55",
      uip: "10.0.0.9",
      ssid: "Guest",
      url: "http://example.com/",
    });
    expect(parsed).toMatchObject({ ok: true, entry: { apMac: "00:11:22:33:44:55", clientIp: "10.0.0.9", ssid: "Guest" } });
    if (!parsed.ok) return;
    expect(ruckus.loginForm!(parsed.entry.context, creds, "https://s/")).toEqual({
      action: "http://192.168.0.10:9997/login",
      fields: [
        ["username", "mlg42"],
        ["password", creds.password],
        ["url", "https://s/"],
      ],
    });
    expect(parse(ruckus, { sip: "evil.example/x?", client_mac: "aa:bb:cc:dd:ee:ff" })).toEqual({
      ok: false,
      message: "The controller did not send a valid sip.",
    });
  });
});

describe("credentials and attributes", () => {
  it("usernames name a connection; passwords are per connection and token, and not guessable from another", () => {
    expect(radiusUsername(12)).toBe("mlg12");
    expect(connectionIdOf("mlg12")).toBe(12);
    for (const bad of ["mlg0", "mlg012", "MLG12", "mlg12 ", "mlg1234567890123456", "", null]) expect(connectionIdOf(bad)).toBeNull();
    const a = radiusPassword(1, "hash-a");
    expect(a).toHaveLength(24);
    expect(radiusPassword(1, "hash-a")).toBe(a);
    expect(radiusPassword(2, "hash-a")).not.toBe(a);
    expect(radiusPassword(1, "hash-b")).not.toBe(a);
  });

  it("decodes MikroTik's octal escapes and computes the CHAP response", () => {
    expect(octalBytesHex("\\000\\377\\101")).toBe("00ff41");
    for (const bad of ["", "\\8", "\\400", "abc", "\\12", null]) expect(octalBytesHex(bad)).toBeNull();
    expect(chapResponse("01", "pw", "0203")).toBe(
      crypto
        .createHash("md5")
        .update(Buffer.from([1, 0x70, 0x77, 2, 3]))
        .digest("hex"),
    );
  });

  it("the grant page escapes what it carries and submits itself, with a button without JavaScript", () => {
    const page = loginPage({ action: 'http://10.5.50.1/login"><script>', fields: [["dst", '"><img src=x>']] }, "Café <Lounge>");
    expect(page).not.toContain("<img src=x>");
    expect(page).toContain("Café &lt;Lounge&gt;");
    expect(page).toContain("document.getElementById('login').submit()");
    expect(page).toContain('<button type="submit">Go online</button>');
  });

  it("reads FreeRADIUS's JSON strictly and counts octets with their Gigawords", () => {
    const a = readAttributes({
      "Acct-Input-Octets": { type: "integer", value: [10] },
      "Acct-Input-Gigawords": { type: "integer", value: ["2"] },
      "User-Name": { type: "string", value: ["mlg5"] },
    })!;
    expect(octets(a, "Acct-Input")).toBe(2 * 2 ** 32 + 10);
    expect(count(a, "User-Name")).toBeNull();
    for (const bad of [null, [], "x", { a: { value: [{}] } }, { a: { value: ["x\u0000"] } }, { ["x".repeat(65)]: { value: ["a"] } }])
      expect(readAttributes(bad)).toBeNull();
  });

  it("maps Accounting-Requests onto accounting records", () => {
    const attrs = (o: Record<string, string | number>) =>
      readAttributes(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { value: [v] }])))!;
    expect(
      radiusRecord(
        attrs({
          "Acct-Status-Type": "Stop",
          "User-Name": "mlg9",
          "Acct-Input-Octets": 5,
          "Acct-Output-Octets": 6,
          "Acct-Session-Time": 60,
          "Acct-Terminate-Cause": "Idle-Timeout",
        }),
      ),
    ).toEqual({
      status: "stop",
      session: { connectionId: 9 },
      upload: 5,
      download: 6,
      sessionSeconds: 60,
      terminateCause: "Idle-Timeout",
      nasSession: null,
    });
    // The NAS's name for the session is kept for Disconnect and CoA; a garbled one is not.
    const named = (extra: Record<string, string>) =>
      (radiusRecord(attrs({ "Acct-Status-Type": "Start", "User-Name": "mlg9", ...extra })) as { nasSession: unknown }).nasSession;
    expect(named({ "Acct-Session-Id": "81a00002", "Framed-IP-Address": "10.5.50.23" })).toEqual({
      sessionId: "81a00002",
      framedIp: "10.5.50.23",
    });
    expect(named({ "Acct-Session-Id": "81a00002", "Framed-IP-Address": "not an address" })).toEqual({
      sessionId: "81a00002",
      framedIp: null,
    });
    expect(named({ "Acct-Session-Id": "x y" })).toBeNull();
    expect(named({ "Acct-Session-Id": "x".repeat(65) })).toBeNull();
    expect(radiusRecord(attrs({ "Acct-Status-Type": "Accounting-On" }))).toBeNull();
    expect(radiusRecord(attrs({ "Acct-Status-Type": "Weird", "User-Name": "mlg9" }))).toMatch(/Acct-Status-Type/);
    expect(radiusRecord(attrs({ "Acct-Status-Type": "Start", "User-Name": "bob" }))).toMatch(/User-Name/);
  });

  it("turns limits into each make's attributes", () => {
    expect(
      limitAttributes({ sessionSeconds: 600, idleSeconds: 900, interimSeconds: 60, bytes: 6 * 2 ** 30, upKbps: 256, downKbps: null }),
    ).toEqual({
      "reply:Session-Timeout": 600,
      "reply:Idle-Timeout": 900,
      "reply:Acct-Interim-Interval": 60,
      "reply:Mikrotik-Total-Limit": 2 * 2 ** 30,
      "reply:Mikrotik-Total-Limit-Gigawords": 1,
      "reply:ChilliSpot-Max-Total-Octets": 2 ** 32 - 1,
      "reply:Mikrotik-Rate-Limit": "256k/0k",
      "reply:WISPr-Bandwidth-Max-Up": 256_000,
    });
  });

  it("accepts IPv4 and IPv6 NAS addresses only", () => {
    for (const ok of ["41.90.12.7", "127.0.0.1", "::1", "2001:db8::7"]) expect(isIpAddress(ok), ok).toBe(true);
    for (const bad of ["41.90.12", "256.1.1.1", "01.2.3.4", "example.com", "1.2.3.4/24", "::g", ""])
      expect(isIpAddress(bad), bad).toBe(false);
  });
});
