import { migrateToLatest } from "~/db/db.server";
import { defineCommand, wholeNumber } from "../command";

export default defineCommand({
  name: "jobs:retry",
  summary: "put a dead letter back in the queue",
  argument: { name: "ID", summary: "the failed job's id (jobs:list --failed)" },
  options: {},
  async run(_values, argument) {
    const id = wholeNumber("ID", argument!, 1);
    await migrateToLatest();
    const { retryFailedJob } = await import("~/services/jobs/queue.server");
    if (!(await retryFailedJob(id))) throw new Error(`Job ${id} is not a failed job.`);
    console.log(`Job ${id} is queued again.`);
  },
});
