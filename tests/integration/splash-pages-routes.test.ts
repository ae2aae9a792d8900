// The console's splash page screens (docs/guide/splash-pages.md#routes,
// docs/guide/access-control.md#what-each-permission-shows) through their loaders and actions, on
// SQLite and PostgreSQL: create, set up, code saves and their refusals, options, publishing,
// deletion, tenancy, the preview's headers and images.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { SPLASH_MESSAGES } from "~/lib/schemas/splash";
import * as assetsRoute from "~/routes/$orgId+/splash_pages+/assets";
import * as uploadRoute from "~/routes/$orgId+/splash_pages+/assets.upload";
import * as createRoute from "~/routes/$orgId+/splash_pages+/create";
import * as listRoute from "~/routes/$orgId+/splash_pages+/_index";
import * as builderTab from "~/routes/$orgId+/splash_pages+/$pageId+/builder";
import * as canvasCss from "~/routes/$orgId+/splash_pages+/$pageId+/canvas[.]css";
import * as htmlTab from "~/routes/$orgId+/splash_pages+/$pageId+/html";
import * as detailsTab from "~/routes/$orgId+/splash_pages+/$pageId+/_index";
import * as layout from "~/routes/$orgId+/splash_pages+/$pageId+/_layout";
import * as optionsTab from "~/routes/$orgId+/splash_pages+/$pageId+/options";
import * as presentationTab from "~/routes/$orgId+/splash_pages+/$pageId+/presentation";
import * as preview from "~/routes/$orgId+/splash_pages+/$pageId+/preview";
import * as scriptsTab from "~/routes/$orgId+/splash_pages+/$pageId+/scripts";
import * as stylesTab from "~/routes/$orgId+/splash_pages+/$pageId+/styles";
import { bodyLimitFor } from "../../server/boundary.mjs";
import { makeMember, makeOrg, run, sessionCookie } from "../fixtures";
import { JPEG, multipartRequest, PNG, useTemporaryAssetStore } from "../fixtures/layout";
import { insertAccessPoint, insertVenue } from "../fixtures/records";
import { startBuiltServer } from "../fixtures/http-server";
import { callRoute, toastOf } from "../fixtures/venues";

type Json = Record<string, any>;
type Fn = Parameters<typeof callRoute>[0];

async function world() {
  const { org, owner } = await makeOrg(`Splash Co ${Math.random()}`);
  return { org, owner, orgId: String(org.id) };
}

/** Creates a page through the create form; returns its id. */
async function createdPage(userId: number, orgId: string, name = "Lobby welcome") {
  const res = await callRoute(
    createRoute.action,
    userId,
    `/${orgId}/splash_pages/create`,
    { orgId },
    { name, css_template: "bootstrap4.css", description: "For the lobby" },
  );
  expect(res.status).toBe(302);
  return Number(/\/splash_pages\/(\d+)$/.exec(res.headers.get("Location")!)![1]);
}

/** A page set up as code (type 2) with some HTML. */
async function codePage(userId: number, orgId: string, name?: string) {
  const id = await createdPage(userId, orgId, name);
  const setup = await callRoute(
    layout.action,
    userId,
    `/${orgId}/splash_pages/${id}`,
    { orgId, pageId: String(id) },
    { intent: "setup", type: "2" },
  );
  expect(setup.status).toBe(302);
  const saved = await callRoute(
    htmlTab.action,
    userId,
    `/${orgId}/splash_pages/${id}/html`,
    { orgId, pageId: String(id) },
    {
      intent: "save",
      html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}",
    },
  );
  expect(saved.status).toBe(302);
  return id;
}

const pageRow = (id: number) =>
  db
    .selectFrom("splash_pages")
    .select(["type", "html", "css", "custom_scripts", "project_data"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const pageParams = (orgId: string, id: number) => ({ orgId, pageId: String(id) });

describe("create", () => {
  it("refuses a missing name with the spec's sentence and creates a page that opens on its set-up screen", async () => {
    const { owner, orgId } = await world();
    const missing = await callRoute(
      createRoute.action,
      owner.id,
      `/${orgId}/splash_pages/create`,
      { orgId },
      { name: "  ", css_template: "tailwind.css" },
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Json).error.name).toEqual([SPLASH_MESSAGES.nameRequired]);

    const id = await createdPage(owner.id, orgId);
    const res = await callRoute(layout.loader, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id));
    const body: Json = await res.json();
    expect(body.page).toMatchObject({ name: "Lobby welcome", type: null, status: "Not set up" });
    expect(body.templates.map((t: Json) => t.id)).toEqual(["cafe", "hotel", "mall"]);
  });

  it("needs create_splash_pages for the form and the Create button", async () => {
    const { org, orgId } = await world();
    const { user } = await makeMember(org.id, "custom", ["view_splash_pages", "edit_splash_pages"]);
    expect((await callRoute(createRoute.loader, user.id, `/${orgId}/splash_pages/create`, { orgId })).status).toBe(403);
    expect((await callRoute(createRoute.action, user.id, `/${orgId}/splash_pages/create`, { orgId }, { name: "X" })).status).toBe(403);
    const list: Json = await (await callRoute(listRoute.loader, user.id, `/${orgId}/splash_pages`, { orgId })).json();
    expect(list.can).toMatchObject({ create: false, edit: true, view: true, publish: false, delete: false });
  });
});

describe("set up", () => {
  it("turns an untyped page into a builder page, a code page, or a copy of a template with its options", async () => {
    const { owner, orgId } = await world();
    const builder = await createdPage(owner.id, orgId);
    const asBuilder = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${builder}`, pageParams(orgId, builder), {
      intent: "setup",
      type: "1",
    });
    expect(asBuilder.headers.get("Location")).toBe(`/${orgId}/splash_pages/${builder}/builder`);
    expect((await pageRow(builder)).type).toBe(1);

    const code = await createdPage(owner.id, orgId);
    const asCode = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${code}`, pageParams(orgId, code), {
      intent: "setup",
      type: "2",
    });
    expect(asCode.headers.get("Location")).toBe(`/${orgId}/splash_pages/${code}/html`);
    expect((await pageRow(code)).type).toBe(2);

    const cloned = await createdPage(owner.id, orgId);
    const res = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${cloned}`, pageParams(orgId, cloned), {
      intent: "clone",
      template: "cafe",
    });
    expect(res.headers.get("Location")).toBe(`/${orgId}/splash_pages/${cloned}/builder`);
    const frame: Json = await (
      await callRoute(layout.loader, owner.id, `/${orgId}/splash_pages/${cloned}`, pageParams(orgId, cloned))
    ).json();
    expect(frame.page).toMatchObject({ type: 1, hasConfigs: true, status: "Draft", has_unpublished_changes: true });

    const unknown = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${code}`, pageParams(orgId, code), {
      intent: "clone",
      template: "nope",
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses set-up without edit_splash_pages", async () => {
    const { org, owner, orgId } = await world();
    const id = await createdPage(owner.id, orgId);
    const { user } = await makeMember(org.id, "custom", ["view_splash_pages"]);
    const res = await callRoute(layout.action, user.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "setup",
      type: "2",
    });
    expect(res.status).toBe(403);
    expect((await pageRow(id)).type).toBeNull();
  });
});

describe("code saves", () => {
  it("saves HTML, CSS and scripts through the tabs' forms (Save redirects with a toast; the editor's blur save answers data)", async () => {
    const { owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    expect((await pageRow(id)).html).toBe("<h1>{{ config.welcome_text }}</h1>{{ connect_form }}");

    const css = await callRoute(stylesTab.action, owner.id, `/${orgId}/splash_pages/${id}/styles`, pageParams(orgId, id), {
      intent: "save",
      css: "h1 { color: teal; }",
    });
    expect(css.status).toBe(302);
    expect(css.headers.get("Location")).toBe(`/${orgId}/splash_pages/${id}/styles`);
    expect((await toastOf(css))?.message).toBe("Styles saved.");

    const blur = await callRoute(scriptsTab.action, owner.id, `/${orgId}/splash_pages/${id}/scripts`, pageParams(orgId, id), {
      intent: "autosave",
      custom_scripts: "console.log(1)",
    });
    expect(blur.status).toBe(200);
    expect(await blur.json()).toEqual({ ok: true, message: "Scripts saved." });

    // An emptied field is saved empty (conform reads "" as missing).
    await callRoute(stylesTab.action, owner.id, `/${orgId}/splash_pages/${id}/styles`, pageParams(orgId, id), { intent: "save", css: "" });
    expect(await pageRow(id)).toMatchObject({ css: "", custom_scripts: "console.log(1)" });

    const tab: Json = await (await callRoute(htmlTab.loader, owner.id, `/${orgId}/splash_pages/${id}/html`, pageParams(orgId, id))).json();
    expect(tab).toMatchObject({ canEdit: true, page: { id, html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}" } });
  });

  it("refuses a save without edit_splash_pages with 'Not allowed to edit splash page' as data, changing nothing", async () => {
    const { org, owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const { user } = await makeMember(org.id, "custom", ["view_splash_pages"]);

    const tab: Json = await (await callRoute(htmlTab.loader, user.id, `/${orgId}/splash_pages/${id}/html`, pageParams(orgId, id))).json();
    expect(tab.canEdit).toBe(false);
    for (const [fn, tabName, field] of [
      [htmlTab.action, "html", "html"],
      [stylesTab.action, "styles", "css"],
      [scriptsTab.action, "scripts", "custom_scripts"],
      [builderTab.action, "builder", "html"],
    ] as [Fn, string, string][]) {
      for (const intent of ["save", "autosave"]) {
        const res = await callRoute(fn, user.id, `/${orgId}/splash_pages/${id}/${tabName}`, pageParams(orgId, id), {
          intent,
          [field]: "<p>defaced</p>",
        });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ ok: false, message: "Not allowed to edit splash page" });
      }
    }
    const builder = await callRoute(builderTab.action, user.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id), {
      intent: "builder",
      project_data: "{}",
      html: "<p>defaced</p>",
      css: "",
    });
    expect(builder.status).toBe(403);
    expect(((await builder.json()) as Json).message).toBe(SPLASH_MESSAGES.notAllowedToEdit);
    expect((await pageRow(id)).html).toBe("<h1>{{ config.welcome_text }}</h1>{{ connect_form }}");
  });

  it("saves the builder's project, HTML and CSS; a broken project is a 422 message", async () => {
    const { owner, orgId } = await world();
    const id = await createdPage(owner.id, orgId);
    await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), { intent: "setup", type: "1" });
    const project = JSON.stringify({ pages: [{ component: "<h1>Hi</h1>" }] });
    const res = await callRoute(builderTab.action, owner.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id), {
      intent: "builder",
      project_data: project,
      html: '<h1>Hi {{ config.guest_name }}</h1><div class="mlango-connect">{{ connect_form }}</div>',
      css: "h1{color:red}",
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).ok).toBe(true);
    expect(await pageRow(id)).toMatchObject({ project_data: project, css: "h1{color:red}" });

    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id))
    ).json();
    expect(tab.configs).toEqual([{ name: "guest_name", title: "Guest name" }]);
    expect(tab.canvasStyles[0]).toMatch(/^\/splash\/styles\/bootstrap4-[0-9.]+\.css$/);
    expect(tab.uploadUrl).toBe(`/${orgId}/splash_pages/assets/upload`);

    const broken = await callRoute(builderTab.action, owner.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id), {
      intent: "builder",
      project_data: "[1,2",
      html: "",
      css: "",
    });
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as Json).message).toBe("The builder's project could not be read.");
  });

  it("gives Tailwind pages' canvas the CSS of their classes", async () => {
    const { owner, orgId } = await world();
    const id = await createdPage(owner.id, orgId);
    await callRoute(detailsTab.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "save",
      name: "Tw",
      css_template: "tailwind.css",
    });
    await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), { intent: "setup", type: "1" });
    await callRoute(htmlTab.action, owner.id, `/${orgId}/splash_pages/${id}/html`, pageParams(orgId, id), {
      intent: "save",
      html: '<p class="text-teal-700">x</p>',
    });
    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id))
    ).json();
    expect(tab.canvasStyles[0]).toMatch(new RegExp(`^/${orgId}/splash_pages/${id}/canvas\\.css\\?v=\\d+$`));
    const css = await callRoute(canvasCss.loader, owner.id, `/${orgId}/splash_pages/${id}/canvas.css`, pageParams(orgId, id));
    expect(css.headers.get("Content-Type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain(".text-teal-700");
  });

  it("gives the canvas the page's option values where its styles use them: the hotel's brand colour, not white on white", async () => {
    const { owner, orgId } = await world();
    const id = await createdPage(owner.id, orgId);
    await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), { intent: "clone", template: "hotel" });
    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, pageParams(orgId, id))
    ).json();
    // A Bootstrap page: the template's file, then the options' sheet.
    expect(tab.canvasStyles).toHaveLength(2);
    expect(tab.canvasStyles[1]).toMatch(new RegExp(`^/${orgId}/splash_pages/${id}/canvas\\.css\\?v=\\d+$`));
    const canvas = async () =>
      (await callRoute(canvasCss.loader, owner.id, `/${orgId}/splash_pages/${id}/canvas.css`, pageParams(orgId, id))).text();
    expect(await canvas()).toContain(".hotel{--primary:#1e3a5f !important;--bg:#f5f1e8 !important}");
    // The template's rules that take a colour from a variable, which GrapesJS's parser drops from the canvas.
    expect(await canvas()).toContain(".hotel-hero{background:var(--primary)}");
    // A new brand colour is the canvas's at once; a value cannot close the rule.
    const options: Json = await (
      await callRoute(optionsTab.loader, owner.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id))
    ).json();
    const primary = options.configs.find((c: Json) => c.name === "primary_color");
    await callRoute(optionsTab.action, owner.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id), {
      intent: "config",
      config_id: String(primary.id),
      custom_value: "#7a1f3d}body{display:none",
    });
    expect(await canvas()).toContain(".hotel{--primary:#7a1f3dbodydisplay:none !important;");
    expect(await canvas()).not.toMatch(/\}\s*body\s*\{/);
  });
});

describe("details and options", () => {
  it("updates the details with edit_splash_pages; a missing name keeps the spec's sentence", async () => {
    const { owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const bad = await callRoute(detailsTab.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "save",
      name: "",
      css_template: "tailwind.css",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.name).toEqual([SPLASH_MESSAGES.nameRequired]);
    const ok = await callRoute(detailsTab.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "save",
      name: "Renamed",
      css_template: "bootstrap3.css",
      description: "",
    });
    expect(ok.status).toBe(302);
    const tab: Json = await (await callRoute(detailsTab.loader, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id))).json();
    expect(tab.page).toMatchObject({ name: "Renamed", css_template: "bootstrap3.css", description: null });
  });

  it("edits an option's current value; without edit_splash_pages it answers 'Not allowed to edit page configurations'", async () => {
    const { org, owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const tab: Json = await (
      await callRoute(optionsTab.loader, owner.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id))
    ).json();
    expect(tab.configs).toHaveLength(1);
    const config = tab.configs[0];
    expect(config).toMatchObject({ name: "welcome_text", title: "Welcome text", custom_value: null });

    const { user } = await makeMember(org.id, "custom", ["view_splash_pages"]);
    const refused = await callRoute(optionsTab.action, user.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id), {
      intent: "config",
      config_id: String(config.id),
      custom_value: "Hacked",
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).message).toBe("Not allowed to edit page configurations");

    const saved = await callRoute(optionsTab.action, owner.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id), {
      intent: "config",
      config_id: String(config.id),
      custom_value: "Karibu!",
    });
    expect(saved.status).toBe(302);
    const after: Json = await (
      await callRoute(optionsTab.loader, owner.id, `/${orgId}/splash_pages/${id}/options`, pageParams(orgId, id))
    ).json();
    expect(after.configs[0].custom_value).toBe("Karibu!");

    // An option of another page of the organisation is not this page's: 404.
    const other = await codePage(owner.id, orgId, "Other");
    const foreign = await callRoute(optionsTab.action, owner.id, `/${orgId}/splash_pages/${other}/options`, pageParams(orgId, other), {
      intent: "config",
      config_id: String(config.id),
      custom_value: "x",
    });
    expect(foreign.status).toBe(404);
  });
});

describe("publishing", () => {
  it("asks first, publishes, hides Publish until the next edit, and shows View page", async () => {
    const { owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const card = async () =>
      ((await (await callRoute(listRoute.loader, owner.id, `/${orgId}/splash_pages`, { orgId })).json()) as Json).pages.find(
        (p: Json) => p.id === id,
      );
    expect(await card()).toMatchObject({ status: "Draft", has_unpublished_changes: true, page_url: null });

    const asked = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "publish",
      back: `/${orgId}/splash_pages/${id}/html`,
    });
    expect(((await asked.json()) as Json).confirm).toMatchObject({
      intent: "publish",
      message: "Publish Lobby welcome? Guests see this version from now on.",
    });

    const done = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "publish",
      confirmed: "yes",
      back: `/${orgId}/splash_pages/${id}/html`,
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/${orgId}/splash_pages/${id}/html`);
    expect((await toastOf(done))?.message).toBe(SPLASH_MESSAGES.published);
    const published = await card();
    expect(published).toMatchObject({ status: "Published", has_unpublished_changes: false });
    expect(published.page_url).toMatch(/\/splash\/pages\/[A-Za-z0-9_-]+$/);
    const frame: Json = await (await callRoute(layout.loader, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id))).json();
    expect(frame.page).toMatchObject({ published: true, has_unpublished_changes: false });

    await callRoute(stylesTab.action, owner.id, `/${orgId}/splash_pages/${id}/styles`, pageParams(orgId, id), {
      intent: "autosave",
      css: "p{}",
    });
    expect(await card()).toMatchObject({ status: "Unpublished changes", has_unpublished_changes: true });

    // From the list too; a return address outside the page is ignored.
    const fromList = await callRoute(
      listRoute.action,
      owner.id,
      `/${orgId}/splash_pages?index&page=1`,
      { orgId },
      { intent: "publish", id: String(id), confirmed: "yes" },
    );
    expect(fromList.headers.get("Location")).toBe(`/${orgId}/splash_pages?page=1`);
    const outside = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "publish",
      confirmed: "yes",
      back: "https://evil.example/",
    });
    expect(outside.headers.get("Location")).toBe(`/${orgId}/splash_pages/${id}`);
  });

  it("refuses to publish a page that is not set up, and without publish_splash_pages", async () => {
    const { org, owner, orgId } = await world();
    const untyped = await createdPage(owner.id, orgId);
    const res = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${untyped}`, pageParams(orgId, untyped), {
      intent: "publish",
      confirmed: "yes",
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Json).message).toBe(SPLASH_MESSAGES.notSetUp);
    const { user } = await makeMember(org.id, "custom", ["view_splash_pages", "edit_splash_pages"]);
    const typed = await codePage(owner.id, orgId);
    expect(
      (
        await callRoute(layout.action, user.id, `/${orgId}/splash_pages/${typed}`, pageParams(orgId, typed), {
          intent: "publish",
          confirmed: "yes",
        })
      ).status,
    ).toBe(403);
  });
});

describe("deleting", () => {
  it("says what deletion takes with it (display rules, networks' page), asks, then deletes", async () => {
    const { owner, org, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const venueA = await insertVenue(org.id, { name: "Alpha Mall", splash_page_id: id });
    await insertVenue(org.id, { name: "Beta Hotel", splash_page_id: id });
    const ap = await insertAccessPoint(org.id, venueA.id, { name: "Gate" });
    for (const count of ["2", "3"]) {
      const added = await callRoute(presentationTab.action, owner.id, `/${orgId}/splash_pages/${id}/presentation`, pageParams(orgId, id), {
        intent: "add",
        factor: "After",
        factor_count: count,
        factor_type: "Session",
        access_points: [String(ap.id)],
      });
      expect(added.status).toBe(302);
    }
    const expected =
      "Delete the splash page Lobby welcome? Its 2 display rules are removed; networks Alpha Mall, Beta Hotel go back to the built-in page. This cannot be undone.";
    const list: Json = await (await callRoute(listRoute.loader, owner.id, `/${orgId}/splash_pages`, { orgId })).json();
    expect(list.pages[0].deleteQuestion).toBe(expected);
    const frame: Json = await (await callRoute(layout.loader, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id))).json();
    expect(frame.deleteQuestion).toBe(expected);

    const asked = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), { intent: "delete" });
    expect(((await asked.json()) as Json).confirm.message).toBe(expected);
    expect(await db.selectFrom("splash_pages").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();

    const done = await callRoute(layout.action, owner.id, `/${orgId}/splash_pages/${id}`, pageParams(orgId, id), {
      intent: "delete",
      confirmed: "yes",
    });
    expect(done.headers.get("Location")).toBe(`/${orgId}/splash_pages`);
    expect((await toastOf(done))?.message).toBe(
      "Splash page Lobby welcome deleted. 2 display rules were removed; 2 networks went back to the built-in page.",
    );
    expect(await db.selectFrom("splash_pages").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    const venues = await db.selectFrom("venues").select("splash_page_id").where("organization_id", "=", org.id).execute();
    expect(venues.map((v) => v.splash_page_id)).toEqual([null, null]);
  });

  it("deletes from the list after a confirmation; a page nothing uses says so; needs delete_splash_pages", async () => {
    const { owner, org, orgId } = await world();
    const id = await createdPage(owner.id, orgId, "Spare");
    const asked = await callRoute(
      listRoute.action,
      owner.id,
      `/${orgId}/splash_pages?index`,
      { orgId },
      { intent: "delete", id: String(id) },
    );
    expect(((await asked.json()) as Json).confirm.message).toBe(
      "Delete the splash page Spare? No display rules or networks use it. This cannot be undone.",
    );
    const { user } = await makeMember(org.id, "custom", ["view_splash_pages", "edit_splash_pages"]);
    expect(
      (
        await callRoute(
          listRoute.action,
          user.id,
          `/${orgId}/splash_pages?index`,
          { orgId },
          { intent: "delete", id: String(id), confirmed: "yes" },
        )
      ).status,
    ).toBe(403);
    const done = await callRoute(
      listRoute.action,
      owner.id,
      `/${orgId}/splash_pages?index`,
      { orgId },
      { intent: "delete", id: String(id), confirmed: "yes" },
    );
    expect((await toastOf(done))?.message).toBe("Splash page Spare deleted.");
  });
});

describe("presentation", () => {
  it("adds a rule for access points of the organisation (422 lists the messages) and removes it after a confirmation", async () => {
    const { owner, org, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    const venue = await insertVenue(org.id, { name: "Alpha" });
    const ap = await insertAccessPoint(org.id, venue.id, { name: "Lobby AP" });
    const here = `/${orgId}/splash_pages/${id}/presentation`;

    const bad = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), {
      intent: "add",
      factor_count: "0",
      start_date: "2026-02-30",
    });
    expect(bad.status).toBe(422);
    const errors = ((await bad.json()) as Json).rule.error;
    expect(errors.access_points).toEqual([SPLASH_MESSAGES.accessPoints]);
    expect(errors.factor_count).toEqual([SPLASH_MESSAGES.factorCount]);
    expect(errors.start_date).toEqual([SPLASH_MESSAGES.date]);
    const backwards = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), {
      intent: "add",
      access_points: [String(ap.id)],
      start_date: "2026-05-02",
      end_date: "2026-05-01",
    });
    expect(backwards.status).toBe(422);
    expect(((await backwards.json()) as Json).rule.error.end_date).toEqual([SPLASH_MESSAGES.dateOrder]);

    const other = await makeOrg("Other");
    const otherVenue = await insertVenue(other.org.id);
    const foreignAp = await insertAccessPoint(other.org.id, otherVenue.id);
    const foreign = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), {
      intent: "add",
      access_points: [String(foreignAp.id)],
    });
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as Json).rule.error.access_points).toEqual([SPLASH_MESSAGES.unknownAccessPoint]);

    const added = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), {
      intent: "add",
      factor: "On",
      factor_count: "2",
      factor_type: "Day",
      access_points: [String(ap.id)],
      start_date: "2026-01-01",
    });
    expect(added.status).toBe(302);
    const tab: Json = await (await callRoute(presentationTab.loader, owner.id, here, pageParams(orgId, id))).json();
    expect(tab.rules).toEqual([
      { id: expect.any(Number), access_points: ["Lobby AP"], start_date: "2026-01-01", end_date: null, rule: "On 2 Days" },
    ]);
    expect(tab.accessPoints).toEqual([{ id: ap.id, name: "Lobby AP", venue_name: "Alpha" }]);

    const { user } = await makeMember(org.id, "custom", ["view_splash_pages"]);
    expect(
      (await callRoute(presentationTab.action, user.id, here, pageParams(orgId, id), { intent: "add", access_points: [String(ap.id)] }))
        .status,
    ).toBe(403);
    const viewer: Json = await (await callRoute(presentationTab.loader, user.id, here, pageParams(orgId, id))).json();
    expect(viewer).toMatchObject({ canChange: false, accessPoints: [] });
    expect(viewer.rules).toHaveLength(1);

    const ruleId = String(tab.rules[0].id);
    const asked = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), { intent: "remove", setting_id: ruleId });
    expect(((await asked.json()) as Json).confirm.intent).toBe("remove");
    const removed = await callRoute(presentationTab.action, owner.id, here, pageParams(orgId, id), {
      intent: "remove",
      setting_id: ruleId,
      confirmed: "yes",
    });
    expect(removed.status).toBe(302);
    expect(((await (await callRoute(presentationTab.loader, owner.id, here, pageParams(orgId, id))).json()) as Json).rules).toEqual([]);
  });
});

describe("tenancy", () => {
  it("answers 404 on every tab's loader and action for another organisation's page id", async () => {
    const { owner, orgId } = await world();
    const other = await world();
    const theirs = await codePage(other.owner.id, other.orgId, "Theirs");
    const base = `/${orgId}/splash_pages/${theirs}`;
    const params = pageParams(orgId, theirs);
    const loaders: [Fn, string][] = [
      [layout.loader, base],
      [detailsTab.loader, base],
      [optionsTab.loader, `${base}/options`],
      [builderTab.loader, `${base}/builder`],
      [htmlTab.loader, `${base}/html`],
      [stylesTab.loader, `${base}/styles`],
      [scriptsTab.loader, `${base}/scripts`],
      [presentationTab.loader, `${base}/presentation`],
      [preview.loader, `${base}/preview`],
      [canvasCss.loader, `${base}/canvas.css`],
    ];
    for (const [fn, path] of loaders) expect([path, (await callRoute(fn, owner.id, path, params)).status]).toEqual([path, 404]);

    const actions: [Fn, string, Record<string, string | string[]>][] = [
      [layout.action, base, { intent: "publish", confirmed: "yes" }],
      [layout.action, base, { intent: "delete", confirmed: "yes" }],
      [layout.action, base, { intent: "setup", type: "1" }],
      [layout.action, base, { intent: "clone", template: "cafe" }],
      [detailsTab.action, base, { intent: "save", name: "Mine now" }],
      [optionsTab.action, `${base}/options`, { intent: "config", config_id: "1", custom_value: "x" }],
      [builderTab.action, `${base}/builder`, { intent: "builder", project_data: "{}", html: "", css: "" }],
      [builderTab.action, `${base}/builder`, { intent: "save", html: "<p>x</p>" }],
      [htmlTab.action, `${base}/html`, { intent: "save", html: "<p>x</p>" }],
      [stylesTab.action, `${base}/styles`, { intent: "autosave", css: "p{}" }],
      [scriptsTab.action, `${base}/scripts`, { intent: "save", custom_scripts: "1" }],
      [presentationTab.action, `${base}/presentation`, { intent: "add", access_points: ["1"] }],
      [presentationTab.action, `${base}/presentation`, { intent: "remove", setting_id: "1", confirmed: "yes" }],
      [listRoute.action, `/${orgId}/splash_pages?index`, { intent: "delete", id: String(theirs), confirmed: "yes" }],
      [listRoute.action, `/${orgId}/splash_pages?index`, { intent: "publish", id: String(theirs), confirmed: "yes" }],
    ];
    for (const [fn, path, form] of actions)
      expect([path, form.intent, (await callRoute(fn, owner.id, path, params, form)).status]).toEqual([path, form.intent, 404]);
    expect(await pageRow(theirs)).toMatchObject({ type: 2, html: "<h1>{{ config.welcome_text }}</h1>{{ connect_form }}" });

    // Malformed ids are 404s too, never database errors.
    expect(
      (await callRoute(detailsTab.loader, owner.id, `/${orgId}/splash_pages/99999999999`, { orgId, pageId: "99999999999" })).status,
    ).toBe(404);
    // And a member of neither organisation sees nothing of the first.
    expect((await callRoute(listRoute.loader, other.owner.id, `/${orgId}/splash_pages`, { orgId })).status).toBe(404);
  });
});

describe("the preview", () => {
  it("is the draft around a sample connect form, sandboxed without scripts or the console's origin, framed by the console only", async () => {
    const { owner, orgId } = await world();
    const id = await codePage(owner.id, orgId);
    await callRoute(scriptsTab.action, owner.id, `/${orgId}/splash_pages/${id}/scripts`, pageParams(orgId, id), {
      intent: "save",
      custom_scripts: "document.title='x'",
    });
    const res = await callRoute(preview.loader, owner.id, `/${orgId}/splash_pages/${id}/preview`, pageParams(orgId, id));
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toMatch(/^sandbox allow-forms;/);
    expect(csp).not.toContain("allow-scripts");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const text = await res.text();
    expect(text).toContain("<h1></h1>"); // the option, still empty
    expect(text).toContain("Get connected to WiFi");
    expect(text).toMatch(/\/splash\/styles\/bootstrap4-[0-9.]+\.css/);

    const { user } = await makeMember(Number(orgId), "custom", ["view_clients"]);
    expect((await callRoute(preview.loader, user.id, `/${orgId}/splash_pages/${id}/preview`, pageParams(orgId, id))).status).toBe(403);
  });
});

describe("images", () => {
  let store: ReturnType<typeof useTemporaryAssetStore> | null = null;
  afterEach(() => {
    store?.cleanup();
    store = null;
  });

  it("uploads through the Images page and the builder's endpoint, refuses what is not an image, lists and deletes", async () => {
    store = useTemporaryAssetStore();
    const { org, owner, orgId } = await world();
    const cookie = await sessionCookie(owner.id);
    const params = { orgId };

    const page = await run(() =>
      assetsRoute.action({
        request: multipartRequest(`/${orgId}/splash_pages/assets`, cookie, { bytes: PNG, name: "logo.png", type: "image/png" }),
        params,
        context: {},
      }),
    );
    expect(page.status).toBe(302);
    expect((await toastOf(page))?.message).toMatch(
      /^Image logo\.png uploaded\. Use \/assets\/splash\/\d+\/logo-[0-9a-f]+\.png in your pages\.$/,
    );

    const api = await run(() =>
      uploadRoute.action({
        request: multipartRequest(`/${orgId}/splash_pages/assets/upload`, cookie, { bytes: JPEG, name: "photo.jpg", type: "image/jpeg" }),
        params,
        context: {},
      }),
    );
    expect(api.status).toBe(201);
    const body: Json = await api.json();
    expect(body.data.file.name).toBe("photo.jpg");
    expect(body.data.file.url).toMatch(/^\/assets\/splash\/\d+\/photo-[0-9a-f]+\.jpeg$/);

    const svg = await run(() =>
      uploadRoute.action({
        request: multipartRequest(`/${orgId}/splash_pages/assets/upload`, cookie, {
          bytes: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
          name: "x.svg",
          type: "image/svg+xml",
        }),
        params,
        context: {},
      }),
    );
    expect(svg.status).toBe(422);
    expect(((await svg.json()) as Json).message).toContain("SVG is not accepted");

    const { user } = await makeMember(org.id, "custom", ["view_splash_pages"]);
    const viewerCookie = await sessionCookie(user.id);
    const refused = await run(() =>
      uploadRoute.action({
        request: multipartRequest(`/${orgId}/splash_pages/assets/upload`, viewerCookie, { bytes: PNG, name: "a.png" }),
        params,
        context: {},
      }),
    );
    expect(refused.status).toBe(403);

    const list: Json = await (await callRoute(assetsRoute.loader, owner.id, `/${orgId}/splash_pages/assets`, params)).json();
    expect(list.assets.map((a: Json) => a.name)).toEqual(["photo.jpg", "logo.png"]);
    const asked = await callRoute(assetsRoute.action, owner.id, `/${orgId}/splash_pages/assets`, params, {
      intent: "delete",
      asset_id: String(list.assets[0].id),
    });
    expect(((await asked.json()) as Json).confirm.message).toContain("photo.jpg");
    const deleted = await callRoute(assetsRoute.action, owner.id, `/${orgId}/splash_pages/assets`, params, {
      intent: "delete",
      asset_id: String(list.assets[0].id),
      confirmed: "yes",
    });
    expect(deleted.status).toBe(302);
    expect(store.files()).toHaveLength(1);

    const other = await world();
    const foreign = await callRoute(
      assetsRoute.action,
      other.owner.id,
      `/${other.orgId}/splash_pages/assets`,
      { orgId: other.orgId },
      { intent: "delete", asset_id: String(list.assets[1].id), confirmed: "yes" },
    );
    expect(foreign.status).toBe(404);
  });
});

describe("the request boundary", () => {
  it("lets splash images and code saves through with larger bodies, by path only", () => {
    const form = bodyLimitFor("/1/venues");
    expect(bodyLimitFor("/12/splash_pages/assets")).toBeGreaterThan(10 * 1024 * 1024);
    expect(bodyLimitFor("/12/splash_pages/assets/upload")).toBeGreaterThan(10 * 1024 * 1024);
    for (const tab of ["builder", "html", "styles", "scripts"])
      expect(bodyLimitFor(`/12/splash_pages/34/${tab}`)).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(bodyLimitFor("/12/splash_pages/34/options")).toBe(form);
    expect(bodyLimitFor("/12/splash_pages/34")).toBe(form);
  });
});

describe("over HTTP (the built server)", () => {
  it("sends the preview's own CSP and framing headers instead of the console's, and takes a large builder save", async () => {
    const server = await startBuiltServer();
    try {
      const { owner, org, orgId } = await world();
      const id = await codePage(owner.id, orgId);
      await insertAccessPoint(org.id, (await insertVenue(org.id, { name: "Alpha" })).id, { name: "Gate" });
      const cookie = await sessionCookie(owner.id);
      const res = await fetch(`${server.origin}/${orgId}/splash_pages/${id}/preview`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Security-Policy")).toBe(preview.PREVIEW_CSP);
      expect(res.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      // The console's own pages keep theirs.
      const list = await fetch(`${server.origin}/${orgId}/splash_pages`, { headers: { Cookie: cookie } });
      expect(list.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
      expect(list.headers.get("X-Frame-Options")).toBe("DENY");

      // Every screen renders on the server (the no-JavaScript path): labels the e2e tests use.
      const untyped = await createdPage(owner.id, orgId, "Blank");
      const screens: [string, string[]][] = [
        [
          `/${orgId}/splash_pages`,
          ["New page", "Images", "Publish", "Not set up", `title="Preview of Lobby welcome"`, `sandbox="allow-forms"`],
        ],
        [`/${orgId}/splash_pages/create`, ["Page name", "Styling template", "bootstrap3.css", "Create"]],
        [`/${orgId}/splash_pages/${untyped}`, ["Drag and drop builder", "Code editor", "Use this template", "Delete"]],
        [`/${orgId}/splash_pages/${id}`, ["Details", "Options", "HTML", "Styles", "Scripts", "Presentation", "Update", "Publish"]],
        [`/${orgId}/splash_pages/${id}/options`, ["Welcome text", "welcome_text", "Save"]],
        [`/${orgId}/splash_pages/${id}/html`, ["<textarea", `name="html"`, "Save"]],
        [`/${orgId}/splash_pages/${id}/styles`, [`name="css"`]],
        [`/${orgId}/splash_pages/${id}/scripts`, [`name="custom_scripts"`]],
        [
          `/${orgId}/splash_pages/${id}/builder`,
          ["The builder needs JavaScript. You can edit the page&#x27;s HTML below instead.", `name="html"`],
        ],
        [
          `/${orgId}/splash_pages/${id}/presentation`,
          ["Save display rule", `multiple=""`, `<optgroup label="Alpha">`, "Gate", `type="date"`],
        ],
        [`/${orgId}/splash_pages/assets`, ["Upload", `type="file"`, `accept="image/png,image/jpeg,image/webp,image/gif"`]],
      ];
      for (const [path, texts] of screens) {
        const page = await fetch(`${server.origin}${path}`, { headers: { Cookie: cookie } });
        const html = await page.text();
        expect([path, page.status]).toEqual([path, 200]);
        for (const text of texts) expect([path, html.includes(text) ? text : `missing: ${text}`]).toEqual([path, text]);
      }

      // A builder save of about 1.2 MB (beyond the 256 KB form limit), as the builder sends it.
      const body = new FormData();
      body.append("intent", "builder");
      body.append("project_data", JSON.stringify({ pages: [{ component: "x".repeat(1_000_000) }] }));
      body.append("html", "<p>big</p>".repeat(20_000));
      body.append("css", "");
      const saved = await fetch(
        `${server.origin}/${orgId}/splash_pages/${id}/builder?_data=${encodeURIComponent("routes/$orgId+/splash_pages+/$pageId+/builder")}`,
        {
          method: "POST",
          body,
          headers: { Cookie: cookie, Origin: new URL(getEnv().PUBLIC_URL).origin },
        },
      );
      expect(saved.status).toBe(200);
      expect(((await saved.json()) as Json).ok).toBe(true);
    } finally {
      await server.close();
    }
  });
});
