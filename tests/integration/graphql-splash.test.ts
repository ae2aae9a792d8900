// Splash pages through the data API, on SQLite and PostgreSQL: lists, a page with its options and
// rules, templates, publishing; permissions and other organisations' ids as with the REST API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPLASH_MESSAGES } from "~/lib/schemas/splash";
import { issueToken } from "~/services/auth.server";
import { addDisplaySetting } from "~/services/splash/rules.server";
import { copyTemplate, createPage } from "~/services/splash/pages.server";
import { makeMember } from "../fixtures";
import { apiOrg, gql, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { contextOf, insertAccessPoint, insertVenue } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

async function setup() {
  const base = await apiOrg();
  const ctx = await contextOf(base.owner.id, base.org.id);
  const venue = await insertVenue(base.org.id);
  const ap = await insertAccessPoint(base.org.id, venue.id, { name: "Lobby" });
  const { id } = await createPage(ctx, { name: "Hotel page", css_template: "tailwind.css", description: "For guests" });
  await copyTemplate(ctx, id, "hotel");
  await addDisplaySetting(ctx, id, {
    access_points: [ap.id],
    factor: "After",
    factor_count: 2,
    factor_type: "Session",
    start_date: "2026-12-01",
    end_date: null,
  });
  return { ...base, ctx, id, ap, caller: { token: base.token, org: base.org.id } as Caller };
}

describe("splash pages in the data API", () => {
  it("lists pages, reads one with its options and rules, lists templates, and publishes", async () => {
    const { caller, id, ap } = await setup();
    const list = await gqlData(
      server,
      caller,
      `{ splashPages(limit: 5) { id name type published has_unpublished_changes page_url } splashPagesCount }`,
    );
    expect(list).toEqual({
      splashPages: [{ id: String(id), name: "Hotel page", type: 1, published: false, has_unpublished_changes: true, page_url: null }],
      splashPagesCount: 1,
    });
    const page = await gqlData(
      server,
      caller,
      `{ splashPage(id: "${id}") { css_template html configs { name title current_value } display_settings { rule start_date access_points { id name } } } }`,
    );
    expect(page.splashPage.css_template).toBe("bootstrap4.css");
    expect(page.splashPage.html).toContain("{{ connect_form }}");
    expect(page.splashPage.configs).toContainEqual({ name: "venue_name", title: expect.any(String), current_value: "The Acacia Hotel" });
    expect(page.splashPage.display_settings).toEqual([
      { rule: "After 2 Sessions", start_date: "2026-12-01", access_points: [{ id: String(ap.id), name: "Lobby" }] },
    ]);
    const templates = await gqlData(server, caller, `{ splashTemplates { id name css_template } }`);
    expect(templates.splashTemplates.map((t: { id: string }) => t.id).sort()).toEqual(["cafe", "hotel", "mall"]);
    const published = await gqlData(server, caller, `mutation { publishSplashPage(id: "${id}") { code message recordId success } }`);
    expect(published.publishSplashPage).toEqual({ code: 200, message: SPLASH_MESSAGES.published, recordId: String(id), success: true });
    const after = await gqlData(server, caller, `{ splashPage(id: "${id}") { published has_unpublished_changes page_url } }`);
    expect(after.splashPage).toEqual({
      published: true,
      has_unpublished_changes: false,
      page_url: expect.stringMatching(/\/splash\/pages\/[A-Za-z0-9_-]{24}$/),
    });
  });

  it("refuses without the permissions, and answers not found for another organisation's page", async () => {
    const { org, id } = await setup();
    const other = await setup();
    const viewer = await makeMember(org.id, "custom", ["view_splash_pages"]);
    const viewerCaller = { token: await issueToken(viewer.user.id, "api"), org: org.id };
    const refused = await gqlData(server, viewerCaller, `mutation { publishSplashPage(id: "${id}") { code success } }`);
    expect(refused.publishSplashPage).toEqual({ code: 403, success: false });
    const outsider = await makeMember(org.id, "custom", ["view_networks"]);
    const denied = await gql(server, { token: await issueToken(outsider.user.id, "api"), org: org.id }, `{ splashPages { id } }`);
    expect(denied.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const foreign = await gql(server, other.caller, `{ splashPage(id: "${id}") { name html } }`);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(foreign.data).toBeNull();
    const notSetUp = await createPage(other.ctx, { name: "Empty", css_template: "tailwind.css", description: null });
    const unpublishable = await gqlData(server, other.caller, `mutation { publishSplashPage(id: "${notSetUp.id}") { code message } }`);
    expect(unpublishable.publishSplashPage).toEqual({ code: 422, message: SPLASH_MESSAGES.notSetUp });
  });
});
