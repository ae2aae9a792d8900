import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "jobs:work",
  summary: "work the job queue in the foreground until SIGTERM or SIGINT (beside instances with JOBS_WORKER=off)",
  options: {},
  async run() {
    await migrateToLatest();
    const { startJobWorker, stopJobWorker } = await import("~/services/jobs/index.server");
    startJobWorker();
    console.log("Working the job queue; stop with Ctrl-C.");
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopJobWorker().then(resolve));
    });
  },
});
