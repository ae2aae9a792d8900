// Guests' names, phone numbers and e-mail addresses need view_clients wherever they are shown:
// a role with only view_networks sees report totals, never the visitor lists or their exports.
import { describe, expect, it } from "vitest";
import type { VisitorReport } from "~/lib/reports";
import * as visitorPage from "~/routes/$orgId+/reports+/$report";
import * as allVisitorsCsv from "~/routes/$orgId+/reports+/all_visitors[.csv]";
import * as newVisitorsCsv from "~/routes/$orgId+/reports+/new_visitors[.csv]";
import * as repeatVisitorsCsv from "~/routes/$orgId+/reports+/repeat_visitors[.csv]";
import * as uniqueVisitorsCsv from "~/routes/$orgId+/reports+/unique_visitors[.csv]";
import { makeMember, makeOrg, makeRequest, run, sessionCookie } from "../fixtures";
import { daysAgo, seedVisitorStory } from "../fixtures/reports";

const range = () => `start=${daysAgo(2)}&end=${daysAgo(0)}`;
const EXPORTS: Record<VisitorReport, { loader: (args: never) => Promise<Response> }> = {
  new_visitors: newVisitorsCsv,
  unique_visitors: uniqueVisitorsCsv,
  all_visitors: allVisitorsCsv,
  repeat_visitors: repeatVisitorsCsv,
} as never;

async function get(loader: (args: never) => unknown, userId: number, orgId: number, path: string, params: Record<string, string> = {}) {
  const request = makeRequest(`/${orgId}/reports/${path}`, { cookie: await sessionCookie(userId) });
  return run(async () => loader({ request, params: { orgId: String(orgId), ...params }, context: {} } as never));
}

describe("visitor lists need view_clients", () => {
  it("shows a view_networks-only member the totals of each visitor report but no visitor, and ignores a search", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    for (const report of Object.keys(EXPORTS)) {
      const res = await get(visitorPage.loader as never, user.id, org.id, `${report}?${range()}`, { report });
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const name of ["Alice Test", "Bob Test", "Carol Test", "Eve Test", "@example.com"]) expect(text).not.toContain(name);
      const data = JSON.parse(text);
      expect(data.rows).toEqual([]);
      expect(data.total).toBeGreaterThan(0);
      // A search would tell whether a given phone number or name visited.
      const searched = await (
        await get(visitorPage.loader as never, user.id, org.id, `${report}?${range()}&search=Alice`, { report })
      ).json();
      expect(searched.total).toBe(data.total);
    }
  });

  it("refuses every visitor export to a view_networks-only member", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const { user } = await makeMember(org.id, "custom", ["view_networks"]);
    for (const [report, route] of Object.entries(EXPORTS)) {
      const res = await get(route.loader, user.id, org.id, `${report}.csv?${range()}`);
      expect(res.status, report).toBe(403);
      expect(await res.text()).not.toContain("Alice");
    }
  });

  it("still gives a view_clients member the lists and exports", async () => {
    const { org } = await makeOrg();
    await seedVisitorStory(org.id);
    const { user } = await makeMember(org.id, "custom", ["view_clients"]);
    const data = await (
      await get(visitorPage.loader as never, user.id, org.id, `unique_visitors?${range()}`, { report: "unique_visitors" })
    ).json();
    expect(data.rows.map((r: { name: string }) => r.name)).toContain("Alice Test");
    const csv = await get(uniqueVisitorsCsv.loader, user.id, org.id, `unique_visitors.csv?${range()}`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain("Alice");
  });
});
