import { describe, expect, it } from "vitest";
import { listConnections } from "~/services/connections.server";
import { requireOrg } from "~/services/guard.server";
import { makeOrg, makeRequest, sessionCookie } from "../fixtures";
import { makeConnectionWorld } from "../fixtures/records";

async function ownerCtx() {
  const { org, owner } = await makeOrg();
  const cookie = await sessionCookie(owner.id, org.id);
  const ctx = await requireOrg(makeRequest(`/${org.id}/connections`, { cookie }), { orgId: String(org.id) });
  return { org, owner, cookie, ctx };
}

describe("listConnections", () => {
  it("lists authorized connections newest first", async () => {
    const { org, ctx } = await ownerCtx();
    const world = await makeConnectionWorld(org.id, 3);
    const page = await listConnections(ctx, { authorized: true }, { offset: 0, pageSize: 10, search: "" });
    expect(page.rows.map((r) => r.id)).toEqual(world.connections.map((c) => c.id).reverse());
    expect(page.total).toBe(3);
  });
});
