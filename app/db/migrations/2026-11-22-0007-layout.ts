import type { Kysely } from "kysely";
import { isPostgres, withId } from "./_dialect";

// Zones drawn on a network's map, and map coordinates precise enough to be dragged around.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("venue_zones"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("venue_id", "integer", (c) => c.notNull().references("venues.id").onDelete("cascade"))
    .addColumn("polygon", "text", (c) => c.notNull()) // JSON list of {lat, lng}
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("venue_zones_venue").on("venue_zones").columns(["venue_id", "id"]).execute();

  // PostgreSQL's real is 4 bytes (about 7 digits: ~0.4 m of longitude near Nairobi), too coarse for
  // markers placed at zoom 19. SQLite's real is already 8 bytes.
  if (isPostgres(db)) {
    for (const table of ["venues", "access_points"]) {
      await db.schema
        .alterTable(table)
        .alterColumn("lat", (c) => c.setDataType("double precision"))
        .execute();
      await db.schema
        .alterTable(table)
        .alterColumn("lng", (c) => c.setDataType("double precision"))
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("venue_zones").ifExists().execute();
  if (isPostgres(db)) {
    for (const table of ["venues", "access_points"]) {
      await db.schema
        .alterTable(table)
        .alterColumn("lat", (c) => c.setDataType("real"))
        .execute();
      await db.schema
        .alterTable(table)
        .alterColumn("lng", (c) => c.setDataType("real"))
        .execute();
    }
  }
}
