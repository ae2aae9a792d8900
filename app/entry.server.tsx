import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { sql } from "kysely";
import { closeDatabase, db, migrateToLatest } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { NonceProvider } from "~/components/nonce";
import { startJobWorker, stopJobWorker } from "~/services/jobs/index.server";

// The guest side's router, asked first by server/app.mjs (app/guest/routes.ts, decision 0070).
export { guestRoutes } from "~/guest/routes";
// The data API (POST/GET /graphql) is served before Remix by server/app.mjs (decision 0015).
export { graphqlHandler } from "~/services/graphql/handler.server";

const ABORT_DELAY = 5_000;

/** Brings the database schema up to date (server.mjs's primary does it once before its web processes start). */
export async function migrate(): Promise<void> {
  await migrateToLatest();
  await closeDatabase();
}

/** Called once by server.mjs before it listens: validates the environment, migrates, starts the job worker. */
export async function startup(): Promise<void> {
  const env = getEnv();
  await migrateToLatest();
  // Every instance works the job queue (mail, report e-mails …) unless told not to.
  if (env.JOBS_WORKER === "on") startJobWorker();
}

/** Called by server.mjs on SIGTERM/SIGINT: running jobs finish, no new ones start. */
export async function shutdown(): Promise<void> {
  await stopJobWorker();
}

/** For /healthz: the database answers. */
export async function healthCheck(): Promise<void> {
  await sql`select 1`.execute(db);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = (loadContext as { cspNonce?: string }).cspNonce ?? "";
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(
    JSON.stringify({
      at: new Date().toISOString(),
      event: "unhandled_error",
      path: new URL(request.url).pathname,
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
}
