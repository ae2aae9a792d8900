// The data API's door, over HTTP against the built server on
// SQLite and PostgreSQL: authentication, the organisation header, rate limit, body size, depth,
// cost and alias limits, bad input of every kind, introspection and masked errors.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/db.server";
import { issueToken } from "~/services/auth.server";
import { limitGraphqlToken } from "~/services/rate-limit.server";
import { makeOrg, makeUser, sessionCookie } from "../fixtures";
import { apiOrg, firstError, gql, headersOf, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

function post(caller: Caller, body: string, contentType = "application/json") {
  return fetch(`${server.origin}/graphql`, { method: "POST", headers: { "Content-Type": contentType, ...headersOf(caller) }, body });
}

const ORG_NAME = "{ organization { id name } }";

describe("authentication", () => {
  it("answers 401 in GraphQL's shape without a bearer token, with a web session's cookie or token, or with an unknown token", async () => {
    const { org, owner } = await makeOrg();
    const cookie = await sessionCookie(owner.id, org.id);
    const webToken = await issueToken(owner.id, "web");
    for (const caller of [
      { org: org.id },
      { org: org.id, headers: { Cookie: cookie } },
      { token: webToken, org: org.id },
      { token: "not-a-token", org: org.id },
    ]) {
      const res = await post(caller, JSON.stringify({ query: ORG_NAME }));
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
      expect(await res.json()).toEqual({ errors: [{ message: "Unauthenticated.", extensions: { code: "UNAUTHENTICATED" } }] });
    }
  });

  it("keeps introspection for authenticated clients: without a token it is a 401 like everything else", async () => {
    const { token } = await apiOrg();
    const anonymous = await post({}, JSON.stringify({ query: "{ __schema { queryType { name } } }" }));
    expect(anonymous.status).toBe(401);
    const answer = await gql(server, { token }, "{ __schema { queryType { name } mutationType { name } } }");
    expect(answer.data).toEqual({ __schema: { queryType: { name: "Query" }, mutationType: { name: "Mutation" } } });
  });

  it("serves the profile without an organisation, and organisation data only with X-Organization-Id of an organisation the user belongs to", async () => {
    const { org, owner, token } = await apiOrg();
    const other = await makeOrg("Someone else's");
    const profile = await gql(server, { token }, "{ profile { id email } }");
    expect(profile.data).toEqual({ profile: { id: String(owner.id), email: owner.email } });
    expect(firstError(await gql(server, { token }, ORG_NAME))).toEqual({
      code: "BAD_USER_INPUT",
      message: "Send the organization's id in the X-Organization-Id header.",
    });
    for (const foreign of [other.org.id, 999999, "abc", "1 OR 1=1"]) {
      expect(firstError(await gql(server, { token, org: foreign }, ORG_NAME))).toEqual({
        code: "NOT_FOUND",
        message: "Organization not found.",
      });
    }
    // organization(id) names the organisation when there is no header, and must match it when there is.
    expect((await gql(server, { token }, `{ organization(id: "${org.id}") { name } }`)).data).toEqual({ organization: { name: org.name } });
    expect(firstError(await gql(server, { token, org: org.id }, `{ organization(id: "${other.org.id}") { name } }`)).code).toBe(
      "NOT_FOUND",
    );
    expect((await gql(server, { token, org: org.id }, ORG_NAME)).data).toEqual({ organization: { id: String(org.id), name: org.name } });
  });

  it("refuses a member whose invitation is not accepted as not found", async () => {
    const { org } = await makeOrg();
    const invitee = await makeUser();
    await db
      .insertInto("administrators")
      .values({
        organization_id: org.id,
        user_id: invitee.id,
        role_id: null,
        invited_email_address: invitee.email,
        status: "Pending",
        is_owner: 0,
        invite_token_hash: null,
        invited_by_user_id: null,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    const token = await issueToken(invitee.id, "api");
    expect(firstError(await gql(server, { token, org: org.id }, ORG_NAME)).code).toBe("NOT_FOUND");
  });
});

describe("limits", () => {
  it("counts requests per token and answers 429 with Retry-After past the limit", async () => {
    const { org, token } = await apiOrg();
    for (let i = 0; i < 300; i++) await limitGraphqlToken(token);
    const res = await post({ token, org: org.id }, JSON.stringify({ query: ORG_NAME }));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe("RATE_LIMITED");
    expect(body.errors[0].message).toMatch(/^Too many requests with this token \(at most 300 a minute\)/);
    // Another token of the same user has its own count.
    const { owner } = await apiOrg();
    const fresh = await issueToken(owner.id, "api");
    expect((await post({ token: fresh }, JSON.stringify({ query: "{ profile { id } }" }))).status).toBe(200);
  });

  it("refuses a body over 100 KB with 413, huge variables included", async () => {
    const { org, token } = await apiOrg();
    const big = JSON.stringify({ query: "query ($s: String) { customers(search: $s) { id } }", variables: { s: "x".repeat(120 * 1024) } });
    const res = await post({ token, org: org.id }, big);
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].message).toMatch(/too large|exceeds/i);
  });

  it("refuses a query nested deeper than 8", async () => {
    const { org, token } = await apiOrg();
    const deep = "{ organization { connections { device { customer { id } } } devices { customer { id } } } }";
    expect((await gql(server, { token, org: org.id }, deep)).errors).toBeUndefined();
    // Depth through fragments counts too.
    const tooDeep =
      "{ organization { connections { venue { accessPoints { venue { accessPoints { venue { accessPoints { venue { id } } } } } } } } } }";
    const answer = await gql(server, { token, org: org.id }, tooDeep);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(/depth limit of 8/i);
  });

  it("refuses a query whose cost is over 10,000, telling the cost, before running it", async () => {
    const { org, token } = await apiOrg();
    const wide = "{ venues(limit: 250) { id accessPoints(limit: 250) { id name } } }";
    const answer = await gql(server, { token, org: org.id }, wide);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(answer.errors?.[0]?.extensions?.cost).toBeGreaterThan(10_000);
    expect(answer.errors?.[0]?.message).toMatch(/^This query costs \d+, over the limit of 10000/);
    // The same through a variable: the limit reads variables too.
    const viaVariable = await gql(
      server,
      { token, org: org.id },
      "query ($n: Int) { venues(limit: $n) { id accessPoints(limit: $n) { id } } }",
      { n: 250 },
    );
    expect(viaVariable.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    const fine = await gql(server, { token, org: org.id }, "query ($n: Int) { venues(limit: $n) { id accessPoints(limit: 20) { id } } }", {
      n: 20,
    });
    expect(fine.errors).toBeUndefined();
  });

  it("refuses more than 15 aliases, 3,000 tokens and page sizes over 250", async () => {
    const { org, token } = await apiOrg();
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: profile { id }`).join(" ")} }`;
    expect((await gql(server, { token, org: org.id }, aliases)).errors?.[0]?.message).toMatch(/aliases/i);
    const tokens = `{ ${"__typename ".repeat(3_100)} }`;
    expect((await gql(server, { token, org: org.id }, tokens)).errors?.[0]?.message).toMatch(/token limit of 3000/i);
    const big = await gql(server, { token, org: org.id }, "{ roles(limit: 251) { id } }");
    expect(firstError(big)).toEqual({ code: "BAD_USER_INPUT", message: "limit must be between 1 and 250." });
    expect(firstError(await gql(server, { token, org: org.id }, "{ roles(limit: 0) { id } }")).code).toBe("BAD_USER_INPUT");
    expect(firstError(await gql(server, { token, org: org.id }, "{ roles(offset: -1) { id } }")).code).toBe("BAD_USER_INPUT");
  });
});

describe("bad input is a GraphQL error, never a 500", () => {
  it("answers malformed bodies, malformed queries, unknown fields, wrong types and missing variables", async () => {
    const { org, token } = await apiOrg();
    const caller = { token, org: org.id };
    const cases: [string, string][] = [
      ["{not json", "application/json"],
      [JSON.stringify({ query: "{ organization { id " }), "application/json"],
      [JSON.stringify({ query: "{ organization { nope } }" }), "application/json"],
      [JSON.stringify({ query: '{ roles(limit: "ten") { id } }' }), "application/json"],
      [JSON.stringify({ query: "query ($n: Int!) { roles(limit: $n) { id } }" }), "application/json"],
      [JSON.stringify({ query: "query ($n: Int!) { roles(limit: $n) { id } }", variables: { n: 1e100 } }), "application/json"],
      [JSON.stringify({ query: "query ($n: Int!) { roles(limit: $n) { id } }", variables: "not an object" }), "application/json"],
      [JSON.stringify({ query: 42 }), "application/json"],
      [JSON.stringify([{ query: ORG_NAME }, { query: ORG_NAME }]), "application/json"],
      [JSON.stringify({}), "application/json"],
      ["query=%7B", "application/x-www-form-urlencoded"],
      ["<xml/>", "text/xml"],
      [JSON.stringify({ query: "{ organization { id } } { profile { id } }" }), "application/json"],
      [JSON.stringify({ query: "{ organization { id } }", operationName: "Missing" }), "application/json"],
      [JSON.stringify({ query: "\u0000" }), "application/json"],
    ];
    for (const [body, type] of cases) {
      const res = await post(caller, body, type);
      // GraphQL over HTTP: 200 with errors for application/json clients, 4xx before a query could run.
      expect([200, 400, 405, 415], body).toContain(res.status);
      const text = await res.text();
      const answer = JSON.parse(text || "{}");
      expect(answer?.errors?.length, `${body} → ${res.status} ${text}`).toBeGreaterThan(0);
      expect(JSON.stringify(answer), body).not.toMatch(/\bat \w+ \(|node_modules|\.ts:\d+/);
    }
  });

  it("refuses the old client's { mutation, input, output } body with an error naming the parameter (standard bodies only)", async () => {
    const { org, token } = await apiOrg();
    const res = await post(
      { token, org: org.id },
      JSON.stringify({ mutation: "closeConnection", input: { id: 1 }, output: "code message" }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toMatch(/Unexpected parameter "mutation"/);
  });

  it("answers wrong argument values (dates, ids, orders, enums) as BAD_USER_INPUT or NOT_FOUND", async () => {
    const { org, token } = await apiOrg();
    const caller = { token, org: org.id };
    expect(firstError(await gql(server, caller, '{ aggregateUsageSummary(startDate: "yesterday") { footfall } }'))).toEqual({
      code: "BAD_USER_INPUT",
      message: "startDate must be a date as YYYY-MM-DD.",
    });
    expect(firstError(await gql(server, caller, '{ aggregateUsageSummary(endDate: "2026-02-31") { footfall } }')).code).toBe(
      "BAD_USER_INPUT",
    );
    expect(firstError(await gql(server, caller, '{ roles(order: "name; drop table roles") { id } }'))).toEqual({
      code: "BAD_USER_INPUT",
      message: "order must be 'created_at desc'.",
    });
    expect(firstError(await gql(server, caller, '{ venue(id: "99999999999999999999") { id } }')).code).toBe("NOT_FOUND");
    expect(firstError(await gql(server, caller, '{ venue(id: "-1") { id } }')).code).toBe("NOT_FOUND");
    expect(firstError(await gql(server, caller, '{ aggregateUsageSummary(venues: ["x"]) { footfall } }')).code).toBe("NOT_FOUND");
    expect((await gql(server, caller, "{ aggregateDeviceSummary(groupBy: colour) { key } }")).errors?.[0]?.message).toMatch(/colour/);
    expect(firstError(await gql(server, caller, `{ customers(search: "${"x".repeat(101)}") { id } }`))).toEqual({
      code: "BAD_USER_INPUT",
      message: "search must be at most 100 characters.",
    });
  });

  it("serves queries by GET and refuses mutations by GET", async () => {
    const { org, token } = await apiOrg();
    const get = (query: string) =>
      fetch(`${server.origin}/graphql?${new URLSearchParams({ query })}`, {
        headers: { ...headersOf({ token, org: org.id }), Accept: "application/json" },
      });
    const ok = await get(ORG_NAME);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.organization.name).toBe(org.name);
    const mutation = await get('mutation { unsubscribeReport(id: "1") { code } }');
    expect(mutation.status).toBe(405);
    expect((await mutation.json()).errors[0].message).toMatch(/mutation/i);
  });

  it("masks unexpected errors: a generic message and code, no stack trace or SQL, logged on the server", async () => {
    const { org, token } = await apiOrg();
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await sql`alter table roles rename to roles_gone`.execute(db);
    try {
      const answer = await gql(server, { token, org: org.id }, "{ roles { id } }");
      expect(answer.status).toBe(200);
      expect(answer.errors).toEqual([
        {
          message: "Unexpected error.",
          locations: [{ line: 1, column: 3 }],
          path: ["roles"],
          extensions: { code: "INTERNAL_SERVER_ERROR" },
        },
      ]);
      expect(log.mock.calls.some(([line]) => String(line).includes('"event":"graphql_error"'))).toBe(true);
    } finally {
      await sql`alter table roles_gone rename to roles`.execute(db);
      log.mockRestore();
    }
  });
});
