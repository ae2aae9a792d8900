// openNDS's entry read as openNDS 9.10 writes it (tests/fixtures/opennds.ts): a `+` of the unescaped
// base64 arrives as a space and must be read as `+`.
import { describe, expect, it } from "vitest";
import { opennds } from "~/services/portal/gateways/opennds.server";
import type { GatewayNetwork } from "~/services/portal/gateways/types";
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
