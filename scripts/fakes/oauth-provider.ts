/**
 * A fake OAuth 2 / OpenID Connect provider for guests' social sign-in (fb, google, twitter,
 * linkedin, ajira), used by tests, the demo and the gateway simulator.
 *
 * Each provider lives under /{provider}: GET+POST /authorize (a consent page without JavaScript),
 * POST /token (authorization code grant, client secret in the body or HTTP Basic, PKCE S256 when
 * a code_challenge was sent) and a user-info endpoint shaped like the real provider's.
 * node:http only; listens on 127.0.0.1. Run it on its own with
 *   npx tsx scripts/fakes/oauth-provider.ts --port 9400
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readBody } from "./read-body";

export interface FakeIdentity {
  id: string;
  email?: string;
  given_name: string;
  family_name: string;
  username?: string;
}

export interface FakeOAuth {
  url: string;
  /** client registrations per provider: client_id → client_secret; requests with others fail */
  clients: Map<string, { clientId: string; clientSecret: string }>; // key = provider
  /** who "signs in" at the consent page (default: Amina Otieno, amina.otieno@example.com, id "fake-1001") */
  identity: FakeIdentity;
  /** set true to make the token endpoint answer 500 (a configured provider that fails) */
  failing: boolean;
  close(): Promise<void>;
}

export interface FakeOAuthOptions {
  port?: number;
  clients?: Record<string, { clientId: string; clientSecret: string }>;
}

const PROVIDERS = { fb: "Facebook", google: "Google", twitter: "Twitter", linkedin: "LinkedIn", ajira: "Ajira" };
type Provider = keyof typeof PROVIDERS;
const USERINFO_PATH: Record<Provider, string> = {
  fb: "/me",
  google: "/userinfo",
  twitter: "/users/me",
  linkedin: "/userinfo",
  ajira: "/userinfo",
};

const CODE_TTL_MS = 5 * 60_000;
const TOKEN_TTL_S = 3600;
/** Authorization request parameters the consent form carries over to its POST. */
const AUTH_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method"];

interface AuthRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  scope: string;
  codeChallenge: string | null;
}
interface Grant {
  provider: Provider;
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string;
  identity: FakeIdentity;
  expiresAt: number;
}
type AccessToken = Pick<Grant, "provider" | "identity" | "expiresAt">;

const isProvider = (name: string): name is Provider => Object.hasOwn(PROVIDERS, name);
const randomToken = () => randomBytes(24).toString("base64url");
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const fullName = (identity: FakeIdentity) => `${identity.given_name} ${identity.family_name}`;
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(text);
}

/** Client credentials from HTTP Basic auth (as arctic sends them, not url-encoded) or the body. */
function clientCredentials(req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return id !== null && secret !== null ? { id, secret } : null;
}

function userInfo(provider: Provider, identity: FakeIdentity): unknown {
  const name = fullName(identity);
  const hasEmail = identity.email !== undefined;
  switch (provider) {
    case "fb":
      return {
        id: identity.id,
        name,
        ...(hasEmail && { email: identity.email }),
        first_name: identity.given_name,
        last_name: identity.family_name,
      };
    case "twitter":
      return { data: { id: identity.id, name, username: identity.username ?? identity.id } };
    default: // google, linkedin, ajira: OpenID Connect userinfo
      return {
        sub: identity.id,
        ...(hasEmail && { email: identity.email, email_verified: true }),
        given_name: identity.given_name,
        family_name: identity.family_name,
        name,
      };
  }
}

function consentPage(provider: Provider, identity: FakeIdentity, params: URLSearchParams): string {
  const title = `Sign in with ${PROVIDERS[provider]}`;
  const hidden = AUTH_PARAMS.flatMap((key) => {
    const value = params.get(key);
    return value === null ? [] : [`<input type="hidden" name="${key}" value="${escapeHtml(value)}">`];
  });
  const email = identity.email ? ` (${escapeHtml(identity.email)})` : "";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body>
<h1>${title}</h1>
<p>Continue as <strong>${escapeHtml(fullName(identity))}</strong>${email}?</p>
<form method="post" action="/${provider}/authorize">
${hidden.join("\n")}
<button name="decision" value="allow">Allow</button>
<button name="decision" value="deny">Cancel</button>
</form>
</body>
</html>
`;
}

export async function startFakeOAuth(options: FakeOAuthOptions = {}): Promise<FakeOAuth> {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, AccessToken>();

  /** Checks an authorization request (query of the GET, form of the POST); a string is the error. */
  function checkAuthRequest(provider: Provider, params: URLSearchParams): AuthRequest | string {
    const clientId = params.get("client_id");
    if (clientId === null || fake.clients.get(provider)?.clientId !== clientId) return "unknown client_id";
    if (params.get("response_type") !== "code") return "response_type must be code";
    const redirectUri = params.get("redirect_uri") ?? "";
    if (!URL.canParse(redirectUri) || !["http:", "https:"].includes(new URL(redirectUri).protocol)) {
      return "redirect_uri must be an http(s) URL";
    }
    const codeChallenge = params.get("code_challenge");
    if (codeChallenge !== null && params.get("code_challenge_method") !== "S256") {
      return "code_challenge_method must be S256";
    }
    return { clientId, redirectUri, state: params.get("state"), scope: params.get("scope") ?? "", codeChallenge };
  }

  function decide(res: ServerResponse, provider: Provider, form: URLSearchParams): void {
    const request = checkAuthRequest(provider, form);
    if (typeof request === "string") return sendText(res, 400, request);
    const decision = form.get("decision");
    if (decision !== "allow" && decision !== "deny") return sendText(res, 400, "decision must be allow or deny");
    const target = new URL(request.redirectUri);
    if (decision === "allow") {
      const now = Date.now();
      for (const [code, grant] of codes) if (grant.expiresAt <= now) codes.delete(code);
      const code = randomToken();
      const { clientId, redirectUri, codeChallenge, scope } = request;
      const identity = { ...fake.identity };
      codes.set(code, { provider, clientId, redirectUri, codeChallenge, scope, identity, expiresAt: now + CODE_TTL_MS });
      target.searchParams.set("code", code);
    } else {
      target.searchParams.set("error", "access_denied");
    }
    if (request.state !== null) target.searchParams.set("state", request.state);
    res.writeHead(302, { Location: target.href, "Cache-Control": "no-store" });
    res.end();
  }

  function token(req: IncomingMessage, res: ServerResponse, provider: Provider, form: URLSearchParams): void {
    const client = fake.clients.get(provider);
    const credentials = clientCredentials(req, form);
    if (!client || !credentials || credentials.id !== client.clientId || credentials.secret !== client.clientSecret) {
      return sendJson(res, 401, { error: "invalid_client" }, { "WWW-Authenticate": 'Basic realm="fake-oauth"' });
    }
    if (form.get("grant_type") !== "authorization_code") return sendJson(res, 400, { error: "unsupported_grant_type" });
    const code = form.get("code") ?? "";
    const grant = codes.get(code);
    codes.delete(code); // single use, even when this attempt fails
    const verifier = form.get("code_verifier");
    const valid =
      grant !== undefined &&
      grant.expiresAt > Date.now() &&
      grant.provider === provider &&
      grant.clientId === credentials.id &&
      grant.redirectUri === form.get("redirect_uri") &&
      (grant.codeChallenge === null || (verifier !== null && s256(verifier) === grant.codeChallenge));
    if (!valid) return sendJson(res, 400, { error: "invalid_grant" });
    const accessToken = randomToken();
    tokens.set(accessToken, { provider, identity: grant.identity, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
    sendJson(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_TTL_S, scope: grant.scope });
  }

  function me(req: IncomingMessage, res: ServerResponse, provider: Provider, query: URLSearchParams): void {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    // The Graph API also takes the token as a query parameter.
    const presented = bearer ?? (provider === "fb" ? query.get("access_token") : null) ?? "";
    const access = tokens.get(presented);
    if (!access || access.provider !== provider || access.expiresAt <= Date.now()) {
      return sendJson(res, 401, { error: "invalid_token" }, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
    }
    sendJson(res, 200, userInfo(provider, access.identity));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://oauth.invalid");
    const match = /^\/([a-z]+)(\/.*)$/.exec(url.pathname);
    const provider = match?.[1] ?? "";
    const endpoint = match?.[2] ?? "";
    if (!isProvider(provider)) return sendText(res, 404, "Not found");
    const method = req.method ?? "GET";

    if (method === "GET" && endpoint === "/authorize") {
      const request = checkAuthRequest(provider, url.searchParams);
      if (typeof request === "string") return sendText(res, 400, request);
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'",
      });
      return void res.end(consentPage(provider, fake.identity, url.searchParams));
    }
    if (method === "GET" && endpoint === USERINFO_PATH[provider]) return me(req, res, provider, url.searchParams);
    if (method !== "POST" || (endpoint !== "/authorize" && endpoint !== "/token")) return sendText(res, 404, "Not found");

    if (endpoint === "/token" && fake.failing) return sendJson(res, 500, { error: "server_error" });
    const body = await readBody(req);
    if (body === null) return sendText(res, 413, "Request body too large");
    const form = new URLSearchParams(body.toString("utf8"));
    if (endpoint === "/authorize") decide(res, provider, form);
    else token(req, res, provider, form);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, "Internal error");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });

  const fake: FakeOAuth = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clients: new Map(Object.entries(options.clients ?? {})),
    identity: {
      id: "fake-1001",
      email: "amina.otieno@example.com",
      given_name: "Amina",
      family_name: "Otieno",
      username: "amina_otieno",
    },
    failing: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", default: "9400" } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Bad --port: ${values.port}`);
  const demo = { clientId: "mlango-demo", clientSecret: "mlango-demo-secret" };
  const clients = Object.fromEntries(Object.keys(PROVIDERS).map((provider) => [provider, demo]));
  const fake = await startFakeOAuth({ port, clients });
  console.log(`Fake OAuth provider at ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
