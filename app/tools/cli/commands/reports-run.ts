import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "reports:run",
  summary: "send the report e-mails due now (for cron with REPORT_SCHEDULER=off; safe beside running servers)",
  options: {},
  async run() {
    await migrateToLatest();
    const { runDueReports } = await import("~/services/report-scheduler.server");
    const { sent, failed } = await runDueReports();
    console.log(`Report e-mails: ${sent} sent, ${failed} failed (retried later).`);
    return failed ? 1 : 0;
  },
});
