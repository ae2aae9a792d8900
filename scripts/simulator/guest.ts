// One guest, end to end, as a phone and its gateway do it with plain HTTP (no browser, no cookies, no
// JavaScript): the gateway's redirect to the make's entry URL, the redirect to /connect?token=, the
// connect page's HTML form read as a mini-browser reads it (hidden fields, the fields it asks for),
// the sign-up or the click-through submitted as a form, and the grant checked as the gateway would.
// Or a purchase: the cheapest plan for sale bought with M-Pesa from the connect page's form, then the
// waiting page reloaded as its Refresh header says until the grant (or the page that says why not).
// Then the gateway's accounting for the session (start, interims, stop), sent in batches.
// Used by scripts/simulate.ts and bench/portal.bench.ts.
import crypto from "node:crypto";
import { decodeEntities, describe, type HttpClient } from "./http";
import type { AccountingId, Device, EntryState, GatewayBehaviour, SimNetwork } from "./makes";
import { pool } from "./report";

/** The steps of a sign-up or a click-through. */
export const STEPS = ["entry", "connect page", "submit/grant"] as const;
/** With a purchase's last two in place of submit/grant: the STK push (the form's POST → the waiting page), then the wait until the grant. */
export const ALL_STEPS = [...STEPS, "STK push", "payment → grant"] as const;
export type Step = (typeof ALL_STEPS)[number];
/** How long a buyer keeps the waiting page open (Daraja gives up on an unanswered prompt sooner). */
export const PAYMENT_WAIT_MS = 120_000;

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  marketing: boolean;
}

export interface GuestPlan {
  device: Device;
  /** Details to type when the page asks for them (a returning guest's page asks for none). */
  person: Person;
  /**
   * How the guest must be treated: SIGNUP (a new device) or CLICK_THROUGH (a returning guest, or a
   * network without sign-up); MPESA: a new device that buys the cheapest plan for sale, paying from
   * `person.phone` (the run's Daraja decides how the payment ends).
   */
  expect: "SIGNUP" | "CLICK_THROUGH" | "MPESA";
}

export interface GuestResult {
  ok: boolean;
  /** When each step started (performance.now()) and how long it took; a failed step is timed too. */
  steps: Partial<Record<Step, { start: number; ms: number }>>;
  failedStep?: Step;
  message?: string;
  /** The visit's connect token (known once the entry succeeded). */
  token?: string;
}

// ---------------------------------------------------------------------------------------------
// Phones and people

const words = (text: string) => text.trim().split(/\s+/);

const FIRST_NAMES = words(`
  Wanjiru Achieng Njeri Akinyi Wambui Chebet Nafula Atieno Mwende Zawadi Amina Fatuma Kamau Otieno Kiprop Mutua Omondi Wafula Kariuki Juma Baraka Kiptoo Onyango Mwangi`);
const LAST_NAMES = words(`
  Kamau Otieno Mwangi Wanjiku Ochieng Kiprono Mutiso Njoroge Wekesa Chepkoech Odhiambo Kimani Barasa Nyambura Koech Mohamed Maina Auma Rotich Kilonzo`);
const USER_AGENTS = [
  "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 13; TECNO KI5k) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 12; Infinix X6816) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  "CaptiveNetworkSupport-481.100.2 wispr",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** A random locally administered unicast MAC (aa:bb:…), as phones with MAC randomisation use. */
export function randomMac(): string {
  const bytes = crypto.randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(":");
}

export function randomDevice(accessPoints: number): Device {
  const [a, b] = crypto.randomBytes(2);
  return {
    clientMac: randomMac(),
    clientIp: `10.${20 + (a! % 200)}.${b}.${2 + (a! % 250)}`,
    userAgent: pick(USER_AGENTS),
    apIndex: Math.floor(Math.random() * accessPoints),
  };
}

/** Makes people with unique e-mail addresses and 07… phone numbers (unique within the run and, by a random run tag, across runs). */
export function personMaker(marketingShare = 0.4): () => Person {
  const run = crypto.randomBytes(3).toString("hex");
  const phones = new Set<string>();
  let n = 0;
  return () => {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    let phone: string;
    do phone = `07${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
    while (phones.has(phone));
    phones.add(phone);
    const email = `${firstName}.${lastName}.${run}${++n}@example.com`.toLowerCase();
    return {
      firstName,
      lastName,
      email,
      phone,
      marketing: Math.random() < marketingShare,
    };
  };
}

// ---------------------------------------------------------------------------------------------
// The connect page, read without a browser

/** A step did not go as a gateway and a guest expect: the message says what came instead. */
class StepFailed extends Error {}

export interface PageForm {
  action: string;
  method: string;
  /** Hidden fields, as the page sets them. */
  hidden: Record<string, string>;
  /** Names of the visible fields it asks for (text, e-mail, tel inputs and checkboxes). */
  fields: Set<string>;
}

const attributes = (tag: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g))
    out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  return out;
};

/** The first form of the page that posts to `path`, with its inner HTML, or null. */
function readForm(html: string, path: string): (PageForm & { body: string }) | null {
  for (const formMatch of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const form = attributes(formMatch[1]!);
    if (!form.action || new URL(form.action, "http://x").pathname !== path) continue;
    const hidden: Record<string, string> = {};
    const fields = new Set<string>();
    for (const input of formMatch[2]!.matchAll(/<input\b([^>]*)>/gi)) {
      const a = attributes(input[1]!);
      if (!a.name) continue;
      if ((a.type ?? "text").toLowerCase() === "hidden") hidden[a.name] = a.value ?? "";
      else fields.add(a.name);
    }
    return {
      action: form.action,
      method: (form.method ?? "get").toLowerCase(),
      hidden,
      fields,
      body: formMatch[2]!,
    };
  }
  return null;
}

/** The first form of the page that posts to /connect, or null. */
export function readConnectForm(html: string): PageForm | null {
  return readForm(html, "/connect");
}

/** A plan on the connect page's M-Pesa form. */
export interface PlanForSale {
  id: string;
  name: string;
  price: number;
  /** The longest grant it can give: its time limit, or its validity when shorter or without one. */
  seconds: number;
}

export interface PurchaseForm {
  action: string;
  hidden: Record<string, string>;
  plans: PlanForSale[];
}

const UNIT_MINUTES: Record<string, number> = { minute: 1, hour: 60, day: 1440 };
/** "2 hours" (pages.server.ts' minutesText) → 120; null when it is not a length of time. */
const minutesOf = (text: string): number | null => {
  const m = /^(\d+) (minute|hour|day)s?$/.exec(text.trim());
  return m ? Number(m[1]) * UNIT_MINUTES[m[2]!]! : null;
};

/** The form that posts to /connect/mpesa with its plans, or null when the page sells none. */
export function readPurchaseForm(html: string): PurchaseForm | null {
  const form = readForm(html, "/connect/mpesa");
  if (!form) return null;
  // <label class="check"><input type="radio" name="plan_id" value="1"><span><b>One hour</b> — Kes 20<br><small>1 hour, for use within 1 day</small></span></label>
  const plans: PlanForSale[] = [];
  for (const label of form.body.matchAll(/<label\b[^>]*>\s*<input\b([^>]*)>([\s\S]*?)<\/label>/gi)) {
    const input = attributes(label[1]!);
    if (input.name !== "plan_id" || !input.value) continue;
    const text = (pattern: RegExp) => decodeEntities(pattern.exec(label[2]!)?.[1] ?? "").trim();
    const summary = text(/<small>([\s\S]*?)<\/small>/).split(", ");
    const validity = minutesOf(summary.at(-1)?.replace(/^for use within /, "") ?? "");
    if (validity === null) throw new StepFailed(`cannot read how long plan ${input.value} lasts from "${summary.join(", ")}"`);
    plans.push({
      id: input.value,
      name: text(/<b>([\s\S]*?)<\/b>/),
      price: Number(text(/Kes\s*([\d.,]+)/).replace(/,/g, "")),
      seconds: Math.min(minutesOf(summary[0]!) ?? Infinity, validity) * 60,
    });
  }
  return { action: form.action, hidden: form.hidden, plans };
}

/** The Refresh header's wait and address ("3;url=/connect/mpesa/wait?…"), or null. */
function refreshOf(value: string | string[] | undefined): { ms: number; url: string | null } | null {
  const m = typeof value === "string" ? /^\s*(\d+)\s*(?:[;,]\s*url\s*=\s*(.+?))?\s*$/i.exec(value) : null;
  return m ? { ms: Number(m[1]) * 1000, url: m[2] ?? null } : null;
}

/** What the guest types into the fields the form asks for (the phone field's 07 prefix is overwritten). */
function fillIn(form: PageForm, person: Person): Record<string, string> {
  const values: Record<string, string> = { ...form.hidden };
  const typed: Record<string, string> = {
    first_name: person.firstName,
    last_name: person.lastName,
    email_address: person.email,
    phone_number: person.phone,
  };
  for (const name of form.fields) {
    if (name in typed) values[name] = typed[name]!;
    else if (name === "marketing_opt_in" && person.marketing) values[name] = "on";
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// One visit

/**
 * Plays one visit: entry → connect page → sign-up or click-through → grant, or for a buyer entry →
 * connect page → STK push → payment → grant. Never throws: a failure is reported with its step and a message.
 */
export async function playGuest(
  client: HttpClient,
  behaviour: GatewayBehaviour,
  network: SimNetwork,
  plan: GuestPlan,
): Promise<GuestResult> {
  const result: GuestResult = { ok: false, steps: {} };
  const browser = {
    "User-Agent": plan.device.userAgent,
    Accept: "text/html,application/xhtml+xml,*/*;q=0.8",
    "Accept-Language": "en-KE,en;q=0.9,sw;q=0.8",
  };
  let step: Step = "entry";
  const timed = async <T>(name: Step, run: () => Promise<T>): Promise<T> => {
    step = name;
    const started = performance.now();
    try {
      return await run();
    } finally {
      result.steps[name] = { start: started, ms: performance.now() - started };
    }
  };
  try {
    // 1. The gateway redirects the phone to the make's entry URL; Mlango sends it on to /connect.
    const { path, state } = behaviour.entry(network, plan.device, Date.now());
    const token = await timed("entry", async () => {
      const response = await client.request(path, { headers: browser });
      const location = response.location ? new URL(response.location, client.origin) : null;
      const token = location?.pathname === "/connect" ? location.searchParams.get("token") : null;
      if (response.status !== 302 || !token) throw new StepFailed(describe(response, "302 to /connect?token="));
      return token;
    });
    result.token = token;

    // 2. The mini-browser follows it and reads the form.
    const page = await timed("connect page", async () => {
      const response = await client.request(`/connect?token=${encodeURIComponent(token)}`, { headers: browser });
      if (response.status !== 200) throw new StepFailed(describe(response, "200 with the connect form"));
      if (plan.expect === "MPESA") {
        const purchase = readPurchaseForm(response.body);
        if (!purchase || purchase.plans.length === 0)
          throw new StepFailed("the connect page sells no plan (the organisation needs M-Pesa settings and a paid plan)");
        if (purchase.hidden.token !== token) throw new StepFailed("the M-Pesa form's hidden token is not the one in the link");
        return { kind: "purchase" as const, purchase };
      }
      const form = readConnectForm(response.body);
      if (!form || form.method !== "post") throw new StepFailed("the connect page has no form posting to /connect");
      if (form.hidden.token !== token) throw new StepFailed("the form's hidden token is not the one in the link");
      const asksSignup = form.hidden.mode === "SIGNUP";
      if (plan.expect === "SIGNUP" && !asksSignup)
        throw new StepFailed(`a new guest was offered ${form.hidden.mode ?? "no"} form instead of the sign-up`);
      if (plan.expect === "CLICK_THROUGH" && asksSignup)
        throw new StepFailed(`a guest who needs no sign-up was asked for ${[...form.fields].join(", ")}`);
      return { kind: "form" as const, form };
    });

    if (page.kind === "purchase") {
      await buyWithMpesa(client, behaviour, network, plan, browser, token, state, page.purchase, timed);
      result.ok = true;
      return result;
    }
    const { form } = page;

    // 3. The guest submits; Mlango authorizes and grants; the gateway acts on the grant.
    await timed("submit/grant", async () => {
      const commandsBefore = network.unifi?.commands.length ?? 0;
      const response = await client.request(new URL(form.action, client.origin).pathname, {
        method: "POST",
        headers: {
          ...browser,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fillIn(form, plan.person)).toString(),
      });
      if (response.status !== 303) throw new StepFailed(describe(response, "303 grant redirect"));
      const problem = behaviour.checkGrant({
        network,
        device: plan.device,
        token,
        state,
        status: response.status,
        location: response.location,
        commandsBefore,
      });
      if (problem) throw new StepFailed(problem);
    });
    result.ok = true;
  } catch (error) {
    result.failedStep = step;
    result.message = error instanceof StepFailed ? error.message : `${(error as Error).message ?? error}`;
  }
  return result;
}

/**
 * 3–4 of a purchase: the cheapest plan and the person's phone posted to /connect/mpesa (its 303 to the
 * waiting page), then the waiting page reloaded as its Refresh header says, as a phone does without
 * JavaScript, until its 303 to the grant; a page without Refresh says why the payment did not go through.
 */
async function buyWithMpesa(
  client: HttpClient,
  behaviour: GatewayBehaviour,
  network: SimNetwork,
  plan: GuestPlan,
  browser: Record<string, string>,
  token: string,
  state: EntryState,
  purchase: PurchaseForm,
  timed: <T>(name: Step, run: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const cheapest = purchase.plans.reduce((a, b) => (b.price < a.price ? b : a));
  const commandsBefore = network.unifi?.commands.length ?? 0;
  let waiting = await timed("STK push", async () => {
    const response = await client.request(new URL(purchase.action, client.origin).pathname, {
      method: "POST",
      headers: { ...browser, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...purchase.hidden, plan_id: cheapest.id, phone_number: plan.person.phone }).toString(),
    });
    if (response.status !== 303 || !response.location?.startsWith("/connect/mpesa/wait?"))
      throw new StepFailed(describe(response, "303 to the waiting page"));
    return response.location;
  });
  await timed("payment → grant", async () => {
    const giveUpAt = performance.now() + PAYMENT_WAIT_MS;
    for (;;) {
      const response = await client.request(waiting, { headers: browser });
      if (response.status === 303) {
        const problem = behaviour.checkGrant({
          network,
          device: plan.device,
          token,
          state,
          status: 303,
          location: response.location,
          commandsBefore,
          mostSeconds: cheapest.seconds,
        });
        if (problem) throw new StepFailed(problem);
        return;
      }
      const refresh = refreshOf(response.headers.refresh);
      if (response.status !== 200 || !refresh) throw new StepFailed(describe(response, `the grant for "${cheapest.name}"`));
      if (performance.now() + refresh.ms > giveUpAt)
        throw new StepFailed(`still waiting for the payment after ${PAYMENT_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, refresh.ms));
      if (refresh.url) waiting = refresh.url;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Accounting

export type AccountingStatus = "start" | "interim" | "stop";

export interface AccountingRecord extends Record<string, unknown> {
  status: AccountingStatus;
  input_octets: number;
  output_octets: number;
  session_time: number;
}

/** A guest's session as the gateway counts it. */
export interface Session {
  id: AccountingId;
  upload: number;
  download: number;
  seconds: number;
}

export function newSession(id: AccountingId): Session {
  return { id, upload: 0, download: 0, seconds: 0 };
}

/**
 * The next record of a session: usage grows by a phone's few minutes of browsing and chat. With
 * `elapsedSeconds` (a guest kept online, --keep-alive) the session time is the real time online, never less than before.
 */
export function nextRecord(session: Session, status: AccountingStatus, elapsedSeconds?: number): AccountingRecord {
  if (status !== "start") {
    session.seconds =
      elapsedSeconds === undefined ? session.seconds + 60 + crypto.randomInt(0, 240) : Math.max(session.seconds, elapsedSeconds);
    session.upload += crypto.randomInt(20_000, 2_000_000);
    session.download += crypto.randomInt(200_000, 40_000_000);
  }
  return {
    status,
    ...session.id,
    input_octets: session.upload,
    output_octets: session.download,
    session_time: session.seconds,
    ...(status === "stop" ? { terminate_cause: "User-Request" } : {}),
  };
}

export interface BatchOutcome {
  /** Records in the batch. */
  records: number;
  ok: boolean;
  ms: number;
  accepted: number;
  message?: string;
}

/**
 * Sends records to /hotspot/accounting in batches of `batchSize` with the network's gateway secret,
 * `concurrency` batches in flight. A batch is OK when every record in it was accepted.
 */
export async function sendAccounting(
  client: HttpClient,
  secret: string,
  records: AccountingRecord[],
  batchSize = 100,
  concurrency = 4,
): Promise<BatchOutcome[]> {
  const batches: AccountingRecord[][] = [];
  for (let i = 0; i < records.length; i += batchSize) batches.push(records.slice(i, i + batchSize));
  return pool(batches, concurrency, (batch) => sendBatch(client, secret, batch));
}

async function sendBatch(client: HttpClient, secret: string, batch: AccountingRecord[]): Promise<BatchOutcome> {
  const started = performance.now();
  try {
    const response = await client.request("/hotspot/accounting", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${secret}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: JSON.stringify(batch.length === 1 ? batch[0] : { records: batch }),
    });
    const ms = performance.now() - started;
    let json: {
      data?: { accepted?: number; unknown?: number };
      error?: { message?: string } | string;
    } = {};
    try {
      json = JSON.parse(response.body);
    } catch {
      // not JSON: reported below
    }
    const accepted = Number(json.data?.accepted ?? 0);
    if (response.status !== 200) {
      const message = typeof json.error === "string" ? json.error : (json.error?.message ?? response.body.slice(0, 160));
      return {
        records: batch.length,
        ok: false,
        ms,
        accepted,
        message: `HTTP ${response.status}: ${message}`,
      };
    }
    if (accepted !== batch.length)
      return {
        records: batch.length,
        ok: false,
        ms,
        accepted,
        message: `${accepted} of ${batch.length} records accepted (${json.data?.unknown ?? "?"} unknown)`,
      };
    return { records: batch.length, ok: true, ms, accepted };
  } catch (error) {
    return {
      records: batch.length,
      ok: false,
      ms: performance.now() - started,
      accepted: 0,
      message: (error as Error).message,
    };
  }
}
