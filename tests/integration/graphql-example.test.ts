// The README's example client (scripts/examples/usage-summary.ts) against the built server, on
// SQLite and PostgreSQL: it pulls yesterday's usage summary with graphql-request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageSummaryFor, yesterday } from "../../scripts/examples/usage-summary";
import { apiOrg } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { insertAccessPoint, insertConnection, insertCustomer, insertVenue } from "../fixtures/records";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

describe("scripts/examples/usage-summary.ts", () => {
  it("answers yesterday's summary and top networks of the organisation, leaving out today", async () => {
    const { org, token } = await apiOrg("Example Cafe");
    const venue = await insertVenue(org.id, { name: "Example Westlands" });
    const ap = await insertAccessPoint(org.id, venue.id);
    const customer = await insertCustomer(org.id);
    const noon = Date.parse(`${yesterday()}T12:00:00Z`);
    const at = { venue_id: venue.id, access_point_id: ap.id, access_point_mac: ap.mac_address, customer_id: customer.id };
    await insertConnection(org.id, {
      ...at,
      created_at: noon,
      authorized_at: noon + 1000,
      ended_at: noon + 1000 + 20 * 60_000,
      upload: 1024 ** 2,
      download: 3 * 1024 ** 2,
    });
    await insertConnection(org.id, { ...at, created_at: noon + 60_000 });
    await insertConnection(org.id, { ...at, created_at: Date.now() - 1000, authorized_at: Date.now() - 500 });

    const summary = await usageSummaryFor({ baseUrl: server.origin, token, organizationId: org.id });
    expect(summary).toEqual({
      day: yesterday(),
      organization: { name: "Example Cafe" },
      aggregateUsageSummary: {
        footfall: 2,
        connections: 1,
        abandoned: 1,
        new_customers: 1,
        repeat_customers: 0,
        formattedBandwidth: "4.00 MB",
        dwell_time: 1200,
        avg_dwell_time: 1200,
      },
      venueUsageSummary: [{ venue_name: "Example Westlands", connections: 1, formattedBandwidth: "4.00 MB" }],
    });
  });

  it("fails loudly with a wrong token", async () => {
    const { org } = await apiOrg();
    await expect(usageSummaryFor({ baseUrl: server.origin, token: "wrong", organizationId: org.id })).rejects.toThrow(/Unauthenticated/);
  });
});
