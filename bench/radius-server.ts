// Mlango's guest-path router alone (where /radius/* lives) for bench/radius.bench.ts: DATABASE_URL,
// RADIUS_API_SECRET, SECRETS_KEY and PORT come from the benchmark.
import express from "express";
import { portalRouter } from "~/services/portal/router.server";

const port = Number(process.env.PORT ?? 3250);
express()
  .use(portalRouter())
  .listen(port, "127.0.0.1", () => console.log(`listening on ${port}`));
// SIGTERM ends the process normally, so a --cpu-prof profile is written.
process.on("SIGTERM", () => process.exit(0));
