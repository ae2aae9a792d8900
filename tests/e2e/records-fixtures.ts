// Browser-test data for connections, devices and customers, written with the shared factories into
// the server's database (fixtures.ts sets DATABASE_URL before anything opens it).
import "./fixtures";

const { db } = await import("~/db/db.server");
const { buildAccessPoint, buildConnection, buildCustomer, buildDevice, buildVenue } = await import("~/tools/factories.server");

const MINUTE = 60_000;
let counter = 0;

/** A venue, access point, customer and device with `count` authorized connections; the newest is online. */
export async function makeRecords(orgId: number, count = 2) {
  const n = ++counter;
  const venue = await db
    .insertInto("venues")
    .values(buildVenue(orgId, { name: `Java House ${n}` }))
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  const ap = await db
    .insertInto("access_points")
    .values(buildAccessPoint(orgId, venue.id, { name: `Lobby ${n}` }))
    .returning(["id", "mac_address"])
    .executeTakeFirstOrThrow();
  const customer = await db
    .insertInto("customers")
    .values(
      buildCustomer(orgId, {
        first_name: "Achieng",
        last_name: `Odhiambo${n}`,
        phone_number: `+2547${String(process.pid % 1000).padStart(3, "0")}${String(n).padStart(5, "0")}`,
      }),
    )
    .returning(["id", "phone_number"])
    .executeTakeFirstOrThrow();
  const device = await db
    .insertInto("devices")
    .values(buildDevice(orgId, { customer_id: customer.id, name: `Achieng phone ${n}` }))
    .returning(["id", "mac_address", "name"])
    .executeTakeFirstOrThrow();
  const base = Date.UTC(2026, 10, 20, 9, 0);
  const connections: number[] = [];
  for (let i = 0; i < count; i++) {
    const created_at = base + i * MINUTE;
    const row = await db
      .insertInto("connections")
      .values(
        buildConnection(orgId, {
          venue_id: venue.id,
          access_point_id: ap.id,
          access_point_mac: ap.mac_address,
          customer_id: customer.id,
          device_id: device.id,
          authorization_mode: "click",
          created_at,
          authorized_at: created_at,
          ended_at: i === count - 1 ? null : created_at + 10 * MINUTE,
          upload: 1024,
          download: 1024,
        }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    connections.push(Number(row.id));
  }
  return { venue, ap, customer, device, connections };
}
