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
