import { json, type ActionFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { loginSchema } from "~/lib/schemas/accounts";
import { CREDENTIALS_MISMATCH, issueToken, verifyLogin } from "~/services/auth.server";
import { clearLoginLimit, clientAddress, limitLogin, retryAfterHeaders } from "~/services/rate-limit.server";

// POST /account/api/v1/auth/login — body login_id and password (JSON or form-encoded).
// Answers { data: { api_token } } for `Authorization: Bearer …`; same schema and rate limit as /login.

const MALFORMED = Symbol("malformed body");

async function readBody(request: Request): Promise<Record<string, unknown> | typeof MALFORMED> {
  const type = request.headers.get("Content-Type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body: unknown = await request.json();
      return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : MALFORMED;
    }
    if (type.includes("form")) return Object.fromEntries(await request.formData());
  } catch {
    return MALFORMED;
  }
  return {};
}

function validationErrors(error: z.ZodError) {
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.flatten().fieldErrors)) {
    if (messages?.length) errors[field] = [messages[0]];
  }
  return errors;
}

const methodNotAllowed = () => json({ error: { message: "Method not allowed. Use POST." } }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return methodNotAllowed();
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const body = await readBody(request);
  if (body === MALFORMED) return json({ error: { message: "The request body is not valid JSON or form data." } }, { status: 400 });
  const parsed = loginSchema.safeParse(body);
  if (!parsed.success) return json({ errors: validationErrors(parsed.error) }, { status: 422 });
  const { login_id, password } = parsed.data;

  const limited = await limitLogin(login_id, clientAddress(request, context));
  if (limited) return json({ error: { message: limited.message } }, { status: 429, headers: retryAfterHeaders(limited) });

  const user = await verifyLogin(login_id, password);
  if (!user) return json({ error: { message: CREDENTIALS_MISMATCH } }, { status: 401 });
  await clearLoginLimit(login_id);
  return json({ data: { api_token: await issueToken(user.id, "api") } }, { headers: { "Cache-Control": "no-store" } });
}
