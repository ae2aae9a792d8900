// The deterministic demo data: a Kenyan guest Wi-Fi operator with venues, access points,
// customers, devices and months of connections. The same seed (and `now`) always gives
// the same data; sizes scale to millions of connections in constant memory.
import type { Permission } from "~/lib/permissions";
import { createOrganization } from "~/services/organizations.server";
import { db } from "~/db/db.server";
import { connectionBatches, type ConnectionPlan } from "./demo/connections.server";
import { insertBatches } from "~/db/bulk.server";
import { customerBatches, deviceBatches, planPopulation } from "./demo/people.server";
import { accessPointCounts, accessPointRows, venueProfiles, venueRows } from "./demo/places.server";
import { createRandom, subSeed } from "./demo/random.server";
import { createDemoAds } from "./demo/ads.server";
import { createDemoMarketing } from "./demo/marketing.server";
import { createDemoSurveys } from "./demo/surveys.server";
import { createDemoPrepaid } from "./demo/prepaid.server";
import { createDemoSplashPages } from "./demo/splash.server";
import { insertMembership, insertRole, insertUser } from "./factories.server";
import { pauseRollups, rebuildRollups } from "~/db/rollups.server";

export const DEMO_LOGIN = { email: "admin@example.com", password: "mlango-demo" } as const;

const DEMO_OWNER = {
  first_name: "Amani",
  last_name: "Kariuki",
  email: DEMO_LOGIN.email,
  phone_number: "+254700000001",
  password: DEMO_LOGIN.password,
};

type DemoRole = "Read only" | "Network manager" | "Full access";

const DEMO_TEAM: { first_name: string; last_name: string; email: string; phone_number: string; role: DemoRole }[] = [
  { first_name: "Grace", last_name: "Njeri", email: "grace.njeri@example.com", phone_number: "+254700000002", role: "Read only" },
  { first_name: "Brian", last_name: "Otieno", email: "brian.otieno@example.com", phone_number: "+254700000003", role: "Network manager" },
  { first_name: "Fatuma", last_name: "Hassan", email: "fatuma.hassan@example.com", phone_number: "+254700000004", role: "Full access" },
];

const NETWORK_MANAGER: Permission[] = [
  "view_networks",
  "edit_networks",
  "edit_network_layout",
  "create_ap",
  "edit_ap",
  "view_clients",
  "edit_connections",
  "view_splash_pages",
];

const DAY = 86_400_000;
const BATCH = 5_000;

// Independent random streams (see subSeed).
const STREAM = { places: 1, population: 2, customers: 3, devices: 4, connections: 5 } as const;

export interface DemoOptions {
  connections?: number;
  /** Default: 6% of connections (3,000 for the default 50,000). */
  customers?: number;
  /** Default: 10% of connections, and never fewer than customers. */
  devices?: number;
  venues?: number;
  accessPoints?: number;
  days?: number;
  seed?: number;
  /** End of the history (epoch ms); fix it to compare two runs. */
  now?: number;
  /** Owner of the new organisation; without it the demo user and a small team are created. */
  ownerId?: number;
  organizationName?: string;
  /** IANA zone of the organisation; Africa/Nairobi when omitted. */
  timeZone?: string;
  log?: (line: string) => void;
  /** The SMS callback key the demo's fake Africa's Talking reports to (`demo --sms-callback-key`); default: a random one. */
  smsCallbackKey?: string;
}

export interface DemoResult {
  organizationId: number;
  ownerId: number;
  venues: number;
  accessPoints: number;
  customers: number;
  devices: number;
  connections: number;
  seconds: number;
}

type Sizes = Required<Pick<DemoOptions, "connections" | "customers" | "devices" | "venues" | "accessPoints" | "days" | "seed">>;

/** The sizes a run will use; throws with every problem named when they cannot be honoured. */
export function resolveSizes(options: DemoOptions): Sizes {
  const connections = options.connections ?? 50_000;
  const customers = options.customers ?? Math.max(1, Math.round(connections * 0.06));
  const sizes: Sizes = {
    connections,
    customers,
    devices: options.devices ?? Math.max(customers, Math.round(connections * 0.1)),
    venues: options.venues ?? 5,
    accessPoints: options.accessPoints ?? 30,
    days: options.days ?? 90,
    seed: options.seed ?? 20261122,
  };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(value) || value < 0) problems.push(`${name} must be a whole number of at least 0 (got ${value})`);
  }
  if (sizes.customers < 1 || sizes.venues < 1 || sizes.days < 1) problems.push("customers, venues and days must be at least 1");
  if (sizes.devices < sizes.customers) problems.push("devices must be at least customers: every customer has a device");
  if (sizes.accessPoints < sizes.venues) problems.push("accessPoints must be at least venues: every venue has an access point");
  // MAC addresses take their unique part from 24 bits.
  if (sizes.devices > 1 << 24 || sizes.accessPoints > 1 << 24) problems.push("at most 16,777,216 devices and access points");
  if (problems.length) throw new Error(`Invalid demo data options: ${problems.join("; ")}.`);
  return sizes;
}

const count = (n: number) => n.toLocaleString("en-US");

export async function generateDemoData(options: DemoOptions = {}): Promise<DemoResult> {
  const sizes = resolveSizes(options);
  const log = options.log ?? (() => {});
  const started = performance.now();
  const now = options.now ?? Date.now();
  const windowStart = now - sizes.days * DAY;
  const stream = (id: number) => createRandom(subSeed(sizes.seed, id));

  const ownerId = options.ownerId ?? (await insertUser(DEMO_OWNER)).id;
  const organization = await createOrganization(ownerId, {
    name: options.organizationName ?? "Savanna Hotspots Ltd",
    address: "Westlands Road, Westlands, Nairobi",
    email: "ops@savannahotspots.co.ke",
    phone_number: "+254709123400",
    more_info: "Guest Wi-Fi for cafés, malls and hotels in Nairobi and Mombasa.",
    time_zone: options.timeZone,
  });
  const orgId = organization.id;
  log(`Organization "${organization.name}" (id ${orgId})`);
  // Rolling up millions of rows one by one would dominate the load; one pass at the end is exact too.
  await pauseRollups(orgId);
  if (options.ownerId === undefined) await createTeam(orgId);

  const places = stream(STREAM.places);
  const profiles = venueProfiles(sizes.venues);
  const venueIds = await insertBatches("venues", [venueRows(orgId, profiles, places, windowStart)], { returnIds: true });
  const accessPoints = accessPointRows(
    orgId,
    profiles,
    venueIds,
    accessPointCounts(profiles, sizes.accessPoints),
    places,
    now,
    windowStart,
  );
  const accessPointIds = await insertBatches("access_points", [accessPoints.map((a) => a.row)], { returnIds: true });
  log(`${count(sizes.venues)} venues, ${count(sizes.accessPoints)} access points`);

  const population = planPopulation(stream(STREAM.population), sizes.customers, sizes.devices, windowStart, now);
  const customerIds = await insertBatches("customers", customerBatches(orgId, stream(STREAM.customers), population, BATCH), {
    returnIds: true,
  });
  const deviceIsMobile = new Uint8Array(sizes.devices);
  const deviceIds = await insertBatches(
    "devices",
    deviceBatches(orgId, stream(STREAM.devices), population, customerIds, deviceIsMobile, BATCH),
    { returnIds: true },
  );
  log(`${count(sizes.customers)} customers, ${count(sizes.devices)} devices`);

  const plan: ConnectionPlan = {
    organizationId: orgId,
    now,
    days: sizes.days,
    total: sizes.connections,
    venues: profiles.map((profile, v) => {
      const own = accessPoints.flatMap((a, i) => (a.venueIndex === v ? [i] : []));
      return {
        id: venueIds[v],
        profile,
        accessPointIds: own.map((i) => accessPointIds[i]),
        accessPointMacs: own.map((i) => accessPoints[i].row.mac_address),
      };
    }),
    population,
    deviceIds,
    customerIds,
    deviceIsMobile,
  };
  let reported = 0;
  await insertBatches("connections", connectionBatches(plan, stream(STREAM.connections), BATCH), {
    onBatch: (rows) => {
      // One line per tenth, whatever the size.
      const tenth = Math.floor((rows * 10) / sizes.connections);
      if (tenth > reported) {
        reported = tenth;
        log(`connections: ${count(rows)} of ${count(sizes.connections)} (${tenth * 10}%)`);
      }
    },
  });

  // A device was last seen at its latest visit.
  await db
    .updateTable("devices")
    .set((eb) => ({
      last_seen_at: eb
        .selectFrom("connections")
        .select((s) => s.fn.max("connections.created_at").as("at"))
        .whereRef("connections.device_id", "=", "devices.id"),
    }))
    .where("organization_id", "=", orgId)
    .execute();

  await rebuildRollups(orgId);
  log("analytics roll-ups rebuilt");
  const ctx = await createDemoSplashPages(
    organization,
    ownerId,
    profiles.map((profile, v) => ({ id: venueIds[v], kind: profile.kind })),
  );
  log("splash pages: the cafés' and the hotels' published, the mall's a draft");
  await createDemoPrepaid(ctx, now);
  log("prepaid: two plans for sale, a free plan, 50 vouchers, M-Pesa with the fake Daraja's demo credentials");
  await createDemoMarketing(ctx, now, options.smsCallbackKey);
  log("marketing: SMS with the fake Africa's Talking's demo credentials, two customer groups, a broadcast ready to schedule");
  log(`ads: a running campaign with a banner on every network, seen on ${await createDemoAds(ctx, now)} recent visits`);
  log(`surveys: one Active survey answered by ${await createDemoSurveys(ctx, now)} guests`);

  return {
    organizationId: orgId,
    ownerId,
    venues: sizes.venues,
    accessPoints: sizes.accessPoints,
    customers: sizes.customers,
    devices: sizes.devices,
    connections: sizes.connections,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Roles of each type, one member each: the access-control screens have something to show. */
async function createTeam(orgId: number): Promise<void> {
  const roles: Record<DemoRole, { id: number }> = {
    "Read only": await insertRole(orgId, "r", [], "Read only"),
    "Network manager": await insertRole(orgId, "custom", NETWORK_MANAGER, "Network manager"),
    "Full access": await insertRole(orgId, "r_w", [], "Full access"),
  };
  for (const { role, ...person } of DEMO_TEAM) {
    const user = await insertUser({ ...person, password: DEMO_LOGIN.password });
    await insertMembership(orgId, user.id, roles[role].id);
  }
}

/**
 * Loads the demo when the database has no users yet (a fresh install); returns whether it did.
 * Prints progress; how to sign in is printed by scripts/demo.sh once the server answers.
 */
export async function loadDemoIfEmpty(options: Omit<DemoOptions, "ownerId"> = {}): Promise<boolean> {
  const log = options.log ?? console.log;
  const existing = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (existing) return false;
  log("Loading demo data…");
  const result = await generateDemoData({ ...options, log });
  const rate = Math.round(result.connections / result.seconds);
  log(`Demo data loaded in ${result.seconds.toFixed(1)} s (${count(result.connections)} connections, ${count(rate)} connections/s)`);
  return true;
}
