import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

describe("parseEnv", () => {
  it("refuses a production start without SESSION_SECRET, saying what to set", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET is not set/);
  });
  it("accepts a production start with a secret", () => {
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "a-long-enough-secret-value" }).SESSION_SECRET).toBe(
      "a-long-enough-secret-value",
    );
  });
  it("uses a development secret outside production", () => {
    expect(parseEnv({}).SESSION_SECRET).toMatch(/development/);
  });
  it("names the variable that is malformed", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
  });
});
