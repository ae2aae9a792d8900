import { sql, type Kysely } from "kysely";

// The networks list shows, for each venue of the page, its authorized connections and how many
// distinct customers made them, over all history. This partial index holds exactly those rows'
// (organisation, venue, customer), so both figures are read from the index alone, without
// visiting millions of connection rows.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("connections_venue_authorized")
    .on("connections")
    .columns(["organization_id", "venue_id", "customer_id"])
    .where(sql.ref("authorized_at"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("connections_venue_authorized").ifExists().execute();
}
