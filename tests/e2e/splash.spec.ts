// Splash pages in the browser: with JavaScript, the GrapesJS builder
// (blocks dragged with the mouse), the CodeMirror editor's save on blur, a template's options, a
// display rule added and removed, an uploaded image on a published page; without JavaScript, the
// whole life of a code page through plain forms; and a published page's script run in a browser
// signed in to the console, which must get neither the console's cookies nor its answers.
// Guests arrive through the Meraki entry with a small local gateway (portal-fixtures.ts); every
// browser context is kept on this machine: requests to any other host are aborted and reported.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { clickAndConfirm } from "./confirm";
import { expect, E2E_PORT, signIn, test as base } from "./fixtures";
import {
  type FakeGateway,
  makePortal,
  merakiEntry,
  merakiGrantUrl,
  randomMac,
  type PortalSetup,
  startFakeGateway,
} from "./portal-fixtures";
import { createPage, isNoJs, publicKeyOf, publish, saveCode, setUpAsCode, useAsNetworkPage, writeTinyPng } from "./splash-fixtures";

const ORIGIN = `http://localhost:${E2E_PORT}`;

interface Local {
  gateway: FakeGateway;
  /** A fresh browser context for a guest (no console cookie), kept on this machine like the test's own. */
  guestPage: () => Promise<Page>;
}

const test = base.extend<Local>({
  gateway: async ({}, use) => {
    const gateway = await startFakeGateway();
    await use(gateway);
    await gateway.close();
  },
  guestPage: [
    async ({ browser, context, gateway }, use) => {
      const local = new Set([ORIGIN, gateway.origin]);
      const strays: string[] = [];
      const keepLocal = async (ctx: BrowserContext) => {
        ctx.on("request", (request) => {
          const url = new URL(request.url());
          if (!local.has(url.origin) && url.protocol !== "data:") strays.push(url.href);
        });
        await ctx.route(
          (url) => !local.has(url.origin) && url.protocol !== "data:",
          (route) => route.abort("blockedbyclient"),
        );
      };
      await keepLocal(context);
      const guests: BrowserContext[] = [];
      await use(async () => {
        const guest = await newContext(browser);
        guests.push(guest);
        await keepLocal(guest);
        return guest.newPage();
      });
      await Promise.all(guests.map((g) => g.close()));
      expect(strays, "the browser asked for no other host").toEqual([]);
    },
    { auto: true },
  ],
});

const newContext = (browser: Browser) => browser.newContext({ javaScriptEnabled: !isNoJs() });

const onlyWithJs = () => test.skip(isNoJs(), "needs JavaScript (the builder, CodeMirror, a page's scripts)");

/** The operator, signed in, with an organisation, a network and an access point. */
async function operator(context: BrowserContext): Promise<PortalSetup> {
  const setup = await makePortal();
  await signIn(context, setup.owner.id);
  return setup;
}

/** A guest's device arrives at the access point through the gateway: the connect page. */
async function arrive(page: Page, setup: PortalSetup, gateway: FakeGateway, clientMac = randomMac()) {
  const response = await page.goto(merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac }));
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  return response!;
}

async function signUpAndConnect(page: Page, gateway: FakeGateway) {
  await page.getByLabel("First name").fill("Amina");
  await page.getByLabel("Last name").fill("Wanjiru");
  await page.getByLabel("Email address").fill("amina.wanjiru@example.com");
  await page.getByLabel("Phone number").fill("0712 345 678");
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(merakiGrantUrl(gateway)));
  await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
  expect(gateway.grants).toHaveLength(1);
}

/**
 * Presses the mouse on a builder block and moves it, in steps, to a point of the canvas (GrapesJS
 * uses the browser's drag and drop, which Playwright's dragTo does not start in its canvas).
 * The point is worked out once the block is in view (scrolling to it may move the canvas).
 */
async function dragBlock(page: Page, label: string, to: () => Promise<{ x: number; y: number }>) {
  const block = page.locator(".gjs-block").filter({ has: page.getByText(label, { exact: true }) });
  await block.scrollIntoViewIfNeeded();
  const from = (await block.boundingBox())!;
  const target = await to();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x, target.y, { steps: 15 });
  await page.mouse.up();
}

test("builder: blocks dragged onto the canvas, saved, published; the guest sees them around the connect form and connects", async ({
  page,
  context,
  gateway,
  guestPage,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  const pageId = await createPage(page, setup.orgId, "Lobby welcome", "What guests see in the lobby");
  await page.getByRole("button", { name: "Drag and drop builder", exact: true }).click();
  await expect(page).toHaveURL(`/${setup.orgId}/splash_pages/${pageId}/builder`);
  await expect(page.getByText("The page uses the drag and drop builder.")).toBeVisible();

  const save = page.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeEnabled();
  const canvas = page.frameLocator(".gjs-frame");
  const box = async (locator: ReturnType<Page["locator"]>) => (await locator.boundingBox())!;
  // Into the empty body, then just below the connect form: GrapesJS appends after the last component.
  await dragBlock(page, "Connect form", async () => {
    const frame = await box(page.locator(".gjs-frame"));
    return { x: frame.x + frame.width / 2, y: frame.y + 40 };
  });
  await expect(canvas.locator(".mlango-connect")).toHaveCount(1);
  await expect(canvas.getByText("Guests’ connect form appears here")).toBeVisible();
  await dragBlock(page, "Text", async () => {
    const connect = await box(canvas.locator(".mlango-connect"));
    return { x: connect.x + connect.width / 2, y: connect.y + connect.height + 30 };
  });
  await expect(canvas.getByText("Write your text here.")).toBeVisible();
  // The text is edited in place (double-click: GrapesJS's rich text editor), then the editing ends on another component.
  await canvas.getByText("Write your text here.").dblclick();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Karibu! Ask the barista for today's special.");
  await canvas.locator(".mlango-connect").click();
  await expect(canvas.getByText("Karibu! Ask the barista for today's special.")).toBeVisible();
  // The text block went after the connect form.
  expect(
    await canvas
      .locator("body")
      .evaluate((body: HTMLElement) => body.innerText.indexOf("Karibu!") > body.innerText.indexOf("connect form appears")),
  ).toBe(true);

  await save.click();
  await expect(page.getByText("Page saved. Publish it when guests should see it.")).toBeVisible();
  // The builder starts again from what was saved.
  await page.reload();
  await expect(save).toBeEnabled();
  await expect(canvas.getByText("Karibu! Ask the barista for today's special.")).toBeVisible();
  await expect(canvas.locator(".mlango-connect")).toHaveCount(1);
  await publish(page, "Lobby welcome");

  // The network shows it (its Guest portal settings: Splash page).
  await page.goto(`/${setup.orgId}/venues/${setup.venue.id}/settings`);
  await page.getByLabel("Splash page", { exact: true }).selectOption({ label: "Lobby welcome" });
  await page.getByRole("button", { name: "Save guest portal settings" }).click();
  await expect(page.getByText("Guest portal settings updated.")).toBeVisible();

  const guest = await guestPage();
  const response = await arrive(guest, setup, gateway);
  expect(response.headers()["content-security-policy"]).toMatch(/^sandbox allow-forms allow-scripts allow-top-navigation;/);
  await expect(guest).toHaveTitle("Lobby welcome");
  await expect(guest.getByText("Karibu! Ask the barista for today's special.")).toBeVisible();
  await expect(guest.getByText("Write your text here.")).toHaveCount(0);
  // The form sits where the Connect form block was, before the text.
  const form = guest.locator(".mlango-connect form");
  await expect(form).toHaveCount(1);
  await expect(form.getByLabel("First name")).toBeVisible();
  await expect(guest.getByRole("heading", { level: 2, name: "Get connected to WiFi" })).toBeVisible();
  expect(
    await guest
      .locator("body")
      .evaluate((body: HTMLElement) => body.innerText.indexOf("Karibu!") > body.innerText.indexOf("Get connected")),
  ).toBe(true);
  await signUpAndConnect(guest, gateway);
});

test("code editor: what is typed is saved when the editor loses focus and is still there after a reload", async ({ page, context }) => {
  onlyWithJs();
  const setup = await operator(context);
  const pageId = await createPage(page, setup.orgId, "Typed page");
  await setUpAsCode(page, setup.orgId, pageId);

  const editor = page.getByRole("textbox", { name: "Page HTML" });
  await expect(editor).toHaveClass(/cm-content/);
  await editor.click();
  // Typed key by key: the HTML mode closes the tag when ">" is typed.
  await page.keyboard.type("<h1>Karibu Java House");
  await expect(editor).toHaveText("<h1>Karibu Java House</h1>");
  // Leaving the editor saves (no Save pressed).
  await page.getByRole("heading", { level: 2, name: "HTML" }).click();
  await expect(page.getByRole("status").filter({ hasText: "HTML saved." })).toBeVisible();

  await page.reload();
  await expect(editor).toHaveClass(/cm-content/);
  await expect(editor).toHaveText("<h1>Karibu Java House</h1>");
  // The draft preview on Details renders it.
  await page.getByRole("navigation", { name: "Splash page" }).getByRole("link", { name: "Details" }).click();
  await expect(
    page.frameLocator('iframe[title="Preview of Typed page"]').getByRole("heading", { name: "Karibu Java House" }),
  ).toBeVisible();
});

test("builder: the hotel's canvas shows its brand colour behind the white venue name, once its styles are in", async ({
  page,
  context,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  const pageId = await createPage(page, setup.orgId, "Hotel page");
  await page.getByRole("button", { name: "Use this template: Hotel" }).click();
  await expect(page).toHaveURL(`/${setup.orgId}/splash_pages/${pageId}/builder`);
  // The canvas says it is busy until its page and style sheets are in, then shows the page as guests get it.
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
  await expect(page.getByLabel("Page canvas")).toHaveAttribute("aria-busy", "false");
  await expect(page.getByText("Loading the builder…")).toHaveCount(0);
  const hero = page.frameLocator(".gjs-frame").locator(".hotel-hero");
  await expect(hero).toBeVisible();
  // #1e3a5f, the template's brand colour option, behind the title's white text (not white on white).
  await expect(hero).toHaveCSS("background-color", "rgb(30, 58, 95)");
  await expect(hero.locator("h1")).toHaveCSS("color", "rgb(255, 255, 255)");
});

test("template: Café cloned, its options listed, one changed and published; the guest sees the new value", async ({
  page,
  context,
  gateway,
  guestPage,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  const pageId = await createPage(page, setup.orgId, "Café page");
  await page.getByRole("button", { name: "Use this template: Café" }).click();
  await expect(page).toHaveURL(`/${setup.orgId}/splash_pages/${pageId}/builder`);
  await expect(page.getByText("Template Café copied into the page. Fill in its options and publish it.")).toBeVisible();

  await page.getByRole("navigation", { name: "Splash page" }).getByRole("link", { name: "Options" }).click();
  await expect(page).toHaveURL(`/${setup.orgId}/splash_pages/${pageId}/options`);
  const venueRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "venue_name", exact: true }) });
  await expect(venueRow).toContainText("Venue name");
  await expect(venueRow).toContainText("Kahawa Corner");
  for (const name of ["welcome_text", "logo_url", "primary_color", "background_color", "opening_hours"]) {
    await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
  }
  await page.getByLabel("Current value of Venue name").fill("Java House Westlands");
  await page.getByRole("button", { name: "Save Venue name" }).click();
  await expect(page.getByText("Option Venue name saved.")).toBeVisible();
  await expect(page.getByLabel("Current value of Venue name")).toHaveValue("Java House Westlands");

  await publish(page, "Café page");
  await useAsNetworkPage(setup.venue.id, pageId);

  const guest = await guestPage();
  await arrive(guest, setup, gateway);
  await expect(guest.getByRole("heading", { level: 1, name: "Java House Westlands" })).toBeVisible();
  await expect(guest.getByText("Kahawa Corner")).toHaveCount(0);
  await expect(guest.getByRole("img", { name: "Java House Westlands logo" })).toBeVisible();
  await expect(guest.locator(".mlango-connect form").getByLabel("First name")).toBeVisible();
});

test("presentation: a display rule shows the page at the access point; once removed the guest gets the built-in page", async ({
  page,
  context,
  gateway,
  guestPage,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  const pageId = await createPage(page, setup.orgId, "Happy hour");
  await setUpAsCode(page, setup.orgId, pageId);
  await saveCode(page, "Page HTML", "<h1>Happy hour in the lobby</h1>{{ connect_form }}", "HTML saved.");
  await publish(page, "Happy hour");

  await page.getByRole("navigation", { name: "Splash page" }).getByRole("link", { name: "Presentation" }).click();
  await expect(page.getByText("No display rules yet.")).toBeVisible();
  await page.getByLabel("Factor", { exact: true }).selectOption("On");
  await page.getByLabel("Count", { exact: true }).fill("1");
  await page.getByLabel("Factor type").selectOption("Session");
  await page.getByLabel("Access points").selectOption({ label: setup.ap.name });
  await page.getByRole("button", { name: "Save display rule" }).click();
  await expect(page.getByText("Display rule saved.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: setup.ap.name });
  await expect(row.getByRole("cell")).toHaveText([setup.ap.name, "Any", "Any", "On 1 Session", "Remove"]);

  // A new device: its first session, at the access point → this page.
  const guest = await guestPage();
  await arrive(guest, setup, gateway);
  await expect(guest.getByRole("heading", { level: 1, name: "Happy hour in the lobby" })).toBeVisible();
  await expect(guest.getByRole("heading", { level: 2, name: "Get connected to WiFi" })).toBeVisible();

  const question = await clickAndConfirm(page, row.getByRole("button", { name: "Remove" }));
  expect(question).toBe(`Remove the rule “On 1 Session” at ${setup.ap.name}?`);
  await expect(page.getByText("Display rule removed.")).toBeVisible();
  await expect(page.getByText("No display rules yet.")).toBeVisible();

  await arrive(guest, setup, gateway);
  await expect(guest.getByRole("heading", { level: 1, name: "Get connected to WiFi" })).toBeVisible();
  await expect(guest.getByText("Happy hour in the lobby")).toHaveCount(0);
});

test("images: a PNG uploaded on the Images page and used by a published page loads on the guest's page", async ({
  page,
  context,
  gateway,
  guestPage,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  await page.goto(`/${setup.orgId}/splash_pages`);
  await page.getByRole("link", { name: "Images" }).click();
  await expect(page.getByText("No images yet.")).toBeVisible();
  await page.getByLabel("Image file").setInputFiles(await writeTinyPng("kahawa-logo.png"));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText(/^Image kahawa-logo\.png uploaded\. Use \/assets\/\S+ in your pages\.$/)).toBeVisible();
  const path = await page.getByLabel("Address of kahawa-logo.png").inputValue();
  expect(path).toMatch(/^\/assets\/\S+\.png$/);

  const pageId = await createPage(page, setup.orgId, "With logo");
  await setUpAsCode(page, setup.orgId, pageId);
  await saveCode(page, "Page HTML", `<img src="${path}" alt="Kahawa logo"><h1>Our logo</h1>{{ connect_form }}`, "HTML saved.");
  await publish(page, "With logo");
  await useAsNetworkPage(setup.venue.id, pageId);

  const guest = await guestPage();
  await arrive(guest, setup, gateway);
  const logo = guest.getByRole("img", { name: "Kahawa logo" });
  await expect(logo).toBeVisible();
  // Loaded under the sandbox's img-src 'self' (an opaque origin still reaches this server's /assets/).
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  await expect(guest.getByLabel("First name")).toBeVisible();
});

test("without JavaScript: create, set up as code, save, publish, view, add a rule and delete the page", async ({ page, context }) => {
  test.skip(!isNoJs(), "the same steps with JavaScript are the tests above");
  const setup = await operator(context);
  await page.goto(`/${setup.orgId}/splash_pages/create`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Name field is required.")).toBeVisible();
  const pageId = await createPage(page, setup.orgId, "Plain page", "Made without JavaScript");
  await setUpAsCode(page, setup.orgId, pageId);
  await saveCode(page, "Page HTML", "<h1>Karibu, no scripts needed</h1>{{ connect_form }}<p>Ask at the bar for help.</p>", "HTML saved.");
  await expect(page.getByLabel("Page HTML")).toHaveValue(
    "<h1>Karibu, no scripts needed</h1>{{ connect_form }}<p>Ask at the bar for help.</p>",
  );

  // A code page has the HTML tab, no Builder; Publish asks first (the server's step without JavaScript).
  await expect(page.getByRole("navigation", { name: "Splash page" }).getByRole("link")).toHaveText([
    "Details",
    "HTML",
    "Styles",
    "Scripts",
    "Presentation",
  ]);
  await publish(page, "Plain page");

  const [view] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "View page" }).click()]);
  await expect(view).toHaveURL(`${ORIGIN}/splash/pages/${await publicKeyOf(pageId)}`);
  await expect(view.getByRole("heading", { level: 1, name: "Karibu, no scripts needed" })).toBeVisible();
  await expect(view.getByText("Preview: guests connect to the Wi-Fi with this form.")).toBeVisible();
  await expect(view.getByText("Ask at the bar for help.")).toBeVisible();
  await view.close();

  await page.getByRole("navigation", { name: "Splash page" }).getByRole("link", { name: "Presentation" }).click();
  await page.getByLabel("Factor", { exact: true }).selectOption("After");
  await page.getByLabel("Count", { exact: true }).fill("2");
  await page.getByLabel("Factor type").selectOption("Day");
  await page.getByLabel("Access points").selectOption({ label: setup.ap.name });
  await page.getByRole("button", { name: "Save display rule" }).click();
  await expect(page.getByText("Display rule saved.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: setup.ap.name }).getByRole("cell")).toHaveText([
    setup.ap.name,
    "Any",
    "Any",
    "After 2 Days",
    "Remove",
  ]);

  const question = await clickAndConfirm(page, page.getByRole("button", { name: "Delete" }));
  expect(question).toBe("Delete the splash page Plain page? Its display rule is removed. This cannot be undone.");
  await expect(page).toHaveURL(`/${setup.orgId}/splash_pages`);
  await expect(page.getByText("Splash page Plain page deleted. 1 display rule was removed.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Plain page" })).toHaveCount(0);
});

test("a published page's script, opened in a browser signed in to the console, reads no cookie, no storage and no console answer", async ({
  page,
  context,
  gateway,
}) => {
  onlyWithJs();
  const setup = await operator(context);
  // A cookie scripts of this origin could read (the session cookie itself is HttpOnly).
  await context.addCookies([{ name: "probe", value: "readable-by-same-origin", domain: "localhost", path: "/", sameSite: "Lax" }]);
  const session = (await context.cookies()).find((c) => c.httpOnly)!;
  expect(session.value.length).toBeGreaterThan(10);

  const pageId = await createPage(page, setup.orgId, "Probe page");
  await setUpAsCode(page, setup.orgId, pageId);
  await saveCode(page, "Page HTML", '<h1>Probe</h1><div id="probe"></div>{{ connect_form }}', "HTML saved.");
  const consolePath = `/${setup.orgId}/splash_pages`;
  const attack = [
    "const mark = (k, v) => document.body.setAttribute('data-' + k, v);",
    "mark('cookie', (() => { try { return document.cookie; } catch (e) { return 'blocked:' + e.name; } })());",
    "mark('storage', (() => { try { localStorage.setItem('x', '1'); return 'read:' + localStorage.length; } catch (e) { return 'blocked:' + e.name; } })());",
    "fetch('/account/api/v1/user', { credentials: 'include' }).then((r) => r.text()).then((t) => mark('api', 'read:' + t.slice(0, 50))).catch((e) => mark('api', 'blocked:' + e.name));",
    `fetch('${consolePath}', { credentials: 'include' }).then((r) => r.text()).then((t) => mark('console', 'read:' + t.slice(0, 50))).catch((e) => mark('console', 'blocked:' + e.name));`,
  ].join("\n");
  await page.getByRole("navigation", { name: "Splash page" }).getByRole("link", { name: "Scripts" }).click();
  await saveCode(page, "Page scripts", attack, "Scripts saved.");
  await publish(page, "Probe page");
  await useAsNetworkPage(setup.venue.id, pageId);

  // The control: on a console page the same request is answered with the operator's data.
  const control = await page.evaluate(
    (path) => fetch(path, { credentials: "include" }).then(async (r) => ({ status: r.status, text: await r.text() })),
    consolePath,
  );
  expect(control.status).toBe(200);
  expect(control.text).toContain("Probe page");

  async function expectContained(victim: Page) {
    const body = victim.locator("body");
    // The script ran…
    await expect(body).toHaveAttribute("data-cookie", "blocked:SecurityError");
    await expect(body).toHaveAttribute("data-storage", "blocked:SecurityError");
    // …and its requests were refused before they left (connect-src 'none').
    await expect(body).toHaveAttribute("data-api", /^blocked:/);
    await expect(body).toHaveAttribute("data-console", /^blocked:/);
    const marks = await body.evaluate((b) => [b.dataset.cookie, b.dataset.storage, b.dataset.api, b.dataset.console].join(" "));
    expect(marks).not.toContain(session.value);
    expect(marks).not.toContain("readable-by-same-origin");
    expect(marks).not.toContain("read:");
    // The connect form is still there.
    await expect(victim.getByLabel("First name")).toBeVisible();
    await expect(victim.getByRole("button", { name: "Connect" })).toBeVisible();
  }

  // The guest's connect page, opened in the operator's own browser (same origin, cookies present).
  const response = await arrive(page, setup, gateway);
  expect(response.headers()["content-security-policy"]).not.toContain("allow-same-origin");
  await expect(page.getByRole("heading", { level: 1, name: "Probe" })).toBeVisible();
  await expectContained(page);

  // The same through View page.
  const viewed = await page.goto(`/splash/pages/${await publicKeyOf(pageId)}`);
  expect(viewed!.headers()["content-security-policy"]).not.toContain("allow-same-origin");
  await expect(page.getByText("Preview: guests connect to the Wi-Fi with this form.")).toBeVisible();
  await expectContained(page);

  // The session is intact: the console still answers the operator.
  await page.goto(`${consolePath}/${pageId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Probe page" })).toBeVisible();
});
