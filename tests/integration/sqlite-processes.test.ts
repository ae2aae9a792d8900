// SQLite shared by two processes (decision 0012): read-then-write
// transactions in both never fail with "database is locked", and waiting for another process's
// lock keeps this process's event loop free. On PostgreSQL the same workload simply succeeds.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, dialect } from "~/db/db.server";
import { insertRole } from "~/tools/factories.server";
import type { Permission } from "~/lib/permissions";
import { ALL_PERMISSIONS } from "~/lib/permissions";
import type { OrgContext } from "~/services/guard.server";
import { setRolePermissions } from "~/services/roles.server";
import { makeOrg } from "../fixtures";

function otherProcess(args: string[]) {
  const child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    ["--tsconfig", "tsconfig.json", "tests/fixtures/sqlite-other-process.ts", ...args],
    { env: process.env },
  );
  let out = "";
  const lines: ((line: string) => void)[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (const line of out.split("\n").slice(0, -1)) lines.forEach((l) => l(line));
  });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return {
    printed: (wanted: string) => new Promise<void>((resolve) => lines.push((line) => line === wanted && resolve())),
    done: new Promise<string>((resolve, reject) =>
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`)))),
    ),
  };
}

async function ownerContext() {
  const { org, owner } = await makeOrg();
  const role = await insertRole(org.id, "custom", ["view_networks"]);
  const ctx = {
    user: owner,
    org: { id: org.id, name: org.name },
    permissions: new Set(ALL_PERMISSIONS),
    isOwner: true,
    roleName: null,
  } as unknown as OrgContext;
  return { ctx, role };
}

describe("two processes on one database", () => {
  it("saves roles 200 times in each of two processes at once without a failure", async () => {
    const { ctx, role } = await ownerContext();
    const other = otherProcess(["saves", String(ctx.org.id), String(role.id), "200"]);
    await other.printed("saving");
    let failures = 0;
    const errors: string[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        setRolePermissions(ctx, role.id, (i % 2 ? ["view_clients"] : ["view_networks"]) as Permission[]).catch((e: Error) => {
          failures++;
          errors.push(e.message);
        }),
      ),
    );
    const theirs = JSON.parse((await other.done).trim().split("\n").pop()!);
    expect([...errors, ...theirs.errors]).toEqual([]);
    expect(failures + theirs.failures).toBe(0);
  }, 60_000);

  it("keeps the event loop free while another process holds the write lock, then writes", async () => {
    if (dialect() !== "sqlite") return; // PostgreSQL waits on a socket; nothing in this process blocks.
    const { ctx, role } = await ownerContext();
    const other = otherProcess(["hold", "1500"]);
    await other.printed("locked");
    let worstLagMs = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      worstLagMs = Math.max(worstLagMs, now - last - 10);
      last = now;
    }, 10);
    const started = Date.now();
    try {
      const outcome = await setRolePermissions(ctx, role.id, ["view_clients"]);
      expect(outcome.ok).toBe(true);
    } finally {
      clearInterval(ticker);
    }
    await other.done;
    expect(Date.now() - started).toBeGreaterThan(1000); // it did wait for the other process
    expect(worstLagMs).toBeLessThan(100);
    const kept = await db
      .selectFrom("role_permissions")
      .innerJoin("permissions", "permissions.id", "role_permissions.permission_id")
      .select("identifier")
      .where("role_id", "=", role.id)
      .execute();
    expect(kept.map((r) => r.identifier)).toEqual(["view_clients"]);
  }, 30_000);
});
