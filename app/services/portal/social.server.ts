// Guests' social sign-in: the provider catalogue, the
// organisation's registrations (console, `ctx` first) and the OAuth 2 authorization-code flow with
// PKCE that the guest path runs (app/guest/social.ts). Client secrets are stored with
// encryptSecret and only decrypted here, server-side, to talk to the provider.
import { CodeChallengeMethod, OAuth2Client, OAuth2Tokens, generateCodeVerifier } from "arctic";
import { z } from "zod";
import { db } from "~/db/db.server";
import type { OAuthProviderName } from "~/db/schema";
import { AJIRA_ENDPOINTS, SOCIAL_LOGIN_MESSAGES, SOCIAL_PROVIDERS, isAjiraUrl, type SocialLoginInput } from "~/lib/schemas/social-login";
import { publicOrigin } from "../email.server";
import { requireOwner, type OrgContext } from "../guard.server";
import { outboundFetch, outboundUrlProblem, type OutboundInit } from "../outbound.server";
import { decryptSecret, encryptSecret } from "../secrets.server";

export interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

/** What a sign-in tells about the guest, as the customer's fields (null: the provider did not say). */
export interface SocialDetails {
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  facebook?: string;
  twitter?: string;
}

interface ProviderSpec {
  /** null: no public fixed endpoints; the operator types them (Ajira Digital). */
  endpoints: ProviderEndpoints | null;
  /** The user-info path of the stand-in provider (scripts/fakes/oauth-provider.ts), after /{provider}. */
  standInUserinfo: string;
  scopes: string[];
  /** How the token endpoint takes the client's credentials: HTTP Basic, or in the form (Facebook and LinkedIn refuse Basic). */
  clientAuth: "basic" | "body";
  details(info: unknown): SocialDetails | null;
}

const FACEBOOK_FIELDS = "fields=id,name,email,first_name,last_name";

const CATALOGUE: Record<OAuthProviderName, ProviderSpec> = {
  fb: {
    endpoints: {
      authorizeUrl: "https://www.facebook.com/v19.0/dialog/oauth",
      tokenUrl: "https://graph.facebook.com/v19.0/oauth/access_token",
      userinfoUrl: `https://graph.facebook.com/me?${FACEBOOK_FIELDS}`,
    },
    standInUserinfo: `/me?${FACEBOOK_FIELDS}`,
    scopes: ["public_profile", "email"],
    clientAuth: "body",
    details: facebookDetails,
  },
  google: {
    endpoints: {
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    },
    standInUserinfo: "/userinfo",
    scopes: ["openid", "email", "profile"],
    clientAuth: "basic",
    details: openIdDetails,
  },
  twitter: {
    endpoints: {
      authorizeUrl: "https://twitter.com/i/oauth2/authorize",
      tokenUrl: "https://api.twitter.com/2/oauth2/token",
      userinfoUrl: "https://api.twitter.com/2/users/me",
    },
    standInUserinfo: "/users/me",
    scopes: ["users.read", "tweet.read"],
    clientAuth: "basic",
    details: twitterDetails,
  },
  linkedin: {
    endpoints: {
      authorizeUrl: "https://www.linkedin.com/oauth/v2/authorization",
      tokenUrl: "https://www.linkedin.com/oauth/v2/accessToken",
      userinfoUrl: "https://api.linkedin.com/v2/userinfo",
    },
    standInUserinfo: "/userinfo",
    scopes: ["openid", "profile", "email"],
    clientAuth: "body",
    details: openIdDetails,
  },
  ajira: {
    endpoints: null,
    standInUserinfo: "/userinfo",
    scopes: ["openid", "profile", "email"],
    clientAuth: "basic",
    details: openIdDetails,
  },
};

/** A provider named in a path; the spec's /splash/facebook/login is Facebook too. */
export function socialProvider(name: string | undefined): OAuthProviderName | null {
  if (name === "facebook") return "fb";
  return SOCIAL_PROVIDERS.find((p) => p === name) ?? null;
}

/** The address to register at the provider; the callback must use exactly this one. */
export function redirectUri(provider: OAuthProviderName): string {
  return `${publicOrigin()}/splash/${provider}/callback`;
}

type AjiraSettings = Record<(typeof AJIRA_ENDPOINTS)[number], string | null>;

function parseSettings(stored: string | null): Partial<AjiraSettings> {
  try {
    const value: unknown = JSON.parse(stored ?? "{}");
    return value && typeof value === "object" ? (value as Partial<AjiraSettings>) : {};
  } catch {
    return {};
  }
}

/**
 * Where the provider lives: the catalogue's endpoints, the operator's (https on Ajira Digital's
 * domain, checked again here for rows saved before that rule) for Ajira, or,
 * with a stand-in provider (OAUTH_PROVIDER_URL), {standIn}/{provider}/… for every provider.
 */
export function endpointsFor(provider: OAuthProviderName, settings: Partial<AjiraSettings>, standIn?: string): ProviderEndpoints | null {
  if (standIn) {
    const base = `${standIn}/${provider}`;
    return { authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, userinfoUrl: `${base}${CATALOGUE[provider].standInUserinfo}` };
  }
  const fixed = CATALOGUE[provider].endpoints;
  if (fixed) return fixed;
  const { authorize_url, token_url, userinfo_url } = settings;
  if (![authorize_url, token_url, userinfo_url].every((u) => typeof u === "string" && isAjiraUrl(u))) return null;
  return { authorizeUrl: authorize_url!, tokenUrl: token_url!, userinfoUrl: userinfo_url! };
}

// ---- The organisation's registrations (console) ----

export interface SocialProviderSettings {
  provider: OAuthProviderName;
  clientId: string;
  /** Ajira's endpoints as the operator typed them; empty for the others. */
  settings: Partial<AjiraSettings>;
  updatedAt: number;
}

/** The configured providers, without their secrets (every configured provider has one). */
export async function listSocialProviders(ctx: OrgContext): Promise<SocialProviderSettings[]> {
  const rows = await db
    .selectFrom("oauth_providers")
    .select(["provider", "client_id", "settings", "updated_at"])
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return rows.map((r) => ({
    provider: r.provider,
    clientId: r.client_id,
    settings: parseSettings(r.settings),
    updatedAt: Number(r.updated_at),
  }));
}

export type SaveSocialProviderResult = { ok: true } | { ok: false; errors: Record<string, string[]> };

/**
 * Adds or updates a provider. An empty secret keeps the stored one, so a new provider without a
 * secret is refused. Ajira's token and user-info addresses, which the server calls with the client
 * secret, must not lead inside the server's network. Owner only: see the action of organization+/social-login.tsx.
 */
export async function saveSocialProvider(ctx: OrgContext, input: SocialLoginInput, now = Date.now()): Promise<SaveSocialProviderResult> {
  requireOwner(ctx);
  const errors: Record<string, string[]> = {};
  if (input.provider === "ajira") {
    for (const name of ["token_url", "userinfo_url"] as const) {
      const problem = input[name] ? await outboundUrlProblem(input[name]) : null;
      if (problem) errors[name] = [problem];
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const settings = input.provider === "ajira" ? JSON.stringify(Object.fromEntries(AJIRA_ENDPOINTS.map((k) => [k, input[k]]))) : null;
  if (input.client_secret === null) {
    const updated = await db
      .updateTable("oauth_providers")
      .set({ client_id: input.client_id, settings, updated_at: now })
      .where("organization_id", "=", ctx.org.id)
      .where("provider", "=", input.provider)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1
      ? { ok: true }
      : { ok: false, errors: { client_secret: [SOCIAL_LOGIN_MESSAGES.clientSecretRequired] } };
  }
  const secret = encryptSecret(input.client_secret);
  await db
    .insertInto("oauth_providers")
    .values({
      organization_id: ctx.org.id,
      provider: input.provider,
      client_id: input.client_id,
      client_secret: secret,
      settings,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(["organization_id", "provider"])
        .doUpdateSet({ client_id: input.client_id, client_secret: secret, settings, updated_at: now }),
    )
    .execute();
  return { ok: true };
}

export async function removeSocialProvider(ctx: OrgContext, provider: OAuthProviderName): Promise<void> {
  requireOwner(ctx);
  await db.deleteFrom("oauth_providers").where("organization_id", "=", ctx.org.id).where("provider", "=", provider).execute();
}

// ---- The guest's sign-in ----

export interface SocialClient {
  provider: OAuthProviderName;
  clientId: string;
  clientSecret: string;
  endpoints: ProviderEndpoints;
}

/**
 * The organisation's registration of a provider with its secret decrypted, for the guest path
 * (which has a connect token, not a console context). null when it is not configured; throws when
 * it cannot be used (Ajira without valid endpoints, a secret made under another SECRETS_KEY).
 */
export async function loadSocialClient(
  organizationId: number,
  provider: OAuthProviderName,
  standIn?: string,
): Promise<SocialClient | null> {
  const row = await db
    .selectFrom("oauth_providers")
    .select(["client_id", "client_secret", "settings"])
    .where("organization_id", "=", organizationId)
    .where("provider", "=", provider)
    .executeTakeFirst();
  if (!row) return null;
  const endpoints = endpointsFor(provider, parseSettings(row.settings), standIn);
  if (!endpoints) throw new Error(`${provider} has no valid endpoints`);
  return { provider, clientId: row.client_id, clientSecret: decryptSecret(row.client_secret), endpoints };
}

const STATE_TTL_MS = 10 * 60_000;
const stateShape = z.object({ t: z.string(), p: z.string(), v: z.string(), e: z.number(), l: z.enum(["en", "sw"]).optional() });

/**
 * Captive mini-browsers keep no cookies, so what the callback needs travels in `state`: the
 * connect token, the provider, the PKCE verifier, the language the guest chose and an expiry, encrypted and authenticated, so
 * the verifier stays secret and a state cannot be forged or moved to another provider.
 */
export function sealState(
  flow: { token: string; provider: OAuthProviderName; verifier: string; lang?: "en" | "sw" | null },
  now = Date.now(),
): string {
  const lang = flow.lang ? { l: flow.lang } : {};
  return encryptSecret(JSON.stringify({ t: flow.token, p: flow.provider, v: flow.verifier, e: now + STATE_TTL_MS, ...lang }));
}

/** The flow a state was sealed for, or null when it is not ours, expired or another provider's. */
export function openState(
  sealed: unknown,
  provider: OAuthProviderName,
  now = Date.now(),
): { token: string; verifier: string; lang: "en" | "sw" | null } | null {
  if (typeof sealed !== "string" || sealed.length > 1024) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(decryptSecret(sealed));
  } catch {
    return null;
  }
  const parsed = stateShape.safeParse(payload);
  if (!parsed.success || parsed.data.p !== provider || parsed.data.e <= now) return null;
  return { token: parsed.data.t, verifier: parsed.data.v, lang: parsed.data.l ?? null };
}

/** Where to send the guest: the provider's consent page, with state and a PKCE challenge (S256). */
export function authorizationUrl(client: SocialClient, token: string, now = Date.now(), lang: "en" | "sw" | null = null): string {
  const verifier = generateCodeVerifier();
  const state = sealState({ token, provider: client.provider, verifier, lang }, now);
  const oauth = new OAuth2Client(client.clientId, client.clientSecret, redirectUri(client.provider));
  return oauth.createAuthorizationURLWithPKCE(
    client.endpoints.authorizeUrl,
    state,
    CodeChallengeMethod.S256,
    verifier,
    CATALOGUE[client.provider].scopes,
  ).href;
}

/** A guest waits on the provider's answers: both calls together get this long. */
const PROVIDER_TIMEOUT_MS = 5_000;

/** Exchanges the code and reads who signed in; throws on any failure of the provider or after 5 s. */
export async function guestDetails(client: SocialClient, code: string, verifier: string): Promise<SocialDetails> {
  const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  const accessToken = await exchangeCode(client, code, verifier, signal);
  const info = await fetchJson(client.endpoints.userinfoUrl, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
    signal,
  });
  const details = CATALOGUE[client.provider].details(info);
  if (!details) throw new Error(`${client.provider} user info has no id`);
  return details;
}

// Not arctic's validateAuthorizationCode: it always sends HTTP Basic (Facebook and LinkedIn want
// the credentials in the form) and takes no AbortSignal (a hung provider must not hold the guest).
async function exchangeCode(client: SocialClient, code: string, verifier: string, signal: AbortSignal): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri(client.provider),
    code_verifier: verifier,
  });
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  if (CATALOGUE[client.provider].clientAuth === "basic") {
    headers.Authorization = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`;
  } else {
    body.set("client_id", client.clientId);
    body.set("client_secret", client.clientSecret);
  }
  const data = await fetchJson(client.endpoints.tokenUrl, { method: "POST", headers, body, signal });
  return new OAuth2Tokens(data as object).accessToken();
}

// outboundFetch: Ajira's addresses are the operator's, so internal ones are refused on every call;
// and no provider's redirect is followed (a 307 would send the client secret on), a 3xx is a failure.
async function fetchJson(url: string, init: OutboundInit): Promise<unknown> {
  const res = await outboundFetch(url, init);
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${new URL(url).host} answered ${res.status}`);
  }
  const data: unknown = await res.json();
  if (!data || typeof data !== "object") throw new Error(`${new URL(url).host} answered no JSON object`);
  return data;
}

// ---- User info → customer details ----

function clean(value: unknown, max = 100): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

/** A verified-looking e-mail address; one the provider says is unverified is not taken. */
function cleanEmail(value: unknown, verified: unknown): string | null {
  const address = clean(value, 254)?.toLowerCase() ?? null;
  return address && verified !== false && verified !== "false" && z.string().email().safeParse(address).success ? address : null;
}

/** "Amina Wanjiru Otieno" → first "Amina", last "Wanjiru Otieno", when the provider gives one name only. */
export function splitName(name: unknown): { first_name: string | null; last_name: string | null } {
  const parts = clean(name, 200)?.split(/\s+/) ?? [];
  return { first_name: clean(parts[0]), last_name: clean(parts.slice(1).join(" ")) };
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" ? (value as Record<string, unknown>) : {};
const idOf = (value: unknown): string | null => (typeof value === "number" ? String(value) : clean(value, 64));

/** Graph API /me: id, name, email, first_name, last_name. */
export function facebookDetails(info: unknown): SocialDetails | null {
  const me = asRecord(info);
  const id = idOf(me.id);
  if (!id) return null;
  const split = splitName(me.name);
  return {
    first_name: clean(me.first_name) ?? split.first_name,
    last_name: clean(me.last_name) ?? split.last_name,
    email_address: cleanEmail(me.email, true),
    facebook: id,
  };
}

/** X API v2 /users/me: { data: { id, name, username } }; X gives no e-mail. */
export function twitterDetails(info: unknown): SocialDetails | null {
  const user = asRecord(asRecord(info).data);
  const username = clean(user.username, 50);
  if (!idOf(user.id) || !username) return null;
  return { ...splitName(user.name), email_address: null, twitter: `@${username}` };
}

/** OpenID Connect userinfo (Google, LinkedIn, Ajira Digital): sub, given_name, family_name, name, email, email_verified. */
export function openIdDetails(info: unknown): SocialDetails | null {
  const claims = asRecord(info);
  if (!idOf(claims.sub)) return null;
  const split = splitName(claims.name);
  return {
    first_name: clean(claims.given_name) ?? split.first_name,
    last_name: clean(claims.family_name) ?? split.last_name,
    email_address: cleanEmail(claims.email, claims.email_verified),
  };
}
