// The idle-end job on SQLite and PostgreSQL: online connections end when their
// gateway stops accounting for PORTAL_IDLE_MINUTES or their session runs out, at the right time,
// in batches, exactly once however many instances run it at the same moment.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { rebuildRollups } from "~/db/rollups.server";
import { buildConnection } from "~/tools/factories.server";
import type { NewConnection } from "~/db/schema";
import { getEnv } from "~/env.server";
import { hashToken, randomToken } from "~/services/crypto.server";
import { END_BATCH, endIdleConnections, recordAccounting } from "~/services/portal/accounting.server";
import { recurringJobs, runDueJobs } from "~/services/jobs/index.server";
import { enqueueRecurring } from "~/services/jobs/worker.server";
import { networkById } from "~/services/portal/network.server";
import { makeOrg } from "../fixtures";
import { rollupSnapshot } from "../fixtures/analytics";
import { makeNetwork } from "../fixtures/portal";

const run = promisify(execFile);
const MINUTE = 60_000;
const IDLE = getEnv().PORTAL_IDLE_MINUTES * MINUTE;
const SESSION = 60 * MINUTE;
/** Guests got online at T. */
const T = Date.UTC(2026, 10, 20, 9, 0);

async function world() {
  const { org } = await makeOrg(`Idle ${Math.random()}`);
  const { venue, ap } = await makeNetwork(org.id);
  return { org, venue, ap, network: (await networkById(venue.id))! };
}

type World = Awaited<ReturnType<typeof world>>;

/** An online guest of the network, authorized at `at` for SESSION, with a token for accounting. */
async function online(w: World, at = T, fields: Partial<NewConnection> = {}) {
  const token = randomToken(24);
  const row = await db
    .insertInto("connections")
    .values({
      ...buildConnection(w.org.id, {
        venue_id: w.venue.id,
        access_point_id: w.ap.id,
        created_at: at - 1000,
        authorized_at: at,
        authorization_mode: "CLICK_THROUGH",
        token: hashToken(token),
      }),
      gateway: "mlango",
      gateway_context: JSON.stringify({ network_id: String(w.venue.id) }),
      session_expires_at: at + SESSION,
      ...fields,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), token };
}

const ending = async (id: number) => {
  const r = await db.selectFrom("connections").select(["ended_at", "terminate_cause"]).where("id", "=", id).executeTakeFirstOrThrow();
  return { ended_at: r.ended_at === null ? null : Number(r.ended_at), terminate_cause: r.terminate_cause };
};

const interim = (w: World, token: string, now: number) =>
  recordAccounting(w.network, { status: "interim", token, input_octets: 1, output_octets: 1 }, now);

describe("ending idle and expired connections", () => {
  it("ends a guest whose gateway went quiet at the last record, once the idle time has passed", async () => {
    const w = await world();
    const g = await online(w);
    await interim(w, g.token, T + 5 * MINUTE);
    expect(await endIdleConnections(T + 5 * MINUTE + IDLE - 1)).toEqual({ idle: 0, expired: 0 });
    expect(await ending(g.id)).toEqual({ ended_at: null, terminate_cause: null });
    expect(await endIdleConnections(T + 5 * MINUTE + IDLE)).toEqual({ idle: 1, expired: 0 });
    expect(await ending(g.id)).toEqual({ ended_at: T + 5 * MINUTE, terminate_cause: "Idle-Timeout" });
  });

  it("ends a guest without accounting (Meraki, openNDS) when the session runs out, at its end", async () => {
    const w = await world();
    const g = await online(w, T, { gateway: "meraki" });
    expect(await endIdleConnections(T + SESSION - 1)).toEqual({ idle: 0, expired: 0 });
    expect(await endIdleConnections(T + SESSION)).toEqual({ idle: 0, expired: 1 });
    expect(await ending(g.id)).toEqual({ ended_at: T + SESSION, terminate_cause: "Session-Timeout" });
  });

  it("gives the same ending however late the job runs: whichever would have come first", async () => {
    const w = await world();
    const quietEarly = await online(w);
    const busyToTheEnd = await online(w);
    await interim(w, quietEarly.token, T + 10 * MINUTE);
    await interim(w, busyToTheEnd.token, T + SESSION - 2 * MINUTE);
    expect(await endIdleConnections(T + 5 * SESSION)).toEqual({ idle: 1, expired: 1 });
    expect(await ending(quietEarly.id)).toEqual({ ended_at: T + 10 * MINUTE, terminate_cause: "Idle-Timeout" });
    expect(await ending(busyToTheEnd.id)).toEqual({ ended_at: T + SESSION, terminate_cause: "Session-Timeout" });
  });

  it("leaves ended, never-authorized and still-active connections alone, and keeps the roll-ups right", async () => {
    const w = await world();
    const ended = await online(w, T, { ended_at: T + MINUTE, terminate_cause: "User-Request" });
    const visit = await online(w, T, { authorized_at: null, session_expires_at: null });
    const active = await online(w, T);
    await interim(w, active.token, T + 50 * MINUTE);
    const due = await online(w, T - SESSION);
    expect(await endIdleConnections(T + 55 * MINUTE)).toEqual({ idle: 0, expired: 1 });
    expect(await ending(ended.id)).toEqual({ ended_at: T + MINUTE, terminate_cause: "User-Request" });
    expect(await ending(visit.id)).toEqual({ ended_at: null, terminate_cause: null });
    expect(await ending(active.id)).toEqual({ ended_at: null, terminate_cause: null });
    expect(await ending(due.id)).toEqual({ ended_at: T, terminate_cause: "Session-Timeout" });
    const kept = await rollupSnapshot(w.org.id);
    await rebuildRollups(w.org.id);
    expect(await rollupSnapshot(w.org.id)).toEqual(kept);
  });

  it("runs every minute as the portal.end-idle job", async () => {
    expect(recurringJobs()).toContainEqual({ name: "portal-idle", type: "portal.end-idle", everyMs: MINUTE });
    const w = await world();
    const at = Date.now() - 2 * SESSION;
    const g = await online(w, at);
    await enqueueRecurring(recurringJobs().filter((r) => r.type === "portal.end-idle"));
    expect(await runDueJobs()).toBe(1);
    expect(await ending(g.id)).toEqual({ ended_at: at + SESSION, terminate_cause: "Session-Timeout" });
  });
});

describe("several instances at once", () => {
  it(
    `ends more than ${END_BATCH} connections in batches, each once, from two processes and two calls here at the same time`,
    { timeout: 120_000 },
    async () => {
      const w = await world();
      const count = 2 * END_BATCH + 500;
      const rows = Array.from({ length: count }, (_, i) => {
        const authorized_at = T + i * 1000;
        const quiet = i % 2 === 0; // half went quiet, half (no accounting) ran out of session
        return {
          ...buildConnection(w.org.id, {
            venue_id: w.venue.id,
            created_at: authorized_at - 1000,
            authorized_at,
            authorization_mode: "CLICK_THROUGH",
          }),
          gateway: quiet ? ("mlango" as const) : ("meraki" as const),
          session_expires_at: authorized_at + SESSION,
          accounted_at: quiet ? authorized_at + 5 * MINUTE : null,
        };
      });
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto("connections")
          .values(rows.slice(i, i + 500))
          .execute();

      // The other process is the CLI command (`portal:end-idle`); this process joins in as soon as it has begun.
      const other = run(
        path.resolve("node_modules/.bin/tsx"),
        ["--tsconfig", "tsconfig.json", "app/tools/cli/main.ts", "portal:end-idle"],
        {
          env: process.env,
        },
      );
      const endedSoFar = async () =>
        Number(
          (
            await db
              .selectFrom("connections")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("ended_at", "is not", null)
              .executeTakeFirstOrThrow()
          ).n,
        );
      for (let waited = 0; waited < 30_000 && (await endedSoFar()) === 0; waited += 5) await new Promise((r) => setTimeout(r, 5));
      const here = await Promise.all([endIdleConnections(Date.now()), endIdleConnections(Date.now())]);
      const { stdout } = await other;
      const [, idle, expired] = /(\d+) idle, (\d+) past their session/.exec(stdout)!.map(Number);

      const total = (key: "idle" | "expired") => here.reduce((sum, h) => sum + h[key], 0);
      expect({ idle: idle! + total("idle"), expired: expired! + total("expired") }).toEqual({ idle: count / 2, expired: count / 2 });
      const ended = await db
        .selectFrom("connections")
        .select(["authorized_at", "ended_at", "terminate_cause"])
        .where("organization_id", "=", w.org.id)
        .orderBy("id")
        .execute();
      ended.forEach((r, i) => {
        const at = Number(r.authorized_at);
        expect({ ended_at: Number(r.ended_at), cause: r.terminate_cause }).toEqual(
          i % 2 === 0 ? { ended_at: at + 5 * MINUTE, cause: "Idle-Timeout" } : { ended_at: at + SESSION, cause: "Session-Timeout" },
        );
      });
      const kept = await rollupSnapshot(w.org.id);
      await rebuildRollups(w.org.id);
      expect(await rollupSnapshot(w.org.id)).toEqual(kept);
    },
  );
});
