// The environment reader (app/config.server.mjs, through app/env.server.ts), which the app and the
// HTTP server (server.mjs, server/*.mjs) share: defaults, refusals that name the variable, and a
// start that stops on a bad value.
import { spawnSync } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

const KEY = "ab".repeat(32);

describe("parseEnv", () => {
  it("refuses a production start without SESSION_SECRET, saying what to set", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET is not set/);
  });
  it("refuses a production start without PUBLIC_URL, since mailed links may not come from request headers", () => {
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: "a-long-enough-secret-value", SECRETS_KEY: KEY })).toThrow(
      /PUBLIC_URL is not set/,
    );
  });
  it("refuses a production start without SECRETS_KEY, which encrypts stored credentials", () => {
    expect(() =>
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: "a-long-enough-secret-value", PUBLIC_URL: "https://console.example.com" }),
    ).toThrow(/SECRETS_KEY is not set/);
    expect(() => parseEnv({ SECRETS_KEY: "too-short" })).toThrow(/SECRETS_KEY must be 32 bytes/);
  });
  it("accepts a production start with a secret and a public address", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "a-long-enough-secret-value",
      PUBLIC_URL: "https://console.example.com/",
      SECRETS_KEY: KEY,
    });
    expect(env.SESSION_SECRET).toBe("a-long-enough-secret-value");
    expect(env.PUBLIC_URL).toBe("https://console.example.com");
  });
  it("uses the local server as the public address outside production", () => {
    expect(parseEnv({ PORT: "4000" }).PUBLIC_URL).toBe("http://localhost:4000");
  });
  it("uses a development secret outside production", () => {
    expect(parseEnv({}).SESSION_SECRET).toMatch(/development/);
  });
  it("names the variable that is malformed", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
  });
});

describe("the settings' defaults", () => {
  it("are README's when nothing is set", () => {
    expect(parseEnv({})).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "0.0.0.0",
      PUBLIC_URL: "http://localhost:3000",
      DATA_DIR: "data",
      MAIL_FROM: "Mlango <no-reply@mlango.local>",
      REPORT_SCHEDULER: "on",
      JOBS_WORKER: "on",
      REQUEST_LOG: "on",
      WEB_CONCURRENCY: 1,
      PORTAL_IDLE_MINUTES: 15,
      RADIUS_INTERIM_SECONDS: 60,
    });
    const env = parseEnv({});
    for (const unset of [
      "DATABASE_URL",
      "SMTP_URL",
      "SECRETS_KEY",
      "TRUST_PROXY",
      "RADIUS_API_SECRET",
      "MAP_STYLE_URL",
      "OAUTH_PROVIDER_URL",
      "DARAJA_URL",
      "AFRICASTALKING_URL",
      "REMIX_DEV_ORIGIN",
    ] as const)
      expect(env[unset], unset).toBeUndefined();
  });
  it("treat an empty value as unset", () => {
    expect(parseEnv({ HOST: "", TRUST_PROXY: "", WEB_CONCURRENCY: "", PUBLIC_URL: "" })).toMatchObject({
      HOST: "0.0.0.0",
      TRUST_PROXY: undefined,
      WEB_CONCURRENCY: 1,
      PUBLIC_URL: "http://localhost:3000",
    });
  });
});

describe("the settings of the HTTP server", () => {
  it("read WEB_CONCURRENCY as a number of processes or auto, and refuse anything else", () => {
    expect(parseEnv({ WEB_CONCURRENCY: "3" }).WEB_CONCURRENCY).toBe(3);
    expect(parseEnv({ WEB_CONCURRENCY: "auto" }).WEB_CONCURRENCY).toBe(os.availableParallelism());
    for (const bad of ["0", "-1", "1.5", "two", "65"])
      expect(() => parseEnv({ WEB_CONCURRENCY: bad }), bad).toThrow(
        `WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto"; got "${bad}"`,
      );
  });
  it("read TRUST_PROXY as a number of proxies or Express's list of addresses, and refuse anything else", () => {
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(0);
    for (const list of ["loopback", "10.0.0.1", "10.0.0.0/8, 192.168.0.0/255.255.0.0", "loopback,::1,fd00::/8"])
      expect(parseEnv({ TRUST_PROXY: list }).TRUST_PROXY, list).toBe(list);
    for (const bad of ["true", "one", "1.5", "10.0.0.0/33", "10.0.0.1/8/8", "localhost"])
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: TRUST_PROXY must be a number of proxies/);
  });
  it("read HOST and PORT as given", () => {
    expect(parseEnv({ HOST: "127.0.0.1", PORT: "4000" })).toMatchObject({ HOST: "127.0.0.1", PORT: 4000 });
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
  });
});

describe("a start with a bad setting", () => {
  it("stops before serving, naming every variable to fix", () => {
    // server.mjs reads the environment before it loads the build: no build is needed to see this.
    const start = spawnSync(process.execPath, ["server.mjs"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: "eighty", WEB_CONCURRENCY: "many", TRUST_PROXY: "yes" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(start.status).toBe(1);
    expect(start.stderr).toMatch(/^Invalid environment:\n/);
    for (const name of ["PORT", "WEB_CONCURRENCY", "TRUST_PROXY"]) expect(start.stderr).toContain(`  ${name}: `);
    expect(start.stdout).toBe("");
  });
});
