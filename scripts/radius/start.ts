// `npm run radius`: FreeRADIUS in front of a local Mlango, for development (docs/radius.md).
// MLANGO_URL (default http://127.0.0.1:3000), RADIUS_API_SECRET (as Mlango's), RADIUS_AUTH_PORT
// and RADIUS_ACCT_PORT (1812, 1813), RADIUS_LISTEN (127.0.0.1), RADIUS_DEBUG=1 to log each request.
import { startFreeRadius } from "./freeradius";

const apiSecret = process.env.RADIUS_API_SECRET;
if (!apiSecret) {
  console.error("Set RADIUS_API_SECRET (the same value Mlango has).");
  process.exit(1);
}
const server = await startFreeRadius({
  mlangoUrl: process.env.MLANGO_URL ?? "http://127.0.0.1:3000",
  apiSecret,
  authPort: Number(process.env.RADIUS_AUTH_PORT ?? 1812),
  acctPort: Number(process.env.RADIUS_ACCT_PORT ?? 1813),
  listen: process.env.RADIUS_LISTEN ?? "127.0.0.1",
  debug: process.env.RADIUS_DEBUG === "1",
});
console.log(
  `FreeRADIUS is listening on ${process.env.RADIUS_LISTEN ?? "127.0.0.1"} (auth ${process.env.RADIUS_AUTH_PORT ?? 1812}, accounting ${process.env.RADIUS_ACCT_PORT ?? 1813}), asking ${process.env.MLANGO_URL ?? "http://127.0.0.1:3000"}/radius.`,
);
server.process.stdout!.pipe(process.stdout);
const stop = () => void server.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
