// Several web processes on one machine (WEB_CONCURRENCY): a Node process answers on one core, so a
// machine with more runs one per core, sharing the port through node:cluster. The primary brings
// the schema up to date once, starts the workers, replaces one that dies, and on SIGTERM/SIGINT
// passes the signal on and exits once each has finished its requests and jobs (server.mjs).
// The workers are ordinary instances: the job queue, rate limits and caches already hold across
// instances (decision 0011), and SQLite is shared by processes (decision 0012).
import cluster from "node:cluster";

/** A worker that dies sooner than this after it started is replaced after a pause (no crash loop). */
const STEADY_MS = 10_000;
const RESTART_PAUSE_MS = 1_000;
const log = (fields) => console.log(JSON.stringify({ at: new Date().toISOString(), ...fields }));

export async function runPrimary({ workers, build }) {
  await build.entry.module.migrate();
  let stopping = false;
  const startedAt = new Map();
  const fork = () => {
    if (!stopping) startedAt.set(cluster.fork().id, Date.now());
  };
  for (let i = 0; i < workers; i++) fork();
  log({ event: "web_processes", count: workers });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit(0);
      return;
    }
    log({ event: "web_process_exited", pid: worker.process.pid, code, signal, lived_ms: lived });
    setTimeout(fork, lived < STEADY_MS ? RESTART_PAUSE_MS : 0);
  });

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    log({ event: "shutdown", signal });
    if (startedAt.size === 0) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
