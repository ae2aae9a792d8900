// The gateway simulator's live guests (`npm run simulate -- --stay --keep-alive 5`, the demo): a
// guest the simulator keeps online gets an interim every few minutes with its real time online
// (scripts/simulator/guest.ts nextRecord), so the idle-end job leaves it online with a growing
// duration; one left without (the demo before) is ended at its last record 15 minutes later, its
// duration shrinking to the seconds before that record. On SQLite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { hashToken, randomToken } from "~/services/crypto.server";
import { endIdleConnections, recordAccounting } from "~/services/portal/accounting.server";
import { networkById } from "~/services/portal/network.server";
import { buildConnection } from "~/tools/factories.server";
import { newSession, nextRecord } from "../../scripts/simulator/guest";
import { makeOrg } from "../fixtures";
import { makeNetwork } from "../fixtures/portal";

const MINUTE = 60_000;
const T = Date.UTC(2026, 11, 1, 21, 40);

async function onlineGuest() {
  const { org } = await makeOrg(`Keep-alive ${Math.random()}`);
  const { venue, ap } = await makeNetwork(org.id);
  const token = randomToken(24);
  const row = await db
    .insertInto("connections")
    .values({
      ...buildConnection(org.id, {
        venue_id: venue.id,
        access_point_id: ap.id,
        created_at: T - 1000,
        authorized_at: T,
        authorization_mode: "CLICK_THROUGH",
        token: hashToken(token),
      }),
      gateway: "mlango",
      gateway_context: JSON.stringify({ network_id: String(venue.id) }),
      session_expires_at: T + 60 * MINUTE,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), token, network: (await networkById(venue.id))! };
}

const state = async (id: number) => {
  const r = await db
    .selectFrom("connections")
    .select(["ended_at", "accounted_at", "download"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { ended_at: r.ended_at === null ? null : Number(r.ended_at), accounted_at: Number(r.accounted_at), download: Number(r.download) };
};

describe("the simulator's live guests", () => {
  it("stay online with growing figures while it sends an interim every 5 minutes", async () => {
    expect(getEnv().PORTAL_IDLE_MINUTES).toBe(15);
    const g = await onlineGuest();
    const session = newSession({ token: g.token });
    const send = async (at: number, elapsed?: number) => {
      const outcome = await recordAccounting(g.network, nextRecord(session, elapsed === undefined ? "start" : "interim", elapsed), at);
      expect(outcome).toMatchObject({ ok: true, data: { accepted: 1 } });
    };
    await send(T + 4_000);
    let download = 0;
    for (let minutes = 5; minutes <= 45; minutes += 5) {
      const at = T + minutes * MINUTE;
      await send(at, minutes * 60);
      expect(session.seconds).toBe(minutes * 60);
      await endIdleConnections(at + 4 * MINUTE);
      const now = await state(g.id);
      expect(now).toMatchObject({ ended_at: null, accounted_at: at });
      expect(now.download).toBeGreaterThan(download);
      download = now.download;
    }
  });

  it("end at their last record, 15 minutes on, when nothing keeps them online", async () => {
    const g = await onlineGuest();
    const session = newSession({ token: g.token });
    await recordAccounting(g.network, nextRecord(session, "start"), T + 4_000);
    await endIdleConnections(T + 14 * MINUTE);
    expect((await state(g.id)).ended_at).toBeNull();
    await endIdleConnections(T + 4_000 + 15 * MINUTE);
    expect((await state(g.id)).ended_at).toBe(T + 4_000);
  });
});
