import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";
import type { Toast } from "~/lib/toast";

export type { Toast };

export interface SessionData {
  token: string;
  orgId: number;
  redirectTo: string;
}
export interface FlashData {
  toast: Toast;
}
let storage: ReturnType<typeof createSessionStorage> | undefined;

function createSessionStorage() {
  const env = getEnv();
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      name: "__mlango",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.NODE_ENV === "production" && (env.PUBLIC_URL ?? "").startsWith("https:"),
      secrets: [env.SESSION_SECRET],
      maxAge: 60 * 60 * 24 * 30,
    },
  });
}

export function sessionStorage() {
  storage ??= createSessionStorage();
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export type Session = Awaited<ReturnType<typeof getSession>>;

export function commitSession(session: Session) {
  return sessionStorage().commitSession(session);
}

/** Post/Redirect/Get with a one-time message shown on the next page. */
export async function redirectWithToast(request: Request, to: string, toast: Toast | string, init?: ResponseInit) {
  const session = await getSession(request);
  session.flash("toast", typeof toast === "string" ? { type: "success", message: toast } : toast);
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { ...init, headers });
}
