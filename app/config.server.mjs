// @ts-check
// The whole environment Mlango reads, validated once per process. Plain JavaScript, so that the HTTP
// server around the app (server.mjs, server/*.mjs, run by Node without a build) reads the same
// settings as the app, which imports this through app/env.server.ts. README's Configuration table
// describes the variables.
import net from "node:net";
import os from "node:os";
import { z } from "zod";
import { parseAllowList } from "./lib/outbound-allow.mjs";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().trim().optional(),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters long.").optional(),
  SMTP_URL: z.string().trim().optional(),
  // The console's own address: every link in a mail is built from it, never from request headers.
  PUBLIC_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^https?:\/\/[^/?#]+/.test(v), "PUBLIC_URL must be a full URL such as https://console.example.com"),
  // Encrypts stored credentials (gateway secrets, controller passwords, OAuth client secrets):
  // 32 bytes as 64 hex characters or base64. Required in production.
  SECRETS_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, "base64").length === 32,
      "SECRETS_KEY must be 32 bytes: 64 hexadecimal characters or 44 base64 characters.",
    ),
  // Guests' social sign-in against one stand-in provider: every provider's endpoints become
  // {OAUTH_PROVIDER_URL}/{provider}/… (scripts/fakes/oauth-provider.ts), for tests, the demo and the simulator.
  OAUTH_PROVIDER_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v?.replace(/\/+$/, "") || undefined)
    .refine((v) => v === undefined || /^https?:\/\/[^/?#]+/.test(v), "OAUTH_PROVIDER_URL must be a full URL such as http://127.0.0.1:9400"),
  // M-Pesa against a stand-in Daraja (scripts/fakes/daraja.ts) for tests, the demo and the
  // simulator: every organisation's sandbox and production address becomes {DARAJA_URL}.
  DARAJA_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v?.replace(/\/+$/, "") || undefined)
    .refine((v) => v === undefined || /^https?:\/\/[^/?#]+/.test(v), "DARAJA_URL must be a full URL such as http://127.0.0.1:3199"),
  // SMS against a stand-in Africa's Talking (scripts/fakes/africastalking.ts) for tests, the demo and
  // the simulator: the live and sandbox API addresses become {AFRICASTALKING_URL}.
  AFRICASTALKING_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v?.replace(/\/+$/, "") || undefined)
    .refine((v) => v === undefined || /^https?:\/\/[^/?#]+/.test(v), "AFRICASTALKING_URL must be a full URL such as http://127.0.0.1:3198"),
  // A guest whose gateway sends accounting is ended this many minutes after the last record.
  PORTAL_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  // RADIUS (docs/radius.md): the secret FreeRADIUS's rest module sends (HTTP basic,
  // user "freeradius"); unset, /radius/* answers 503. How often gateways send interim accounting.
  RADIUS_API_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    // URL-safe: it travels in FreeRADIUS's basic authentication and in a query (authenticate).
    .refine((v) => v === undefined || /^[A-Za-z0-9_-]{16,256}$/.test(v), "RADIUS_API_SECRET must be 16 to 256 letters, digits, '-' or '_'"),
  // Hosts an operator's settings may point the server at although they are internal addresses
  // (app/services/outbound.server.ts): host names, addresses and CIDR ranges, comma-separated, e.g.
  // "unifi.lan,10.20.0.0/16" for an on-premise UniFi controller. Unset: none (production has no default).
  OUTBOUND_ALLOW: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .superRefine((v, ctx) => {
      const parsed = parseAllowList(v);
      if (!parsed.ok) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `OUTBOUND_ALLOW: "${parsed.entry}" is neither a host name, an IP address nor a CIDR range (such as 10.20.0.0/16).`,
        });
      }
    }),
  RADIUS_INTERIM_SECONDS: z.coerce.number().int().min(30).max(3600).default(60),
  MAIL_FROM: z.string().default("Mlango <no-reply@mlango.local>"),
  DATA_DIR: z.string().default("data"),
  // Report e-mails: the job queue sends the due ones every minute (the claim is in the database);
  // "off" leaves it to `npm run mlango -- reports:run` from cron.
  REPORT_SCHEDULER: z.enum(["on", "off"]).default("on"),
  // This process works the job queue (mail, report e-mails); "off" for a web-only instance beside
  // a separate `npm run mlango -- jobs:work`.
  JOBS_WORKER: z.enum(["on", "off"]).default("on"),
  // One JSON line per request on stdout (server/app.mjs); "off" keeps a terminal quiet (the demo's default).
  REQUEST_LOG: z.enum(["on", "off"]).default("on"),
  // The network map's style (a MapLibre style JSON). Unset: a plain background, no outside requests.
  MAP_STYLE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || v.startsWith("/") || /^https?:\/\/[^/]+/.test(v),
      "MAP_STYLE_URL must be an http(s) URL or a path on this server",
    ),
  // The HTTP server (server.mjs): the address it listens on.
  HOST: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || "0.0.0.0"),
  // Forwarded headers are believed only behind TRUST_PROXY: a number of proxies, or the addresses
  // and subnets Express's "trust proxy" takes (10.0.0.1, 10.0.0.0/8, loopback, linklocal, uniquelocal).
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (/^\d+$/.test(v)) return Number(v);
      if (v.split(",").every((item) => isTrustedProxy(item.trim()))) return v;
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `TRUST_PROXY must be a number of proxies, or addresses and subnets such as 10.0.0.0/8 or loopback; got "${v}"`,
      });
      return z.NEVER;
    }),
  // Web processes sharing the port (server/cluster.mjs): a number, or "auto" for one per core; 1 when unset.
  WEB_CONCURRENCY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return 1;
      if (v === "auto") return os.availableParallelism();
      const n = Number(v);
      if (Number.isInteger(n) && n >= 1 && n <= 64) return n;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto"; got "${v}"` });
      return z.NEVER;
    }),
  // Set by `remix dev` (npm run dev) for the server it runs: where to report each new build; its
  // live reload needs a WebSocket, which the content security policy then allows.
  REMIX_DEV_ORIGIN: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
});

/**
 * One entry of an Express "trust proxy" list: an address, a subnet (prefix or mask) or a named range.
 * @param {string} item
 */
function isTrustedProxy(item) {
  if (["loopback", "linklocal", "uniquelocal"].includes(item)) return true;
  const [address, range, ...rest] = item.split("/");
  const family = net.isIP(address ?? "");
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

// One parsed environment per process, kept on globalThis like the database (db.server.ts): the build
// has a copy of this module and server/*.mjs another, and the HTTP tests run the built server in the
// test process; all must see the same settings.
/** @type {{ __mlangoEnv?: ReturnType<typeof parseEnv> }} */
const globalStore = /** @type {any} */ (globalThis);

export function getEnv() {
  globalStore.__mlangoEnv ??= parseEnv(process.env);
  return globalStore.__mlangoEnv;
}

/**
 * Validates an environment; throws a message that names each variable to fix.
 * @param {Record<string, string | undefined>} source
 */
export function parseEnv(source) {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (!env.SESSION_SECRET && env.NODE_ENV === "production") {
    throw new Error("SESSION_SECRET is not set. Set it to a long random string (see .env.example) before starting in production.");
  }
  if (!env.SECRETS_KEY && env.NODE_ENV === "production") {
    throw new Error(
      "SECRETS_KEY is not set. Set it to 32 random bytes as 64 hexadecimal characters (openssl rand -hex 32) before starting in production: it encrypts stored gateway and provider credentials.",
    );
  }
  if (!env.PUBLIC_URL && env.NODE_ENV === "production") {
    // Without it, mailed links would have to trust the request's Host header (an attacker's choice).
    throw new Error(
      "PUBLIC_URL is not set. Set it to the address people use to reach the console (e.g. https://console.example.com) before starting in production.",
    );
  }
  return {
    ...env,
    // Development and tests: the local server, and a fixed secret that keeps sessions valid across restarts.
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? "mlango-development-secret-not-for-production",
  };
}
