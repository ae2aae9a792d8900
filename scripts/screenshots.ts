// Screenshots of the console for the docs: the dashboard, connections, a network
// overview, a customer, the reports overview and the administrators, at a laptop's 1366 × 800 and a
// phone's 390 × 844, into docs/screenshots/. Run it against the demo: `npm run demo` in one terminal,
// then `npm run screenshots` (options: --url http://localhost:3000). It signs in as the demo
// organisation's owner by writing a session for them, the way the browser tests do, so it needs the
// demo's database and session secret (data/mlango.db, data/session-secret).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";

const { values } = parseArgs({
  options: { url: { type: "string", default: "http://localhost:3000" }, out: { type: "string", default: "docs/screenshots" } },
});
process.env.DATABASE_URL ??= "file:data/mlango.db";
process.env.SESSION_SECRET ??= fs.readFileSync("data/session-secret", "utf8").trim();
process.env.NODE_ENV ??= "production";

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
} finally {
  await browser.close();
  const { closeDatabase } = await import("~/db/db.server");
  await closeDatabase();
}
