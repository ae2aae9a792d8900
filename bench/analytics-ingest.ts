// The cost of keeping the roll-ups current (bench/analytics.bench.ts): connections through the
// normal write path, one statement each as the guest pages and the close action issue them:
// insert (portal visit), authorize, close with usage. Into a fresh organisation with a venue,
// 4 access points, 2,000 customers and devices, visits spread over the last 30 days.
import { db } from "~/db/db.server";
import { buildAccessPoint, buildCustomer, buildDevice, buildVenue } from "~/tools/factories.server";
import { createRandom } from "~/tools/demo/random.server";
import { pauseRollups } from "~/db/rollups.server";

const DAY = 86_400_000;
const PEOPLE = 2_000;

/** Connections per second; the organisation is deleted afterwards. */
export async function ingest(templateOrganizationId: number, count: number, rollups: boolean): Promise<number> {
  const now = Date.now();
  const org = await db
    .insertInto("organizations")
    .values({
      name: `Ingest ${rollups ? "on" : "off"} ${now}`,
      address: null,
      email_address: null,
      phone_number: null,
      more_info: null,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const venue = await db.insertInto("venues").values(buildVenue(org.id)).returning("id").executeTakeFirstOrThrow();
  const aps = await db
    .insertInto("access_points")
    .values(Array.from({ length: 4 }, () => buildAccessPoint(org.id, venue.id)))
    .returning(["id", "mac_address"])
    .execute();
  const customers: number[] = [];
  const devices: number[] = [];
  for (let i = 0; i < PEOPLE; i += 500) {
    const batch = Math.min(500, PEOPLE - i);
    const c = await db
      .insertInto("customers")
      .values(
        Array.from({ length: batch }, () =>
          buildCustomer(org.id, { phone_number: null, identity: `ingest-${templateOrganizationId}-${now}-${i}` }),
        ),
      )
      .returning("id")
      .execute();
    customers.push(...c.map((r) => r.id));
    const d = await db
      .insertInto("devices")
      .values(c.map((r) => buildDevice(org.id, { customer_id: r.id })))
      .returning("id")
      .execute();
    devices.push(...d.map((r) => r.id));
  }
  if (!rollups) await pauseRollups(org.id);

  const random = createRandom(count);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const person = random.int(0, PEOPLE - 1);
    const ap = aps[random.int(0, aps.length - 1)];
    const createdAt = now - random.int(0, 30 * DAY);
    const { id } = await db
      .insertInto("connections")
      .values({
        organization_id: org.id,
        venue_id: venue.id,
        access_point_id: ap.id,
        access_point_mac: ap.mac_address,
        device_id: devices[person],
        created_at: createdAt,
        upload: 0,
        download: 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("connections")
      .set({ authorized_at: createdAt + 15_000, customer_id: customers[person], authorization_mode: "click_through" })
      .where("id", "=", id)
      .execute();
    await db
      .updateTable("connections")
      .set({ ended_at: createdAt + random.int(60_000, 7_200_000), upload: random.int(0, 5e6), download: random.int(0, 5e7) })
      .where("id", "=", id)
      .execute();
  }
  const seconds = (performance.now() - started) / 1000;
  await db.deleteFrom("organizations").where("id", "=", org.id).execute();
  return count / seconds;
}
