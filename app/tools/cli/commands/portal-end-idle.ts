import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "portal:end-idle",
  summary: "end online connections whose gateway went quiet or whose session ran out (the portal.end-idle job, once)",
  options: {},
  async run() {
    await migrateToLatest();
    const { endIdleConnections } = await import("~/services/portal/accounting.server");
    const { idle, expired } = await endIdleConnections();
    console.log(`Connections ended: ${idle} idle, ${expired} past their session.`);
  },
});
