// Sending a broadcast schedule (issue [marketing] §4–5) on the job queue.
// STUB until the dispatch is written: the schedule form calls scheduleDispatch.
import { enqueue } from "../jobs/queue.server";

export const DISPATCH_JOB = "broadcast.dispatch";

/** Queues the dispatch of a schedule for its time (once per schedule, whoever asks again). */
export async function scheduleDispatch(scheduleId: number, dispatchAt: number): Promise<void> {
  await enqueue(DISPATCH_JOB, { scheduleId }, { runAt: dispatchAt, dedupeKey: `${DISPATCH_JOB}:${scheduleId}` });
}
