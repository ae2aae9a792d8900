// Stored editor projects cannot run script in the console (docs/decisions/0067-editor-canvas-script.md).
// A staff member who may edit splash pages or write broadcasts stores a GrapesJS project; another member
// (here the owner) opens it in the splash page builder or the e-mail designer. The projects are planted
// straight in the database, as rows saved before the sanitiser existed would be: script components
// (a data: URL, nested, by tag name), a component's inline `script` property, `onerror` handlers in
// attributes and in HTML strings, a srcdoc frame and javascript: URLs. Every payload would mark the
// console window, change its title and call home (/pwned/…): none may happen. An SVG image with a
// script, kept by the sanitiser (data:image/… is allowed in an image's src), shows that such images
// are inert. Last, a script inserted into the canvas after it loaded is refused by the canvas's own
// policy (script-src 'none'), whatever the editor is given.
import type { Page } from "@playwright/test";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";

const { db } = await import("~/db/db.server");

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the editors need JavaScript");

/** What every payload does if it runs: only single quotes, so it fits in any attribute. */
const mark = (label: string) =>
  `(window.top.__pwned = window.top.__pwned || []).push('${label}'); window.top.document.title = 'pwned ${label}'; fetch('/pwned/${label}');`;
const dataScript = (label: string) => `data:text/javascript,${encodeURIComponent(mark(label))}`;
const svgImage = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" onload="${mark("svg-onload")}"><script>${mark("svg-script")}</script><rect width="20" height="20" fill="red"/></svg>`,
)}`;
const text = (content: string) => [{ type: "textnode", content }];

/** A GrapesJS project (pages → frames → wrapper) carrying every vector next to a harmless heading. */
function plantedProject() {
  const components = [
    { tagName: "h1", type: "text", components: text("Planted page") },
    { type: "script", attributes: { src: dataScript("script-src") } },
    { tagName: "section", components: [{ tagName: "div", components: [{ type: "script", components: text(mark("nested-script")) }] }] },
    { tagName: "SCRIPT", attributes: { src: dataScript("script-tag") } },
    { tagName: "div", attributes: { id: "widget" }, script: mark("script-property") },
    { tagName: "div", attributes: { id: "widget-fn" }, script: `function () { ${mark("script-function")} }`, "script-props": [] },
    { tagName: "img", attributes: { src: "/missing-image.png", OnError: mark("onerror") } },
    { tagName: "img", attributes: { src: svgImage, alt: "svg" } },
    { tagName: "iframe", attributes: { srcdoc: `<script>${mark("srcdoc")}</script>` } },
    { tagName: "iframe", attributes: { src: ` JaVaScRiPt:${mark("iframe-javascript")}` } },
    { tagName: "a", attributes: { href: `\tjavascript:${mark("href")}` }, components: text("A link") },
    {
      tagName: "div",
      components: `<img src="/missing-image.png" onerror="${mark("html-onerror")}"><script>${mark("html-script")}</script>`,
    },
    { tagName: "div", type: "text", content: `<img src="/missing-image.png" onerror="${mark("content-onerror")}">Content` },
  ];
  return JSON.stringify({ pages: [{ frames: [{ component: { type: "wrapper", components } }] }] });
}

/** Collects the payloads' calls home and the console window's marks. */
function watch(page: Page) {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/pwned/")) calls.push(request.url());
  });
  return {
    async expectNothingRan(title: string) {
      const canvas = page.frameLocator(".gjs-frame");
      await expect(canvas.getByText("Planted page")).toBeVisible();
      // The SVG image was loaded, and drawn (as an image: its script and onload are inert).
      await expect(canvas.locator("img[alt=svg]")).toHaveJSProperty("complete", true);
      expect(await canvas.locator("img[alt=svg]").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(20);
      // GrapesJS mounts component scripts on timers and images fail asynchronously: give them time.
      await page.waitForTimeout(2_000);
      expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned ?? [])).toEqual([]);
      await expect(page).toHaveTitle(title);
      expect(calls).toEqual([]);
    },
    /**
     * A script added to a loaded canvas, inline or from a data: URL, is refused there too: in the canvas
     * shown and in the hidden one GrapesJS draws dragged blocks in (both frames of the editor).
     */
    async expectLateScriptsRefused() {
      const frames = await page.locator(".gjs-editor iframe").elementHandles();
      expect(frames).toHaveLength(2);
      for (const [n, element] of frames.entries()) {
        await (await element.contentFrame())!.evaluate(
          ([inline, src]) => {
            const a = document.createElement("script");
            a.textContent = inline;
            document.head.appendChild(a);
            const b = document.createElement("script");
            b.src = src;
            document.body.appendChild(b);
          },
          [mark(`late-inline-${n}`), dataScript(`late-src-${n}`)],
        );
      }
      await page.waitForTimeout(1_000);
      expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned ?? [])).toEqual([]);
      expect(calls).toEqual([]);
    },
  };
}

test("a project with script stored by an editor of splash pages runs nothing when the owner opens the Builder tab", async ({
  page,
  context,
}) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const attacker = await makeMember(org.id, "custom", ["view_splash_pages", "edit_splash_pages"]);
  const now = Date.now();
  const row = await db
    .insertInto("splash_pages")
    .values({
      organization_id: org.id,
      name: "Lobby",
      description: null,
      css_template: "bootstrap4.css",
      type: 1,
      html: "<h1>Planted page</h1>",
      project_data: plantedProject(),
      public_key: `planted${now}${Math.random().toString(36).slice(2)}`,
      created_by_user_id: attacker.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const watcher = watch(page);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/splash_pages/${row.id}/builder`);
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
  await watcher.expectNothingRan("Builder | Mlango");
  await watcher.expectLateScriptsRefused();
});

test("a design with script stored by a broadcast writer runs nothing when the owner opens the e-mail designer", async ({
  page,
  context,
}) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const attacker = await makeMember(org.id, "custom", ["view_broadcasts", "create_broadcasts"]);
  const now = Date.now();
  const row = await db
    .insertInto("broadcasts")
    .values({
      organization_id: org.id,
      title: "Mandazi Monday",
      description: null,
      sms: null,
      email_html: "<h1>Planted page</h1>",
      email_text: null,
      email_design: plantedProject(),
      created_by_user_id: attacker.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const watcher = watch(page);
  await signIn(context, owner.id);
  await page.goto(`/${org.id}/broadcast/${row.id}/email`);
  const title = await page.title();
  await page.getByRole("button", { name: "Visual designer" }).click();
  await expect(page.getByRole("button", { name: "Save e-mail" })).toBeEnabled();
  await watcher.expectNothingRan(title);
  await watcher.expectLateScriptsRefused();
});
