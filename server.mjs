// Starts Mlango: loads the build, validates the environment and migrates (startup), serves the app
// (server/app.mjs), and on SIGTERM/SIGINT stops taking requests and lets background work finish.
// With WEB_CONCURRENCY above 1, a primary runs that many of these as workers (server/cluster.mjs).
import cluster from "node:cluster";
import path from "node:path";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { answerClientError, createApp } from "./server/app.mjs";
import { runPrimary, webConcurrency } from "./server/cluster.mjs";

installGlobals({ nativeFetch: true });

const build = await import(path.resolve("build/index.js"));
const workers = webConcurrency();
if (cluster.isPrimary && workers > 1) await runPrimary({ workers, build });
else await serve();

async function serve() {
  await build.entry.module.startup();

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  const server = createApp({ build }).listen(port, host, () => {
    // Once, not once per worker.
    if (cluster.isPrimary || cluster.worker?.id === 1)
      console.log(`Mlango is running at ${process.env.PUBLIC_URL ?? `http://localhost:${port}`}`);
    if (process.env.NODE_ENV === "development") broadcastDevReady(build);
  });
  server.on("clientError", answerClientError);

  let stopping = false;
  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ at: new Date().toISOString(), event: "shutdown", signal }));
    server.close();
    server.closeIdleConnections?.();
    await build.entry.module.shutdown?.();
    process.exit(0);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
