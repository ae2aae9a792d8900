// Gateway accounting on SQLite and PostgreSQL: start, interim and stop records,
// out of order and repeated, in batches, for unknown sessions, malformed, and from another
// organisation's or network's gateway; the roll-ups follow; and the HTTP endpoint's refusals.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { rebuildRollups } from "~/db/rollups.server";
import { aggregateUsage, usageSeries } from "~/services/analytics.server";
import { hashToken } from "~/services/crypto.server";
import { authorizeGuest } from "~/services/portal/connect.server";
import { enterFromGateway } from "~/services/portal/entry.server";
import { MAX_RECORDS, recordAccounting } from "~/services/portal/accounting.server";
import { networkById, type PortalNetwork } from "~/services/portal/network.server";
import { makeOrg } from "../fixtures";
import { rollupSnapshot } from "../fixtures/analytics";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { makeNetwork, merakiQuery, randomMac } from "../fixtures/portal";

const MINUTE = 60_000;
/** Guests reach the portal at T; accounting arrives after. */
const T = Date.UTC(2026, 10, 20, 9, 30);

async function world(name = "Acme Cafe") {
  const { org } = await makeOrg(`${name} ${Math.random()}`);
  const { venue, ap, secret } = await makeNetwork(org.id);
  return { org, venue, ap, secret, network: (await networkById(venue.id))! };
}

type World = Awaited<ReturnType<typeof world>>;

/** A guest who went through the Meraki entry and clicked Connect at T (or `at`); `authorize: false` stops at the portal. */
async function guest(w: World, { clientMac = randomMac(), at = T, authorize = true } = {}) {
  const query = new URLSearchParams(merakiQuery(w.ap.mac_address, clientMac));
  const entry = await enterFromGateway({ make: "meraki", portalKey: w.venue.portal_key, rest: "", query, userAgent: null, now: at });
  if (!entry.ok) throw new Error(entry.message);
  if (authorize) expect((await authorizeGuest({ token: entry.token, mode: "CLICK_THROUGH" }, at)).ok).toBe(true);
  return { token: entry.token, id: entry.connectionId, clientMac };
}

const rowOf = (id: number) => db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const figures = async (id: number) => {
  const r = await rowOf(id);
  return {
    upload: Number(r.upload),
    download: Number(r.download),
    accounted_at: r.accounted_at === null ? null : Number(r.accounted_at),
    ended_at: r.ended_at === null ? null : Number(r.ended_at),
    terminate_cause: r.terminate_cause,
  };
};

const accept = async (network: PortalNetwork, body: unknown, now: number) => {
  const outcome = await recordAccounting(network, body, now);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.data;
};

describe("accounting records", () => {
  it("start, interim and stop keep usage, the accounting clock and the end of the session", async () => {
    const w = await world();
    const g = await guest(w);
    expect(await accept(w.network, { status: "start", token: g.token }, T + MINUTE)).toEqual({
      accepted: 1,
      unknown: 0,
      invalid: 0,
      errors: [],
    });
    expect(await figures(g.id)).toEqual({ upload: 0, download: 0, accounted_at: T + MINUTE, ended_at: null, terminate_cause: null });

    await accept(
      w.network,
      { status: "interim", token: g.token, input_octets: 1_000, output_octets: 50_000, session_time: 300 },
      T + 6 * MINUTE,
    );
    expect(await figures(g.id)).toEqual({
      upload: 1_000,
      download: 50_000,
      accounted_at: T + 6 * MINUTE,
      ended_at: null,
      terminate_cause: null,
    });

    await accept(
      w.network,
      { status: "stop", token: g.token, input_octets: 2_000, output_octets: 90_000, session_time: 600, terminate_cause: "User-Request" },
      T + 12 * MINUTE,
    );
    // The gateway says the session lasted 600 s: it ended then, not when the stop arrived.
    expect(await figures(g.id)).toEqual({
      upload: 2_000,
      download: 90_000,
      accounted_at: T + 12 * MINUTE,
      ended_at: T + 10 * MINUTE,
      terminate_cause: "User-Request",
    });
  });

  it("ends a stop without session_time when it arrives, and never later than now", async () => {
    const w = await world();
    const [a, b] = [await guest(w), await guest(w)];
    await accept(w.network, { status: "stop", token: a.token }, T + 5 * MINUTE);
    await accept(w.network, { status: "stop", token: b.token, session_time: 86_400 }, T + 5 * MINUTE);
    expect((await figures(a.id)).ended_at).toBe(T + 5 * MINUTE);
    expect((await figures(b.id)).ended_at).toBe(T + 5 * MINUTE);
  });

  it("is order-independent: a late start or interim never reopens a stopped session, and bytes keep their maximum", async () => {
    const w = await world();
    const [a, b] = [await guest(w), await guest(w)];
    const stop = (token: string) => ({
      status: "stop",
      token,
      input_octets: 500,
      output_octets: 900,
      session_time: 120,
      terminate_cause: "Lost-Carrier",
    });
    const interim = (token: string) => ({ status: "interim", token, input_octets: 300, output_octets: 1_000, session_time: 60 });
    const start = (token: string) => ({ status: "start", token });
    await accept(w.network, stop(a.token), T + 3 * MINUTE);
    await accept(w.network, interim(a.token), T + 4 * MINUTE);
    await accept(w.network, start(a.token), T + 5 * MINUTE);
    await accept(w.network, start(b.token), T + 3 * MINUTE);
    await accept(w.network, interim(b.token), T + 4 * MINUTE);
    await accept(w.network, stop(b.token), T + 5 * MINUTE);
    const expected = { upload: 500, download: 1_000, ended_at: T + 2 * MINUTE, terminate_cause: "Lost-Carrier" };
    expect(await figures(a.id)).toMatchObject(expected);
    expect(await figures(b.id)).toMatchObject(expected);
  });

  it("changes nothing, not even the roll-ups, for a repeated record", async () => {
    const w = await world();
    const g = await guest(w);
    const stop = { status: "stop", token: g.token, input_octets: 10, output_octets: 20, session_time: 60, terminate_cause: "User-Request" };
    await accept(w.network, stop, T + 2 * MINUTE);
    const row = await rowOf(g.id);
    const rollups = await rollupSnapshot(w.org.id);
    expect(await accept(w.network, stop, T + 9 * MINUTE)).toMatchObject({ accepted: 1, unknown: 0 });
    expect(await accept(w.network, { ...stop, status: "interim" }, T + 9 * MINUTE)).toMatchObject({ accepted: 1 });
    expect(await rowOf(g.id)).toEqual(row);
    expect(await rollupSnapshot(w.org.id)).toEqual(rollups);
  });

  it("keeps the maximum and the first end when batches for the same sessions arrive at once", async () => {
    const w = await world();
    const guests = [await guest(w), await guest(w, { at: T + 65 * MINUTE }), await guest(w, { at: T + 26 * 60 * MINUTE })];
    const batch = (n: number) =>
      guests.map((g) => ({
        status: n === 3 ? "stop" : "interim",
        token: g.token,
        input_octets: n * 10,
        output_octets: 100 - n,
        session_time: 60 * n,
        terminate_cause: n === 3 ? "User-Request" : null,
      }));
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map((n) => accept(w.network, batch(n), T + 27 * 60 * MINUTE)));
    expect(outcomes.map((o) => o.accepted)).toEqual([3, 3, 3, 3, 3]);
    for (const g of guests) {
      const { authorized_at } = await rowOf(g.id);
      expect(await figures(g.id)).toMatchObject({
        upload: 50,
        download: 99,
        ended_at: Number(authorized_at) + 180_000,
        terminate_cause: "User-Request",
      });
    }
    const kept = await rollupSnapshot(w.org.id);
    await rebuildRollups(w.org.id);
    expect(await rollupSnapshot(w.org.id)).toEqual(kept);
  });

  it("takes a batch as an array, as { records } or one record at a time, several records of one session included", async () => {
    const w = await world();
    const [a, b, c] = [await guest(w), await guest(w), await guest(w)];
    const data = await accept(
      w.network,
      [
        { status: "interim", token: a.token, input_octets: 1, output_octets: 2, session_time: 60 },
        { status: "interim", token: b.token, input_octets: 3, output_octets: 4, session_time: 60 },
        { status: "stop", token: a.token, input_octets: 5, output_octets: 6, session_time: 90 },
        { status: "interim", token: a.token, input_octets: 4, output_octets: 7, session_time: 80 },
      ],
      T + 2 * MINUTE,
    );
    expect(data).toEqual({ accepted: 4, unknown: 0, invalid: 0, errors: [] });
    expect(await figures(a.id)).toMatchObject({ upload: 5, download: 7, ended_at: T + 90_000 });
    expect(await figures(b.id)).toMatchObject({ upload: 3, download: 4, ended_at: null });
    await accept(w.network, { records: [{ status: "interim", token: c.token, input_octets: 8, output_octets: 9 }] }, T + 3 * MINUTE);
    await accept(w.network, { status: "interim", token: b.token, input_octets: 30, output_octets: 40 }, T + 3 * MINUTE);
    expect(await figures(c.id)).toMatchObject({ upload: 8, download: 9, accounted_at: T + 3 * MINUTE });
    expect(await figures(b.id)).toMatchObject({ upload: 30, download: 40 });
  });

  it("finds a session by client_mac and ap_mac in any notation: the device's newest authorized connection here", async () => {
    const w = await world();
    const clientMac = "aa:bb:cc:00:11:22";
    const earlier = await guest(w, { clientMac });
    await accept(w.network, { status: "stop", token: earlier.token }, T + 5 * MINUTE);
    const newest = await guest(w, { clientMac, at: T + 10 * MINUTE });
    await guest(w, { clientMac, at: T + 20 * MINUTE, authorize: false }); // a later portal visit, never authorized
    const data = await accept(
      w.network,
      { status: "interim", client_mac: "AA-BB-CC-00-11-22", ap_mac: "aabb.cc00.9999", input_octets: 77, output_octets: 88 },
      T + 25 * MINUTE,
    );
    expect(data).toMatchObject({ accepted: 1, unknown: 0 });
    expect(await figures(newest.id)).toMatchObject({ upload: 77, download: 88, accounted_at: T + 25 * MINUTE });
    expect(await figures(earlier.id)).toMatchObject({ upload: 0, download: 0 });
  });

  it("acknowledges records of unknown or never-authorized sessions, counts them and logs one line without the token", async () => {
    const w = await world();
    const visit = await guest(w, { authorize: false });
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const data = await accept(
        w.network,
        [
          { status: "stop", token: "x".repeat(32), input_octets: 1 },
          { status: "interim", token: visit.token, input_octets: 5 },
          { status: "stop", client_mac: "02:00:00:00:00:99", ap_mac: w.ap.mac_address },
        ],
        T + MINUTE,
      );
      expect(data).toEqual({ accepted: 0, unknown: 3, invalid: 0, errors: [] });
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!);
    expect(logged).toMatchObject({ event: "accounting_unknown_session", network: w.venue.id, count: 3 });
    expect(logged.records.map((r: { index: number }) => r.index)).toEqual([0, 1, 2]);
    expect(lines[0]).not.toContain(visit.token);
    expect(lines[0]).not.toContain(hashToken(visit.token));
    expect(await figures(visit.id)).toMatchObject({ upload: 0, accounted_at: null });
  });

  it("reports malformed records by index, skips them and applies the rest", async () => {
    const w = await world();
    const g = await guest(w);
    const bad: unknown[] = [
      null,
      "stop",
      [],
      { token: g.token },
      { status: "finish", token: g.token },
      { status: "interim" },
      { status: "interim", client_mac: "02:00:00:00:00:01" },
      { status: "interim", client_mac: "not-a-mac", ap_mac: "02:00:00:00:00:02" },
      { status: "interim", token: g.token, input_octets: "12" },
      { status: "interim", token: g.token, input_octets: -1 },
      { status: "interim", token: g.token, output_octets: 1.5 },
      { status: "interim", token: g.token, output_octets: 2 ** 53 },
      { status: "interim", token: g.token, session_time: true },
      { status: "interim", token: 12345 },
      { status: "interim", token: "short" },
      { status: "stop", token: g.token, terminate_cause: "User\0Request" },
      { status: "stop", token: g.token, terminate_cause: "x".repeat(65) },
      { status: "stop", token: g.token, note: "\0" },
    ];
    const data = await accept(w.network, [...bad, { status: "interim", token: g.token, input_octets: 42, output_octets: 43 }], T + MINUTE);
    expect(data).toMatchObject({ accepted: 1, unknown: 0, invalid: bad.length });
    expect(data.errors.map((e) => e.index)).toEqual(bad.map((_, i) => i));
    for (const error of data.errors) expect(error.message).toMatch(/\S/);
    expect(data.errors[8]!.message).toMatch(/^input_octets: /);
    expect(data.errors[15]!.message).toBe("contains a NUL character");
    expect(await figures(g.id)).toMatchObject({ upload: 42, download: 43, ended_at: null });
  });

  it(`refuses a body of more than ${MAX_RECORDS} records or of no records at all, and writes nothing`, async () => {
    const w = await world();
    const g = await guest(w);
    const records = Array.from({ length: MAX_RECORDS + 1 }, () => ({ status: "interim", token: g.token, input_octets: 1 }));
    expect(await recordAccounting(w.network, records, T + MINUTE)).toEqual({
      ok: false,
      message: expect.stringMatching(/at most 1000 records/),
    });
    expect(await recordAccounting(w.network, { records }, T + MINUTE)).toMatchObject({ ok: false });
    for (const body of [undefined, null, "stop", 42, { records: "all" }])
      expect(await recordAccounting(w.network, body, T + MINUTE)).toMatchObject({ ok: false });
    expect(await figures(g.id)).toMatchObject({ upload: 0, accounted_at: null });
    expect(await accept(w.network, records.slice(0, MAX_RECORDS), T + MINUTE)).toMatchObject({ accepted: MAX_RECORDS });
    expect(await accept(w.network, [], T + MINUTE)).toEqual({ accepted: 0, unknown: 0, invalid: 0, errors: [] });
  });

  it("leaves another organisation's and another network's sessions alone: their tokens and MACs are unknown here", async () => {
    const mine = await world("Mine");
    const theirs = await world("Theirs");
    const sharedMac = "02:aa:bb:cc:dd:ee";
    const myGuest = await guest(mine, { clientMac: sharedMac });
    const theirGuest = await guest(theirs, { clientMac: sharedMac });
    const theirOther = await guest(theirs);
    // A second network of my own organisation: its gateway secret is not mine.
    const sibling = await makeNetwork(mine.org.id);
    const siblingWorld = { ...mine, venue: sibling.venue, ap: sibling.ap, network: (await networkById(sibling.venue.id))! };
    const siblingGuest = await guest(siblingWorld);

    const data = await accept(
      mine.network,
      [
        { status: "stop", token: theirGuest.token, input_octets: 9, output_octets: 9 },
        { status: "stop", client_mac: theirOther.clientMac, ap_mac: theirs.ap.mac_address, input_octets: 9 },
        { status: "stop", token: siblingGuest.token, input_octets: 9 },
        { status: "interim", client_mac: sharedMac, ap_mac: mine.ap.mac_address, input_octets: 5, output_octets: 6 },
      ],
      T + MINUTE,
    );
    expect(data).toMatchObject({ accepted: 1, unknown: 3 });
    for (const id of [theirGuest.id, theirOther.id, siblingGuest.id])
      expect(await figures(id)).toEqual({ upload: 0, download: 0, accounted_at: null, ended_at: null, terminate_cause: null });
    expect(await figures(myGuest.id)).toMatchObject({ upload: 5, download: 6 });
  });

  it("keeps the roll-ups right: usage and dwell of the analytics service equal the connection rows", async () => {
    const w = await world();
    const guests = [await guest(w), await guest(w), await guest(w, { at: T + 70 * MINUTE })];
    await accept(
      w.network,
      guests.map((g, i) => ({ status: "interim", token: g.token, input_octets: 100 * (i + 1), output_octets: 1_000 * (i + 1) })),
      T + 80 * MINUTE,
    );
    await accept(
      w.network,
      [
        { status: "stop", token: guests[0]!.token, input_octets: 150, output_octets: 1_500, session_time: 1_800 },
        { status: "stop", token: guests[2]!.token, session_time: 300 },
      ],
      T + 90 * MINUTE,
    );
    await accept(w.network, { status: "interim", token: guests[1]!.token, input_octets: 250, output_octets: 2_500 }, T + 95 * MINUTE);

    const rows = await db.selectFrom("connections").selectAll().where("organization_id", "=", w.org.id).execute();
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((total, r) => total + f(r), 0);
    const day = Date.UTC(2026, 10, 20);
    // The open session's dwell is its time so far: read on a fixed clock, 100 minutes in.
    const now = T + 100 * MINUTE;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const totals = await aggregateUsage({ organizationId: w.org.id, range: { startMs: day, endMs: day + 24 * 60 * MINUTE, offsetMs: 0 } });
    vi.useRealTimers();
    expect(totals).toMatchObject({
      connections: 3,
      upload: sum((r) => Number(r.upload)),
      download: sum((r) => Number(r.download)),
      dwellTime: Math.round(sum((r) => (r.ended_at === null ? now : Number(r.ended_at)) - Number(r.authorized_at)) / 1000),
    });
    expect(sum((r) => Number(r.upload))).toBe(150 + 250 + 300);
    const hours = await usageSeries(
      { organizationId: w.org.id, range: { startMs: day, endMs: day + 24 * 60 * MINUTE, offsetMs: 0 } },
      "hour",
    );
    expect(hours.map((h) => [h.time, h.upload, h.download])).toEqual([
      [Date.UTC(2026, 10, 20, 9), 150 + 250, 1_500 + 2_500],
      [Date.UTC(2026, 10, 20, 10), 300, 3_000],
    ]);
    // The trigger-kept roll-ups are exactly what a rebuild from the rows gives (dwell included).
    const kept = await rollupSnapshot(w.org.id);
    await rebuildRollups(w.org.id);
    expect(await rollupSnapshot(w.org.id)).toEqual(kept);
    expect(kept.usageDaily.find((r) => r.venue_id === w.venue.id)).toMatchObject({ dwell_ms: 1_800_000 + 300_000 });
  });
});

describe("POST /hotspot/accounting over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startBuiltServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (secret: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.origin}/hotspot/accounting`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${secret}`, ...headers },
      body,
    });

  it("applies a batch sent with the network's gateway secret and answers the counts", async () => {
    const w = await world();
    const g = await guest(w);
    const res = await post(
      w.secret,
      JSON.stringify({
        records: [
          { status: "interim", token: g.token, input_octets: 10, output_octets: 20 },
          { status: "interim", token: g.token, input_octets: "x" },
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { accepted: 1, unknown: 0, invalid: 1, errors: [{ index: 1, message: expect.stringMatching(/^input_octets: /) }] },
    });
    expect(await figures(g.id)).toMatchObject({ upload: 10, download: 20 });
  });

  it("answers 401 without the right bearer secret, 400 for garbage, 413 for a huge body, 422 for too many records; never 500", async () => {
    const w = await world();
    const g = await guest(w);
    const record = JSON.stringify({ status: "stop", token: g.token });
    const other = await world("Other");
    const send = (body: string, headers?: Record<string, string>) => post(w.secret, body, headers);
    expect((await send(record, { Authorization: "" })).status).toBe(401);
    expect((await send(record, { Authorization: "Bearer not-the-secret-of-any-network" })).status).toBe(401);
    expect((await send(record, { Authorization: `Basic ${w.secret}` })).status).toBe(401);
    // Another organisation's gateway secret is a valid one, but this guest is not its session.
    const foreign = await post(other.secret, record);
    expect(foreign.status).toBe(200);
    expect((await foreign.json()).data).toMatchObject({ accepted: 0, unknown: 1 });
    const garbage = await send('{"status": "stop", ');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({ error: { message: "The request body could not be read." } });
    expect((await send(JSON.stringify([{ status: "stop", token: g.token, terminate_cause: "a\u0000b" }]))).status).toBe(400);
    const huge = await send(JSON.stringify({ records: [{ status: "interim", token: g.token, padding: "x".repeat(2 * 1024 * 1024) }] }));
    expect(huge.status).toBe(413);
    const tooMany = await send(JSON.stringify(Array.from({ length: MAX_RECORDS + 1 }, () => ({ status: "interim", token: g.token }))));
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).error.message).toMatch(/at most 1000 records/);
    expect((await send("42")).status).toBe(400); // JSON, but neither an object nor an array
    expect((await send(JSON.stringify({ records: "all" }))).status).toBe(422);
    expect(await figures(g.id)).toEqual({ upload: 0, download: 0, accounted_at: null, ended_at: null, terminate_cause: null });
  });
});
