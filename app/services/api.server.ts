// Shared plumbing of the Account service REST API (/account/api/v1/…,
// docs/guide/api.md#account-service): method dispatch, bearer authentication, body parsing (JSON
// or form data) into the FormData the pages' conform/zod schemas read, and the answer shapes the
// spec's client reads:
//   success  { data: … }                        (reset password: { message })
//   422      { errors: { field: [first message] } }
//   4xx/5xx  { error: { message } }             (401, 403, 404, 405, 413, 415, 429, 400)
// The routes call the same service functions as the pages; nothing here knows a domain.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { z, ZodTypeAny } from "zod";
import { parseId } from "~/lib/ids";
import type { Permission } from "~/lib/permissions";
import { guardedParseWithZod } from "./forms.server";
import { requireOrg, requireUser, type AuthUser, type OrgContext } from "./guard.server";

/** Bodies of the account API are a few fields; anything bigger is refused before parsing. */
export const API_MAX_BODY_BYTES = 64 * 1024;

export const API_MESSAGES = {
  unauthenticated: "Unauthenticated.",
  malformedBody: "The request body is not valid JSON or form data.",
  notAnObject: "The request body must be a JSON object of fields.",
  tooLarge: tooLargeMessage(API_MAX_BODY_BYTES),
  unsupportedType: "Send the body as JSON (Content-Type: application/json) or as form data.",
  wrongType: "This field must be text, a number or true/false.",
  organizationNotFound: "Organization not found.",
  organizationRequired: "Organization field is required.",
} as const;

const NO_STORE = { "Cache-Control": "no-store" };

function tooLargeMessage(maxBytes: number): string {
  return `The request body is too large (at most ${maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MB` : `${maxBytes / 1024} KB`}).`;
}

// ---------------------------------------------------------------------------------------------
// Answers

export function apiError(status: number, message: string, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  merged.set("Cache-Control", "no-store");
  if (status === 401) merged.set("WWW-Authenticate", "Bearer");
  return json({ error: { message } }, { status, headers: merged });
}

export function apiData<T>(data: T, status = 200) {
  return json({ data }, { status, headers: NO_STORE });
}

export function apiValidationFailed(errors: Record<string, string[]>): Response {
  return json({ errors }, { status: 422, headers: NO_STORE });
}

/** The first message of each field of a failed conform submission (form-level ones are under ""). */
export function firstMessages(error: Record<string, string[] | null> | null | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error ?? {})) {
    if (messages?.length) errors[field] = [messages[0]];
  }
  return errors;
}

/**
 * Thrown guard and service responses ({ message } with 401/403/404) in the API's shape
 * ({ error: { message } }); anything else passes unchanged.
 */
async function inApiShape(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get("Content-Type")?.includes("application/json")) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (typeof body !== "object" || body === null || "error" in body || "errors" in body) return response;
  const message = (body as { message?: unknown }).message;
  if (typeof message !== "string") return response;
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return apiError(response.status, message, headers);
}

// ---------------------------------------------------------------------------------------------
// Method dispatch

type Args = LoaderFunctionArgs | ActionFunctionArgs;
type Handler = (args: Args) => Promise<Response>;
export type ApiMethods = Partial<Record<"GET" | "POST" | "PUT" | "DELETE", Handler>>;

/**
 * Runs the handler of the request's method (HEAD as GET), or answers 405 with Allow. Thrown
 * responses become answers in the API's shape. Export it as both loader and action:
 * `export const loader = (args) => dispatch(args, methods)`, same for action.
 */
export async function dispatch(args: Args, methods: ApiMethods): Promise<Response> {
  const method = args.request.method.toUpperCase();
  const handler = methods[(method === "HEAD" ? "GET" : method) as keyof ApiMethods];
  if (!handler) {
    const names = Object.keys(methods);
    const use = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names[0];
    const allow = names.includes("GET") ? [...names, "HEAD"] : names;
    return apiError(405, `Method not allowed. Use ${use}.`, { Allow: allow.join(", ") });
  }
  try {
    return await handler(args);
  } catch (thrown) {
    if (thrown instanceof Response) return inApiShape(thrown);
    throw thrown;
  }
}

// ---------------------------------------------------------------------------------------------
// Authentication and organisation scope

/** The user of the request's bearer token; 401 without one (the API does not read the cookie session). */
export async function requireApiUser(request: Request): Promise<AuthUser> {
  if (!/^Bearer\s+\S+$/i.test(request.headers.get("Authorization") ?? "")) throw apiError(401, API_MESSAGES.unauthenticated);
  return requireUser(request);
}

/**
 * The guard's context for the organisation `orgId` (from the path, query or body), else the
 * X-Organization-Id header. No id at all: 422 on `field`; unknown, foreign or malformed: 404;
 * a permission lacking: 403 with the spec's message.
 */
export async function requireApiOrg(
  request: Request,
  orgId: string | null | undefined,
  field: string,
  ...anyOf: Permission[]
): Promise<OrgContext> {
  await requireApiUser(request);
  const raw = orgId ?? request.headers.get("X-Organization-Id");
  if (raw === null || raw.trim() === "") throw apiValidationFailed({ [field]: [API_MESSAGES.organizationRequired] });
  if (parseId(raw) === null) throw apiError(404, API_MESSAGES.organizationNotFound);
  return withNotFoundMessage(requireOrg(request, { orgId: raw }, ...anyOf), API_MESSAGES.organizationNotFound);
}

/** A 404 thrown by the guard or a service, told in words that say what was not found. */
export async function withNotFoundMessage<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 404) throw apiError(404, message);
    throw thrown;
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

/**
 * Field names the schemas use; anything else (paths, conform's __intent__) is dropped. A list
 * field may be sent as clients of PHP-style APIs do, `access_points[]` or `access_points[0]`:
 * it counts as repeated `access_points`.
 */
const FIELD_NAME = /^([A-Za-z][A-Za-z0-9_]{0,63})(?:\[\d{0,4}\])?$/;
const fieldName = (name: string): string | null => FIELD_NAME.exec(name)?.[1] ?? null;

export interface ApiBody {
  /** The body as the FormData a page's form would post, for the pages' schemas. */
  form: FormData;
  /** Fields whose JSON value was an object, or a file in a multipart body. */
  typeErrors: Record<string, string[]>;
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw apiError(413, tooLargeMessage(maxBytes));
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw apiError(413, tooLargeMessage(maxBytes));
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function scalar(value: unknown): string | undefined | false {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : false;
  if (typeof value === "boolean") return String(value);
  return false;
}

function fromJson(body: unknown): ApiBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError(400, API_MESSAGES.notAnObject);
  const form = new FormData();
  const typeErrors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = fieldName(key);
    if (name === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = scalar(item);
      if (text === false) typeErrors[name] = [API_MESSAGES.wrongType];
      else if (text !== undefined) form.append(name, text);
    }
  }
  return { form, typeErrors };
}

function fromForm(parsed: FormData): ApiBody {
  const form = new FormData();
  const typeErrors: Record<string, string[]> = {};
  for (const [key, value] of parsed) {
    const name = fieldName(key);
    if (name === null) continue;
    if (typeof value === "string") form.append(name, value);
    else typeErrors[name] = [API_MESSAGES.wrongType];
  }
  return { form, typeErrors };
}

/**
 * Reads a JSON object or form data (urlencoded or multipart) of at most `maxBytes`
 * (API_MAX_BODY_BYTES unless a route takes more, e.g. a splash page's code; server/boundary.mjs
 * must let such a route's bodies through too). Numbers and booleans become text as a form would
 * post them, null is left out, a list repeats its field. Throws 400 (malformed), 413 (too large)
 * or 415 (other content types).
 */
export async function readApiBody(request: Request, maxBytes: number = API_MAX_BODY_BYTES): Promise<ApiBody> {
  const header = request.headers.get("Content-Type") ?? "";
  const type = header.toLowerCase();
  const bytes = await readLimited(request, maxBytes);
  if (bytes.byteLength === 0) return { form: new FormData(), typeErrors: {} };
  const text = () => new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  try {
    if (type.includes("application/json") || type.includes("+json")) return fromJson(JSON.parse(text()));
    if (type.includes("application/x-www-form-urlencoded")) return fromForm(new URLSearchParams(text()) as unknown as FormData);
    if (type.includes("multipart/form-data")) {
      const copy = new Request("http://localhost/", { method: "POST", body: new Uint8Array(bytes), headers: { "Content-Type": header } });
      return fromForm(await copy.formData());
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw apiError(400, API_MESSAGES.malformedBody);
  }
  throw apiError(415, API_MESSAGES.unsupportedType);
}

/** parseWithZod for API bodies: one whose conform controls (__intent__, __state__) cannot be read is a 400. */
export const parseApiForm = guardedParseWithZod(() => apiError(400, API_MESSAGES.malformedBody));

/**
 * Validates a body with a page's schema exactly as the page does (conform's parseWithZod on the
 * same FormData), or throws 422 with the first message of each field.
 */
export function parseApiBody<S extends ZodTypeAny>(body: ApiBody, schema: S): z.output<S> {
  const submission = parseApiForm(body.form, { schema });
  const errors = { ...(submission.status === "success" ? {} : firstMessages(submission.error)), ...body.typeErrors };
  if (submission.status !== "success" || Object.keys(errors).length > 0) {
    if (Object.keys(errors).length === 0) errors[""] = [API_MESSAGES.malformedBody];
    throw apiValidationFailed(errors);
  }
  return submission.value as z.output<S>;
}

/** readApiBody then parseApiBody. */
export async function readApiInput<S extends ZodTypeAny>(
  request: Request,
  schema: S,
  maxBytes: number = API_MAX_BODY_BYTES,
): Promise<z.output<S>> {
  return parseApiBody(await readApiBody(request, maxBytes), schema);
}

/** Query parameters through the same schemas (GET filters). */
export function parseApiQuery<S extends ZodTypeAny>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  return parseApiBody(fromForm(params as unknown as FormData), schema);
}

/** An integer-millisecond timestamp as an ISO string (API answers), null kept. */
export function isoTime(ms: number | string | bigint | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(Number(ms)).toISOString();
}
