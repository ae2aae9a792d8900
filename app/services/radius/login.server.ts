// The one-time RADIUS login of a connection: the gateway's login form gets a
// username naming the connection and a password Mlango can recompute (an HMAC of the connection and
// its token under SECRETS_KEY), so nothing is stored and nothing is valid for another connection.
// The guest's browser posts them to the gateway from an auto-submitting page (loginPage in
// app/guest/pages.tsx, which runs LOGIN_SCRIPT under LOGIN_CSP).
import crypto from "node:crypto";
import { derivedKey } from "../secrets.server";

const USERNAME = /^mlg([1-9][0-9]{0,14})$/;

export const radiusUsername = (connectionId: number): string => `mlg${connectionId}`;

/** The connection a RADIUS User-Name names, or null. */
export function connectionIdOf(username: string | null | undefined): number | null {
  const match = USERNAME.exec(username ?? "");
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

let passwordKey: Buffer | undefined;

/** The connection's password: 24 URL-safe characters, recomputed from its id and token hash. */
export function radiusPassword(connectionId: number, tokenHash: string): string {
  passwordKey ??= derivedKey("radius-login-password");
  return crypto.createHmac("sha256", passwordKey).update(`${connectionId}:${tokenHash}`).digest("base64url").slice(0, 24);
}

/**
 * MikroTik's $(chap-id) and $(chap-challenge) as its login.html writes them: each byte as a
 * backslash and three octal digits. Answers the bytes in hex, or null when the text is not that.
 */
export function octalBytesHex(text: string | null): string | null {
  if (!text || text.length > 4 * 64 || !/^(\\[0-3][0-7]{2})+$/.test(text)) return null;
  const bytes = text
    .split("\\")
    .slice(1)
    .map((o) => parseInt(o, 8));
  return Buffer.from(bytes).toString("hex");
}

/** What MikroTik's login page computes in JavaScript for CHAP: md5(id + password + challenge), hex. */
export function chapResponse(chapIdHex: string, password: string, challengeHex: string): string {
  return crypto
    .createHash("md5")
    .update(Buffer.concat([Buffer.from(chapIdHex, "hex"), Buffer.from(password, "utf8"), Buffer.from(challengeHex, "hex")]))
    .digest("hex");
}

export interface LoginForm {
  /** The gateway's login address (from its redirect). */
  action: string;
  fields: [name: string, value: string][];
}

/** The login page's one script: it submits the form to the gateway. */
export const LOGIN_SCRIPT = "document.getElementById('login').submit()";
/** The page's one script, allowed by its hash (the page is still sandboxed: no cookies, no storage). */
export const LOGIN_CSP = `sandbox allow-forms allow-scripts allow-top-navigation; default-src 'none'; script-src 'sha256-${crypto.createHash("sha256").update(LOGIN_SCRIPT).digest("base64")}'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`;
