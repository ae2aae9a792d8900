import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "demo",
  summary: "migrate, then load the demo data if the database has no users yet",
  options: {
    "sms-callback-key": {
      type: "string",
      value: "KEY",
      summary: "the demo SMS settings' callback key, shared with the fake SMS provider (default: a random one)",
    },
  },
  async run(values) {
    const smsCallbackKey = values["sms-callback-key"];
    await migrateToLatest();
    const { loadDemoIfEmpty } = await import("~/tools/demo.server");
    if (!(await loadDemoIfEmpty({ smsCallbackKey }))) console.log("The database already has users; demo data not loaded.");
  },
});
