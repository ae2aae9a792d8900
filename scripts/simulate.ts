// The gateway simulator: plays guests against a running Mlango end to end, as
// phones and their gateway would, with plain HTTP (no browser, no cookies, no JavaScript).
//
//   npm run simulate -- --url http://localhost:3000 --guests 50 --make meraki|opennds|unifi|mlango|mikrotik
//     [--login admin@example.com --password mlango-demo] [--organization ID] [--venue ID]
//     [--concurrency 16] [--signup-share 0.7] [--buyers 0] [--interims 2] [--stay [--keep-alive MINUTES]]
//     [--radius 127.0.0.1:1812:1813] [--chap-share 0.5]   (mikrotik: FreeRADIUS in front of the instance)
//
// It signs in through the console API, picks the network (--venue, else "Simulator Lab", created with
// two access points when missing), gives it a fresh gateway secret and openNDS faskey and, for UniFi,
// points its controller at a fake controller started here (on 127.0.0.1: the instance must be
// started with OUTBOUND_ALLOW=127.0.0.1, or it refuses that address). Then:
//   1. new guests (--signup-share of --guests; random phones on the network's access points) arrive
//      through the make's entry URL, read the connect page and sign up; the grant is checked;
//   2. the gateway sends accounting start and interims for everyone online (batches of 100);
//   3. the rest are returning guests: a device that signed up leaves (accounting stop) and comes back
//      on a random access point, gets one Connect button and clicks through; start and interims again;
//   4. everyone still online leaves (stop), unless --stay (the console then shows them online).
//   5. with --stay --keep-alive MINUTES, the gateway goes on sending an interim for every guest left
//      online each MINUTES (their real time online, more bytes) until the process is stopped: without
//      it the instance ends them PORTAL_IDLE_MINUTES (15) after their last record, at that record.
// --signup-share 0 turns the network's sign-up off: every guest clicks through.
// --buyers N: N more new guests buy the cheapest plan for sale with M-Pesa in step 1 instead of
// signing up (the organisation needs M-Pesa settings and a paid plan; the instance's Daraja — the fake
// in the demo — decides how each payment ends), follow the waiting page's Refresh header to the grant
// and stay online with the others (they do not come back as returning guests).
// --make mikrotik registers a RADIUS gateway (a loopback address, its secret from the API) and plays the
// router with radclient through the FreeRADIUS at --radius (scripts/simulator/mikrotik.ts).
// Prints a table per step and the failures' first messages; exit code 1 when any guest failed, 2 for
// a bad command line. `npm run simulate -- --help` lists the options and their defaults.
import crypto from "node:crypto";
import { parseCommandLine, usage, UsageError, wholeNumber, type Synopsis } from "~/tools/cli/args";
import { startFakeUnifi, type FakeUnifi } from "./fakes/unifi-controller";
import { ApiError, ConsoleApi, type ApiAccessPoint, type GatewaySettings } from "./simulator/api";
import {
  newSession,
  nextRecord,
  personMaker,
  playGuest,
  randomDevice,
  randomMac,
  sendAccounting,
  ALL_STEPS,
  STEPS,
  type AccountingStatus,
  type BatchOutcome,
  type GuestPlan,
  type GuestResult,
  type Session,
} from "./simulator/guest";
import { HttpClient } from "./simulator/http";
import { BEHAVIOURS, isMake, MAKES, type GatewayBehaviour, type SimNetwork } from "./simulator/makes";
import { simulateMikrotik } from "./simulator/mikrotik";
import { fmt, percentile, pool, table } from "./simulator/report";

const LAB = { name: "Simulator Lab", address: "Simulator Lane 1, Westlands, Nairobi" };
const UNIFI_LOGIN = { username: "admin", password: "unifi-fake-password" };
const BATCH = 100;

interface Options {
  url: string;
  guests: number;
  make: (typeof MAKES)[number] | "mikrotik";
  login: string;
  password: string;
  organization?: number;
  venue?: number;
  concurrency: number;
  signupShare: number;
  buyers: number;
  interims: number;
  stay: boolean;
  keepAlive: number;
  radius: { host: string; authPort: number; acctPort: number };
  chapShare: number;
}

const SYNOPSIS = {
  name: "simulate",
  summary:
    "play guests against a running Mlango end to end, as phones and their gateway would (plain HTTP); the steps are described at the top of scripts/simulate.ts",
  options: {
    url: { type: "string", value: "URL", default: "http://localhost:3000", summary: "the running instance" },
    guests: { type: "string", value: "N", default: "50", summary: "guests to play" },
    make: { type: "string", value: "MAKE", required: true, summary: `the gateway: ${[...MAKES, "mikrotik"].join(", ")}` },
    login: { type: "string", value: "EMAIL", default: "admin@example.com", summary: "the console user the simulator signs in as" },
    password: { type: "string", value: "PASSWORD", default: "mlango-demo", summary: "that user's password" },
    organization: { type: "string", value: "ID", summary: "the organisation (default: the user's first)" },
    venue: { type: "string", value: "ID", summary: `the network (default: "${LAB.name}", created when missing)` },
    concurrency: { type: "string", value: "N", default: "16", summary: "guests in flight at once" },
    "signup-share": { type: "string", value: "SHARE", default: "0.7", summary: "share of new guests who sign up; 0 turns sign-up off" },
    buyers: { type: "string", value: "N", default: "0", summary: "more new guests who buy the cheapest plan with M-Pesa" },
    interims: { type: "string", value: "N", default: "2", summary: "accounting interims per guest online" },
    stay: { type: "boolean", summary: "leave the guests online at the end (the console shows them)" },
    "keep-alive": {
      type: "string",
      value: "MINUTES",
      default: "0",
      summary:
        "with --stay: an interim for every guest left online each MINUTES until stopped (below the instance's PORTAL_IDLE_MINUTES); 0: none",
    },
    radius: {
      type: "string",
      value: "HOST:AUTH:ACCT",
      default: "127.0.0.1:1812:1813",
      summary: "the FreeRADIUS in front of the instance (mikrotik)",
    },
    "chap-share": { type: "string", value: "SHARE", default: "0.5", summary: "share of RADIUS logins with CHAP instead of PAP (mikrotik)" },
  },
} satisfies Synopsis;

/** The options; undefined after --help (the usage is printed). UsageError for a bad command line. */
function options(argv: string[]): Options | undefined {
  const { values, help } = parseCommandLine(SYNOPSIS, argv);
  if (help) return undefined;
  const whole = (name: "guests" | "organization" | "venue" | "concurrency" | "buyers" | "interims" | "keep-alive", min: number) =>
    wholeNumber(`--${name}`, values[name]!, min);
  const share = (name: "signup-share" | "chap-share") => {
    const n = Number(values[name]);
    if (!(n >= 0 && n <= 1)) throw new UsageError(`--${name} must be between 0 and 1, got "${values[name]}".`);
    return n;
  };
  const make = values.make!;
  if (!(isMake(make) || make === "mikrotik")) throw new UsageError(`--make must be one of ${[...MAKES, "mikrotik"].join(", ")}.`);
  const [host, authPort, acctPort] = values.radius!.split(":");
  if (!host || !Number(authPort) || !Number(acctPort))
    throw new UsageError(`--radius must be host:authPort:acctPort, got "${values.radius}".`);
  let url: string;
  try {
    url = new URL(values.url!).origin;
  } catch {
    throw new UsageError(`--url must be a full URL such as http://localhost:3000, got "${values.url}".`);
  }
  const keepAlive = whole("keep-alive", 0);
  if (keepAlive > 0 && !values.stay) throw new UsageError("--keep-alive needs --stay: without it every guest leaves at the end.");
  if (keepAlive > 0 && make === "mikrotik") throw new UsageError("--keep-alive is for the HTTP gateways, not mikrotik.");
  return {
    url,
    guests: whole("guests", 1),
    make,
    login: values.login!,
    password: values.password!,
    organization: values.organization === undefined ? undefined : whole("organization", 1),
    venue: values.venue === undefined ? undefined : whole("venue", 1),
    concurrency: whole("concurrency", 1),
    signupShare: share("signup-share"),
    buyers: whole("buyers", 0),
    interims: whole("interims", 0),
    stay: values.stay ?? false,
    keepAlive,
    radius: { host, authPort: Number(authPort), acctPort: Number(acctPort) },
    chapShare: share("chap-share"),
  };
}

/** Signs in, picks the network and its access points, sets the gateway up for this run. */
async function prepareNetwork(
  opts: Options,
  log: (line: string) => void,
): Promise<{ network: SimNetwork; fake?: FakeUnifi; api: ConsoleApi; venueId: number }> {
  const api = new ConsoleApi(opts.url);
  await api.signIn(opts.login, opts.password);
  const org = await api.useOrganization(opts.organization);
  let venue = opts.venue ? await api.venue(opts.venue) : await api.findVenue(LAB.name);
  if (!venue) {
    venue = await api.createVenue(LAB.name, LAB.address);
    log(`Created network "${venue.name}" (id ${venue.id})`);
  }
  const accessPoints: ApiAccessPoint[] = await api.accessPoints(venue.id);
  if (accessPoints.length === 0) {
    for (const n of [1, 2]) {
      const mac = randomMac();
      accessPoints.push(
        await api.createAccessPoint({
          name: `${venue.name} AP ${n}`,
          make: "Mlango",
          mac_address: mac,
          serial_number: `SIM-${mac.replace(/:/g, "").toUpperCase()}`,
          venue_id: venue.id,
        }),
      );
    }
    log(`Added access points ${accessPoints.map((ap) => ap.mac_address).join(", ")}`);
  }

  const gateway = await api.gateway(venue.id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) throw new Error(`The instance has no gateway settings API (${error.message}).`);
    throw error;
  });
  const fake = opts.make === "unifi" ? await startFakeUnifi(UNIFI_LOGIN) : undefined;
  const settings: GatewaySettings = {
    gateway_secret: crypto.randomBytes(32).toString("hex"),
    opennds_faskey: crypto.randomBytes(16).toString("hex"),
    session_minutes: Number(gateway.session_minutes ?? 60),
    guest_signup: opts.signupShare > 0,
    ...(fake ? { unifi_url: fake.url, unifi_username: UNIFI_LOGIN.username, unifi_password: UNIFI_LOGIN.password } : {}),
  };
  const saved = await api.setGateway(venue.id, settings).catch(async (error: unknown) => {
    await fake?.close();
    throw error;
  });
  const entryPath = new URL((saved.urls ?? gateway.urls)[opts.make]).pathname;
  const where = `organisation ${org.id} "${org.name}", network ${venue.id} "${venue.name}" (${accessPoints.length} access points)`;
  // The portal key is a secret of the network: not printed.
  log(
    `Simulating ${opts.make} at ${where}; entry ${entryPath.replace(/[^/]+$/, "…")}${fake ? `; fake UniFi controller at ${fake.url}` : ""}`,
  );
  return {
    fake,
    api,
    venueId: venue.id,
    network: {
      entryPath,
      accessPoints: accessPoints.map((ap) => ({ mac: ap.mac_address, successUrl: ap.success_url ?? null })),
      successUrl: venue.success_url ?? null,
      gatewaySecret: settings.gateway_secret,
      faskey: settings.opennds_faskey,
      sessionMinutes: Number(saved.session_minutes ?? settings.session_minutes),
      unifi: fake,
    },
  };
}

/** One visit of the run, and what became of its accounting. */
interface Visit {
  plan: GuestPlan;
  result?: GuestResult;
  session?: Session;
  /** When its accounting started (ms). */
  startedAt?: number;
  accountingOk: boolean;
  accountingMessage?: string;
}

/** A run: the guests' visits in waves, the gateway's accounting for them, and what happened. */
class Run {
  readonly visits: Visit[] = [];
  readonly batches: BatchOutcome[] = [];
  accountingMs = 0;
  flowMs = 0;
  private readonly behaviour: GatewayBehaviour;
  private readonly client: HttpClient;

  constructor(
    private readonly opts: Options,
    private readonly network: SimNetwork,
  ) {
    this.behaviour = BEHAVIOURS[opts.make as Exclude<Options["make"], "mikrotik">];
    this.client = new HttpClient(opts.url, opts.concurrency);
  }

  /** Plays visits, `--concurrency` at a time; answers those that got online. */
  async play(plans: GuestPlan[]): Promise<Visit[]> {
    const wave = plans.map((plan): Visit => ({ plan, accountingOk: true }));
    this.visits.push(...wave);
    const started = performance.now();
    await pool(wave, this.opts.concurrency, async (visit) => {
      visit.result = await playGuest(this.client, this.behaviour, this.network, visit.plan);
    });
    this.flowMs += performance.now() - started;
    return wave.filter((v) => v.result!.ok);
  }

  /** The gateway reports these sessions in batches; a failed batch fails the accounting of every visit in it. */
  async account(online: Visit[], status: AccountingStatus): Promise<void> {
    if (online.length === 0) return;
    const records = online.map((v) => nextRecord(v.session!, status));
    const started = performance.now();
    const outcomes = await sendAccounting(this.client, this.network.gatewaySecret, records, BATCH);
    this.accountingMs += performance.now() - started;
    outcomes.forEach((outcome, b) => {
      this.batches.push(outcome);
      if (outcome.ok) return;
      for (const visit of online.slice(b * BATCH, (b + 1) * BATCH)) {
        visit.accountingOk = false;
        visit.accountingMessage ??= `${status}: ${outcome.message}`;
      }
    });
  }

  /**
   * --keep-alive: the gateway goes on reporting the guests left online, an interim each `minutes` with
   * their real time online, so they stay online with growing durations. Runs until the process is stopped.
   */
  async keepAlive(online: Visit[], minutes: number): Promise<never> {
    const client = new HttpClient(this.opts.url, this.opts.concurrency);
    console.log(`\nKeeping ${online.length} guests online: an interim for each every ${minutes} min until stopped.`);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, minutes * 60_000));
      const records = online.map((v) => nextRecord(v.session!, "interim", Math.round((Date.now() - v.startedAt!) / 1000)));
      const outcomes = await sendAccounting(client, this.network.gatewaySecret, records, BATCH).catch((error: unknown) => [
        { records: records.length, ok: false, ms: 0, accepted: 0, message: error instanceof Error ? error.message : String(error) },
      ]);
      const accepted = outcomes.reduce((sum, b) => sum + b.accepted, 0);
      const failed = outcomes.find((b) => !b.ok);
      console.log(
        `${new Date().toISOString()} interim for ${records.length} guests online: ${accepted} accepted${failed ? `; ${failed.message}` : ""}`,
      );
    }
  }

  /** Sessions begin: accounting start, then the interims. */
  async begin(online: Visit[]): Promise<void> {
    for (const v of online) {
      v.session = newSession(this.behaviour.accountingId(v.plan.device, this.network, v.result!.token!));
      v.startedAt = Date.now();
    }
    await this.account(online, "start");
    for (let i = 0; i < this.opts.interims; i++) await this.account(online, "interim");
  }

  /** The whole run; answers the visits still online at the end. */
  async playAll(): Promise<Visit[]> {
    const { opts, network } = this;
    const person = personMaker();
    const signup = opts.signupShare > 0;
    const newGuests = signup ? Math.max(1, Math.round(opts.guests * opts.signupShare)) : opts.guests;
    const buying = opts.buyers ? `, and ${opts.buyers} buying a plan with M-Pesa` : "";
    console.log(
      `Playing ${opts.guests} guests (${newGuests} new, ${signup ? "signing up" : "clicking through"}; ${opts.guests - newGuests} returning)${buying} at concurrency ${
        opts.concurrency
      }…`,
    );

    // 1–2. New devices sign up (or click through when the network asks for nothing) or buy a plan, then start and interims.
    const fresh = (): GuestPlan => ({
      device: randomDevice(network.accessPoints.length),
      person: person(),
      expect: signup ? "SIGNUP" : "CLICK_THROUGH",
    });
    const buyer = (): GuestPlan => ({ ...fresh(), expect: "MPESA" });
    let online = await this.play([...Array.from({ length: newGuests }, fresh), ...Array.from({ length: opts.buyers }, buyer)]);
    await this.begin(online);

    // 3. Returning guests: a device that signed up leaves (stop), comes back anywhere in the venue and clicks through.
    // (A buyer would come back to its plan, whose grant is not the network's session: they stay.)
    let returning = opts.guests - newGuests;
    const buyers = online.filter((v) => v.plan.expect === "MPESA");
    online = online.filter((v) => v.plan.expect !== "MPESA");
    while (returning > 0 && online.length > 0) {
      const leaving = online.slice(0, Math.min(returning, online.length));
      await this.account(leaving, "stop");
      const back = await this.play(
        leaving.map((v) => ({
          device: { ...v.plan.device, apIndex: Math.floor(Math.random() * network.accessPoints.length) },
          person: v.plan.person,
          expect: "CLICK_THROUGH" as const,
        })),
      );
      await this.begin(back);
      online = [...online.slice(leaving.length), ...back];
      returning -= leaving.length;
    }
    for (let i = 0; i < returning; i++) {
      this.visits.push({
        plan: fresh(),
        accountingOk: false,
        result: { ok: false, steps: {}, failedStep: "entry", message: "no guest who signed up was online to come back" },
      });
    }

    // 4. Everyone leaves, unless they are to stay online for the demo.
    online = [...online, ...buyers];
    if (!opts.stay) await this.account(online, "stop");
    return opts.stay ? online : [];
  }

  close(): void {
    this.client.close();
  }

  /** Prints the report; answers how many guests failed (a step or their accounting). */
  report(stillOnline: number): number {
    const { opts, visits } = this;
    const granted = visits.filter((v) => v.result?.ok);
    const failures = new Map<string, number>();
    const note = (step: string, message: string) => failures.set(`${step}: ${message}`, (failures.get(`${step}: ${message}`) ?? 0) + 1);
    const rows: string[][] = [["step", "OK", "failed", "per s", "p50 ms", "p95 ms"]];
    for (const step of opts.buyers ? ALL_STEPS : STEPS) {
      const timed = visits.flatMap((v) => (v.result?.steps[step] ? [v.result.steps[step]!] : []));
      const failed = visits.filter((v) => v.result?.failedStep === step);
      for (const v of failed) note(step, v.result!.message!);
      const ok = visits.filter((v) => v.result?.steps[step] && v.result.failedStep !== step).length;
      // Guests through this step per second, over the span in which the step ran.
      const span = timed.length ? Math.max(...timed.map((t) => t.start + t.ms)) - Math.min(...timed.map((t) => t.start)) : 0;
      const ms = timed.map((t) => t.ms);
      rows.push([
        step,
        fmt(ok),
        fmt(failed.length),
        fmt(span > 0 ? ok / (span / 1000) : NaN, 1),
        fmt(percentile(ms, 0.5), 1),
        fmt(percentile(ms, 0.95), 1),
      ]);
    }
    const accountingFailed = granted.filter((v) => !v.accountingOk);
    for (const v of accountingFailed) note("accounting", v.accountingMessage ?? "failed");
    const records = this.batches.reduce((sum, b) => sum + b.records, 0);
    const accepted = this.batches.reduce((sum, b) => sum + b.accepted, 0);
    const batchMs = this.batches.map((b) => b.ms);
    rows.push([
      "accounting (records/s; ms per batch)",
      fmt(granted.length - accountingFailed.length),
      fmt(accountingFailed.length),
      fmt(this.accountingMs > 0 ? accepted / (this.accountingMs / 1000) : NaN),
      fmt(percentile(batchMs, 0.5), 1),
      fmt(percentile(batchMs, 0.95), 1),
    ]);
    const whole = granted.map((v) => Object.values(v.result!.steps).reduce((sum, step) => sum + step.ms, 0));
    rows.push([
      "whole visit (entry → grant)",
      fmt(granted.length),
      fmt(visits.length - granted.length),
      fmt(this.flowMs > 0 ? granted.length / (this.flowMs / 1000) : NaN, 1),
      fmt(percentile(whole, 0.5), 1),
      fmt(percentile(whole, 0.95), 1),
    ]);

    console.log(`\n${opts.make}: ${visits.length} guests against ${opts.url}, concurrency ${opts.concurrency}`);
    console.log(table(rows));
    console.log(
      `accounting: ${fmt(records)} records in ${fmt(this.batches.length)} batches of up to ${BATCH}, ${fmt(accepted)} accepted; ` +
        (opts.stay ? `${stillOnline} guests left online (--stay)` : "every session stopped"),
    );
    if (failures.size) {
      console.log("\nFailures (first messages):");
      for (const [message, count] of [...failures].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${count}× ${message}`);
    }
    const failed = visits.length - granted.filter((v) => v.accountingOk).length;
    console.log(
      failed
        ? `\n${failed} of ${visits.length} guests failed.`
        : `\nAll ${visits.length} guests got online${opts.stay ? " and stay online" : ", were accounted and left"}.`,
    );
    return failed;
  }
}

/** MikroTik: a RADIUS gateway on a loopback address of its own, registered through the API, played with radclient. */
async function runMikrotik(opts: Options): Promise<number> {
  const { network, api, venueId } = await prepareNetwork(opts, (line) => console.log(line));
  const address = `127.66.${crypto.randomInt(0, 256)}.${crypto.randomInt(1, 255)}`;
  const nas = await api.addRadiusClient(venueId, {
    name: `Simulator router ${address}`,
    make: "mikrotik",
    ip_address: address,
    coa_port: 3799,
  });
  console.log(`Registered RADIUS gateway ${address} (id ${nas.id})`);
  const failed = await simulateMikrotik(
    {
      url: opts.url,
      entryPath: network.entryPath,
      accessPointMacs: network.accessPoints.map((ap) => ap.mac),
      guests: opts.guests,
      concurrency: opts.concurrency,
      interims: opts.interims,
      stay: opts.stay,
      signup: opts.signupShare > 0,
      chapShare: opts.chapShare,
      radius: opts.radius,
      nas: { address, secret: nas.secret },
    },
    (line) => console.log(line),
  );
  return failed ? 1 : 0;
}

async function run(opts: Options): Promise<number> {
  if (opts.make === "mikrotik") return runMikrotik(opts);
  const { network, fake } = await prepareNetwork(opts, (line) => console.log(line));
  const simulation = new Run(opts, network);
  let online: Visit[] = [];
  try {
    online = await simulation.playAll();
  } finally {
    simulation.close();
    await fake?.close();
  }
  const failed = simulation.report(online.length);
  if (opts.keepAlive > 0 && online.length > 0) await simulation.keepAlive(online, opts.keepAlive);
  return failed ? 1 : 0;
}

try {
  const opts = options(process.argv.slice(2));
  if (opts) process.exitCode = await run(opts);
  else console.log(usage(SYNOPSIS, "npm run simulate --"));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${usage(SYNOPSIS, "npm run simulate --")}`);
    process.exitCode = 2;
  } else {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
