// Mlango's guest side alone (where /radius/* lives), behind the request boundary, for
// bench/radius.bench.ts: DATABASE_URL, RADIUS_API_SECRET, SECRETS_KEY and PORT come from the benchmark.
import http from "node:http";
import { guestRoutes } from "~/guest/routes";
import { serve } from "../server/app.mjs";

const port = Number(process.env.PORT ?? 3250);
http.createServer(serve({ guest: guestRoutes() })).listen(port, "127.0.0.1", () => console.log(`listening on ${port}`));
// SIGTERM ends the process normally, so a --cpu-prof profile is written.
process.on("SIGTERM", () => process.exit(0));
