// Screenshots for the docs: of the console (the dashboard, connections, a network overview, a
// customer, the reports overview and the administrators, at a laptop's 1366 × 800 and a phone's
// 390 × 844, into docs/screenshots/), and of every guest page a guest passes through, in English and
// Kiswahili at 390 × 844, into docs/screenshots/guest/ (a new guest at one of the demo's Meraki
// access points; it signs up, pays with M-Pesa, types a receipt and is asked to prove a number like any
// guest: the demo's fake Daraja and Africa's Talking answer). Run it against the demo: `npm run demo` in one terminal,
// then `npm run screenshots` (options: --url http://localhost:3000). It signs in as the demo
// organisation's owner by writing a session for them, the way the browser tests do, so it needs the
// demo's database and secrets (data/mlango.db, data/session-secret, data/secrets-key).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://localhost:3000" },
    out: { type: "string", default: "docs/screenshots" },
    only: { type: "string" }, // console | guest
  },
});
process.env.DATABASE_URL ??= "file:data/mlango.db";
process.env.SESSION_SECRET ??= fs.readFileSync("data/session-secret", "utf8").trim();
if (fs.existsSync("data/secrets-key")) process.env.SECRETS_KEY ??= fs.readFileSync("data/secrets-key", "utf8").trim();
process.env.NODE_ENV ??= "production";
process.env.PUBLIC_URL ??= values.url;

const { db } = await import("~/db/db.server");
const { issueToken } = await import("~/services/auth.server");
const { commitSession, sessionStorage } = await import("~/services/session.server");

// The demo's first organisation, its owner, its busiest network and a customer who came back often.
const org = await db.selectFrom("organizations").select(["id", "name"]).orderBy("id").executeTakeFirstOrThrow();
const owner = await db
  .selectFrom("administrators")
  .select("user_id")
  .where("organization_id", "=", org.id)
  .where("is_owner", "=", 1)
  .executeTakeFirstOrThrow();
const venue = await db
  .selectFrom("connections")
  .select(["venue_id", (eb) => eb.fn.countAll<number>().as("n")])
  .where("organization_id", "=", org.id)
  .groupBy("venue_id")
  .orderBy("n", "desc")
  .executeTakeFirstOrThrow();
const customer = await db
  .selectFrom("connections")
  .select(["customer_id", (eb) => eb.fn.countAll<number>().as("n")])
  .where("organization_id", "=", org.id)
  .where("customer_id", "is not", null)
  .where("created_at", ">=", Date.now() - 30 * 86_400_000)
  .groupBy("customer_id")
  .orderBy("n", "desc")
  .executeTakeFirstOrThrow();

const session = await sessionStorage().getSession();
session.set("token", await issueToken(owner.user_id!, "web"));
const [name, ...rest] = (await commitSession(session)).split(";")[0].split("=");

const pages = [
  ["dashboard", `/${org.id}`],
  ["connections", `/${org.id}/connections`],
  ["network-overview", `/${org.id}/venues/${venue.venue_id}/overview`],
  ["customer", `/${org.id}/customers/${customer.customer_id}/connections`],
  ["reports", `/${org.id}/reports/overview`],
  ["administrators", `/${org.id}/organization/administrators`],
] as const;
const widths = [
  { label: "laptop", width: 1366, height: 800 },
  { label: "phone", width: 390, height: 844 },
];

fs.mkdirSync(values.out!, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  if (values.only !== "guest") await consoleScreenshots();
  if (values.only !== "console") await guestScreenshots();
} finally {
  await browser.close();
  const { closeDatabase } = await import("~/db/db.server");
  await closeDatabase();
}

async function consoleScreenshots() {
  for (const size of widths) {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, deviceScaleFactor: 1 });
    const host = new URL(values.url!).hostname;
    await context.addCookies([{ name, value: rest.join("="), domain: host, path: "/", httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    for (const [file, path] of pages) {
      const response = await page.goto(new URL(path, values.url).toString(), { waitUntil: "networkidle" });
      if (!response?.ok()) throw new Error(`${path} answered ${response?.status()}`);
      const target = `${values.out}/${file}-${size.label}.png`;
      await page.screenshot({ path: target, fullPage: true });
      console.log(target);
    }
    await context.close();
  }
}

/** A new device at one of the organisation's Meraki access points: its connect token. */
async function newGuest(apMac: string, portalKey: string): Promise<string> {
  const mac = Array.from({ length: 6 }, (_, i) => (i === 0 ? 0x02 : Math.floor(Math.random() * 256)).toString(16).padStart(2, "0")).join(
    ":",
  );
  const query = new URLSearchParams({
    base_grant_url: "http://192.0.2.1/splash/grant",
    user_continue_url: "",
    node_mac: apMac.toUpperCase().replace(/:/g, "-"),
    client_mac: mac,
    client_ip: "10.0.0.23",
  });
  const entry = await fetch(new URL(`/hotspot/meraki/${portalKey}?${query}`, values.url), { redirect: "manual" });
  const location = entry.headers.get("location") ?? "";
  if (!location.startsWith("/connect?token=")) throw new Error(`The Meraki entry answered ${entry.status} ${location}`);
  return location.slice("/connect?token=".length);
}

/** A Kenyan mobile number of its own each time: M-Pesa prompts to one number are throttled (decision 0078). */
function randomPhone(): string {
  return `07${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

/** The connect page's M-Pesa form: the first plan, paid from `phone`. */
async function payWithMpesa(page: Page, phone: string): Promise<void> {
  const pay = page.locator('form[action="/connect/mpesa"]');
  await pay.locator('input[name="plan_id"]').first().check();
  await pay.locator('input[name="phone_number"]').fill(phone);
  await pay.locator('button[type="submit"]').click();
}

/** The waiting page polled until the payment is answered (the fake Daraja pays in two seconds): its phone is then proved. */
async function untilPaid(waiting: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const answer = await fetch(waiting, { redirect: "manual" });
    if (answer.status === 303) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`The payment at ${waiting} was not answered in 30 s`);
}

/** The connect page's sign-up form, filled and sent. */
async function signUp(page: Page, lang: string, phone: string): Promise<void> {
  const form = page.locator('form:has(input[name="mode"][value="SIGNUP"])');
  await form.locator('input[name="first_name"]').fill("Wanjiru");
  await form.locator('input[name="last_name"]').fill("Kamau");
  await form.locator('input[name="email_address"]').fill(`wanjiru.${lang}.${Date.now()}@example.co.ke`);
  await form.locator('input[name="phone_number"]').fill(phone);
  await form.locator('button[type="submit"]').click();
}

async function guestScreenshots() {
  const ap = await db
    .selectFrom("access_points")
    .innerJoin("venues", "venues.id", "access_points.venue_id")
    .select(["access_points.mac_address", "venues.portal_key"])
    .where("access_points.organization_id", "=", org.id)
    .where("access_points.make", "=", "Meraki")
    .orderBy("access_points.id")
    .executeTakeFirstOrThrow();
  const out = `${values.out}/guest`;
  fs.mkdirSync(out, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  // The grant goes to the access point (192.0.2.1, a documentation address): never leave this host.
  await context.route(
    (url) => url.hostname !== new URL(values.url!).hostname,
    (route) => route.abort(),
  );
  const page = await context.newPage();
  // The whole page, or (fullPage false) the 390 × 844 the guest sees where it is scrolled to.
  const shot = async (name: string, lang: string, fullPage = true) => {
    const target = `${out}/${name}-${lang}.png`;
    await page.screenshot({ path: target, fullPage });
    console.log(target);
  };
  const open = async (path: string, lang: string, status = 200) => {
    const response = await page.goto(new URL(`${path}${path.includes("?") ? "&" : "?"}lang=${lang}`, values.url).toString());
    if (response?.status() !== status) throw new Error(`${path} answered ${response?.status()}, not ${status}`);
  };
  for (const lang of ["en", "sw"]) {
    const token = await newGuest(ap.mac_address, ap.portal_key);
    await open(`/connect?token=${token}`, lang);
    await shot("connect", lang);
    await open(`/connect/privacy?token=${token}`, lang);
    await shot("privacy-notice", lang);
    await open(`/connect/my-data?token=${token}`, lang);
    await shot("my-data", lang);

    // M-Pesa: the waiting page, then "Use another number".
    await open(`/connect?token=${token}`, lang);
    await payWithMpesa(page, randomPhone());
    await page.waitForURL(/\/connect\/mpesa\/wait/);
    await shot("mpesa-waiting", lang);
    await page.locator('button[name="intent"][value="change"]').click();
    await page.waitForURL(/\/connect\/mpesa\/change/);
    await shot("mpesa-change-number", lang);

    // "Paid already?": the receipt form, then its waiting page while M-Pesa is asked (the fake
    // Daraja answers a receipt it does not know in 20 ms, so the page is taken as it first loads).
    const receipt = await newGuest(ap.mac_address, ap.portal_key);
    await open(`/connect?token=${receipt}`, lang);
    const receiptForm = page.locator('form[action="/connect/mpesa/receipt"]');
    await receiptForm.scrollIntoViewIfNeeded();
    await shot("mpesa-receipt-form", lang, false);
    await receiptForm.locator('input[name="mpesa_receipt"]').fill(`QWE${Date.now().toString(36).toUpperCase().slice(-7)}`);
    await receiptForm.locator('button[type="submit"]').click();
    await page.waitForURL(/\/connect\/mpesa\/receipt\/wait/);
    if (await receiptForm.count()) throw new Error("M-Pesa answered the receipt before its waiting page loaded");
    await shot("mpesa-receipt-waiting", lang);

    // A number that paid for a plan: another device typing it is asked for the code sent to it,
    // at the M-Pesa form ("This number already has a plan") and at the sign-up ("Welcome back").
    const buyer = await newGuest(ap.mac_address, ap.portal_key);
    const paidFrom = randomPhone();
    await open(`/connect?token=${buyer}`, lang);
    await payWithMpesa(page, paidFrom);
    await page.waitForURL(/\/connect\/mpesa\/wait/);
    await untilPaid(page.url());
    await open(`/connect?token=${await newGuest(ap.mac_address, ap.portal_key)}`, lang);
    await payWithMpesa(page, paidFrom);
    await page.locator('input[name="proof_code"]').waitFor();
    await shot("proof-plan", lang);
    await open(`/connect?token=${await newGuest(ap.mac_address, ap.portal_key)}`, lang);
    await signUp(page, lang, paidFrom);
    await page.locator('input[name="proof_code"]').waitFor();
    await shot("proof-welcome", lang);

    // Too many voucher codes: the sixth wrong code on one connection.
    const guessing = await newGuest(ap.mac_address, ap.portal_key);
    for (let i = 0; i < 5; i++)
      await fetch(new URL("/connect", values.url), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: guessing, mode: "VOUCHER", voucher_code: `WRONG${i}`, lang }),
      });
    await open(`/connect?token=${guessing}`, lang);
    await page.locator('input[name="voucher_code"]').fill("WRONG5");
    await page.locator('input[name="voucher_code"]').press("Enter");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await shot("too-many-attempts", lang);

    // Online: a sign-up (the grant to the access point is not followed), then the online page and the link opened again.
    const online = await newGuest(ap.mac_address, ap.portal_key);
    await open(`/connect?token=${online}`, lang);
    const signedUp = await fetch(new URL("/connect", values.url), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: online,
        mode: "SIGNUP",
        first_name: "Wanjiru",
        last_name: "Kamau",
        email_address: `wanjiru.${lang}.${Date.now()}@example.co.ke`,
        phone_number: `07${String(Date.now()).slice(-8)}`,
        lang,
      }),
    });
    if (signedUp.status !== 303) throw new Error(`The sign-up answered ${signedUp.status}`);
    await open(`/connect/online?token=${online}`, lang);
    await shot("online", lang);
    await open(`/connect?token=${online}`, lang, 409);
    await shot("already-online", lang);

    // Entry errors: an unknown network.
    await page.setExtraHTTPHeaders({ "Accept-Language": lang === "sw" ? "sw-KE" : "en" });
    await page.goto(
      new URL(`/hotspot/meraki/no-such-network?node_mac=00-11-22-33-44-55&client_mac=02:00:00:00:00:01`, values.url).toString(),
    );
    await shot("entry-unknown-network", lang);
    await page.setExtraHTTPHeaders({});
  }
  await context.close();
}
