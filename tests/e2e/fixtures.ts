// Browser-test fixtures: data is written straight into the server's database, and a test
// signs in by writing a session cookie (one test drives the real login form).
import { test as base, expect, type BrowserContext } from "@playwright/test";
import { E2E_ENV, E2E_PORT } from "../../playwright.config";

Object.assign(process.env, E2E_ENV, { NODE_ENV: "production" });

const { insertUser, insertRole, insertMembership } = await import("~/tools/factories.server");
const { createOrganization } = await import("~/services/organizations.server");
const { issueToken } = await import("~/services/auth.server");
const { commitSession, sessionStorage } = await import("~/services/session.server");

let counter = 0;
/** Unique per test run and worker, so parallel tests never share a user. */
export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${process.pid}-${Date.now()}-${++counter}@example.com`;
}

export function uniquePhone() {
  return `07${String((process.pid * 1000 + ++counter) % 100_000_000).padStart(8, "0")}`;
}

export async function makeUser(password = "password123") {
  return insertUser({ email: uniqueEmail(), phone_number: uniquePhone(), password, first_name: "Wanjiku", last_name: "Kamau" });
}

export async function makeOrg(ownerId: number, name = `Cafe ${++counter}`) {
  return createOrganization(ownerId, { name, address: "Moi Avenue, Nairobi", time_zone: "UTC" });
}

export async function makeMember(orgId: number, roleType: "r" | "r_w" | "custom", permissions: string[] = []) {
  const user = await makeUser();
  const role = await insertRole(orgId, roleType, permissions as never);
  await insertMembership(orgId, user.id, role.id);
  return user;
}

/** Signs the browser context in as the user, as if they had used the login form. */
export async function signIn(context: BrowserContext, userId: number) {
  const session = await sessionStorage().getSession();
  session.set("token", await issueToken(userId, "web"));
  const cookie = (await commitSession(session)).split(";")[0];
  const [name, ...value] = cookie.split("=");
  await context.addCookies([{ name, value: value.join("="), domain: "localhost", path: "/", httpOnly: true, sameSite: "Lax" }]);
}

export const test = base;
/**
 * Tag of a test that only a guest's browser takes part in. Guest pages are sent with a CSP sandbox
 * that allows no script, so JavaScript on or off cannot change them: such tests run once, in the
 * no-JavaScript project (playwright.config.ts leaves them out of "enhanced").
 */
export const GUEST = { tag: "@guest" };
export { expect, E2E_PORT };
