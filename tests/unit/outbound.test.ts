import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { parseAllowList } from "~/lib/outbound-allow.mjs";
import { isInternalAddress, OUTBOUND_MESSAGES, OutboundRefusedError, outboundFetch, outboundUrlProblem } from "~/services/outbound.server";
import { withEnv } from "../fixtures/env";
import { connectionCounter, INTERNAL_URLS, PUBLIC_URLS } from "../fixtures/outbound";

// The tests' environment allows 127.0.0.1 (vitest.config.ts) for the fake servers: these tests start
// without an allow-list, as production does.
const noAllowList = <T>(fn: () => Promise<T>) => withEnv({ OUTBOUND_ALLOW: undefined }, fn);

describe("isInternalAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "10.0.0.5",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.5",
    "::ffff:a9fe:a9fe",
    "::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "fc00::1",
    "fdff:ffff::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "41.90.64.10",
    "100.63.255.255",
    "100.128.0.1",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::",
  ])("accepts the public address %s", (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });
});

describe("outboundUrlProblem (saving a setting)", () => {
  it.each(INTERNAL_URLS)("refuses %s with the form message", async (url) => {
    expect(await noAllowList(() => outboundUrlProblem(url))).toBe(OUTBOUND_MESSAGES.internal(new URL(url).hostname));
  });

  it.each(PUBLIC_URLS)("accepts %s", async (url) => {
    expect(await noAllowList(() => outboundUrlProblem(url))).toBeNull();
  });

  it("refuses what is not an http(s) address", async () => {
    for (const url of ["ftp://8.8.8.8/", "file:///etc/passwd", "not a url", "gopher://8.8.8.8"]) {
      expect(await outboundUrlProblem(url), url).toBe(OUTBOUND_MESSAGES.notHttp);
    }
  });

  it("accepts internal hosts, addresses and ranges that OUTBOUND_ALLOW lists, and nothing else", async () => {
    await withEnv({ OUTBOUND_ALLOW: "10.0.0.0/8, unifi.lan,fd12:3456:789a::/48" }, async () => {
      expect(await outboundUrlProblem("http://10.0.0.5:8443")).toBeNull();
      expect(await outboundUrlProblem("http://[fd12:3456:789a::1]")).toBeNull();
      expect(await outboundUrlProblem("https://UNIFI.lan:8443")).toBeNull();
      expect(await outboundUrlProblem("http://127.0.0.1:8443")).toBe(OUTBOUND_MESSAGES.internal("127.0.0.1"));
      expect(await outboundUrlProblem("http://192.168.1.1")).toBe(OUTBOUND_MESSAGES.internal("192.168.1.1"));
    });
  });
});

describe("OUTBOUND_ALLOW", () => {
  it("takes host names, addresses and CIDR ranges, and refuses anything else at boot", () => {
    expect(parseAllowList("unifi.lan, 10.20.0.0/16 192.168.1.10,::1,fd00::/8")).toEqual({
      ok: true,
      entries: [
        { kind: "host", name: "unifi.lan" },
        { kind: "range", address: "10.20.0.0", prefix: 16, family: "ipv4" },
        { kind: "range", address: "192.168.1.10", prefix: 32, family: "ipv4" },
        { kind: "range", address: "::1", prefix: 128, family: "ipv6" },
        { kind: "range", address: "fd00::", prefix: 8, family: "ipv6" },
      ],
    });
    for (const bad of ["10.0.0.0/33", "http://unifi.lan", "unifi.lan/8", "10.0.0.0/8/1", "*.lan", "fd00::/129", "010.0.0.1", "0x7f.1"]) {
      expect(parseAllowList(bad), bad).toEqual({ ok: false, entry: bad });
      expect(() => parseEnv({ OUTBOUND_ALLOW: bad }), bad).toThrow(/OUTBOUND_ALLOW/);
    }
    expect(parseEnv({}).OUTBOUND_ALLOW).toBeUndefined();
  });
});

describe("outboundFetch (every call)", () => {
  it("refuses a host that resolves to loopback, and address literals, without connecting", async () => {
    const counter = await connectionCounter();
    try {
      for (const url of [
        `http://localhost:${counter.port}/api/login`,
        `http://127.0.0.1:${counter.port}/api/login`,
        `http://0177.0.0.1:${counter.port}/api/login`,
        `http://2130706433:${counter.port}/api/login`,
        `http://[::ffff:127.0.0.1]:${counter.port}/api/login`,
      ]) {
        await expect(
          noAllowList(() => outboundFetch(url, { method: "POST", body: "{}" })),
          url,
        ).rejects.toBeInstanceOf(OutboundRefusedError);
      }
      expect(counter.connections()).toBe(0);
      // The same call is made when the deployment allows the address (the fakes of the tests).
      await withEnv({ OUTBOUND_ALLOW: "127.0.0.1" }, () =>
        outboundFetch(`http://127.0.0.1:${counter.port}/`, { signal: AbortSignal.timeout(300) }).catch(() => null),
      );
      expect(counter.connections()).toBe(1);
    } finally {
      await counter.close();
    }
  });

  it("never follows a redirect: a 307 comes back as it is and its target gets nothing", async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(307, { Location: "/elsewhere" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await withEnv({ OUTBOUND_ALLOW: "127.0.0.1" }, () =>
        outboundFetch(`http://127.0.0.1:${port}/token`, { method: "POST", body: new URLSearchParams({ client_secret: "s" }) }),
      );
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toBe("/elsewhere");
      expect(seen).toEqual(["POST /token"]);
    } finally {
      server.close();
    }
  });

  it("answers a standard Response: status, every Set-Cookie header and the body", async () => {
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        res.writeHead(200, { "Content-Type": "application/json", "Set-Cookie": ["a=1; Path=/", "b=2; Path=/"] });
        res.end(JSON.stringify({ got: body, type: req.headers["content-type"] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await withEnv({ OUTBOUND_ALLOW: "127.0.0.1" }, () =>
        outboundFetch(`http://127.0.0.1:${port}/`, { method: "POST", body: new URLSearchParams({ code: "x y" }) }),
      );
      expect(res.ok).toBe(true);
      expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
      expect(await res.json()).toEqual({ got: "code=x+y", type: "application/x-www-form-urlencoded;charset=UTF-8" });
    } finally {
      server.close();
    }
  });
});
