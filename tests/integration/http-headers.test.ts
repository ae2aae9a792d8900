// Response headers every answer carries, over real HTTP against the built server, on SQLite and
// PostgreSQL: a Permissions-Policy that turns off the powerful browser features the console and the
// guest pages never use, and nosniff, on console pages, guest pages, JSON of the console's API and
// of the guest path, static files, errors and refusals; the MikroTik login.html as a sandboxed download.
import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "~/services/auth.server";
import { makeOrg, sessionCookie } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery } from "../fixtures/portal";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer({ RADIUS_API_SECRET: "headers-radius-secret-0123456789" });
});
afterAll(() => server?.close());

/** The features the policy must turn off, each for every origin. */
const OFF = ["camera", "microphone", "geolocation", "payment", "usb", "serial", "hid", "browsing-topics"];

function expectPolicy(headers: Headers, label: string) {
  const policy = headers.get("permissions-policy");
  expect(policy, label).not.toBeNull();
  const features = Object.fromEntries(policy!.split(",").map((f) => f.trim().split("=") as [string, string]));
  for (const feature of OFF) expect(features[feature], `${label}: ${feature}`).toBe("()");
  expect(headers.get("x-content-type-options"), label).toBe("nosniff");
}

/** One raw HTTP exchange: for answers Node's parser gives before any handler (headers too large). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("headers on every answer", () => {
  it("sends Permissions-Policy and nosniff on console pages, the API, guest pages and JSON, assets, errors and refusals", async () => {
    const { org, owner } = await makeOrg(`Headers ${Math.random()}`);
    const cookie = await sessionCookie(owner.id, org.id);
    const token = await issueToken(owner.id, "api");
    const { venue, ap } = await makeNetwork(org.id);
    const entry = await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(ap.mac_address)}`);
    const guestToken = entry.token!;
    const asset = `/build/${fs.readdirSync("public/build").find((f) => f.endsWith(".js"))}`;

    const requests: [string, string, RequestInit?][] = [
      ["sign-in page", "/login"],
      ["console page", `/${org.id}/venues`, { headers: { Cookie: cookie } }],
      ["console data request", `/${org.id}/venues?_data=routes%2F%24orgId%2B%2Fvenues%2B%2F_index`, { headers: { Cookie: cookie } }],
      ["API JSON", "/account/api/v1/venues", { headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(org.id) } }],
      ["API refusal", "/account/api/v1/venues"],
      ["GraphQL", "/graphql", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"query":"{ me { id } }"}' }],
      ["script asset", asset],
      ["static file", "/favicon.svg"],
      ["health check", "/healthz"],
      ["unknown page", "/no-such-page"],
      ["cross-site refusal", "/logout", { method: "POST", headers: { Origin: "http://evil.example", Cookie: cookie } }],
      ["connect page (answered ahead of Express)", `/connect?token=${guestToken}`],
      ["guest JSON", `/splash/connection/${guestToken}`],
      ["guest JSON refusal", "/splash/connection/unknown-token-0000000000000000"],
      ["Captive Portal API", `/captive/${venue.portal_key}?token=${guestToken}`],
      ["accounting refusal", "/hotspot/accounting", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }],
      ["unknown network", "/hotspot/meraki/unknown-portal-key-000000"],
      ["RADIUS refusal", "/radius/authorize", { method: "POST" }],
    ];
    for (const [label, path, init] of requests) {
      const res = await fetch(`${server.origin}${path}`, { redirect: "manual", ...init });
      await res.arrayBuffer();
      expectPolicy(res.headers, `${label} (${res.status})`);
    }

    const port = Number(new URL(server.origin).port);
    const tooLarge = await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431/);
    const head = new Headers(
      tooLarge
        .split("\r\n\r\n")[0]
        .split("\r\n")
        .slice(1)
        .map((line) => line.split(/:\s*/, 2) as [string, string]),
    );
    expectPolicy(head, "431 from Node's parser");
  });

  it("turns off in Permissions-Policy every feature the console does not use (it uses none: no geolocation for the map)", async () => {
    const res = await fetch(`${server.origin}/login`);
    expect(res.headers.get("permissions-policy")).not.toMatch(/=\(self|=\*/);
  });

  it("serves the MikroTik login.html as a download with a policy that lets it run nothing on our origin", async () => {
    const { org } = await makeOrg(`Headers ${Math.random()}`);
    const { venue } = await makeNetwork(org.id);
    const download = await fetch(`${server.origin}/hotspot/mikrotik/${venue.portal_key}/login.html`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="login.html"');
    const csp = download.headers.get("content-security-policy");
    expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(csp).toMatch(/(^|; )sandbox(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await download.text()).toContain(`/hotspot/mikrotik/${venue.portal_key}`);
  });
});
