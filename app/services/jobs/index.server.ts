// Mlango's background work: the job types, the recurring jobs, and starting and stopping this
// process's worker (entry.server.tsx). Adding work = a job type here and `enqueue(type, payload)`.
import { getEnv } from "~/env.server";
import { deliverEmail, emailFromPayload, type EmailPayload } from "../email.server";
import { DISPATCH_JOB, runDispatchJob } from "../marketing/dispatch.server";
import { runSendJob, SEND_JOB, type SendPayload } from "../marketing/dispatch/sender.server";
import { endIdleConnections } from "../portal/accounting.server";
import { pruneGatewayNonces } from "../portal/entry.server";
import { pruneGuestCodes } from "../portal/phone-proof.server";
import { ANONYMISE_EXPIRED_JOB, anonymiseExpired, ERASE_JOB, runEraseJob } from "../portal/guest-data.server";
import { REVOKE_JOB, runRevokeJob } from "../portal/revoke.server";
import { COA_JOB, runCoaJob } from "../radius/speeds.server";
import { reconcilePayments } from "../prepaid/mpesa.server";
import { ROLLUP_JOB as ADS_ROLLUP_JOB, runRollupJob as runAdsRollup } from "../ads/figures.server";
import { runDueReports } from "../report-scheduler.server";
import { pruneJobs } from "./queue.server";
import { drainJobs, startWorker, type JobType, type Recurring, type Worker } from "./worker.server";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const JOB_TYPES: Record<string, JobType> = {
  // One mail. SMTP may refuse or time out: retried with backoff, then a dead letter.
  "email.send": { run: (payload: EmailPayload) => deliverEmail(emailFromPayload(payload)) },
  // The report e-mails due now; each (subscription, day) is claimed and retried in report_deliveries.
  "reports.send-due": { run: async () => void (await runDueReports()) },
  // Online connections whose gateway went quiet or whose session ran out (safe in every instance at once).
  "portal.end-idle": { run: async () => void (await endIdleConnections()) },
  // Closing a connection in the console: tell its controller (UniFi); retried while it is unreachable.
  [REVOKE_JOB]: { run: (payload: { connectionId: number }) => runRevokeJob(payload) },
  // A plan's new speed to a guest online through a RADIUS gateway (CoA); retried while the NAS is silent.
  [COA_JOB]: { run: (payload: { connectionId: number }) => runCoaJob(payload) },
  // M-Pesa purchases whose result never came: asked about with the STK query (each claimed by one instance).
  "mpesa.reconcile": { run: async () => void (await reconcilePayments()) },
  // A broadcast schedule at its time: starts it and makes its delivery rows (decision 0018).
  [DISPATCH_JOB]: { run: (payload: { scheduleId: number }) => runDispatchJob(payload) },
  // One time slice of an organisation's broadcast messages on one channel, at the channel's pace.
  [SEND_JOB]: { run: (payload: SendPayload) => runSendJob(payload) },
  // Ad impressions and clicks into hourly figures (decision 0020); recomputes whole hours, so idempotent.
  [ADS_ROLLUP_JOB]: { run: async () => void (await runAdsRollup()) },
  // A guest's deletion request from the data-access page: their customer records anonymised (idempotent).
  [ERASE_JOB]: { run: (payload: { organizationId: number; customerIds: number[] }) => runEraseJob(payload) },
  // Personal data past the organisation's retention period, anonymised; the figures stay (idempotent).
  [ANONYMISE_EXPIRED_JOB]: { run: async () => void (await anonymiseExpired()) },
  // Finished jobs and dead letters older than 30 days; gateway entry nonces past their window; expired guest codes.
  "jobs.prune": {
    run: async () => {
      await pruneJobs(30 * DAY_MS);
      await pruneGatewayNonces();
      await pruneGuestCodes();
    },
  },
};

export function recurringJobs(): Recurring[] {
  return [
    ...(getEnv().REPORT_SCHEDULER === "on" ? [{ name: "reports", type: "reports.send-due", everyMs: MINUTE_MS }] : []),
    { name: "portal-idle", type: "portal.end-idle", everyMs: MINUTE_MS },
    { name: "mpesa-reconcile", type: "mpesa.reconcile", everyMs: MINUTE_MS / 2 },
    { name: "ads-rollup", type: ADS_ROLLUP_JOB, everyMs: MINUTE_MS },
    { name: "prune", type: "jobs.prune", everyMs: DAY_MS },
    { name: "privacy-retention", type: ANONYMISE_EXPIRED_JOB, everyMs: DAY_MS },
  ];
}

/** Runs every due job once, here and now (tests, one-shot commands). */
export function runDueJobs(): Promise<number> {
  return drainJobs(JOB_TYPES);
}

let worker: Worker | null = null;

export function startJobWorker(): void {
  worker ??= startWorker({ jobTypes: JOB_TYPES, recurring: recurringJobs() });
}

export async function stopJobWorker(): Promise<void> {
  await worker?.stop();
  worker = null;
}
