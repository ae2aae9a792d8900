// Stored script in the console's visual editors, on SQLite and PostgreSQL: a staff member with only the
// permissions to edit splash pages (or to write broadcasts) saves a GrapesJS project carrying script —
// through the page's action, the REST API and the data API — and it is stored without it; a row planted
// straight in the database (as one saved before the check) is served without it to every reader: the
// Builder tab, the REST API, the e-mail page and the data API. HTML an editor imports when there is no
// project is handed over cleaned, while the guests' page keeps the operator's own code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { Permission } from "~/lib/permissions";
import * as email from "~/routes/$orgId+/_marketing+/broadcast+/$id.email";
import * as builderTab from "~/routes/$orgId+/splash_pages+/$pageId+/builder";
import * as apiPage from "~/routes/account+/api.v1.splash_pages.$id";
import { issueToken } from "~/services/auth.server";
import { makeMember, makeOrg, run, sessionCookie } from "../fixtures";
import { gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { callRoute } from "../fixtures/venues";

type Json = Record<string, any>;

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const MARK = "window.top.__pwned = 1";
/** A GrapesJS project with every kind of script GrapesJS would put into its canvas, beside a heading. */
const attack = JSON.stringify({
  pages: [
    {
      frames: [
        {
          component: {
            type: "wrapper",
            components: [
              { tagName: "h1", components: [{ type: "textnode", content: "Karibu" }] },
              { type: "script", attributes: { src: `data:text/javascript,${MARK}` } },
              { tagName: "section", components: [{ tagName: "SCRIPT", components: [{ type: "textnode", content: MARK }] }] },
              { tagName: "div", script: MARK },
              { tagName: "img", attributes: { src: "/x.png", OnError: MARK } },
              { tagName: "a", attributes: { href: ` JaVaScRiPt:${MARK}` } },
              { tagName: "iframe", attributes: { srcdoc: `<script>${MARK}</script>` } },
              { tagName: "div", components: `<img src="/x.png" onerror="${MARK}"><script>${MARK}</script>` },
            ],
          },
        },
      ],
    },
  ],
});
/** The same project as stored: only the heading, the link and the frame are left, without their script. */
const cleaned = {
  pages: [
    {
      frames: [
        {
          component: {
            type: "wrapper",
            components: [
              { tagName: "h1", components: [{ type: "textnode", content: "Karibu" }] },
              { tagName: "section", components: [] },
              { tagName: "div" },
              { tagName: "img", attributes: { src: "/x.png" } },
              { tagName: "a", attributes: {} },
              { tagName: "iframe", attributes: {} },
              { tagName: "div", components: '<img src="/x.png">' },
            ],
          },
        },
      ],
    },
  ],
};

/** Nothing in the text that GrapesJS would run. */
function expectNoScript(text: string | null) {
  expect(text).not.toBeNull();
  expect(JSON.parse(text!)).toEqual(cleaned);
  expect(text).not.toMatch(/script|onerror|srcdoc|__pwned/i);
}

async function world() {
  const { org, owner } = await makeOrg(`Stored script ${Math.random()}`);
  return { org, owner, orgId: String(org.id) };
}

async function plantedPage(orgId: number, projectData: string | null, html = "<h1>Karibu</h1>") {
  const now = Date.now();
  const row = await db
    .insertInto("splash_pages")
    .values({
      organization_id: orgId,
      name: "Lobby",
      description: null,
      css_template: "bootstrap4.css",
      type: 1,
      html,
      custom_scripts: "document.title = 'operator script'",
      project_data: projectData,
      public_key: `planted-${now}-${Math.random().toString(36).slice(2)}`,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function plantedBroadcast(orgId: number, design: string | null, html = "<h1>Karibu</h1>") {
  const now = Date.now();
  const row = await db
    .insertInto("broadcasts")
    .values({
      organization_id: orgId,
      title: "Mandazi Monday",
      description: null,
      sms: null,
      email_html: html,
      email_text: null,
      email_design: design,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const storedProject = async (id: number) =>
  await db.selectFrom("splash_pages").select(["project_data", "html", "custom_scripts"]).where("id", "=", id).executeTakeFirstOrThrow();
const storedDesign = async (id: number) =>
  await db.selectFrom("broadcasts").select(["email_design", "email_html"]).where("id", "=", id).executeTakeFirstOrThrow();

async function apiPut(token: string, orgId: number, pageId: number, body: unknown) {
  const request = new Request(`http://localhost/account/api/v1/splash_pages/${pageId}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(orgId), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return run(() => apiPage.action({ request, params: { id: String(pageId) }, context: {} }));
}

async function apiGet(token: string, orgId: number, pageId: number) {
  const request = new Request(`http://localhost/account/api/v1/splash_pages/${pageId}`, {
    headers: { Authorization: `Bearer ${token}`, "X-Organization-Id": String(orgId) },
  });
  return run(() => apiPage.loader({ request, params: { id: String(pageId) }, context: {} }));
}

const SPLASH_EDITOR: Permission[] = ["view_splash_pages", "edit_splash_pages"];
const BROADCAST_WRITER: Permission[] = ["view_broadcasts", "create_broadcasts"];

describe("a splash page's builder project", () => {
  it("saved through the Builder tab by a member who may only view and edit pages is stored without script", async () => {
    const { org, orgId } = await world();
    const { user } = await makeMember(org.id, "custom", SPLASH_EDITOR);
    const id = await plantedPage(org.id, null);
    const res = await callRoute(
      builderTab.action,
      user.id,
      `/${orgId}/splash_pages/${id}/builder`,
      { orgId, pageId: String(id) },
      {
        intent: "builder",
        project_data: attack,
        html: "<h1>Karibu</h1><script>console.log('guests only')</script>",
        css: "",
      },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).ok).toBe(true);
    const stored = await storedProject(id);
    expectNoScript(stored.project_data);
    // The exported HTML is the guests' page: it keeps the operator's code (it runs in the guests' sandbox only).
    expect(stored.html).toBe("<h1>Karibu</h1><script>console.log('guests only')</script>");
  });

  it("saved through the REST API by such a member is stored without script", async () => {
    const { org } = await world();
    const { user } = await makeMember(org.id, "custom", SPLASH_EDITOR);
    const token = await issueToken(user.id, "api");
    const id = await plantedPage(org.id, null);
    const res = await apiPut(token, org.id, id, { project_data: attack, html: "<h1>Karibu</h1>", css: "" });
    expect(res.status).toBe(200);
    expectNoScript(((await res.json()) as Json).data.page.project_data);
    expectNoScript((await storedProject(id)).project_data);
  });

  it("planted in the database is served without script by the Builder tab and the REST API", async () => {
    const { org, owner, orgId } = await world();
    const id = await plantedPage(org.id, attack);
    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, { orgId, pageId: String(id) })
    ).json();
    expectNoScript(tab.page.project_data);
    const api = await apiGet(await issueToken(owner.id, "api"), org.id, id);
    expectNoScript(((await api.json()) as Json).data.page.project_data);
    // Reading changes nothing stored; the next save stores it clean.
    expect((await storedProject(id)).project_data).toBe(attack);
  });

  it("without a project, the Builder tab hands the builder the page's HTML cleaned and keeps the guests' code as it is", async () => {
    const { org, owner, orgId } = await world();
    const html = `<h1>Karibu</h1><img src="/x.png" onerror="${MARK}"><script>${MARK}</script>{{ connect_form }}`;
    const id = await plantedPage(org.id, null, html);
    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, { orgId, pageId: String(id) })
    ).json();
    expect(tab.page.builder_html).toBe('<h1>Karibu</h1><img src="/x.png">{{ connect_form }}');
    // The code editor (without JavaScript, the tab's textarea) shows the page's HTML as the operator wrote it.
    expect(tab.page.html).toBe(html);
    expect(await storedProject(id)).toMatchObject({ html, custom_scripts: "document.title = 'operator script'" });
  });

  it("a project that is not JSON any more is served as none (the builder starts from the HTML)", async () => {
    const { org, owner, orgId } = await world();
    const id = await plantedPage(org.id, "{not json");
    const tab: Json = await (
      await callRoute(builderTab.loader, owner.id, `/${orgId}/splash_pages/${id}/builder`, { orgId, pageId: String(id) })
    ).json();
    expect(tab.page).toMatchObject({ project_data: null, builder_html: "<h1>Karibu</h1>" });
  });
});

describe("a broadcast's e-mail design", () => {
  const EMAIL_QUERY = `query One($id: ID!) { broadcast(id: $id) { email_design email_html } }`;
  const EMAIL_MUTATION = `mutation Email($input: BroadcastEmailInput!) { updateBroadcastEmail(input: $input) { code success } }`;

  it("saved through the e-mail page's designer by a broadcast writer is stored without script", async () => {
    const { org, orgId } = await world();
    const { user } = await makeMember(org.id, "custom", BROADCAST_WRITER);
    const id = await plantedBroadcast(org.id, null);
    const res = await callRoute(
      email.action,
      user.id,
      `/${orgId}/broadcast/${id}/email`,
      { orgId, id: String(id) },
      {
        intent: "designer",
        email_html: "<h1>Karibu</h1>",
        email_design: attack,
        email_text: "",
      },
    );
    expect(res.status).toBe(302);
    expectNoScript((await storedDesign(id)).email_design);
  });

  it("saved through the data API (updateBroadcastEmail) by a broadcast writer is stored without script", async () => {
    const { org } = await world();
    const { user } = await makeMember(org.id, "custom", BROADCAST_WRITER);
    const caller: Caller = { token: await issueToken(user.id, "api"), org: org.id };
    const id = await plantedBroadcast(org.id, null);
    const saved = await gqlData(server, caller, EMAIL_MUTATION, { input: { id: String(id), email: "<h1>Karibu</h1>", design: attack } });
    expect(saved.updateBroadcastEmail).toEqual({ code: 200, success: true });
    expectNoScript((await storedDesign(id)).email_design);
  });

  it("planted in the database is served without script by the e-mail page and the data API", async () => {
    const { org, owner, orgId } = await world();
    const id = await plantedBroadcast(org.id, attack);
    const page: Json = await (await callRoute(email.loader, owner.id, `/${orgId}/broadcast/${id}/email`, { orgId, id: String(id) })).json();
    expectNoScript(page.design);
    const caller: Caller = { token: await issueToken(owner.id, "api"), org: org.id };
    expectNoScript((await gqlData(server, caller, EMAIL_QUERY, { id: String(id) })).broadcast.email_design);
    expect((await storedDesign(id)).email_design).toBe(attack);
  });

  it("without a design, the e-mail page hands the designer the HTML cleaned; the e-mail itself stays as written", async () => {
    const { org, owner, orgId } = await world();
    const html = `<table><tr><td>Karibu<img src="/x.png" onerror="${MARK}"></td></tr></table><iframe srcdoc="<script>${MARK}</script>"></iframe>`;
    const id = await plantedBroadcast(org.id, null, html);
    const page: Json = await (await callRoute(email.loader, owner.id, `/${orgId}/broadcast/${id}/email`, { orgId, id: String(id) })).json();
    expect(page.designerHtml).toBe('<table><tr><td>Karibu<img src="/x.png"></td></tr></table>');
    expect(page.values.email_html).toBe(html);
  });
});

describe("the console's policy", () => {
  it("runs the page's own scripts by nonce and from this origin, and no script another script inserts ('strict-dynamic')", async () => {
    const { orgId, owner } = await world();
    const res = await fetch(`${server.origin}/${orgId}/splash_pages`, { headers: { Cookie: await sessionCookie(owner.id) } });
    expect(res.status).toBe(200);
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(scriptSrc).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]+={0,2}'$/);
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc!)![1];
    expect(await res.text()).toContain(`nonce="${nonce}"`);
  });
});
