// What guests' browsers get from splash pages, over HTTP against the built server, on SQLite and
// PostgreSQL: the connect page inside the network's published page under the sandbox that lets
// its scripts run without our origin, the styling templates' files, images, and "View page".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { SPLASH_CSP } from "~/guest/http";
import { saveAsset } from "~/services/splash/assets.server";
import { createPage, getPage, publishPage, saveCode, setPageType } from "~/services/splash/pages.server";
import { styleHref } from "~/services/splash/styles.server";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, postForm } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

async function world() {
  const { org, owner } = await makeOrg(`Splash guests ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const network = await makeNetwork(org.id);
  return { org, ctx, ...network };
}

async function networkPage(w: Awaited<ReturnType<typeof world>>, html: string, scripts = "") {
  const { id } = await createPage(w.ctx, { name: "Karibu", css_template: "bootstrap4.css", description: null });
  await setPageType(w.ctx, id, 2);
  await saveCode(w.ctx, id, { html, custom_scripts: scripts });
  await publishPage(w.ctx, id);
  await db.updateTable("venues").set({ splash_page_id: id }).where("id", "=", w.venue.id).execute();
  return id;
}

const guestToken = async (w: Awaited<ReturnType<typeof world>>) =>
  (await enter(server.origin, `/hotspot/meraki/${w.venue.portal_key}?${merakiQuery(w.ap.mac_address)}`)).token!;

describe("the connect page inside a splash page", () => {
  it("wraps the form in the network's published page, scripts sandboxed away from our origin, and the form still connects", async () => {
    const w = await world();
    await networkPage(
      w,
      `<header><h1>Karibu {{ config.venue_name }}</h1></header>{{ connect_form }}<footer>Asante</footer>`,
      "document.body.dataset.ran = '1';",
    );
    const token = await guestToken(w);
    const page = await fetch(`${server.origin}/connect?token=${token}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toBe(SPLASH_CSP);
    expect(csp).toMatch(/sandbox allow-forms allow-scripts allow-top-navigation;/);
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("connect-src 'none'");
    expect(page.headers.get("set-cookie")).toBeNull();
    const body = await page.text();
    expect(body).toMatch(
      /<header><h1>Karibu <\/h1><\/header><div class="mlango-form">.*<form method="post" action="\/connect".*<\/div><footer>Asante<\/footer><script>document\.body\.dataset\.ran = '1';<\/script><\/body><\/html>$/s,
    );
    expect(body).toContain(`<link rel="stylesheet" href="${styleHref("bootstrap4.css")}">`);
    expect(body.match(/<h1/g)).toHaveLength(1);

    const connected = await postForm(server.origin, "/connect", {
      token,
      mode: "SIGNUP",
      first_name: "Wanjiru",
      last_name: "Kamau",
      email_address: "wanjiru@example.com",
      phone_number: "0712 000 222",
    });
    expect(connected.status).toBe(303);
    expect(connected.headers.get("location")).toContain("continue_url=");
  });

  it("shows sign-up errors inside the page, and the built-in page (no scripts allowed) without one", async () => {
    const w = await world();
    const token = await guestToken(w);
    const builtIn = await fetch(`${server.origin}/connect?token=${token}`);
    expect(builtIn.headers.get("content-security-policy")).not.toContain("allow-scripts");
    expect(await builtIn.text()).toContain('<div class="card">');

    await networkPage(w, "<h1>Our page</h1>{{ connect_form }}");
    const refused = await postForm(server.origin, "/connect", {
      token,
      mode: "SIGNUP",
      first_name: "A",
      last_name: "B",
      email_address: "",
      phone_number: "07",
    });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-security-policy")).toBe(SPLASH_CSP);
    const body = await refused.text();
    expect(body).toContain("<h1>Our page</h1>");
    expect(body).toContain("Email address is required.");
  });
});

describe("files for splash pages", () => {
  it("serves the styling templates from this server, cached for a year", async () => {
    for (const template of ["bootstrap4.css", "bootstrap3.css"] as const) {
      const response = await fetch(`${server.origin}${styleHref(template)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/css");
      expect(response.headers.get("cache-control")).toContain("immutable");
      expect((await response.text()).length).toBeGreaterThan(100_000);
    }
    for (const bad of ["bootstrap4-0.0.1.css", "tailwind.css", "..%2f..%2fpackage.json", "bootstrap4.css"]) {
      expect((await fetch(`${server.origin}/splash/styles/${bad}`)).status).toBe(404);
    }
  });

  it("serves splash images to anyone by their random key, never floor plans or other files", async () => {
    const w = await world();
    const saved = await saveAsset(w.ctx, { ok: true, image: { bytes: PNG, extension: "png" }, fields: new FormData() }, "Logo.png");
    expect(saved.ok).toBe(true);
    const path = saved.ok ? saved.asset.path : "";
    expect(path).toMatch(new RegExp(`^/assets/splash/${w.org.id}/logo-[0-9a-f]{16}\\.png$`));
    const image = await fetch(`${server.origin}${path}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    for (const other of [
      path.replace(/\.png$/, ".jpeg"),
      `/assets/layouts/${w.venue.id}/plan-0123456789abcdef.png`,
      `/assets/splash/${w.org.id}/..%2f..%2f..%2fpackage.json`,
      "/assets/",
    ]) {
      expect((await fetch(`${server.origin}${other}`)).status).toBe(404);
    }
  });

  it("shows a published page at its page_url with a preview form, and nothing for a draft", async () => {
    const w = await world();
    const id = await networkPage(w, "<h1>Public face</h1>{{ connect_form }}");
    const page = await getPage(w.ctx, id);
    const url = new URL(page.page_url!);
    const shown = await fetch(`${server.origin}${url.pathname}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-security-policy")).toBe(SPLASH_CSP);
    const body = await shown.text();
    expect(body).toContain("<h1>Public face</h1>");
    expect(body).toContain("Preview: guests connect to the Wi-Fi with this form.");
    const { id: draft } = await createPage(w.ctx, { name: "Draft", css_template: "tailwind.css", description: null });
    const draftKey = (await db.selectFrom("splash_pages").select("public_key").where("id", "=", draft).executeTakeFirstOrThrow())
      .public_key;
    expect((await fetch(`${server.origin}/splash/pages/${draftKey}`)).status).toBe(404);
    expect((await fetch(`${server.origin}/splash/pages/not-a-key`)).status).toBe(404);
  });
});
