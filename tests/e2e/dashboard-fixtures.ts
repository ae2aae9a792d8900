// Browser-test data for the dashboard: two venues with an access point each and connections made
// earlier today (the dashboard's default range), written with the shared factories.
import "./fixtures";

const { db } = await import("~/db/db.server");
const { buildAccessPoint, buildConnection, buildCustomer, buildDevice, buildVenue } = await import("~/tools/factories.server");
const { parseLayout } = await import("~/lib/dashboard-layout-schema");

let counter = 0;

/** "Savanna n" gets 3 authorized visits, one still online; "Kilima n" one visit and one abandoned. */
export async function makeDashboardWorld(orgId: number) {
  const n = `${process.pid}-${++counter}`;
  const venue = async (name: string) =>
    db.insertInto("venues").values(buildVenue(orgId, { name })).returning(["id", "name"]).executeTakeFirstOrThrow();
  const savanna = await venue(`Savanna ${n}`);
  const kilima = await venue(`Kilima ${n}`);
  const ap = async (venueId: number, name: string) =>
    db
      .insertInto("access_points")
      .values(buildAccessPoint(orgId, venueId, { name }))
      .returning(["id", "mac_address"])
      .executeTakeFirstOrThrow();
  const apS = await ap(savanna.id, `Lobby ${n}`);
  const apK = await ap(kilima.id, `Terrace ${n}`);
  const customer = await db
    .insertInto("customers")
    .values(buildCustomer(orgId, { first_name: "Amina", last_name: `Otieno ${n}` }))
    .returning("id")
    .executeTakeFirstOrThrow();
  const device = await db
    .insertInto("devices")
    .values(buildDevice(orgId, { customer_id: customer.id, name: `Amina phone ${n}` }))
    .returning("id")
    .executeTakeFirstOrThrow();
  // Earlier today, but never in the future (a test run just after midnight UTC still has "now").
  const now = Date.now();
  const dayStart = now - (now % 86_400_000);
  const at = (minutesAgo: number) => Math.max(dayStart, now - minutesAgo * 60_000);
  const visit = async (
    v: { id: number },
    point: { id: number; mac_address: string },
    minutesAgo: number,
    fields: Record<string, unknown>,
  ) =>
    db
      .insertInto("connections")
      .values(
        buildConnection(orgId, {
          venue_id: v.id,
          access_point_id: point.id,
          access_point_mac: point.mac_address,
          customer_id: customer.id,
          device_id: device.id,
          created_at: at(minutesAgo),
          ...fields,
        }),
      )
      .execute();
  const done = (minutesAgo: number, mode: string, bytes: number) => ({
    authorized_at: at(minutesAgo),
    ended_at: at(minutesAgo - 1),
    authorization_mode: mode,
    upload: bytes,
    download: bytes * 4,
  });
  await visit(savanna, apS, 40, done(40, "sms", 300_000_000));
  await visit(savanna, apS, 30, done(30, "voucher", 200_000_000));
  await visit(savanna, apS, 3, { authorized_at: at(3), authorization_mode: "sms", upload: 1_000, download: 5_000 });
  await visit(kilima, apK, 20, done(20, "click_through", 1_000_000));
  await visit(kilima, apK, 10, {});
  return { savanna, kilima, customer };
}

/** The user's saved dashboard (parsed), for checking that a change was saved. */
export async function savedDashboard(userId: number) {
  const row = await db.selectFrom("users").select("dashboard").where("id", "=", userId).executeTakeFirstOrThrow();
  return { text: row.dashboard, ...parseLayout(row.dashboard) };
}

export async function saveDashboardText(userId: number, text: string | null) {
  await db.updateTable("users").set({ dashboard: text }).where("id", "=", userId).execute();
}
