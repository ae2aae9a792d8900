// The attacks on the HTTP boundary (docs/security.md, "The HTTP boundary"), performed over real HTTP against
// the built server (server/app.mjs over build/index.js), on SQLite and PostgreSQL: cross-site
// requests (CSRF), oversized and chunked bodies, wrong content types, NUL bytes, open redirects,
// cookies over HTTPS and caching of pages with customer data.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { issueToken } from "~/services/auth.server";
import { makeOrg, makeUser, sessionCookie } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { streamUntilAnswered } from "../fixtures/streaming";
import { makeConnectionWorld } from "../fixtures/records";
import { OFF_SITE_REDIRECTS } from "../fixtures/redirects";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const OUR_ORIGIN = () => new URL(getEnv().PUBLIC_URL).origin;
const EVIL = "http://evil.example";

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
}

async function adminWorld() {
  const { org, owner } = await makeOrg(`Boundary ${Math.random()}`);
  const world = await makeConnectionWorld(org.id, 2);
  return { org, owner, world, cookie: await sessionCookie(owner.id, org.id) };
}

describe("cross-site requests (CSRF)", () => {
  it("refuses a document POST, a ?_data= POST and a resource route from another origin, and changes nothing", async () => {
    const { org, world, cookie } = await adminWorld();
    const online = world.connections[world.connections.length - 1];
    for (const origin of [EVIL, "null", "not a url"]) {
      const deleteNetwork = await post(`/${org.id}/venues/${world.venue.id}/settings`, "intent=delete&confirmed=yes", {
        Cookie: cookie,
        Origin: origin,
        Accept: "text/html",
      });
      expect(deleteNetwork.status).toBe(403);
      expect(await deleteNetwork.text()).toContain("This request came from another site");
      const dataRequest = await post(
        `/${org.id}/venues/${world.venue.id}/settings?_data=routes%2F%24orgId%2B%2F_networks%2B%2Fvenues%2B%2F%24venueId%2B%2Fsettings`,
        "intent=delete&confirmed=yes",
        { Cookie: cookie, Origin: origin },
      );
      expect(dataRequest.status).toBe(403);
      const close = await post(`/${org.id}/connections/${online.id}/close`, "confirmed=yes", { Cookie: cookie, Origin: origin });
      expect(close.status).toBe(403);
    }
    // A cross-site Referer without Origin is refused too.
    expect(
      (await post(`/${org.id}/connections/${online.id}/close`, "confirmed=yes", { Cookie: cookie, Referer: `${EVIL}/page` })).status,
    ).toBe(403);
    expect(await db.selectFrom("venues").select("id").where("id", "=", world.venue.id).executeTakeFirst()).toBeDefined();
    const connection = await db.selectFrom("connections").select("ended_at").where("id", "=", online.id).executeTakeFirstOrThrow();
    expect(connection.ended_at).toBeNull();
  });

  it("lets the same requests through from our own origin", async () => {
    const { org, world, cookie } = await adminWorld();
    const online = world.connections[world.connections.length - 1];
    const close = await post(`/${org.id}/connections/${online.id}/close`, "confirmed=yes", { Cookie: cookie, Origin: OUR_ORIGIN() });
    expect(close.status).toBe(302);
    const connection = await db.selectFrom("connections").select("ended_at").where("id", "=", online.id).executeTakeFirstOrThrow();
    expect(connection.ended_at).not.toBeNull();
    const deleteNetwork = await post(`/${org.id}/venues/${world.venue.id}/settings`, "intent=delete&confirmed=yes", {
      Cookie: cookie,
      Origin: OUR_ORIGIN(),
    });
    expect(deleteNetwork.status).toBe(302);
    expect(await db.selectFrom("venues").select("id").where("id", "=", world.venue.id).executeTakeFirst()).toBeUndefined();
  });

  it("lets a bearer-token API call through without an Origin, and with a foreign one", async () => {
    const user = await makeUser();
    const token = await issueToken(user.id, "api");
    for (const headers of [{}, { Origin: EVIL }] as Record<string, string>[]) {
      const res = await fetch(`${server.origin}/account/api/v1/organizations`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ name: `Scripted ${Math.random()}`, address: "1 Moi Avenue" }),
      });
      expect(res.status).toBe(201);
    }
  });
});

describe("request bodies", () => {
  it("answers a chunked body past the form limit with 413 at once, without buffering it", async () => {
    const before = process.memoryUsage().rss;
    const outcome = await streamUntilAnswered(`${server.origin}/login`, "application/x-www-form-urlencoded", 300 * 1024 * 1024, "a");
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(20 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("answers a declared Content-Length past the limit with 413", async () => {
    const res = await post("/login", "login_id=".padEnd(300 * 1024, "a"));
    expect(res.status).toBe(413);
  });
});

describe("content types", () => {
  it("answers text/plain and JSON posted to forms with 415, and a malformed multipart body with 400", async () => {
    const { org, cookie } = await adminWorld();
    for (const path of ["/login", "/register", "/password/forgot", `/${org.id}/venue/create`]) {
      for (const type of ["text/plain", "application/json"]) {
        const res = await post(path, "login_id=a", { "Content-Type": type, Cookie: cookie, Origin: OUR_ORIGIN() });
        expect(res.status, `${path} ${type}`).toBe(415);
      }
      const broken = await post(path, "no boundary here", {
        "Content-Type": "multipart/form-data; boundary=zzz",
        Cookie: cookie,
        Origin: OUR_ORIGIN(),
      });
      expect(broken.status, `${path} multipart`).toBe(400);
    }
  });
});

describe("NUL bytes", () => {
  it("refuses them in searches, exports, API queries, forms and JSON bodies with 400, writing nothing", async () => {
    const { org, owner, cookie } = await adminWorld();
    const token = await issueToken(owner.id, "api");
    const venuesBefore = await db.selectFrom("venues").select("id").where("organization_id", "=", org.id).execute();
    const gets = [
      `/${org.id}/connections?search=%00`,
      `/${org.id}/connections.csv?search=%00`,
      `/${org.id}/customers?search=a%00b`,
      `/${org.id}/venues?search=%00`,
    ];
    for (const path of gets) {
      const res = await fetch(`${server.origin}${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(400);
    }
    const api = await fetch(`${server.origin}/account/api/v1/venues?query=%00`, {
      headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id) },
    });
    expect(api.status).toBe(400);
    expect((await api.json()).error.message).toMatch(/not allowed/);

    const form = await post(`/${org.id}/venue/create`, "name=Bad%00Name&address=1+Moi+Avenue", { Cookie: cookie, Origin: OUR_ORIGIN() });
    expect(form.status).toBe(400);
    const multipart = new FormData();
    multipart.append("name", "Bad\u0000Name");
    multipart.append("address", "1 Moi Avenue");
    const multi = await fetch(`${server.origin}/${org.id}/venue/create`, {
      method: "POST",
      body: multipart,
      headers: { Cookie: cookie, Origin: OUR_ORIGIN() },
    });
    expect(multi.status).toBe(400);
    // The same multipart form without the NUL goes through (its boundary is case-sensitive).
    multipart.set("name", "Good Name");
    const good = await fetch(`${server.origin}/${org.id}/venue/create`, {
      method: "POST",
      body: multipart,
      redirect: "manual",
      headers: { Cookie: cookie, Origin: OUR_ORIGIN() },
    });
    expect(good.status).toBe(302);
    const json = await fetch(`${server.origin}/account/api/v1/venues`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id), "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Bad\u0000Name", address: "1 Moi Avenue" }),
    });
    expect(json.status).toBe(400);
    const login = await post("/login", "login_id=a%00@example.com&password=whatever1");
    expect(login.status).toBe(400);
    expect(await db.selectFrom("venues").select("name").where("organization_id", "=", org.id).execute()).toHaveLength(
      venuesBefore.length + 1,
    );
  });
});

describe("redirects", () => {
  it("sends a user who signs in with a crafted redirectTo to our own site", async () => {
    const user = await makeUser({ password: "correct-horse" });
    for (const target of ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/", ...OFF_SITE_REDIRECTS]) {
      const res = await post(
        "/login",
        new URLSearchParams({ login_id: user.email, password: "correct-horse", redirectTo: target }).toString(),
        { Origin: OUR_ORIGIN() },
      );
      expect(res.status, target).toBe(302);
      const location = new URL(res.headers.get("Location")!, server.origin);
      expect(location.origin, target).toBe(server.origin);
    }
  });

  it("never answers 500 for CR, LF or NUL in redirectTo, and keeps the device page's Cancel link on our site", async () => {
    const { org, world, cookie } = await adminWorld();
    for (const raw of ["%2F%0D%0ASet-Cookie:x=1", "%2F%09%2Fevil.example"]) {
      const res = await fetch(`${server.origin}/${org.id}/devices/${world.device.id}/block?redirectTo=${raw}`, {
        headers: { Cookie: cookie },
      });
      expect(res.status).toBe(200);
      const html = await res.text();
      const cancel = html.match(/href="([^"]*)"[^>]*>Cancel/)?.[1];
      expect(cancel).toBe(`/${org.id}/customers`);
    }
  });
});

describe("cookies and caching", () => {
  it("marks cookies Secure when the request came over HTTPS through a trusted proxy, and only then", async () => {
    const user = await makeUser({ password: "correct-horse" });
    const body = new URLSearchParams({ login_id: user.email, password: "correct-horse" }).toString();
    const direct = await post("/login", body, { "X-Forwarded-Proto": "https", Origin: OUR_ORIGIN() });
    expect(direct.headers.get("Set-Cookie")).not.toMatch(/;\s*Secure/i);
    const proxied = await startBuiltServer({ TRUST_PROXY: "1" });
    try {
      const res = await fetch(`${proxied.origin}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Proto": "https", Origin: OUR_ORIGIN() },
        body,
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("Set-Cookie")).toMatch(/;\s*Secure/i);
    } finally {
      await proxied.close();
    }
  });

  it("keeps pages, data requests and exports with customer data out of caches", async () => {
    const { org, world, cookie } = await adminWorld();
    for (const path of [
      `/${org.id}/customers`,
      `/${org.id}/customers/${world.customer.id}/connections?_data=routes%2F%24orgId%2B%2F_customers%2B%2Fcustomers%2B%2F%24customerId%2B%2Fconnections`,
      `/${org.id}/connections.csv`,
    ]) {
      const res = await fetch(`${server.origin}${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toMatch(/no-store/);
      await res.arrayBuffer();
    }
  });
});

describe("request log", () => {
  it("never writes a token carried in a path", async () => {
    // The log gathers a turn of the event loop's lines into one write to stdout (server/app.mjs).
    const log = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let lines: string[];
    try {
      for (const path of ["/register/verify/SECRET-VERIFY", "/password/reset/SECRET-RESET", "/invitations/SECRET-INVITE"]) {
        await (await fetch(`${server.origin}${path}`)).arrayBuffer();
      }
      await new Promise((r) => setTimeout(r, 50)); // the line is written when the response finishes
      lines = log.mock.calls.flatMap((c) => String(c[0]).split("\n"));
    } finally {
      log.mockRestore();
    }
    expect(lines.filter((l) => l.includes('"path"')).length).toBeGreaterThanOrEqual(3);
    expect(lines.join("\n")).not.toMatch(/SECRET/);
  });
});
