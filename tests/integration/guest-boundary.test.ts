// The request boundary on the guest side and /graphql, performed over real HTTP against the built
// server on SQLite and PostgreSQL (docs/security.md, "The HTTP boundary"; issue 38 items 5–7): deeply
// nested JSON is a 400 on every route that reads JSON, NUL bytes in paths and queries never reach
// the database, and an oversized body streamed into a guest route is answered 413 at once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { streamUntilAnswered } from "../fixtures/streaming";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer({ RADIUS_API_SECRET: "guest-boundary-radius-secret-0123456789" });
});
afterAll(() => server?.close());

/** 10 KB of JSON, 5,000 levels deep. */
const DEEP = "[".repeat(5000) + "]".repeat(5000);

const KEY = "guest-boundary-key-0123456789";

const JSON_ROUTES = [
  "/connect",
  "/connect/mpesa",
  "/splash/connect/auto",
  "/hotspot/accounting",
  `/hotspot/mikrotik/${KEY}`,
  `/hotspot/mpesa/${KEY}`,
  `/marketing/sms/${KEY}/inbound`,
  `/marketing/sms/${KEY}/delivery`,
  "/radius/authorize?nas=nas-1",
  "/graphql",
];

describe("deeply nested JSON", () => {
  it("is a 400 on every route that reads JSON, before any secret is checked, and logs no error", async () => {
    const logged = vi.spyOn(console, "error");
    try {
      for (const path of JSON_ROUTES) {
        const res = await fetch(`${server.origin}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: DEEP });
        expect(res.status, path).toBe(400);
        expect(await res.text(), path).toContain("nested too deeply");
      }
      expect(logged.mock.calls.map((c) => String(c[0])).filter((line) => /portal_error|RangeError/.test(line))).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it("still lets JSON of an honest depth through", async () => {
    const res = await fetch(`${server.origin}/splash/connect/auto`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: "x".repeat(43), mode: "CLICK_THROUGH", extra: { a: [{ b: [1] }] } }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toContain("nested too deeply");
  });
});

describe("NUL bytes in paths and queries", () => {
  it("are refused with 400 on the guest side's routes, unauthenticated or not", async () => {
    for (const [method, path] of [
      ["GET", "/assets/ads/%00"],
      ["GET", "/assets/splash/%00.png"],
      ["POST", "/radius/client?ip=%00"],
      ["GET", `/captive/${KEY}?token=%00`],
      ["GET", "/connect?token=%00"],
      ["GET", `/unsubscribe/%00`],
    ]) {
      const res = await fetch(`${server.origin}${path}`, { method, redirect: "manual" });
      expect(res.status, `${method} ${path}`).toBe(400);
    }
  });

  it("are refused in a GraphQL body too", async () => {
    const res = await fetch(`${server.origin}/graphql`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer whatever" },
      body: JSON.stringify({ query: "{ me { id } }", variables: { x: "a\u0000b" } }),
    });
    expect(res.status).toBe(400);
  });
});

describe("oversized bodies", () => {
  it("answers a body streamed into a guest route past its cap with 413 at once, and closes the connection", async () => {
    for (const path of ["/connect", "/hotspot/accounting", `/hotspot/mpesa/${KEY}`]) {
      const outcome = await streamUntilAnswered(`${server.origin}${path}`, "application/json", 32 * 1024 * 1024);
      expect(outcome.status, path).toBe(413);
      expect(outcome.sent, path).toBeLessThan(4 * 1024 * 1024);
    }
  });
});
