import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "demo",
  summary: "migrate, then load the demo data if the database has no users yet",
  options: {},
  async run() {
    await migrateToLatest();
    const { loadDemoIfEmpty } = await import("~/tools/demo.server");
    if (!(await loadDemoIfEmpty())) console.log("The database already has users; demo data not loaded.");
  },
});
