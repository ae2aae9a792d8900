// Customers and their devices. Devices are numbered in the order they first appear; a
// customer appears with their first device, so both lists are in creation order and the
// connection stream can tell which devices exist at any moment.
import type { Insertable } from "kysely";
import { buildCustomer, buildDevice } from "../factories.server";
import type { CustomersTable, DevicesTable } from "~/db/schema";
import { DEVICE_PROFILES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, MAC_MODELS, MODELS } from "./catalogue.server";
import { scatter, weighted, type Random } from "./random.server";

const DAY = 86_400_000;
/** Share of devices already known before the history starts (regulars). */
const KNOWN_BEFORE = 0.35;
/** How far back those regulars first appeared. */
const KNOWN_SPAN = 180 * DAY;

export interface Population {
  /** Creation time of each device (epoch ms), ascending. */
  deviceCreated: Float64Array;
  /** Customer index owning each device. */
  deviceOwner: Int32Array;
  /** Creation time of each customer: that of their first device. */
  customerCreated: Float64Array;
  /** Devices 0 … knownBefore-1 predate the history; the rest appear during it. */
  knownBefore: number;
}

export function planPopulation(random: Random, customers: number, devices: number, windowStart: number, now: number): Population {
  const deviceCreated = new Float64Array(devices);
  const deviceOwner = new Int32Array(devices);
  const customerCreated = new Float64Array(customers);
  const knownBefore = Math.max(1, Math.round(devices * KNOWN_BEFORE));
  const fresh = devices - knownBefore;
  for (let i = 0; i < devices; i++) {
    // One random instant inside each device's own time slot keeps the list ascending.
    deviceCreated[i] = Math.floor(
      i < knownBefore
        ? windowStart - KNOWN_SPAN + ((i + random.next()) / knownBefore) * KNOWN_SPAN
        : windowStart + ((i - knownBefore + random.next()) / fresh) * (now - windowStart),
    );
  }
  // Interleave first devices of new customers with second devices of existing ones, so new
  // customers keep arriving until the end. Every customer gets at least one device.
  let assigned = 0;
  for (let i = 0; i < devices; i++) {
    const customersLeft = customers - assigned;
    const isNew = assigned === 0 || customersLeft === devices - i || random.next() < customersLeft / (devices - i);
    if (isNew && customersLeft > 0) {
      customerCreated[assigned] = deviceCreated[i];
      deviceOwner[i] = assigned++;
    } else {
      deviceOwner[i] = random.int(0, assigned - 1);
    }
  }
  return { deviceCreated, deviceOwner, customerCreated, knownBefore };
}

const CONTACT = weighted([
  ["phone", 55],
  ["phone+email", 20],
  ["email", 25],
] as const);

/** Kenyan mobile numbers +2547XXXXXXXX, unique per customer index. */
function phoneFor(index: number, salt: number): string {
  // Cycle-walk a bijection on [0, 2^27) until it lands in [0, 10^8): a bijection on 10^8.
  let x = scatter(index, 27, salt);
  while (x >= 100_000_000) x = scatter(x, 27, salt);
  return `+2547${String(x).padStart(8, "0")}`;
}

export function* customerBatches(
  organizationId: number,
  random: Random,
  population: Population,
  batchSize: number,
): Generator<Insertable<CustomersTable>[]> {
  const salt = random.int(0, 0x7ffffff);
  let batch: Insertable<CustomersTable>[] = [];
  for (let c = 0; c < population.customerCreated.length; c++) {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const contact = CONTACT(random);
    // The index in the address keeps emails unique; names never end in a digit.
    const local = random.chance(0.5) ? `${first}.${last}${c + 1}` : `${first}${last[0]}${c + 1}`;
    const email = contact === "phone" ? null : `${local}@${EMAIL_DOMAINS(random)}`;
    const phone = contact === "email" ? null : phoneFor(c, salt);
    const createdAt = population.customerCreated[c];
    batch.push(
      buildCustomer(organizationId, {
        identity: phone ?? email!.toLowerCase(),
        first_name: first,
        last_name: last,
        phone_number: phone,
        email_address: email,
        facebook: contact !== "phone" && random.chance(0.2) ? `${first.toLowerCase()}.${last.toLowerCase()}.${c + 1}` : null,
        created_at: createdAt,
        updated_at: createdAt,
      }),
    );
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export function* deviceBatches(
  organizationId: number,
  random: Random,
  population: Population,
  customerIds: number[],
  isMobile: Uint8Array,
  batchSize: number,
): Generator<Insertable<DevicesTable>[]> {
  const salt = random.int(0, 0xffffff);
  let batch: Insertable<DevicesTable>[] = [];
  for (let d = 0; d < population.deviceCreated.length; d++) {
    const profile = DEVICE_PROFILES(random);
    const brand = profile.brands(random);
    const name =
      profile.os === "macOS"
        ? random.pick(MAC_MODELS)
        : profile.os === "iOS"
          ? random.pick(MODELS.Apple)
          : `${brand} ${random.pick(MODELS[brand])}`;
    // Phones use randomised (locally administered) addresses; laptops their maker's.
    // The low three bytes are a bijection of the index, so addresses are unique.
    const first = profile.isMobile ? (random.int(0, 255) & 0xfc) | 0x02 : random.int(0, 255) & 0xfc;
    const low = scatter(d, 24, salt);
    const mac = [first, random.int(0, 255), random.int(0, 255), low >>> 16, (low >>> 8) & 0xff, low & 0xff]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join(":");
    isMobile[d] = profile.isMobile ? 1 : 0;
    const createdAt = population.deviceCreated[d];
    batch.push(
      buildDevice(organizationId, {
        customer_id: customerIds[population.deviceOwner[d]],
        name,
        mac_address: mac,
        os: profile.os,
        os_version: random.pick(profile.versions),
        brand,
        browser: profile.browsers(random),
        is_mobile: profile.isMobile ? 1 : 0,
        created_at: createdAt,
        updated_at: createdAt,
      }),
    );
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
