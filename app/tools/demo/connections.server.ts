// The connection history, produced hour by hour in time order and handed out in batches,
// so any number of rows streams through constant memory.
import { buildConnection } from "../factories.server";
import type { NewConnection } from "~/db/schema";
import { AUTHORIZATION_MODES, AUTHORIZED_SHARE, DWELL, rhythm, type VenueProfile } from "./catalogue.server";
import type { Population } from "./people.server";
import type { Random } from "./random.server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Nobody stays online longer than this. */
const MAX_DWELL_MIN = 16 * 60;

export interface ConnectionPlan {
  organizationId: number;
  now: number;
  days: number;
  total: number;
  venues: { id: number; profile: VenueProfile; accessPointIds: number[]; accessPointMacs: string[] }[];
  population: Population;
  deviceIds: number[];
  customerIds: number[];
  deviceIsMobile: Uint8Array;
}

/** Guests online right now: enough to fill the live view, however quiet the hour. */
function onlineFloor(total: number): number {
  return Math.min(40, Math.ceil(total * 0.0008));
}

export function* connectionBatches(plan: ConnectionPlan, random: Random, batchSize: number): Generator<NewConnection[]> {
  const { now, venues, total } = plan;
  const hours = plan.days * 24;
  const start = now - hours * HOUR;
  const V = venues.length;

  // Each venue has good and bad days; traffic grows over the period.
  const dayNoise = new Float64Array((plan.days + 1) * V);
  for (let i = 0; i < dayNoise.length; i++) dayNoise[i] = random.logNormal(1, 0.15);
  const weight = (v: number, hourStart: number) => {
    const day = Math.floor((hourStart - start) / DAY);
    const trend = 0.85 + (0.3 * (hourStart - start)) / (now - start);
    return venues[v].profile.traffic * rhythm(venues[v].profile.kind, hourStart + HOUR / 2) * dayNoise[day * V + v] * trend;
  };

  let totalWeight = 0;
  let lastHourWeight = 0;
  for (let h = 0; h < hours; h++) {
    for (let v = 0; v < V; v++) {
      const w = weight(v, start + h * HOUR);
      totalWeight += w;
      if (h === hours - 1) lastHourWeight += w;
    }
  }
  // The last hour gets at least the online floor; the rest follows the weights. Counts come
  // from rounding the running total, so they add up to exactly `total`.
  const online = onlineFloor(total);
  const lastHourCount = Math.min(total, Math.max(Math.round((total * lastHourWeight) / totalWeight), online));
  const earlierCount = total - lastHourCount;
  const earlierWeight = totalWeight - lastHourWeight;

  const rows = new RowMaker(plan, random);
  let batch: NewConnection[] = [];
  let emitted = 0;
  let cumulative = 0;
  for (let h = 0; h < hours; h++) {
    const hourStart = start + h * HOUR;
    const last = h === hours - 1;
    // Sort keys: the offset in the hour times V plus the venue, so one numeric sort orders the hour.
    const keys: number[] = [];
    let lastHourCumulative = 0;
    for (let v = 0; v < V; v++) {
      const w = weight(v, hourStart);
      let count: number;
      if (last) {
        lastHourCumulative += w;
        count = earlierCount + Math.round((lastHourCount * lastHourCumulative) / lastHourWeight) - emitted;
      } else {
        cumulative += w;
        count = Math.round((earlierCount * cumulative) / earlierWeight) - emitted;
      }
      emitted += count;
      for (let i = 0; i < count; i++) keys.push(Math.floor(random.next() * HOUR) * V + v);
    }
    keys.sort((a, b) => a - b);
    for (let i = 0; i < keys.length; i++) {
      const forceOnline = last && i >= keys.length - online;
      batch.push(rows.make(hourStart + Math.floor(keys[i] / V), keys[i] % V, last, forceOnline));
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** Makes one connection at a time; keeps track of which devices exist so far. */
class RowMaker {
  /** Devices created at or before the current time: 0 … known-1. */
  private known = 0;
  /** Next device whose first visit is still to come. */
  private nextNewcomer: number;

  constructor(
    private readonly plan: ConnectionPlan,
    private readonly random: Random,
  ) {
    this.nextNewcomer = plan.population.knownBefore;
  }

  private pickDevice(at: number): number {
    const created = this.plan.population.deviceCreated;
    while (this.known < created.length && created[this.known] <= at) this.known++;
    // A device that has just appeared makes its first visit now.
    if (this.nextNewcomer < this.known) return this.nextNewcomer++;
    // Otherwise regulars (older devices) come back more often than recent ones.
    const u = this.random.next();
    return Math.floor(this.known * u * u);
  }

  /** `recent`: created in the last hour, so it may still be online. */
  make(createdAt: number, venueIndex: number, recent: boolean, forceOnline: boolean): NewConnection {
    const { plan, random } = this;
    const { now } = plan;
    const venue = plan.venues[venueIndex];
    const kind = venue.profile.kind;
    const ap = random.int(0, venue.accessPointIds.length - 1);
    const device = this.pickDevice(createdAt);
    const ssids = venue.profile.ssids;
    const ssid = ssids.length === 1 || random.chance(0.8) ? ssids[0] : random.pick(ssids);
    const authorized = forceOnline || random.chance(AUTHORIZED_SHARE[kind]);
    let mode: string | null = null;
    let authorizedAt: number | null = null;
    let endedAt: number | null = null;
    let upload = 0;
    let download = 0;
    if (authorized) {
      mode = AUTHORIZATION_MODES[kind](random);
      // Seconds on the portal: a click is quick, an M-Pesa payment takes a while.
      const portalSeconds = random.logNormal(mode === "click_through" ? 8 : mode === "mpesa" ? 60 : 25, 0.6);
      authorizedAt = Math.min(createdAt + Math.round(portalSeconds * 1000), now);
      const dwellMinutes = Math.min(Math.max(random.logNormal(DWELL[kind].median, DWELL[kind].sigma), 1), MAX_DWELL_MIN);
      endedAt = authorizedAt + Math.round(dwellMinutes * 60_000);
      if (forceOnline || (recent && endedAt > now)) endedAt = null;
      // Older sessions that would run past now ended a while ago instead.
      else if (endedAt > now) endedAt = authorizedAt + Math.floor((now - authorizedAt) * (0.5 + 0.5 * random.next()));
      const seconds = ((endedAt ?? now) - authorizedAt) / 1000;
      // Bytes per second: laptops pull more than phones; uploads are a small share.
      const rate = random.logNormal(plan.deviceIsMobile[device] ? 45_000 : 110_000, 0.9);
      download = Math.round(rate * seconds);
      upload = Math.round(download * Math.min(random.logNormal(0.07, 0.5), 0.5));
    }
    return buildConnection(plan.organizationId, {
      venue_id: venue.id,
      access_point_id: venue.accessPointIds[ap],
      access_point_mac: venue.accessPointMacs[ap],
      customer_id: plan.customerIds[plan.population.deviceOwner[device]],
      device_id: plan.deviceIds[device],
      ssid,
      authorization_mode: mode,
      created_at: createdAt,
      authorized_at: authorizedAt,
      ended_at: endedAt,
      upload,
      download,
    });
  }
}
