import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUnifi, type FakeUnifi } from "../../scripts/fakes/unifi-controller";

describe("fake UniFi controller", () => {
  let unifi: FakeUnifi;
  beforeAll(async () => {
    unifi = await startFakeUnifi();
  });
  afterAll(() => unifi.close());

  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${unifi.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  async function login(): Promise<string> {
    const res = await post("/api/login", { username: "admin", password: "unifi-fake-password" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ meta: { rc: "ok" }, data: [] });
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => /^unifises=\w+; Path=\/; HttpOnly$/.test(c))).toBe(true);
    expect(cookies.some((c) => /^csrf_token=\w+; Path=\/$/.test(c))).toBe(true);
    return cookies.map((c) => c.split(";")[0]).join("; ");
  }

  it("listens on 127.0.0.1", () => {
    expect(unifi.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("logs in, authorizes and unauthorizes a guest", async () => {
    const cookie = await login();
    const stamgr = "/api/s/default/cmd/stamgr";
    const mac = "AA:BB:CC:DD:EE:01";

    const auth = await post(stamgr, { cmd: "authorize-guest", mac, minutes: 60, ap_mac: "02:00:00:00:00:aa" }, cookie);
    expect(auth.status).toBe(200);
    expect(await auth.json()).toEqual({ meta: { rc: "ok" }, data: [{ mac: "aa:bb:cc:dd:ee:01" }] });
    expect(unifi.authorized.has("default|aa:bb:cc:dd:ee:01")).toBe(true);

    const unauth = await post(stamgr, { cmd: "unauthorize-guest", mac }, cookie);
    expect(unauth.status).toBe(200);
    expect(unifi.authorized.has("default|aa:bb:cc:dd:ee:01")).toBe(false);
    expect(unifi.commands).toEqual([
      { site: "default", cmd: "authorize-guest", mac: "aa:bb:cc:dd:ee:01", minutes: 60, ap_mac: "02:00:00:00:00:aa" },
      { site: "default", cmd: "unauthorize-guest", mac: "aa:bb:cc:dd:ee:01" },
    ]);

    expect((await post(stamgr, { cmd: "authorize-guest", mac: "not-a-mac" }, cookie)).status).toBe(400);
    expect((await post(stamgr, { cmd: "block-sta", mac }, cookie)).status).toBe(400);
    expect((await post(stamgr, "{nope", cookie)).status).toBe(400);
    expect((await post(stamgr, { cmd: "authorize-guest", mac: "x".repeat(70_000) }, cookie)).status).toBe(413);

    expect((await post("/api/logout", {}, cookie)).status).toBe(200);
    expect((await post(stamgr, { cmd: "authorize-guest", mac }, cookie)).status).toBe(401);
  });

  it("records the limits authorize-guest was given, and refuses limits that are not positive integers", async () => {
    const cookie = await login();
    const stamgr = "/api/s/lab/cmd/stamgr";
    const mac = "aa:bb:cc:dd:ee:03";
    const auth = await post(stamgr, { cmd: "authorize-guest", mac, minutes: 30, up: 512, down: 2048, bytes: 500 }, cookie);
    expect(auth.status).toBe(200);
    expect(unifi.commands.at(-1)).toEqual({ site: "lab", cmd: "authorize-guest", mac, minutes: 30, up: 512, down: 2048, bytes: 500 });
    const before = unifi.commands.length;
    for (const bad of [{ up: 0 }, { down: -1 }, { bytes: 1.5 }, { bytes: "500" }, { minutes: 0 }]) {
      expect((await post(stamgr, { cmd: "authorize-guest", mac, ...bad }, cookie)).status).toBe(400);
    }
    expect(unifi.commands.length).toBe(before);
  });

  it("refuses stamgr without a session and a wrong password", async () => {
    const res = await post("/api/s/default/cmd/stamgr", { cmd: "authorize-guest", mac: "aa:bb:cc:dd:ee:02" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ meta: { rc: "error", msg: "api.err.LoginRequired" }, data: [] });
    expect((await post("/api/s/default/cmd/stamgr", {}, "unifises=forged")).status).toBe(401);

    const bad = await post("/api/login", { username: "admin", password: "wrong" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ meta: { rc: "error", msg: "api.err.Invalid" }, data: [] });
    // GET /api/self is the network API's "who am I" (ubntwiki): signed out, it asks for a login.
    expect((await fetch(`${unifi.url}/api/self`)).status).toBe(401);
  });

  it("answers 500 to everything while failing", async () => {
    unifi.failing = true;
    try {
      expect((await post("/api/login", { username: "admin", password: "unifi-fake-password" })).status).toBe(500);
    } finally {
      unifi.failing = false;
    }
  });
});
