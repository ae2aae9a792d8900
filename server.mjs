// Starts Mlango: validates the environment (app/config.server.mjs), loads the build, migrates
// (startup), serves the app (server/app.mjs), and on SIGTERM/SIGINT stops taking requests and lets background work finish.
// With WEB_CONCURRENCY above 1, a primary runs that many of these as workers (server/cluster.mjs).
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { getEnv } from "./app/config.server.mjs";
import { answerClientError, createApp } from "./server/app.mjs";
import { runPrimary } from "./server/cluster.mjs";

// An invalid setting stops the start here, before anything else, with a message naming it.
let env;
try {
  env = getEnv();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

installGlobals({ nativeFetch: true });

const build = await import(path.resolve("build/index.js"));
const workers = env.WEB_CONCURRENCY;
if (cluster.isPrimary && workers > 1) await runPrimary({ workers, build });
else await serve();

async function serve() {
  await build.entry.module.startup();

  const server = http.createServer(createApp({ build })).listen(env.PORT, env.HOST, () => {
    // Once, not once per worker.
    if (cluster.isPrimary || cluster.worker?.id === 1) console.log(`Mlango is running at ${env.PUBLIC_URL}`);
    if (env.REMIX_DEV_ORIGIN) broadcastDevReady(build, env.REMIX_DEV_ORIGIN);
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
