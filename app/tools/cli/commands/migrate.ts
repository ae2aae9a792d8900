import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "migrate",
  summary: "bring the schema up to date (the server also migrates on start)",
  options: {},
  async run() {
    await migrateToLatest();
    console.log("Database migrated.");
  },
});
