// Browser-test data for networks and access points, written with the shared factories into the
// server's database (fixtures.ts sets DATABASE_URL before anything opens it).
import "./fixtures";

const { db } = await import("~/db/db.server");
const { buildVenue } = await import("~/tools/factories.server");

export async function makeVenue(orgId: number, name: string) {
  return db.insertInto("venues").values(buildVenue(orgId, { name })).returning(["id", "name"]).executeTakeFirstOrThrow();
}
