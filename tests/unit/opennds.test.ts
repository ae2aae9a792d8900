// openNDS's entry read as openNDS 9.10 writes it (tests/fixtures/opennds.ts): a `+` of the unescaped
// base64 arrives as a space and must be read as `+`.
import { describe, expect, it } from "vitest";
import { OPENNDS_AGENT } from "~/services/portal/gateways/opennds-agent";
import { opennds } from "~/services/portal/gateways/opennds.server";
import type { GatewayNetwork } from "~/services/portal/gateways/types";
import { opennds as simulatedOpennds } from "../../scripts/simulator/makes";
import { openndsQuery } from "../fixtures/opennds";

const NETWORK = {} as GatewayNetwork;

describe("openNDS fas", () => {
  it("reads fas whose base64 holds + (a ~ in the original URL), as openNDS sends it unescaped", () => {
    const origin = "http://example.com/~amina/?q=~~~";
    const query = openndsQuery(origin);
    expect(query).toContain("+");
    const parsed = opennds.parseEntry(new URLSearchParams(query), "", NETWORK, Date.now());
    expect(parsed).toMatchObject({
      ok: true,
      entry: {
        clientMac: "02:00:5e:00:53:20",
        clientIp: "198.51.100.20",
        ssid: "Kahawa Guest",
        continueUrl: origin,
        context: { hid: "4f7c1a9b", gatewayaddress: "198.51.100.1:2050" },
      },
    });
  });

  it("still reads a fas that something on the way did URL-escape", () => {
    const query = openndsQuery("http://example.com/~a/~b");
    const escaped = `fas=${encodeURIComponent(query.slice(4))}`;
    expect(opennds.parseEntry(new URLSearchParams(escaped), "", NETWORK, Date.now())).toMatchObject({ ok: true });
  });

  it("refuses a fas that is not base64 of key=value pairs", () => {
    for (const fas of ["%%%", "not base64!", Buffer.from("hello").toString("base64")]) {
      expect(opennds.parseEntry(new URLSearchParams({ fas }), "", NETWORK, Date.now())).toMatchObject({ ok: false });
    }
  });
});

describe("openNDS set-up steps", () => {
  const stepsFor = (origin: string, originIpv4: string | null = null) =>
    opennds.setup(origin, { portalKey: "pk123", originIpv4 }).steps.join("\n");

  it("gives fasremotefqdn a bare host name, the port in fasport, and fasremoteip, in both the UCI and the opennds.conf forms", () => {
    const steps = stepsFor("http://wifi.example.com:44080", "203.0.113.7");
    for (const line of [
      "option login_option_enabled '0'",
      "option fas_secure_enabled '1'",
      "option fasremoteip '203.0.113.7'",
      "option fasremotefqdn 'wifi.example.com'",
      "option fasport '44080'",
      "option faspath '/hotspot/opennds/pk123'",
      "fasremotefqdn wifi.example.com",
      "fasremoteip 203.0.113.7",
      "fasport 44080",
      "faspath /hotspot/opennds/pk123",
      "/etc/config/opennds",
      "/etc/opennds/opennds.conf",
    ]) {
      expect(steps).toContain(line);
    }
    expect(steps).not.toMatch(/fasremotefqdn .?wifi\.example\.com:/);
    expect(steps).not.toContain("fas_https");
  });

  it("names the address to look up when the host's IPv4 address is unknown, and needs no fqdn for an address", () => {
    expect(stepsFor("http://wifi.example.com")).toContain("option fasremoteip '<IPv4 address of wifi.example.com>'");
    expect(stepsFor("http://wifi.example.com")).toContain("option fasport '80'");
    const byAddress = stepsFor("http://203.0.113.9:8080");
    expect(byAddress).toContain("option fasremoteip '203.0.113.9'");
    expect(byAddress).not.toContain("fasremotefqdn");
  });

  it("says what an https-only console needs: FAS levels 0 to 2 are plain http", () => {
    const steps = stepsFor("https://wifi.example.com", "203.0.113.7");
    expect(steps).toContain("option fasport '80'");
    expect(steps).toMatch(/address is https.*http:\/\/wifi\.example\.com\/hotspot\/opennds\/ on port 80/);
    expect(steps).not.toContain("fas_https");
  });
});

describe("openNDS agent step", () => {
  it("offers the agent with this network's URL, portal key and a placeholder for its gateway secret", () => {
    const steps = opennds.setup("http://wifi.example.com:8080", { portalKey: "pk123", originIpv4: "203.0.113.7" }).steps;
    const agent = steps.find((step) => step.includes("/usr/bin/mlango-opennds-agent"))!;
    const [howTo, ...script] = agent.split("\n");
    expect(howTo).toContain("MLANGO_URL='http://wifi.example.com:8080' MLANGO_PORTAL_KEY='pk123' MLANGO_SECRET='<your gateway secret>'");
    expect(`${script.join("\n")}\n`).toBe(OPENNDS_AGENT);
    expect(OPENNDS_AGENT).toMatch(/^#!\/bin\/sh\n/);
    expect(OPENNDS_AGENT).toContain("/hotspot/mlango/$MLANGO_PORTAL_KEY/revocations?after=$after");
    expect(OPENNDS_AGENT).toContain('nds deauth "$1"');
  });
});

describe("the simulator's openNDS", () => {
  it("redirects as openNDS 9.10 does (fas unescaped, hid first), and the adapter reads it", () => {
    const network = {
      entryPath: "/hotspot/opennds/pk123",
      accessPoints: [{ mac: "02:00:5e:00:53:01", successUrl: null }],
      successUrl: null,
      gatewaySecret: "s",
      faskey: "k",
      sessionMinutes: 60,
    };
    const device = { clientMac: "02:00:5e:00:53:99", clientIp: "198.51.100.99", userAgent: "test", apIndex: 0 };
    const { path, state } = simulatedOpennds.entry(network, device, Date.now());
    const fas = path.slice(path.indexOf("?fas=") + 5);
    expect(fas).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(fas, "base64").toString()).toMatch(/^hid=[0-9a-f]{64}, clientip=198\.51\.100\.99, clientmac=02:00:5e:00:53:99, /);
    const parsed = opennds.parseEntry(new URLSearchParams(path.split("?")[1]), "", NETWORK, Date.now());
    expect(parsed).toMatchObject({
      ok: true,
      entry: { clientMac: device.clientMac, apMac: "02:00:5e:00:53:01", context: { hid: state.hid } },
    });
  });
});
