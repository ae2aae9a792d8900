import { defineConfig } from "@playwright/test";

// Browser tests run against the production build on a database of their own.
// The test process writes fixtures into the same SQLite file (tests/e2e/fixtures.ts).
// E2E_PORT lets several checkouts run their browser tests side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The fake OAuth provider (scripts/fakes/oauth-provider.ts) guests' social sign-in talks to. */
export const OAUTH_PORT = E2E_PORT + 1;
/** The fake Daraja (scripts/fakes/daraja.ts) M-Pesa purchases talk to; its callbacks come back to PUBLIC_URL. */
export const DARAJA_PORT = E2E_PORT + 2;
/**
 * The fake Africa's Talking (scripts/fakes/africastalking.ts) SMS broadcasts go to. It sends no
 * delivery reports: their URL holds a callback key that is random per organisation (and unique), so
 * one fake cannot report to the parallel tests' organisations; tests see SMS end as "sent".
 */
export const AFRICASTALKING_PORT = E2E_PORT + 3;
/**
 * Phones (as Daraja gets them) whose STK pushes end this way at the fake Daraja, so parallel tests
 * each get their outcome from the one fake; any other phone pays successfully.
 */
export const DARAJA_TEST_PHONES = { success: "254700000100", cancelled: "254700001032", timeout: "254700001019" } as const;
/**
 * Phones whose prompts are never answered ("timeout"), per project one per test, for tests that
 * push to a number and then change their mind: a number gets at most two prompts in two minutes
 * (the guest path's throttle, decision 0078), so parallel projects and tests do not share one.
 */
export const DARAJA_SILENT_PHONES = {
  enhanced: ["254700002019", "254700002119"],
  "no-js": ["254700003019", "254700003119"],
} as const;
/**
 * The browser tests' data directory, emptied when their server starts: one per port, so sessions
 * sharing a checkout on different E2E_PORTs do not delete each other's database mid-run.
 */
const E2E_DATA_DIR = E2E_PORT === 3100 ? "data/e2e" : `data/e2e-${E2E_PORT}`;
export const E2E_ENV = {
  DATABASE_URL: `file:${E2E_DATA_DIR}/mlango.db`,
  DATA_DIR: E2E_DATA_DIR,
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
  SECRETS_KEY: "e2e".padEnd(64, "0"),
  PUBLIC_URL: `http://localhost:${E2E_PORT}`,
  OAUTH_PROVIDER_URL: `http://127.0.0.1:${OAUTH_PORT}`,
  DARAJA_URL: `http://127.0.0.1:${DARAJA_PORT}`,
  AFRICASTALKING_URL: `http://127.0.0.1:${AFRICASTALKING_PORT}`,
  // The fake OAuth provider listens on 127.0.0.1, an address operators' settings (and the provider
  // calls) may not reach unless the deployment allows it (app/services/outbound.server.ts).
  OUTBOUND_ALLOW: "127.0.0.1",
  // FreeRADIUS, started by tests/e2e/radius.spec.ts, asks the server with this secret.
  RADIUS_API_SECRET: "e2e-radius-api-secret-0123456789",
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/playwright",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  // A long flow (plans.spec, 22 s on a quiet machine) ran out of 30 s in CI while the other worker was busy.
  timeout: 60_000,
  // Two workers share two cores with the server: a full dashboard page can take seconds to come back.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // Guest-only tests (tag @guest, tests/e2e/fixtures.ts GUEST) run once: their pages allow no script.
    { name: "enhanced", use: { javaScriptEnabled: true }, grepInvert: /@guest/ },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      command: `rm -rf ${E2E_DATA_DIR} && node server.mjs`,
      url: `http://localhost:${E2E_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...E2E_ENV, PORT: String(E2E_PORT), NODE_ENV: "production", HOST: "127.0.0.1" },
    },
    {
      // Registers client mlango-demo / mlango-demo-secret for every provider. Readiness accepts
      // 2xx, 3xx and 400–403 only: /google/authorize without parameters answers 400.
      command: `npx tsx scripts/fakes/oauth-provider.ts --port ${OAUTH_PORT}`,
      url: `http://127.0.0.1:${OAUTH_PORT}/google/authorize`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Credentials DEMO_CREDENTIALS, shortcode SANDBOX_SHORTCODE/SANDBOX_PASSKEY; results 2 s after
      // the push, Transaction Status and Reversal results 1.5 s after the request (a receipt's
      // waiting page is seen before its answer). Readiness: /oauth/v1/generate without credentials answers 400.
      command: [
        `npx tsx scripts/fakes/daraja.ts --port ${DARAJA_PORT} --callback-delay 2000 --result-delay 1500`,
        ...Object.entries(DARAJA_TEST_PHONES).map(([outcome, phone]) => `--outcome-for ${phone}=${outcome}`),
        ...Object.values(DARAJA_SILENT_PHONES)
          .flat()
          .map((phone) => `--outcome-for ${phone}=timeout`),
      ].join(" "),
      url: `http://127.0.0.1:${DARAJA_PORT}/oauth/v1/generate`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Credentials DEMO_AT_CREDENTIALS; no rate limit. Readiness: /fake/messages (what it sent) answers 200.
      command: `npx tsx scripts/fakes/africastalking.ts --port ${AFRICASTALKING_PORT}`,
      url: `http://127.0.0.1:${AFRICASTALKING_PORT}/fake/messages`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
