// The one-time RADIUS login of a connection: the gateway's login form gets a
// username naming the connection and a password Mlango can recompute (an HMAC of the connection and
// its token under SECRETS_KEY), so nothing is stored and nothing is valid for another connection.
// The guest's browser posts them to the gateway from an auto-submitting page (loginPage).
import crypto from "node:crypto";
import { html, Html } from "../portal/html.server";
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

const SUBMIT = "document.getElementById('login').submit()";
/** The page's one script, allowed by its hash (the page is still sandboxed: no cookies, no storage). */
export const LOGIN_CSP = `sandbox allow-forms allow-scripts allow-top-navigation; default-src 'none'; script-src 'sha256-${crypto.createHash("sha256").update(SUBMIT).digest("base64")}'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`;

/**
 * The page that logs the guest in at the gateway: the form submits itself; without JavaScript the
 * guest presses the button.
 */
export function loginPage(form: LoginForm, networkName: string): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Connecting…</title><style>${new Html(
    "body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#0f172a;background:#f1f5f9}main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}button{display:block;width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}p{color:#475569}",
  )}</style></head><body><main><div class="card"><p>${networkName}</p><h1>You are almost online</h1><form id="login" method="post" action="${form.action}">${form.fields.map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<p>Press the button if nothing happens.</p><button type="submit">Go online</button></form></div></main><script>${new Html(SUBMIT)}</script></body></html>`
    .text;
}
