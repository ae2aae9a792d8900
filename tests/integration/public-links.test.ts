// Links in mails come from configuration (PUBLIC_URL) only: a forged Host or X-Forwarded-Host must
// never put a live reset or invitation token on an attacker's host.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertRole } from "~/tools/factories.server";
import { getEnv } from "~/env.server";
import * as invite from "~/routes/$orgId+/organization+/invite";
import * as apiForgot from "~/routes/account+/api.v1.auth.password.forgot";
import * as forgot from "~/routes/_auth+/password.forgot";
import { makeOrg, makeUser, run, sessionCookie } from "../fixtures";
import { mailsTo } from "../fixtures/outbox";

const FORGED = { Host: "attacker.example", "X-Forwarded-Host": "attacker.example", "X-Forwarded-Proto": "https" };

/** A request as it reaches the app when a client forges the host headers. */
function forgedRequest(path: string, init: { form?: Record<string, string>; json?: unknown; cookie?: string }) {
  const headers = new Headers(FORGED);
  if (init.cookie) headers.set("Cookie", init.cookie);
  let body: BodyInit | undefined;
  if (init.json) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  } else body = new URLSearchParams(init.form);
  return new Request(`http://attacker.example${path}`, { method: "POST", headers, body });
}

function expectOurLink(link: string | undefined) {
  expect(link).toBeDefined();
  expect(new URL(link!).host).not.toBe("attacker.example");
  expect(new URL(link!).origin).toBe(new URL(getEnv().PUBLIC_URL).origin);
}

describe("links in mails use PUBLIC_URL, whatever host the request names", () => {
  it("password reset link from the forgot page", async () => {
    const email = `forged-${randomUUID()}@example.com`;
    await makeUser({ email });
    await run(() =>
      forgot.action({
        request: forgedRequest("/password/forgot", { form: { login_id: email } }),
        params: {},
        context: { clientAddress: "192.0.2.1" },
      }),
    );
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expectOurLink(mails[0].link);
  });

  it("password reset link from the API", async () => {
    const email = `forged-api-${randomUUID()}@example.com`;
    await makeUser({ email });
    const res = await run(() =>
      apiForgot.action({
        request: forgedRequest("/account/api/v1/auth/password/forgot", { json: { login_id: email } }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(200);
    expectOurLink((await mailsTo(email))[0]?.link);
  });

  it("invitation link", async () => {
    const { org, owner } = await makeOrg(`Forged ${randomUUID()}`);
    const role = await insertRole(org.id, "r");
    const email = `invitee-${randomUUID()}@example.com`;
    const request = forgedRequest(`/${org.id}/organization/invite`, {
      form: { email, role_id: String(role.id) },
      cookie: await sessionCookie(owner.id),
    });
    const res = await run(() => invite.action({ request, params: { orgId: String(org.id) }, context: {} }));
    expect(res.status).toBe(302);
    expectOurLink((await mailsTo(email))[0]?.link);
  });
});
