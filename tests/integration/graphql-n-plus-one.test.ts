// No N+1 in the data API: nested fields of a page are read in batches, so a query costs
// the same number of database queries whatever its page size. Counted over HTTP against the built
// server, whose database module is the test's (tests/fixtures/http-server.ts), by putting a
// counting Kysely plugin on the shared instance for the length of one request.
import type { Kysely, KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildAccessPoint, buildConnection, buildCustomer, buildDevice, buildVenue } from "~/tools/factories.server";
import type { DB } from "~/db/schema";
import { makeMember } from "../fixtures";
import { apiOrg, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

const store = globalThis as unknown as { __mlangoDatabase: { db: Kysely<DB> } };

/** Runs `work` counting the queries sent to the database (the rate limit's occasional clean-up left out). */
async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const original = store.__mlangoDatabase.db;
  let count = 0;
  const counter: KyselyPlugin = {
    transformQuery({ node }) {
      const pruning = node.kind === "DeleteQueryNode" && JSON.stringify(node).includes('"rate_limits"');
      if (!pruning) count++;
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  store.__mlangoDatabase.db = original.withPlugin(counter);
  try {
    await work();
  } finally {
    store.__mlangoDatabase.db = original;
  }
  return count;
}

/** An organisation with `venues` networks of two access points each and `connections` connections, each by its own customer and device. */
async function bigWorld(venues: number, connections: number) {
  const base = await apiOrg();
  const orgId = base.org.id;
  const venueRows = await db
    .insertInto("venues")
    .values(Array.from({ length: venues }, (_, i) => buildVenue(orgId, { name: `Venue ${String(i).padStart(2, "0")}` })))
    .returning("id")
    .execute();
  const aps = await db
    .insertInto("access_points")
    .values(venueRows.flatMap((v) => [buildAccessPoint(orgId, v.id), buildAccessPoint(orgId, v.id)]))
    .returning(["id", "venue_id", "mac_address"])
    .execute();
  const customers = await db
    .insertInto("customers")
    .values(Array.from({ length: connections }, () => buildCustomer(orgId)))
    .returning("id")
    .execute();
  const devices = await db
    .insertInto("devices")
    .values(customers.map((c) => buildDevice(orgId, { customer_id: c.id })))
    .returning("id")
    .execute();
  const start = Date.UTC(2026, 10, 20, 8);
  const rows = customers.map((c, i) => {
    const ap = aps[i % aps.length];
    return buildConnection(orgId, {
      venue_id: ap.venue_id,
      access_point_id: ap.id,
      access_point_mac: ap.mac_address,
      customer_id: c.id,
      device_id: devices[i].id,
      created_at: start + i * 60_000,
      authorized_at: start + i * 60_000 + 1000,
      ended_at: i % 3 === 0 ? null : start + i * 60_000 + 600_000,
    });
  });
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("connections")
      .values(rows.slice(i, i + 100))
      .execute();
  return { ...base, caller: { token: base.token, org: orgId } as Caller };
}

const CONNECTIONS = (limit: number) => `{ organization { connections(limit: ${limit}) {
  id created_at
  customer { id identity name email_address connectionsCount devicesCount }
  device { id name mac_address brand isOnline usage }
  venue { id name address accessPointsCount }
  accessPoint { id name make venue { id name } }
} } }`;

describe("batched nested fields", () => {
  it("reads a page of connections with their customers, devices, networks and access points in the same number of queries for 5 rows as for 250", async () => {
    const { caller } = await bigWorld(4, 260);
    await gqlData(server, caller, "{ profile { id } }"); // the token's first use writes last_used_at once
    let rows = 0;
    const small = await countQueries(async () => (rows = (await gqlData(server, caller, CONNECTIONS(5))).organization.connections.length));
    expect(rows).toBe(5);
    const large = await countQueries(
      async () => (rows = (await gqlData(server, caller, CONNECTIONS(250))).organization.connections.length),
    );
    expect(rows).toBe(250);
    console.log(
      JSON.stringify({
        event: "graphql_query_count",
        query: "connections with customer, device, venue, accessPoint",
        rows5: small,
        rows250: large,
      }),
    );
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(30);
  });

  it("reads networks with their access points (and their counts) in the same number of queries for 2 networks as for 20", async () => {
    const { caller } = await bigWorld(20, 40);
    await gqlData(server, caller, "{ profile { id } }");
    const query = (limit: number) =>
      `{ venues(limit: ${limit}) { id name accessPoints(limit: 10) { id name mac_address connectionsCount devicesCount status { status } venue { id name } } } }`;
    let venues: { accessPoints: unknown[] }[] = [];
    const two = await countQueries(async () => (venues = (await gqlData(server, caller, query(2))).venues));
    expect(venues).toHaveLength(2);
    const twenty = await countQueries(async () => (venues = (await gqlData(server, caller, query(20))).venues));
    expect(venues).toHaveLength(20);
    expect(venues.every((v) => v.accessPoints.length === 2)).toBe(true);
    console.log(JSON.stringify({ event: "graphql_query_count", query: "venues with accessPoints", venues2: two, venues20: twenty }));
    expect(twenty).toBe(two);
  });

  it("reads roles with their permissions and devices with their customers in a fixed number of queries", async () => {
    const { caller, org } = await bigWorld(1, 60);
    for (let i = 0; i < 12; i++) await makeMember(org.id, "custom", ["view_clients", "edit_clients"]);
    await gqlData(server, caller, "{ profile { id } }");
    const roles = (limit: number) =>
      `{ roles(limit: ${limit}) { id name permissions } devices(limit: ${limit * 4}) { id customer { name devicesCount } } }`;
    const few = await countQueries(() => gqlData(server, caller, roles(2)));
    const many = await countQueries(() => gqlData(server, caller, roles(12)));
    expect(many).toBe(few);
  });
});
