// Several web processes (WEB_CONCURRENCY, server/cluster.mjs): the primary migrates, starts that many
// workers on one port, replaces a worker that dies, and on SIGTERM stops them all and exits cleanly.
// Runs the real server.mjs over the build against this worker's database, on SQLite and PostgreSQL.
// How the setting is read: tests/unit/env.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The live processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
        return Number(fields[1]) === pid && fields[0] !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// A connection handed to a worker as it was killed may never be answered: each try gives up after 2 s.
const healthy = (origin: string) => () =>
  fetch(`${origin}/healthz`, { headers: { Connection: "close" }, signal: AbortSignal.timeout(2_000) }).then(
    (res) => (res.ok ? true : undefined),
    () => undefined,
  );

describe("WEB_CONCURRENCY", () => {
  it("serves from two workers, replaces one that dies, and stops them all on SIGTERM", async () => {
    expect(fs.existsSync("build/index.js"), "run `npx remix build` first").toBe(true);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    let output = "";
    const primary = spawn(process.execPath, ["server.mjs"], {
      env: {
        ...process.env,
        WEB_CONCURRENCY: "2",
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: origin,
        NODE_ENV: "production",
        SESSION_SECRET: "web-processes-test-session-secret-0123456789",
        SECRETS_KEY: "5".repeat(64),
        JOBS_WORKER: "off",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(primary);
    primary.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    primary.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

    await until("the server", healthy(origin));
    const workers = await until("two workers", () => {
      const found = childrenOf(primary.pid!);
      return found.length === 2 ? found : undefined;
    });
    expect(output).toContain('"event":"web_processes","count":2');
    // Said once, by the first worker, whenever it is ready (the second may answer before it).
    await until("the first worker to say where it runs", () => (output.includes("Mlango is running at") ? true : undefined));

    // A worker killed outright: the other keeps answering, and a new one takes its place.
    process.kill(workers[0]!, "SIGKILL");
    await until("the other worker to answer", healthy(origin));
    const replaced = await until("a replacement worker", () => {
      const found = childrenOf(primary.pid!);
      return found.length === 2 && !found.includes(workers[0]!) ? found : undefined;
    });
    expect(replaced).toContain(workers[1]);
    expect(output).toContain('"event":"web_process_exited"');
    await until("the server after the replacement", healthy(origin));

    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of replaced) expect(() => process.kill(pid, 0), `worker ${pid} still running`).toThrow();
    expect(output.match(/Mlango is running at/g)).toHaveLength(1);
  }, 120_000);
});
