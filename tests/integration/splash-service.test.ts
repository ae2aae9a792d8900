// Splash pages' service on SQLite and PostgreSQL: which page a guest gets (the display rules, as a
// table), publish snapshots, option substitution with hostile values, and tenancy (another
// organisation's ids are 404s).
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { OrgContext } from "~/services/guard.server";
import { updateGatewaySettings } from "~/services/portal/settings.server";
import {
  copyTemplate,
  createPage,
  deletePage,
  getPage,
  publishPage,
  saveCode,
  setPageType,
  updateConfig,
  updatePageDetails,
} from "~/services/splash/pages.server";
import {
  addDisplaySetting,
  deviceNumbers,
  factorHolds,
  frameForGuest,
  listDisplaySettings,
  mostSpecific,
  removeDisplaySetting,
} from "~/services/splash/rules.server";
import { makeOrg, run } from "../fixtures";
import { contextOf, insertAccessPoint, insertConnection, insertDevice, insertVenue } from "../fixtures/records";

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

async function world() {
  const { org, owner } = await makeOrg(`Splash ${Math.random()}`);
  const ctx = await contextOf(owner.id, org.id);
  const venue = await insertVenue(org.id);
  const ap = await insertAccessPoint(org.id, venue.id, { name: "Lobby" });
  const otherAp = await insertAccessPoint(org.id, venue.id, { name: "Terrace" });
  const device = await insertDevice(org.id);
  return { org, ctx, venue, ap, otherAp, device };
}

/** A published code page whose body says `marker`. */
async function publishedPage(ctx: OrgContext, marker: string) {
  const { id } = await createPage(ctx, { name: marker, css_template: "bootstrap4.css", description: null });
  await setPageType(ctx, id, 2);
  await saveCode(ctx, id, { html: `<h1>${marker}</h1>{{ connect_form }}` });
  expect((await publishPage(ctx, id)).ok).toBe(true);
  return id;
}

/** Authorized connections of the device `daysAgo` days back (one per entry). */
async function history(orgId: number, deviceId: number, daysAgo: number[]) {
  for (const d of daysAgo) {
    const at = Date.now() - d * DAY - 1000;
    await insertConnection(orgId, { device_id: deviceId, created_at: at, authorized_at: at + 10 });
  }
}

const shown = async (w: Awaited<ReturnType<typeof world>>, accessPointId = w.ap.id) => {
  const frame = await frameForGuest({ organizationId: w.org.id, accessPointId, deviceId: w.device.id, networkPageId: null });
  return frame ? (/<h1>([^<]*)<\/h1>/.exec(frame.before)?.[1] ?? "?") : "built-in";
};

describe("a rule's factor", () => {
  // session: the connection shown is the device's Sth authorized one; day: it falls on its Dth day.
  const rows: [string, "After" | "On", number, "Session" | "Day", number, number, boolean][] = [
    ["first session, On 1 Session", "On", 1, "Session", 1, 1, true],
    ["second session, On 1 Session", "On", 1, "Session", 2, 1, false],
    ["third session, On 3 Sessions", "On", 3, "Session", 3, 1, true],
    ["third session, After 3 Sessions", "After", 3, "Session", 3, 1, false],
    ["fourth session, After 3 Sessions", "After", 3, "Session", 4, 2, true],
    ["first day, After 1 Day", "After", 1, "Day", 5, 1, false],
    ["second day, After 1 Day", "After", 1, "Day", 5, 2, true],
    ["second day, On 2 Days", "On", 2, "Day", 9, 2, true],
    ["third day, On 2 Days", "On", 2, "Day", 9, 3, false],
  ];
  it.each(rows)("%s", (_, factor, factor_count, factor_type, session, day, holds) => {
    expect(factorHolds({ factor, factor_count, factor_type }, session, day)).toBe(holds);
  });

  it("picks On before After, then the larger count, then the newest", () => {
    const rule = (id: number, factor: "After" | "On", factor_count: number, created_at: number) => ({
      id,
      factor,
      factor_count,
      factor_type: "Session" as const,
      created_at,
    });
    expect(mostSpecific([rule(1, "After", 1, 5), rule(2, "On", 4, 1)], 4, 1)?.id).toBe(2);
    expect(mostSpecific([rule(1, "After", 1, 5), rule(2, "After", 3, 1)], 4, 1)?.id).toBe(2);
    expect(mostSpecific([rule(1, "After", 3, 5), rule(2, "After", 3, 9)], 4, 1)?.id).toBe(2);
    expect(mostSpecific([rule(1, "After", 3, 5)], 3, 1)).toBeUndefined();
  });
});

describe("the page a guest gets", () => {
  it("counts the device's authorized sessions and distinct days, today included once", async () => {
    const w = await world();
    expect(await deviceNumbers(w.org.id, w.device.id, Date.now())).toEqual({ session: 1, day: 1 });
    await history(w.org.id, w.device.id, [3, 3, 1]);
    await insertConnection(w.org.id, { device_id: w.device.id, created_at: Date.now() - 5000 }); // never authorized: not a session
    expect(await deviceNumbers(w.org.id, w.device.id, Date.now())).toEqual({ session: 4, day: 3 });
    await history(w.org.id, w.device.id, [0]);
    expect(await deviceNumbers(w.org.id, w.device.id, Date.now())).toEqual({ session: 5, day: 3 });
    expect(await deviceNumbers(w.org.id, null, Date.now())).toEqual({ session: 1, day: 1 });
  });

  it("follows the rules for the access point and today, then the network's page, then the built-in page", async () => {
    const w = await world();
    const welcome = await publishedPage(w.ctx, "Welcome");
    const regulars = await publishedPage(w.ctx, "Regulars");
    const network = await publishedPage(w.ctx, "Network");
    const base = { factor: "After" as const, factor_count: 1, factor_type: "Session" as const, start_date: null, end_date: null };
    await addDisplaySetting(w.ctx, welcome, { ...base, factor: "On", access_points: [w.ap.id] });
    await addDisplaySetting(w.ctx, regulars, { ...base, factor_count: 2, access_points: [w.ap.id] });

    expect(await shown(w)).toBe("Welcome"); // session 1: On 1 Session
    await history(w.org.id, w.device.id, [2]);
    expect(await shown(w)).toBe("built-in"); // session 2: neither On 1 nor After 2
    const withNetworkPage = await frameForGuest({
      organizationId: w.org.id,
      accessPointId: w.ap.id,
      deviceId: w.device.id,
      networkPageId: network,
    });
    expect(withNetworkPage?.before).toContain("<h1>Network</h1>");
    await history(w.org.id, w.device.id, [1]);
    expect(await shown(w)).toBe("Regulars"); // session 3: After 2 Sessions
    expect(await shown(w, w.otherAp.id)).toBe("built-in"); // the rules name the lobby only
  });

  it("keeps to the rule's dates (inclusive, UTC) and ignores unpublished pages", async () => {
    const w = await world();
    const base = { factor: "After" as const, factor_count: 0 as number, factor_type: "Session" as const, access_points: [w.ap.id] };
    const past = await publishedPage(w.ctx, "Past");
    await addDisplaySetting(w.ctx, past, { ...base, factor: "On", factor_count: 1, start_date: dayOffset(-10), end_date: dayOffset(-1) });
    const future = await publishedPage(w.ctx, "Future");
    await addDisplaySetting(w.ctx, future, { ...base, factor: "On", factor_count: 1, start_date: dayOffset(1), end_date: null });
    const { id: draft } = await createPage(w.ctx, { name: "Draft", css_template: "tailwind.css", description: null });
    await setPageType(w.ctx, draft, 2);
    await addDisplaySetting(w.ctx, draft, { ...base, factor: "On", factor_count: 1, start_date: null, end_date: null });
    expect(await shown(w)).toBe("built-in");
    const now = await publishedPage(w.ctx, "Today");
    await addDisplaySetting(w.ctx, now, { ...base, factor: "After", factor_count: 0, start_date: today(), end_date: today() });
    expect(await shown(w)).toBe("Today");
  });

  it("shows what was published until the next publish, and Publish comes back with a change", async () => {
    const w = await world();
    const id = await publishedPage(w.ctx, "First");
    await db.updateTable("venues").set({ splash_page_id: id }).where("id", "=", w.venue.id).execute();
    const place = { organizationId: w.org.id, accessPointId: w.ap.id, deviceId: w.device.id, networkPageId: id };
    expect((await getPage(w.ctx, id)).has_unpublished_changes).toBe(false);
    await saveCode(w.ctx, id, { html: "<h1>Second</h1>{{ connect_form }}" });
    expect((await frameForGuest(place))?.before).toContain("<h1>First</h1>");
    expect((await getPage(w.ctx, id)).has_unpublished_changes).toBe(true);
    await publishPage(w.ctx, id);
    expect((await frameForGuest(place))?.before).toContain("<h1>Second</h1>");
    expect((await getPage(w.ctx, id)).has_unpublished_changes).toBe(false);
    await updatePageDetails(w.ctx, id, { name: "Renamed", css_template: "bootstrap3.css", description: null });
    expect((await getPage(w.ctx, id)).has_unpublished_changes).toBe(true);
  });

  it("splits the document at the connect block, or puts the form after the page", async () => {
    const w = await world();
    const id = await publishedPage(w.ctx, "Split");
    const frame = (await frameForGuest({ organizationId: w.org.id, accessPointId: null, deviceId: null, networkPageId: id }))!;
    expect(frame.before).toMatch(/<h1>Split<\/h1><div class="mlango-form">$/);
    expect(frame.after).toMatch(/^<\/div><\/body><\/html>$/);
    await saveCode(w.ctx, id, { html: "<p>No block</p>", custom_scripts: "console.log('</script><b>')" });
    await publishPage(w.ctx, id);
    const appended = (await frameForGuest({ organizationId: w.org.id, accessPointId: null, deviceId: null, networkPageId: id }))!;
    expect(appended.before).toMatch(/<p>No block<\/p><div class="mlango-form">$/);
    expect(appended.after).toBe(`</div><script>console.log('<\\/script><b>')</script></body></html>`);
  });
});

describe("options", () => {
  it("come from the page's placeholders and reach guests escaped, at publish", async () => {
    const w = await world();
    const { id } = await createPage(w.ctx, { name: "Options", css_template: "tailwind.css", description: null });
    await setPageType(w.ctx, id, 2);
    await saveCode(w.ctx, id, {
      html: `<h1 class="text-xl" title="{{ config.venue_name }}">{{config.welcome_text}}</h1>{{ connect_form }}`,
    });
    const { configs } = await getPage(w.ctx, id);
    expect(configs.map((c) => [c.name, c.title])).toEqual([
      ["venue_name", "Venue name"],
      ["welcome_text", "Welcome text"],
    ]);
    const hostile = `"><script>alert(document.cookie)</script><img src=x onerror=alert(1)>&amp;`;
    await updateConfig(w.ctx, configs[0]!.id, hostile);
    await updateConfig(w.ctx, configs[1]!.id, "<b>Karibu</b>");
    await publishPage(w.ctx, id);
    const frame = (await frameForGuest({ organizationId: w.org.id, accessPointId: null, deviceId: null, networkPageId: id }))!;
    expect(frame.before).toContain(
      `title="&quot;&gt;&lt;script&gt;alert(document.cookie)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;"`,
    );
    expect(frame.before).toContain(">&lt;b&gt;Karibu&lt;/b&gt;</h1>");
    expect(frame.before).not.toContain("<script>");
    // Tailwind pages carry the CSS of the classes they use.
    expect(frame.before).toMatch(/\.text-xl\s*\{font-size/);
    // An option no longer in the HTML goes; one still there keeps its value.
    await saveCode(w.ctx, id, { html: "<p>{{ config.welcome_text }}</p>" });
    const after = (await getPage(w.ctx, id)).configs;
    expect(after.map((c) => [c.name, c.custom_value])).toEqual([["welcome_text", "<b>Karibu</b>"]]);
  });

  it("copies a template's page and options", async () => {
    const w = await world();
    const { id } = await createPage(w.ctx, { name: "From a template", css_template: "tailwind.css", description: null });
    await copyTemplate(w.ctx, id, "hotel");
    const page = await getPage(w.ctx, id);
    expect(page.type).toBe(1);
    expect(page.css_template).toBe("bootstrap4.css");
    expect(page.html).toContain("{{ connect_form }}");
    expect(page.configs.length).toBeGreaterThan(2);
    expect(page.configs.every((c) => c.title && c.default_value !== undefined)).toBe(true);
    const missing = await run(() => copyTemplate(w.ctx, id, "no-such-template"));
    expect(missing.status).toBe(404);
  });
});

describe("tenancy and permissions", () => {
  it("answers 404 for another organisation's page, option and rule", async () => {
    const mine = await world();
    const theirs = await world();
    const page = await publishedPage(theirs.ctx, "Theirs");
    await saveCode(theirs.ctx, page, { html: "{{ config.secret }}{{ connect_form }}" });
    const config = (await getPage(theirs.ctx, page)).configs[0]!;
    const rule = await addDisplaySetting(theirs.ctx, page, {
      factor: "After",
      factor_count: 1,
      factor_type: "Day",
      start_date: null,
      end_date: null,
      access_points: [theirs.ap.id],
    });
    expect(rule.ok).toBe(true);
    for (const attempt of [
      () => getPage(mine.ctx, page),
      () => saveCode(mine.ctx, page, { html: "<p>mine now</p>" }),
      () => publishPage(mine.ctx, page),
      () => deletePage(mine.ctx, page),
      () => updateConfig(mine.ctx, config.id, "x"),
      () => listDisplaySettings(mine.ctx, page),
      () => removeDisplaySetting(mine.ctx, page, rule.ok ? rule.id : 0),
    ]) {
      expect((await run(attempt)).status).toBe(404);
    }
    // Their access point cannot be named in my rule.
    const myPage = await publishedPage(mine.ctx, "Mine");
    expect(
      await addDisplaySetting(mine.ctx, myPage, {
        factor: "After",
        factor_count: 1,
        factor_type: "Day",
        start_date: null,
        end_date: null,
        access_points: [theirs.ap.id],
      }),
    ).toMatchObject({ ok: false });
    expect((await getPage(theirs.ctx, page)).html).toBe("{{ config.secret }}{{ connect_form }}");
  });

  it("says what deleting a page takes with it", async () => {
    const w = await world();
    const id = await publishedPage(w.ctx, "Doomed");
    await db.updateTable("venues").set({ splash_page_id: id }).where("id", "=", w.venue.id).execute();
    await addDisplaySetting(w.ctx, id, {
      factor: "After",
      factor_count: 1,
      factor_type: "Day",
      start_date: null,
      end_date: null,
      access_points: [w.ap.id, w.otherAp.id],
    });
    expect(await deletePage(w.ctx, id)).toEqual({ name: "Doomed", rulesRemoved: 1, networksReset: 1 });
    const venue = await db.selectFrom("venues").select("splash_page_id").where("id", "=", w.venue.id).executeTakeFirstOrThrow();
    expect(venue.splash_page_id).toBeNull();
    expect(await db.selectFrom("splash_display_setting_access_points").selectAll().execute()).toEqual([]);
  });

  it("lets a network use only a published page of its own organisation", async () => {
    const mine = await world();
    const theirs = await world();
    const their = await publishedPage(theirs.ctx, "Theirs");
    const { id: draft } = await createPage(mine.ctx, { name: "Draft", css_template: "tailwind.css", description: null });
    for (const id of [their, draft]) {
      expect(await updateGatewaySettings(mine.ctx, mine.venue.id, { splash_page_id: id })).toMatchObject({
        ok: false,
        errors: { splash_page_id: [expect.any(String)] },
      });
    }
    const own = await publishedPage(mine.ctx, "Own");
    expect(await updateGatewaySettings(mine.ctx, mine.venue.id, { splash_page_id: own })).toEqual({ ok: true });
    expect(await updateGatewaySettings(mine.ctx, mine.venue.id, { splash_page_id: null })).toEqual({ ok: true });
  });
});
