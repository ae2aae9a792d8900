import { migrateToLatest } from "~/db/db.server";
import { defineCommand } from "../command";

export default defineCommand({
  name: "jobs:list",
  summary: "the newest jobs, or the dead letters (jobs that used all their attempts)",
  options: {
    failed: { type: "boolean", summary: "only the dead letters, with their last error" },
  },
  async run({ failed }) {
    await migrateToLatest();
    const { listJobs } = await import("~/services/jobs/queue.server");
    const jobs = await listJobs({ status: failed ? "failed" : undefined });
    if (jobs.length === 0) console.log(failed ? "No failed jobs." : "No jobs.");
    for (const j of jobs) {
      console.log(
        `${j.id}\t${j.type}\t${j.status}\t${j.attempts}/${j.maxAttempts}\t${new Date(j.createdAt).toISOString()}\t${j.lastError ?? ""}`,
      );
    }
  },
});
