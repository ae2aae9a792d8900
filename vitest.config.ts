import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests run once; integration tests run twice, on SQLite and on PostgreSQL,
// each worker on a database of its own (tests/setup/database.ts).
const integration = (name: "sqlite" | "postgres") => ({
  extends: true as const,
  test: {
    name,
    include: ["tests/integration/**/*.test.{ts,tsx}"],
    env: { TEST_DB: name },
    setupFiles: ["tests/setup/database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    environment: "node",
    globalSetup: ["tests/setup/global.ts"],
    pool: "forks",
    maxWorkers: 2,
    // PUBLIC_URL is the origin the fixtures' requests use (tests/fixtures BASE).
    // DARAJA_URL, AFRICASTALKING_URL: a closed loopback port, so no test can reach Safaricom or Africa's
    // Talking; M-Pesa and SMS tests set their fake's.
    // OUTBOUND_ALLOW: the fake UniFi controller and OAuth provider listen on 127.0.0.1, which
    // operators' settings may not reach without it (app/services/outbound.server.ts); production has none.
    env: {
      NODE_ENV: "test",
      DATA_DIR: "data/test",
      PUBLIC_URL: "http://localhost",
      DARAJA_URL: "http://127.0.0.1:9",
      AFRICASTALKING_URL: "http://127.0.0.1:9",
      OUTBOUND_ALLOW: "127.0.0.1",
    },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"] } },
      integration("sqlite"),
      integration("postgres"),
    ],
  },
});
