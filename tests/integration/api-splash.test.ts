// The splash pages and assets REST API (docs/guide/api.md#splash-pages) under
// /account/api/v1/: route loaders and actions called with a Request and a bearer token, on SQLite
// and PostgreSQL. The body caps of the request boundary for these paths are checked over loopback.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { Permission } from "~/lib/permissions";
import { SPLASH_MESSAGES } from "~/lib/schemas/splash";
import * as assetById from "~/routes/account+/api.v1.assets.$id";
import * as assets from "~/routes/account+/api.v1.assets";
import * as pageSetting from "~/routes/account+/api.v1.splash_pages.$pageId.display_settings.$settingId";
import * as page from "~/routes/account+/api.v1.splash_pages.$id";
import * as configs from "~/routes/account+/api.v1.splash_pages.configs.$id";
import * as copy from "~/routes/account+/api.v1.splash_pages.copy.$id";
import * as settingsOfPage from "~/routes/account+/api.v1.splash_pages.display_settings.$pageId";
import * as settings from "~/routes/account+/api.v1.splash_pages.display_settings";
import * as publish from "~/routes/account+/api.v1.splash_pages.publish.$id";
import * as pages from "~/routes/account+/api.v1.splash_pages";
import { API_MESSAGES } from "~/services/api.server";
import { issueToken } from "~/services/auth.server";
import { ASSET_MESSAGES } from "~/services/splash/assets.server";
import { findTemplate } from "~/services/splash/templates";
import { BASE, makeMember, makeOrg, run } from "../fixtures";
import { makeAccessPoint, makeVenue, multipartRequest, useTemporaryAssetStore } from "../fixtures/layout";

const store = useTemporaryAssetStore();
afterAll(() => store.cleanup());

type Route = { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: ActionFunctionArgs) => Promise<Response> };
type Json = Record<string, any>;

interface CallOptions {
  method?: string;
  token?: string;
  org?: number | string;
  json?: unknown;
  /** A raw body with its Content-Type. */
  raw?: { body: string; type: string };
  params?: Record<string, string | number>;
}

function call(route: Route, path: string, options: CallOptions = {}) {
  const method = options.method ?? (options.json !== undefined || options.raw ? "POST" : "GET");
  const headers = new Headers();
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.org !== undefined) headers.set("X-Organization-Id", String(options.org));
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  } else if (options.raw) {
    body = options.raw.body;
    headers.set("Content-Type", options.raw.type);
  }
  const request = new Request(new URL(`/account/api/v1/${path}`, BASE), { method, headers, body });
  const params = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  const args = { request, params, context: {} };
  return run(() => (method === "GET" || method === "HEAD" ? route.loader(args) : route.action(args)));
}

const json = async (res: Response): Promise<Json> => res.json();

/** A 1 × 1 PNG and a 1 × 1 GIF89a, byte for byte. */
const PNG_BYTES = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082",
  "hex",
);
const GIF_BYTES = Buffer.from("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b", "hex");
const SVG_BYTES = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');

async function setup() {
  const { org, owner } = await makeOrg(`Splash API ${Math.random()}`);
  const venue = await makeVenue(org.id, { name: "Java House" });
  const ap = await makeAccessPoint(org.id, venue.id, { name: "Lobby" });
  const ap2 = await makeAccessPoint(org.id, venue.id, { name: "Terrace" });
  const other = await makeOrg(`Other ${Math.random()}`);
  const otherVenue = await makeVenue(other.org.id);
  const otherAp = await makeAccessPoint(other.org.id, otherVenue.id, { name: "Elsewhere" });
  const token = await issueToken(owner.id, "api");
  const otherToken = await issueToken(other.owner.id, "api");
  return { org, owner, venue, ap, ap2, token, other: { ...other, venue: otherVenue, ap: otherAp, token: otherToken } };
}

/** A member of the organisation with a custom role of just these permissions, and their token. */
async function memberToken(orgId: number, permissions: Permission[]) {
  const { user } = await makeMember(orgId, "custom", permissions);
  return issueToken(user.id, "api");
}

async function createPage(token: string, orgId: number, fields: Record<string, unknown> = {}) {
  const res = await call(pages, "splash_pages", {
    token,
    json: { name: "Lobby page", css_template: "bootstrap4.css", description: "For the lobby", organization_id: orgId, ...fields },
  });
  expect(res.status).toBe(201);
  return (await json(res)).data.page as Json;
}

describe("splash_pages", () => {
  it("creates (201, 422 with the form's messages), lists with paging and search, reads one", async () => {
    const { org, token } = await setup();
    expect((await call(pages, "splash_pages", { org: org.id })).status).toBe(401);
    const missingOrg = await call(pages, "splash_pages", { token });
    expect(missingOrg.status).toBe(422);
    expect(await json(missingOrg)).toEqual({ errors: { organization_id: [API_MESSAGES.organizationRequired] } });

    const invalid = await call(pages, "splash_pages", { token, org: org.id, json: { description: "x", css_template: "evil.css" } });
    expect(invalid.status).toBe(422);
    expect(await json(invalid)).toEqual({ errors: { name: [SPLASH_MESSAGES.nameRequired], css_template: [SPLASH_MESSAGES.cssTemplate] } });
    const wrongType = await call(pages, "splash_pages", { token, org: org.id, json: { name: { $gt: "" } } });
    expect(wrongType.status).toBe(422);
    expect((await json(wrongType)).errors.name).toEqual([API_MESSAGES.wrongType]);

    const created = await call(pages, "splash_pages", {
      token,
      json: { name: "Lobby page", css_template: "bootstrap4.css", description: "For the lobby", organization_id: org.id },
    });
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(body.data.message).toBe("Splash page Lobby page created.");
    expect(body.data.page).toMatchObject({
      organization_id: org.id,
      name: "Lobby page",
      css_template: "bootstrap4.css",
      description: "For the lobby",
      type: null,
      published: false,
      page_url: null,
      template: false,
      html: "",
      css: "",
      custom_scripts: "",
      configs: [],
    });
    expect(body.data.page.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Form data works as well as JSON.
    const form = await call(pages, "splash_pages", {
      token,
      org: org.id,
      raw: { body: "name=Terrace+page", type: "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(201);
    expect((await json(form)).data.page).toMatchObject({ name: "Terrace page", css_template: "tailwind.css", description: null });

    const list = await json(await call(pages, `splash_pages?organization_id=${org.id}`, { token }));
    expect(list.data.pages.map((p: Json) => p.name)).toEqual(["Terrace page", "Lobby page"]);
    expect(list.data.meta).toEqual({ page: 1, per_page: 10, total: 2 });
    expect(list.data.pages[0]).not.toHaveProperty("html");
    const searched = await json(await call(pages, `splash_pages?organization_id=${org.id}&search=lobby&per_page=5`, { token }));
    expect(searched.data.pages.map((p: Json) => p.name)).toEqual(["Lobby page"]);
    expect(searched.data.meta).toEqual({ page: 1, per_page: 5, total: 1 });
    // Huge or nonsensical paging is clamped, never an error.
    const huge = await call(
      pages,
      `splash_pages?organization_id=${org.id}&per_page=99999999999999999999&page=-3&search=${"x".repeat(5000)}`,
      { token },
    );
    expect(huge.status).toBe(200);
    expect((await json(huge)).data.meta).toMatchObject({ page: 1, per_page: 250 });
    const far = await call(pages, `splash_pages?organization_id=${org.id}&page=1e308`, { token });
    expect(far.status).toBe(200);

    const one = await call(page, `splash_pages/${body.data.page.id}`, { token, org: org.id, params: { id: body.data.page.id } });
    expect(one.status).toBe(200);
    expect((await json(one)).data.page).toMatchObject({ id: body.data.page.id, name: "Lobby page", html: "", configs: [] });
  });

  it("lists the templates for any signed-in user, organisation or not", async () => {
    const { token, org } = await setup();
    expect((await call(pages, "splash_pages?template=true")).status).toBe(401);
    const res = await call(pages, "splash_pages?template=true", { token });
    expect(res.status).toBe(200);
    const templates = (await json(res)).data.pages as Json[];
    expect(templates.length).toBeGreaterThanOrEqual(3);
    for (const t of templates) {
      expect(t.template).toBe(true);
      expect(typeof t.html).toBe("string");
      expect(t.configs.length).toBeGreaterThan(0);
    }
    expect(templates.map((t) => t.id)).toEqual(expect.arrayContaining(["cafe", "hotel", "mall"]));
    const stranger = await issueToken((await makeOrg(`Lonely ${Math.random()}`)).owner.id, "api");
    expect((await call(pages, `splash_pages?template=true&organization_id=${org.id}`, { token: stranger })).status).toBe(200);
  });

  it("saves details, type, code and builder projects by the fields sent; 422 lists every message", async () => {
    const { org, token } = await setup();
    const created = await createPage(token, org.id);
    const put = (body: unknown, raw?: CallOptions["raw"]) =>
      call(page, `splash_pages/${created.id}`, {
        method: "PUT",
        token,
        org: org.id,
        json: raw ? undefined : body,
        raw,
        params: { id: created.id },
      });

    // Details: a new name keeps the styling and description it is not sent with.
    const renamed = await put({ name: "Front desk" });
    expect(renamed.status).toBe(200);
    expect((await json(renamed)).data).toMatchObject({
      message: "Splash page Front desk saved.",
      page: { name: "Front desk", css_template: "bootstrap4.css", description: "For the lobby" },
    });
    const cleared = await json(await put({ name: "Front desk", description: "", css_template: "bootstrap3.css" }));
    expect(cleared.data.page).toMatchObject({ description: null, css_template: "bootstrap3.css" });

    // 422s, all at once, and nothing saved.
    const invalid = await put({ name: "", description: "ok", type: 7, html: { tag: "h1" }, custom_scripts: "x".repeat(64 * 1024 + 1) });
    expect(invalid.status).toBe(422);
    expect(await json(invalid)).toEqual({
      errors: {
        name: [SPLASH_MESSAGES.nameRequired],
        type: [SPLASH_MESSAGES.type],
        html: [API_MESSAGES.wrongType],
        custom_scripts: [SPLASH_MESSAGES.tooLong],
      },
    });
    expect((await json(await put({ description: "only" }))).errors).toEqual({ name: [SPLASH_MESSAGES.nameRequired] });
    const nothing = await put({ colour: "red" });
    expect(nothing.status).toBe(422);
    expect(Object.keys((await json(nothing)).errors)).toEqual([""]);
    expect((await json(await put({ project_data: "[1,2]", html: "<p>x</p>" }))).errors).toEqual({
      project_data: ["The builder's project could not be read."],
    });
    const unchanged = await db
      .selectFrom("splash_pages")
      .select(["name", "type", "html"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(unchanged).toEqual({ name: "Front desk", type: null, html: "" });

    // Type, then code; a placeholder in the HTML becomes an option.
    const typed = await json(await put({ type: 2 }));
    expect(typed.data.page.type).toBe(2);
    const coded = await json(
      await put({ html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}", css: "h1{color:red}", custom_scripts: "console.log(1)" }),
    );
    expect(coded.data.page).toMatchObject({
      html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}",
      css: "h1{color:red}",
      custom_scripts: "console.log(1)",
    });
    expect(coded.data.page.configs).toEqual([
      { id: expect.any(Number), title: "Welcome text", name: "welcome_text", default_value: "", current_value: "", custom_value: null },
    ]);
    // Only the parts sent change; one sent empty is cleared.
    const cssOnly = await json(await put({ css: "" }));
    expect(cssOnly.data.page).toMatchObject({
      html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}",
      css: "",
      custom_scripts: "console.log(1)",
    });

    // A builder save larger than the API's usual 64 KB cap (the route reads up to 2 MB).
    const project = JSON.stringify({ pages: [{ component: "x".repeat(1_000_000) }] });
    const built = await put({ type: 1, project_data: project, html: "<main>{{ connect_form }}</main>", css: "main{}" });
    expect(built.status).toBe(200);
    const builtPage = (await json(built)).data.page;
    expect(builtPage).toMatchObject({ type: 1, html: "<main>{{ connect_form }}</main>", css: "main{}", configs: [] });
    expect(builtPage.project_data).toHaveLength(project.length);
    const tooLarge = await put({ project_data: "x".repeat(2 * 1024 * 1024 + 10) });
    expect(tooLarge.status).toBe(413);
    expect((await json(tooLarge)).error.message).toBe("The request body is too large (at most 2 MB).");
    // The other routes keep the 64 KB cap.
    const bigCreate = await call(pages, "splash_pages", { token, org: org.id, json: { name: "Big", description: "x".repeat(70 * 1024) } });
    expect(bigCreate.status).toBe(413);

    // Form data: a code save as the HTML tab posts it.
    const formSave = await put(undefined, {
      body: new URLSearchParams({ html: "<p>form</p>" }).toString(),
      type: "application/x-www-form-urlencoded",
    });
    expect(formSave.status).toBe(200);
    expect((await json(formSave)).data.page).toMatchObject({ html: "<p>form</p>", project_data: null });
    // Malformed JSON is a 400.
    expect((await put(undefined, { body: "{html:", type: "application/json" })).status).toBe(400);
  });

  it("saves an option's current value; empty returns it to the initial value", async () => {
    const { org, token, other } = await setup();
    const created = await createPage(token, org.id);
    const copied = await json(
      await call(copy, `splash_pages/copy/${created.id}?template=cafe`, { token, org: org.id, params: { id: created.id } }),
    );
    const option = (copied.data.page.configs as Json[]).find((c) => c.name === "venue_name")!;
    const put = (id: number | string, body: unknown, t = token) =>
      call(configs, `splash_pages/configs/${id}`, { method: "PUT", token: t, org: org.id, json: body, params: { id } });

    const saved = await put(option.id, { custom_value: "Two Rivers Café" });
    expect(saved.status).toBe(200);
    expect((await json(saved)).data).toEqual({
      message: "Option Venue name saved.",
      config: {
        id: option.id,
        title: "Venue name",
        name: "venue_name",
        default_value: "Kahawa Corner",
        current_value: "Two Rivers Café",
        custom_value: "Two Rivers Café",
        splash_page_id: created.id,
      },
    });
    const reset = await json(await put(option.id, { custom_value: "" }));
    expect(reset.data.config).toMatchObject({ current_value: "Kahawa Corner", custom_value: null });
    const long = await put(option.id, { custom_value: "x".repeat(2001) });
    expect(long.status).toBe(422);
    expect((await json(long)).errors).toEqual({ custom_value: [SPLASH_MESSAGES.tooLong] });
    expect((await json(await put(option.id, { custom_value: ["a", "b"] }))).errors).toHaveProperty("custom_value");

    // Another organisation's option, unknown and malformed ids: 404.
    const theirs = await createPage(other.token, other.org.id);
    const theirCopy = await json(
      await call(copy, `splash_pages/copy/${theirs.id}?template=hotel`, {
        token: other.token,
        org: other.org.id,
        params: { id: theirs.id },
      }),
    );
    const theirOption = theirCopy.data.page.configs[0];
    for (const id of [theirOption.id, 999999, "abc", "99999999999"]) {
      const res = await put(id, { custom_value: "hijacked" });
      expect(res.status, String(id)).toBe(404);
      expect(await json(res)).toEqual({ error: { message: "Page option not found." } });
    }
    const theirs404 = await db
      .selectFrom("splash_page_configs")
      .select("custom_value")
      .where("id", "=", theirOption.id)
      .executeTakeFirstOrThrow();
    expect(theirs404.custom_value).toBeNull();
  });

  it("adds display rules (JSON array or repeated form field), lists and removes them", async () => {
    const { org, token, ap, ap2, other } = await setup();
    const created = await createPage(token, org.id);
    const post = (body: Json) => call(settings, "splash_pages/display_settings", { token, org: org.id, json: body });

    const added = await post({
      splash_page_id: created.id,
      access_points: [ap.id, ap2.id],
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      factor: "After",
      factor_count: 3,
      factor_type: "Session",
    });
    expect(added.status).toBe(201);
    const setting = (await json(added)).data.setting;
    expect(setting).toMatchObject({
      splash_page_id: created.id,
      access_points: [
        { id: ap.id, name: "Lobby" },
        { id: ap2.id, name: "Terrace" },
      ],
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      factor: "After",
      factor_count: 3,
      factor_type: "Session",
      rule: "After 3 Sessions",
    });
    // A form as a PHP-style client posts it, with the spec's defaults (After, 1, Day).
    const form = new URLSearchParams([
      ["splash_page_id", String(created.id)],
      ["access_points[]", String(ap.id)],
      ["access_points[]", String(ap2.id)],
    ]);
    const formAdded = await call(settings, "splash_pages/display_settings", {
      token,
      org: org.id,
      raw: { body: form.toString(), type: "application/x-www-form-urlencoded" },
    });
    expect(formAdded.status).toBe(201);
    expect((await json(formAdded)).data.setting).toMatchObject({
      rule: "After 1 Day",
      start_date: null,
      end_date: null,
      access_points: [{ id: ap.id }, { id: ap2.id }],
    });
    const single = await post({ splash_page_id: created.id, access_points: ap.id, factor: "On", factor_count: 2, factor_type: "Day" });
    expect(single.status).toBe(201);
    expect((await json(single)).data.setting.rule).toBe("On 2 Days");

    // 422s.
    const bad = await post({
      splash_page_id: created.id,
      access_points: [ap.id],
      factor: "Before",
      factor_count: 0,
      factor_type: "Week",
      start_date: "2026-02-30",
    });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors).toEqual({
      factor: [SPLASH_MESSAGES.factor],
      factor_count: [SPLASH_MESSAGES.factorCount],
      factor_type: [SPLASH_MESSAGES.factorType],
      start_date: [SPLASH_MESSAGES.date],
    });
    const order = await post({ splash_page_id: created.id, access_points: [ap.id], start_date: "2026-05-02", end_date: "2026-05-01" });
    expect((await json(order)).errors).toEqual({ end_date: [SPLASH_MESSAGES.dateOrder] });
    const foreignAp = await post({ splash_page_id: created.id, access_points: [ap.id, other.ap.id] });
    expect(foreignAp.status).toBe(422);
    expect((await json(foreignAp)).errors).toEqual({ access_points: [SPLASH_MESSAGES.unknownAccessPoint] });
    expect((await json(await post({ splash_page_id: created.id }))).errors).toEqual({ access_points: [SPLASH_MESSAGES.accessPoints] });
    expect((await json(await post({ splash_page_id: created.id, access_points: [{ id: ap.id }] }))).errors).toHaveProperty("access_points");
    expect((await json(await post({ access_points: [ap.id] }))).errors).toHaveProperty("splash_page_id");
    expect((await post({ splash_page_id: created.id, access_points: [ap.id], factor_count: "1e400" })).status).toBe(422);
    expect((await post({ splash_page_id: created.id, access_points: [ap.id], end_date: "31/12/2026" })).status).toBe(422);

    // Another organisation's page: 404, and no rule for it.
    const theirs = await createPage(other.token, other.org.id);
    for (const id of [theirs.id, "abc", 0, "99999999999"]) {
      const res = await post({ splash_page_id: id, access_points: [ap.id] });
      expect(res.status, String(id)).toBe(404);
    }

    // The page's rules, newest first; another organisation's page is a 404.
    const list = await call(settingsOfPage, `splash_pages/display_settings/${created.id}`, {
      token,
      org: org.id,
      params: { pageId: created.id },
    });
    expect(list.status).toBe(200);
    const rules = (await json(list)).data.settings as Json[];
    expect(rules.map((r) => r.rule)).toEqual(["On 2 Days", "After 1 Day", "After 3 Sessions"]);
    expect(
      (await call(settingsOfPage, `splash_pages/display_settings/${theirs.id}`, { token, org: org.id, params: { pageId: theirs.id } }))
        .status,
    ).toBe(404);

    // Removal: the page's own rule only.
    const remove = (pageId: number | string, settingId: number | string, t = token, orgId: number = org.id) =>
      call(pageSetting, `splash_pages/${pageId}/display_settings/${settingId}`, {
        method: "DELETE",
        token: t,
        org: orgId,
        params: { pageId, settingId },
      });
    const theirRule = await json(
      await call(settings, "splash_pages/display_settings", {
        token: other.token,
        org: other.org.id,
        json: { splash_page_id: theirs.id, access_points: [other.ap.id] },
      }),
    );
    expect((await remove(created.id, theirRule.data.setting.id)).status).toBe(404);
    expect((await remove(theirs.id, theirRule.data.setting.id)).status).toBe(404);
    expect((await remove(created.id, "nope")).status).toBe(404);
    const removed = await remove(created.id, setting.id);
    expect(removed.status).toBe(200);
    expect((await json(removed)).data.message).toBe("Display rule removed.");
    expect((await remove(created.id, setting.id)).status).toBe(404);
    const after = await json(
      await call(settingsOfPage, `splash_pages/display_settings/${created.id}`, { token, org: org.id, params: { pageId: created.id } }),
    );
    expect(after.data.settings).toHaveLength(2);
    expect(
      await db.selectFrom("splash_display_settings").select("id").where("id", "=", theirRule.data.setting.id).executeTakeFirst(),
    ).toBeDefined();
  });

  it("publishes (422 until set up), and GET then shows it published with its page_url", async () => {
    const { org, token, other } = await setup();
    const created = await createPage(token, org.id);
    const pub = (id: number | string, t = token, orgId: number = org.id) =>
      call(publish, `splash_pages/publish/${id}`, { token: t, org: orgId, params: { id } });

    const notSetUp = await pub(created.id);
    expect(notSetUp.status).toBe(422);
    expect(await json(notSetUp)).toEqual({ errors: { type: [SPLASH_MESSAGES.notSetUp] } });

    await call(page, `splash_pages/${created.id}`, {
      method: "PUT",
      token,
      org: org.id,
      json: { type: 2, html: "<h1>Karibu</h1>{{ connect_form }}" },
      params: { id: created.id },
    });
    const published = await pub(created.id);
    expect(published.status).toBe(200);
    const body = await json(published);
    expect(body.data.message).toBe(SPLASH_MESSAGES.published);
    expect(body.data.page).toMatchObject({
      id: created.id,
      published: true,
      has_unpublished_changes: false,
      html: "<h1>Karibu</h1>{{ connect_form }}",
    });
    expect(body.data.page.page_url).toMatch(/^http:\/\/localhost\/splash\/pages\/[A-Za-z0-9_-]{16,}$/);
    expect(body.data.page.published_at).toMatch(/^\d{4}-/);

    const read = (
      await json(await call(page, `splash_pages/${created.id}?organization_id=${org.id}`, { token, params: { id: created.id } }))
    ).data.page;
    expect(read).toMatchObject({ published: true, page_url: body.data.page.page_url, has_unpublished_changes: false });
    const listed = (await json(await call(pages, `splash_pages?organization_id=${org.id}`, { token }))).data.pages[0];
    expect(listed).toMatchObject({ id: created.id, published: true, page_url: body.data.page.page_url });

    // An edit shows Publish again.
    await call(page, `splash_pages/${created.id}`, {
      method: "PUT",
      token,
      org: org.id,
      json: { css: "h1{}" },
      params: { id: created.id },
    });
    expect(
      (await json(await call(page, `splash_pages/${created.id}`, { token, org: org.id, params: { id: created.id } }))).data.page
        .has_unpublished_changes,
    ).toBe(true);

    // A member who may publish but not read pages gets the summary.
    const publisher = await memberToken(org.id, ["publish_splash_pages"]);
    const summary = await pub(created.id, publisher);
    expect(summary.status).toBe(200);
    const summaryPage = (await json(summary)).data.page;
    expect(summaryPage).toMatchObject({ id: created.id, published: true, has_unpublished_changes: false });
    expect(summaryPage).not.toHaveProperty("html");

    const theirs = await createPage(other.token, other.org.id);
    for (const id of [theirs.id, "abc", "-1"]) expect((await pub(id)).status, String(id)).toBe(404);
    expect((await pub(created.id, other.token, other.org.id)).status).toBe(404);
    // POST is not how the spec's client publishes.
    expect(
      (
        await call(publish, `splash_pages/publish/${created.id}`, {
          method: "POST",
          token,
          org: org.id,
          json: {},
          params: { id: created.id },
        })
      ).status,
    ).toBe(405);
  });

  it("copies a template into a page, with the template's options", async () => {
    const { org, token, other } = await setup();
    const created = await createPage(token, org.id);
    const copyOf = (id: number | string, template: string | null, t = token) =>
      call(copy, `splash_pages/copy/${id}${template === null ? "" : `?template=${encodeURIComponent(template)}`}`, {
        token: t,
        org: org.id,
        params: { id },
      });

    const res = await copyOf(created.id, "hotel");
    expect(res.status).toBe(200);
    const body = await json(res);
    const hotel = findTemplate("hotel")!;
    expect(body.data.message).toBe(`Template ${hotel.name} copied into Lobby page.`);
    expect(body.data.page).toMatchObject({ type: 1, html: hotel.html, css: hotel.css, css_template: hotel.cssTemplate });
    const byName = new Map((body.data.page.configs as Json[]).map((c) => [c.name, c]));
    for (const declared of hotel.configs) {
      expect(byName.get(declared.name), declared.name).toMatchObject({
        title: declared.title,
        default_value: declared.defaultValue,
        current_value: declared.defaultValue,
        custom_value: null,
      });
    }

    const unknown = await copyOf(created.id, "../../etc/passwd");
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ error: { message: SPLASH_MESSAGES.unknownTemplate } });
    const missing = await copyOf(created.id, null);
    expect(missing.status).toBe(422);
    expect((await json(missing)).errors).toHaveProperty("template");
    const theirs = await createPage(other.token, other.org.id);
    expect((await copyOf(theirs.id, "cafe")).status).toBe(404);
    expect((await db.selectFrom("splash_pages").select("html").where("id", "=", theirs.id).executeTakeFirstOrThrow()).html).toBe("");
  });

  it("deletes a page, saying what went with it; another organisation's page is a 404", async () => {
    const { org, token, ap, venue, other } = await setup();
    const created = await createPage(token, org.id);
    await call(settings, "splash_pages/display_settings", {
      token,
      org: org.id,
      json: { splash_page_id: created.id, access_points: [ap.id] },
    });
    await call(settings, "splash_pages/display_settings", {
      token,
      org: org.id,
      json: { splash_page_id: created.id, access_points: [ap.id], factor: "On" },
    });
    await db.updateTable("venues").set({ splash_page_id: created.id }).where("id", "=", venue.id).execute();

    const theirs = await createPage(other.token, other.org.id);
    const del = (id: number | string, t = token) =>
      call(page, `splash_pages/${id}`, { method: "DELETE", token: t, org: org.id, params: { id } });
    expect((await del(theirs.id)).status).toBe(404);
    expect(await db.selectFrom("splash_pages").select("id").where("id", "=", theirs.id).executeTakeFirst()).toBeDefined();

    const res = await del(created.id);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({
      message: "Splash page Lobby page deleted. Its 2 display rules were removed. The network that used it shows the built-in page now.",
      rules_removed: 2,
      networks_reset: 1,
    });
    expect(
      (await db.selectFrom("venues").select("splash_page_id").where("id", "=", venue.id).executeTakeFirstOrThrow()).splash_page_id,
    ).toBeNull();
    expect((await call(page, `splash_pages/${created.id}`, { token, org: org.id, params: { id: created.id } })).status).toBe(404);
    expect((await del(created.id)).status).toBe(404);
  });

  it("refuses each call without its permission, with the spec's messages", async () => {
    const { org, token, ap } = await setup();
    const created = await createPage(token, org.id);
    await call(copy, `splash_pages/copy/${created.id}?template=cafe`, { token, org: org.id, params: { id: created.id } });
    const configId = (await json(await call(page, `splash_pages/${created.id}`, { token, org: org.id, params: { id: created.id } }))).data
      .page.configs[0].id;
    const ruleId = (
      await json(
        await call(settings, "splash_pages/display_settings", {
          token,
          org: org.id,
          json: { splash_page_id: created.id, access_points: [ap.id] },
        }),
      )
    ).data.setting.id;

    const viewer = await memberToken(org.id, ["view_splash_pages"]);
    const nobody = await memberToken(org.id, ["view_networks"]);
    const refused = async (res: Promise<Response>, message?: string) => {
      const r = await res;
      expect(r.status).toBe(403);
      if (message) expect(await json(r)).toEqual({ error: { message } });
    };
    // Reading needs a splash permission.
    await refused(call(pages, "splash_pages", { token: nobody, org: org.id }));
    await refused(call(page, `splash_pages/${created.id}`, { token: nobody, org: org.id, params: { id: created.id } }));
    await refused(
      call(settingsOfPage, `splash_pages/display_settings/${created.id}`, { token: nobody, org: org.id, params: { pageId: created.id } }),
    );
    expect((await call(pages, "splash_pages", { token: viewer, org: org.id })).status).toBe(200);
    expect((await call(page, `splash_pages/${created.id}`, { token: viewer, org: org.id, params: { id: created.id } })).status).toBe(200);

    // Writing needs its own.
    await refused(call(pages, "splash_pages", { token: viewer, org: org.id, json: {} }));
    await refused(
      call(page, `splash_pages/${created.id}`, {
        method: "PUT",
        token: viewer,
        org: org.id,
        json: { name: "" },
        params: { id: created.id },
      }),
      SPLASH_MESSAGES.notAllowedToEdit,
    );
    await refused(
      call(page, `splash_pages/${created.id}`, {
        method: "PUT",
        token: viewer,
        org: org.id,
        json: { html: "<p>x</p>" },
        params: { id: created.id },
      }),
      SPLASH_MESSAGES.notAllowedToEdit,
    );
    await refused(
      call(configs, `splash_pages/configs/${configId}`, {
        method: "PUT",
        token: viewer,
        org: org.id,
        json: { custom_value: "x" },
        params: { id: configId },
      }),
      SPLASH_MESSAGES.notAllowedToEditConfigs,
    );
    await refused(
      call(copy, `splash_pages/copy/${created.id}?template=mall`, { token: viewer, org: org.id, params: { id: created.id } }),
      SPLASH_MESSAGES.notAllowedToEdit,
    );
    await refused(call(publish, `splash_pages/publish/${created.id}`, { token: viewer, org: org.id, params: { id: created.id } }));
    await refused(
      call(settings, "splash_pages/display_settings", {
        token: viewer,
        org: org.id,
        json: { splash_page_id: created.id, access_points: [ap.id] },
      }),
    );
    await refused(
      call(pageSetting, `splash_pages/${created.id}/display_settings/${ruleId}`, {
        method: "DELETE",
        token: viewer,
        org: org.id,
        params: { pageId: created.id, settingId: ruleId },
      }),
    );
    await refused(call(page, `splash_pages/${created.id}`, { method: "DELETE", token: viewer, org: org.id, params: { id: created.id } }));

    // Nothing changed.
    const row = await db
      .selectFrom("splash_pages")
      .select(["name", "published_revision"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Lobby page", published_revision: null });
    expect(await db.selectFrom("splash_display_settings").select("id").where("splash_page_id", "=", created.id).execute()).toHaveLength(1);

    // Each permission alone is enough for its call.
    const creator = await memberToken(org.id, ["create_splash_pages"]);
    expect((await call(pages, "splash_pages", { token: creator, org: org.id, json: { name: "Mine" } })).status).toBe(201);
    const presenter = await memberToken(org.id, ["change_splash_pages_presentation"]);
    expect(
      (
        await call(settings, "splash_pages/display_settings", {
          token: presenter,
          org: org.id,
          json: { splash_page_id: created.id, access_points: [ap.id] },
        })
      ).status,
    ).toBe(201);
    const deleter = await memberToken(org.id, ["delete_splash_pages"]);
    expect(
      (await call(page, `splash_pages/${created.id}`, { method: "DELETE", token: deleter, org: org.id, params: { id: created.id } }))
        .status,
    ).toBe(200);
  });
});

describe("assets", () => {
  const upload = (
    token: string,
    fields: Record<string, string>,
    file: { bytes: Uint8Array; name: string } | null,
    headers: Record<string, string> = {},
  ) => {
    const request = multipartRequest("/account/api/v1/assets", null, file, fields, { Authorization: `Bearer ${token}`, ...headers });
    return run(() => assets.action({ request, params: {}, context: {} }));
  };

  it("uploads PNG and GIF splash images, refuses SVG and oversize files, lists and deletes them", async () => {
    const { org, token, venue, other } = await setup();
    const png = await upload(token, { organization_id: String(org.id), name: "Logo.png" }, { bytes: PNG_BYTES, name: "whatever.png" });
    expect(png.status).toBe(201);
    const pngFile = (await json(png)).data.file;
    expect(pngFile).toEqual({
      id: expect.any(Number),
      name: "Logo.png",
      path: expect.stringMatching(new RegExp(`^/assets/splash/${org.id}/.+\\.png$`)),
      url: expect.any(String),
    });
    expect(pngFile.url).toBe(`http://localhost${pngFile.path}`);
    // No name: the file's own; the organisation from the header.
    const gif = await upload(token, {}, { bytes: GIF_BYTES, name: "spinner.gif" }, { "X-Organization-Id": String(org.id) });
    expect(gif.status).toBe(201);
    const gifFile = (await json(gif)).data.file;
    expect(gifFile).toMatchObject({ name: "spinner.gif", path: expect.stringMatching(/\.gif$/) });
    expect(store.files().filter((f) => f.startsWith(`splash${path.sep}${org.id}`) || f.startsWith(`splash/${org.id}`))).toHaveLength(2);

    // SVG (even named .png), text and oversize files are refused.
    const svg = await upload(token, { organization_id: String(org.id) }, { bytes: SVG_BYTES, name: "logo.svg" });
    expect(svg.status).toBe(422);
    expect(await json(svg)).toEqual({ errors: { file: [ASSET_MESSAGES.wrongType] } });
    expect((await upload(token, { organization_id: String(org.id) }, { bytes: SVG_BYTES, name: "logo.png" })).status).toBe(422);
    const big = Buffer.concat([PNG_BYTES, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await upload(token, { organization_id: String(org.id) }, { bytes: big, name: "big.png" });
    expect(tooLarge.status).toBe(413);
    expect(await json(tooLarge)).toEqual({ error: { message: ASSET_MESSAGES.tooLarge } });
    expect(
      (await upload(token, { organization_id: String(org.id) }, { bytes: Buffer.alloc(10 * 1024 * 1024 + 1), name: "huge.png" })).status,
    ).toBe(413);
    const none = await upload(token, { organization_id: String(org.id) }, null);
    expect(none.status).toBe(422);
    expect((await json(none)).errors).toHaveProperty("file");
    // A GIF is no floor plan.
    const gifPlan = await upload(
      token,
      { organization_id: String(org.id), name: `${venue.id}_floor_plan` },
      { bytes: GIF_BYTES, name: "plan.gif" },
    );
    expect(gifPlan.status).toBe(422);
    expect(await json(gifPlan)).toEqual({ errors: { file: ["The file must be a PNG, JPEG or WebP image."] } });
    // A floor plan is still one.
    expect(
      (await upload(token, { organization_id: String(org.id), name: `${venue.id}_floor_plan` }, { bytes: PNG_BYTES, name: "plan.png" }))
        .status,
    ).toBe(201);

    // The list: floor plans as before, then the splash images (newest first).
    const listed = await call(assets, `assets?organization_id=${org.id}`, { token });
    expect(listed.status).toBe(200);
    const files = (await json(listed)).data.files as Json[];
    expect(files[0]).toEqual({
      name: `${venue.id}_floor_plan`,
      path: expect.stringMatching(`^/${org.id}/venues/${venue.id}/layout-image\\?v=`),
    });
    expect(files.slice(1).map((f) => [f.id, f.name, f.path])).toEqual([
      [gifFile.id, "spinner.gif", gifFile.path],
      [pngFile.id, "Logo.png", pngFile.path],
    ]);
    // Another organisation sees none of them.
    const theirs = (await json(await call(assets, `assets?organization_id=${other.org.id}`, { token: other.token }))).data.files;
    expect(theirs).toEqual([]);
    expect((await call(assets, `assets?organization_id=${org.id}`, { token: other.token })).status).toBe(404);
    // Splash viewers see images only; network viewers floor plans only.
    const splashViewer = await memberToken(org.id, ["view_splash_pages"]);
    expect(
      ((await json(await call(assets, `assets?organization_id=${org.id}`, { token: splashViewer }))).data.files as Json[]).map(
        (f) => f.name,
      ),
    ).toEqual(["spinner.gif", "Logo.png"]);
    const networkViewer = await memberToken(org.id, ["view_networks"]);
    expect(
      ((await json(await call(assets, `assets?organization_id=${org.id}`, { token: networkViewer }))).data.files as Json[]).map(
        (f) => f.name,
      ),
    ).toEqual([`${venue.id}_floor_plan`]);
    expect((await call(assets, `assets?organization_id=${org.id}`, { token: await memberToken(org.id, ["view_clients"]) })).status).toBe(
      403,
    );

    // Delete: another organisation's image and bad ids are 404s; ours goes, file and all.
    const del = (id: number | string, t = token, orgId: number = org.id) =>
      call(assetById, `assets/${id}`, { method: "DELETE", token: t, org: orgId, params: { id } });
    const theirImage = (
      await json(await upload(other.token, { organization_id: String(other.org.id) }, { bytes: PNG_BYTES, name: "theirs.png" }))
    ).data.file;
    for (const id of [theirImage.id, "abc", 999999999]) expect((await del(id)).status, String(id)).toBe(404);
    expect((await del(pngFile.id, other.token, other.org.id)).status).toBe(404);
    await refusedDelete(del, pngFile.id, await memberToken(org.id, ["view_splash_pages"]));
    const deleted = await del(pngFile.id);
    expect(deleted.status).toBe(200);
    expect((await json(deleted)).data.message).toBe(ASSET_MESSAGES.deleted);
    expect((await del(pngFile.id)).status).toBe(404);
    const after = ((await json(await call(assets, `assets?organization_id=${org.id}`, { token }))).data.files as Json[]).map((f) => f.name);
    expect(after).toEqual([`${venue.id}_floor_plan`, "spinner.gif"]);
    expect(await db.selectFrom("splash_assets").select("id").where("id", "=", theirImage.id).executeTakeFirst()).toBeDefined();
  });

  async function refusedDelete(del: (id: number, t: string) => Promise<Response>, id: number, t: string) {
    const res = await del(id, t);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ error: { message: SPLASH_MESSAGES.notAllowedToEdit } });
  }

  it("refuses splash uploads without edit_splash_pages and floor plans without edit_network_layout", async () => {
    const { org, venue } = await setup();
    const layoutOnly = await memberToken(org.id, ["view_networks", "edit_network_layout"]);
    const splashOnly = await memberToken(org.id, ["view_splash_pages", "edit_splash_pages"]);
    const neither = await memberToken(org.id, ["view_splash_pages", "view_networks"]);

    const image = await upload(layoutOnly, { organization_id: String(org.id), name: "logo" }, { bytes: PNG_BYTES, name: "logo.png" });
    expect(image.status).toBe(403);
    expect(await json(image)).toEqual({ error: { message: SPLASH_MESSAGES.notAllowedToEdit } });
    expect(
      (
        await upload(
          splashOnly,
          { organization_id: String(org.id), name: `${venue.id}_floor_plan` },
          { bytes: PNG_BYTES, name: "plan.png" },
        )
      ).status,
    ).toBe(403);
    // Refused before the upload is read when the organisation is in the header.
    expect(
      (await upload(neither, { name: "logo" }, { bytes: PNG_BYTES, name: "logo.png" }, { "X-Organization-Id": String(org.id) })).status,
    ).toBe(403);
    expect(
      (await upload(splashOnly, { organization_id: String(org.id), name: "logo" }, { bytes: PNG_BYTES, name: "logo.png" })).status,
    ).toBe(201);
    expect(
      (
        await upload(
          layoutOnly,
          { organization_id: String(org.id), name: `${venue.id}_floor_plan` },
          { bytes: PNG_BYTES, name: "plan.png" },
        )
      ).status,
    ).toBe(201);
    expect(await db.selectFrom("splash_assets").select("name").where("organization_id", "=", org.id).execute()).toEqual([{ name: "logo" }]);
  });
});

describe("the request boundary for these paths", () => {
  it("lets a splash page's code through up to about 2 MB, keeps other API bodies small, refuses NUL", async () => {
    const { passBoundary, consoleRules, bodyLimitFor } = (await import(
      /* @vite-ignore */ pathToFileURL(path.resolve("server/boundary.mjs")).href
    )) as {
      passBoundary: (req: http.IncomingMessage, res: http.ServerResponse, rules: unknown) => Promise<{ body?: Buffer } | null>;
      consoleRules: (
        path: string,
        o: { publicOrigin: string; refuse: (req: http.IncomingMessage, res: http.ServerResponse, status: number, message: string) => void },
      ) => unknown;
      bodyLimitFor: (path: string) => number;
    };
    expect(bodyLimitFor("/account/api/v1/splash_pages/12")).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    for (const p of [
      "/account/api/v1/splash_pages",
      "/account/api/v1/splash_pages/configs/12",
      "/account/api/v1/splash_pages/display_settings",
      "/account/api/v1/venues/12",
    ]) {
      expect(bodyLimitFor(p), p).toBe(256 * 1024);
    }

    const json = (res: http.ServerResponse, status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const refuse = (_req: http.IncomingMessage, res: http.ServerResponse, status: number, message: string) =>
      json(res, status, { error: { message } });
    const app = (req: http.IncomingMessage, res: http.ServerResponse) =>
      void passBoundary(req, res, consoleRules(new URL(req.url!, "http://x").pathname, { publicOrigin: "http://localhost", refuse })).then(
        (passed) => passed && json(res, 200, { bytes: passed.body?.byteLength ?? 0 }),
      );
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const put = (p: string, body: string) =>
        fetch(`${origin}${p}`, { method: "PUT", body, headers: { Authorization: "Bearer t", "Content-Type": "application/json" } });
      const code = JSON.stringify({ project_data: "x".repeat(1_900_000), html: "<p>x</p>" });
      expect((await put("/account/api/v1/splash_pages/12", code)).status).toBe(200);
      expect(
        (await put("/account/api/v1/splash_pages/12", JSON.stringify({ html: "x".repeat(2 * 1024 * 1024 + 100 * 1024) }))).status,
      ).toBe(413);
      expect((await put("/account/api/v1/splash_pages/configs/12", JSON.stringify({ custom_value: "x".repeat(300 * 1024) }))).status).toBe(
        413,
      );
      expect((await put("/account/api/v1/splash_pages/12", JSON.stringify({ html: "<p>\u0000</p>" }))).status).toBe(400);
      expect((await put("/account/api/v1/splash_pages/12?organization_id=%00", "{}")).status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
