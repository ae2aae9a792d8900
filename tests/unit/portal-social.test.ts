import { describe, expect, it } from "vitest";
import {
  endpointsFor,
  facebookDetails,
  openIdDetails,
  openState,
  sealState,
  socialProvider,
  splitName,
  twitterDetails,
} from "~/services/portal/social.server";

describe("user info → customer details", () => {
  it("reads Facebook's /me, keeping the id", () => {
    expect(
      facebookDetails({ id: "10001", name: "Amina Otieno", email: "Amina@Example.com", first_name: "Amina", last_name: "Otieno" }),
    ).toEqual({
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
      facebook: "10001",
    });
    expect(facebookDetails({ id: 42, name: "Baraka Mwangi" })).toEqual({
      first_name: "Baraka",
      last_name: "Mwangi",
      email_address: null,
      facebook: "42",
    });
    expect(facebookDetails({ name: "No Id" })).toBeNull();
  });

  it("reads X's /users/me as @username with the name split, and no e-mail", () => {
    expect(twitterDetails({ data: { id: "7", name: "Amina Wanjiru Otieno", username: "amina_otieno" } })).toEqual({
      first_name: "Amina",
      last_name: "Wanjiru Otieno",
      email_address: null,
      twitter: "@amina_otieno",
    });
    expect(twitterDetails({ id: "7", username: "flat" })).toBeNull();
  });

  it("reads OpenID Connect userinfo, refusing an e-mail the provider says is unverified", () => {
    expect(
      openIdDetails({ sub: "s1", given_name: "Amina", family_name: "Otieno", email: "amina@example.com", email_verified: true }),
    ).toEqual({
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
    });
    expect(openIdDetails({ sub: "s1", name: "Kip", email: "kip@example.com", email_verified: false })).toEqual({
      first_name: "Kip",
      last_name: null,
      email_address: null,
    });
    expect(openIdDetails({ sub: "s1", email: "not an address" })?.email_address).toBeNull();
    expect(openIdDetails({ given_name: "No Sub" })).toBeNull();
    expect(openIdDetails("nonsense")).toBeNull();
  });

  it("splits a single name field and trims what is too long", () => {
    expect(splitName("  Amina  ")).toEqual({ first_name: "Amina", last_name: null });
    expect(splitName(null)).toEqual({ first_name: null, last_name: null });
    expect(splitName(`${"a".repeat(150)} b`).first_name).toHaveLength(100);
  });
});

describe("provider endpoints", () => {
  it("uses the real endpoints, or the stand-in provider's for every provider", () => {
    expect(endpointsFor("google", {})).toEqual({
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    });
    expect(endpointsFor("twitter", {}, "http://127.0.0.1:9400")).toEqual({
      authorizeUrl: "http://127.0.0.1:9400/twitter/authorize",
      tokenUrl: "http://127.0.0.1:9400/twitter/token",
      userinfoUrl: "http://127.0.0.1:9400/twitter/users/me",
    });
    expect(endpointsFor("fb", {}, "http://fake")!.userinfoUrl).toBe("http://fake/fb/me?fields=id,name,email,first_name,last_name");
  });

  it("takes Ajira Digital's endpoints from its settings, https on its domain only (rows saved before that rule too)", () => {
    const urls = {
      authorize_url: "https://id.ajiradigital.go.ke/auth",
      token_url: "https://id.ajiradigital.go.ke/token",
      userinfo_url: "https://ajiradigital.go.ke/me",
    };
    expect(endpointsFor("ajira", urls)).toEqual({
      authorizeUrl: urls.authorize_url,
      tokenUrl: urls.token_url,
      userinfoUrl: urls.userinfo_url,
    });
    expect(endpointsFor("ajira", { ...urls, token_url: "http://id.ajiradigital.go.ke/token" })).toBeNull();
    expect(endpointsFor("ajira", { ...urls, token_url: "https://a.example/token" })).toBeNull();
    expect(endpointsFor("ajira", { ...urls, userinfo_url: "https://169.254.169.254/latest/meta-data" })).toBeNull();
    expect(endpointsFor("ajira", {})).toBeNull();
  });

  it("knows the spec's facebook path and nothing unlisted", () => {
    expect(socialProvider("facebook")).toBe("fb");
    expect(socialProvider("linkedin")).toBe("linkedin");
    expect(socialProvider("github")).toBeNull();
    expect(socialProvider(undefined)).toBeNull();
  });
});

describe("state", () => {
  const flow = { token: "t".repeat(32), provider: "google" as const, verifier: "v".repeat(43) };

  it("opens for its provider within ten minutes", () => {
    const now = Date.now();
    const sealed = sealState(flow, now);
    expect(sealed).not.toContain(flow.token);
    expect(openState(sealed, "google", now + 9 * 60_000)).toEqual({ token: flow.token, verifier: flow.verifier, lang: null });
    expect(openState(sealState({ ...flow, lang: "sw" }, now), "google", now)).toMatchObject({ lang: "sw" });
    expect(openState(sealed, "google", now + 10 * 60_000)).toBeNull();
    expect(openState(sealed, "twitter", now)).toBeNull();
  });

  it("refuses anything it did not seal", () => {
    const sealed = sealState(flow);
    // A changed character inside the ciphertext (the last one may only carry padding bits).
    const at = sealed.length - 5;
    expect(openState(`${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`, "google")).toBeNull();
    expect(openState("v1.a.b.c", "google")).toBeNull();
    expect(openState(["array"], "google")).toBeNull();
    expect(openState(undefined, "google")).toBeNull();
  });
});
