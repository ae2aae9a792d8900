// Data API benchmark: tsx bench/graphql.bench.ts [--connections N] [--runs N] [--only sqlite|postgres]
// The home dashboard's figures (usage summary, usage series, top 5 networks and access points, auth
// modes, the four device mixes, dwell time and footfall) asked as one query through POST /graphql of
// the built server, against the same service calls made directly, for 1-, 30- and 365-day windows;
// and a 250-row connections page with each row's customer, device, network and access point.
// Runs alternate between the two ways so machine load hits both alike. Issue 16 asks the GraphQL
// p95 to stay within 1.3 × the direct p95.
//
// Data: the analytics benchmark's organisation (`npm run bench -- analytics [--pg]`,
// same --connections): data/bench/analytics-<N>.db and PostgreSQL mlango_bench_analytics_<N>.
// PostgreSQL is measured when BENCH_POSTGRES_URL is set. Needs `npx remix build` first.
import { fork } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";

type Engine = "sqlite" | "postgres";
interface Options {
  connections: number;
  runs: number;
}
interface Row {
  call: string;
  direct: { p50: number; p95: number };
  graphql: { p50: number; p95: number };
  queries: { direct: number; graphql: number };
}

const ORGANIZATION = "Analytics benchmark";
const DAY = 86_400_000;
const WINDOWS = [1, 30, 365];

const child = process.argv.indexOf("--engine");
if (child >= 0) {
  const engine = process.argv[child + 1] as Engine;
  const options = JSON.parse(process.argv[child + 2]) as Options;
  const rows = await measure(engine, options);
  process.send!(rows, () => process.exit(0));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { connections: { type: "string" }, runs: { type: "string" }, only: { type: "string" } } });
  const options: Options = { connections: Number((values.connections ?? "5000000").replace(/_/g, "")), runs: Number(values.runs ?? 50) };
  if (!fs.existsSync("build/index.js")) throw new Error("Build the app first: npx remix build");
  const engines: Engine[] = [];
  if (fs.existsSync(sqliteFile(options))) engines.push("sqlite");
  else console.log(`No ${sqliteFile(options)}: run npm run bench -- analytics --connections ${options.connections} first.`);
  if (process.env.BENCH_POSTGRES_URL) {
    if (await postgresHasData(postgresUrl(options))) engines.push("postgres");
    else
      console.log(`No ${postgresName(options)} with data: run npm run bench -- analytics --pg --connections ${options.connections} first.`);
  }
  const chosen = engines.filter((e) => !values.only || e === values.only);
  if (chosen.length === 0) {
    process.exitCode = 1;
    return;
  }
  for (const engine of chosen) {
    console.log(`\n== ${engine}: ${options.connections.toLocaleString("en-US")} connections, ${options.runs} runs per row`);
    printTable(engine, await runChild(engine, options));
  }
  if (!process.env.BENCH_POSTGRES_URL) console.log("\nAdd --pg (npm run bench -- graphql --pg) to benchmark PostgreSQL too.");
}

function sqliteFile(o: Options): string {
  return `data/bench/analytics-${o.connections}.db`;
}

function postgresName(o: Options): string {
  return `mlango_bench_analytics_${o.connections}`;
}

function postgresUrl(o: Options): string {
  const url = new URL(process.env.BENCH_POSTGRES_URL!);
  url.pathname = `/${postgresName(o)}`;
  return url.toString();
}

async function postgresHasData(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return ((await client.query("select 1 from organizations where name = $1", [ORGANIZATION])).rowCount ?? 0) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function runChild(engine: Engine, options: Options): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    let rows: Row[] | undefined;
    const worker = fork(fileURLToPath(import.meta.url), ["--engine", engine, JSON.stringify(options)], { execArgv: process.execArgv });
    worker.on("message", (message) => (rows = message as Row[]));
    worker.on("error", reject);
    worker.on("exit", (code) => (rows && code === 0 ? resolve(rows) : reject(new Error(`${engine} benchmark failed (exit code ${code})`))));
  });
}

function printTable(engine: Engine, rows: Row[]): void {
  const ms = (v: number) => v.toFixed(1);
  const header = ["call", "direct p50", "direct p95", "graphql p50", "graphql p95", "p95 ratio", "queries direct/graphql"];
  const table = [
    header,
    ...rows.map((r) => [
      r.call,
      ms(r.direct.p50),
      ms(r.direct.p95),
      ms(r.graphql.p50),
      ms(r.graphql.p95),
      (r.graphql.p95 / r.direct.p95).toFixed(2),
      `${r.queries.direct}/${r.queries.graphql}`,
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  console.log(`\n${engine} (ms)`);
  for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
}

// ---------------------------------------------------------------------------------------------
// In the child: one engine.

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(engine: Engine, options: Options): Promise<Row[]> {
  process.env.DATABASE_URL = engine === "postgres" ? postgresUrl(options) : `file:${sqliteFile(options)}`;
  // As the server runs in production (graphql-js, for one, checks less when NODE_ENV is production).
  Object.assign(process.env, {
    NODE_ENV: "production",
    SESSION_SECRET: "graphql-benchmark-secret-0123456789abcdef",
    SECRETS_KEY: "0".repeat(64),
    PUBLIC_URL: "http://127.0.0.1",
  });
  const { db, closeDatabase, migrateToLatest } = await import("~/db/db.server");
  await migrateToLatest();
  const org = await db.selectFrom("organizations").select("id").where("name", "=", ORGANIZATION).executeTakeFirstOrThrow();
  const { user_id: ownerId } = await db
    .selectFrom("administrators")
    .select("user_id")
    .where("organization_id", "=", org.id)
    .where("is_owner", "=", 1)
    .executeTakeFirstOrThrow();
  const last = await db
    .selectFrom("connections")
    .select((eb) => eb.fn.max("created_at").as("last"))
    .where("organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  const lastDay = Number(last.last) - (Number(last.last) % DAY);

  // The built server in this process: its database module shares this one's connection (globalThis).
  const build = await import(pathToFileURL(path.resolve("build/index.js")).href);
  const { createApp } = await import(pathToFileURL(path.resolve("server/app.mjs")).href);
  const server = http.createServer(createApp({ build })).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

  const { issueToken } = await import("~/services/auth.server");
  const { requireOrg } = await import("~/services/guard.server");
  const calls = await import("./graphql-calls");
  // A fresh token per 200 requests: the data API allows 300 a minute per token.
  let token = "";
  let used = 200;
  const nextToken = async () => {
    if (used >= 200) [token, used] = [await issueToken(ownerId!, "api"), 0];
    used++;
    return token;
  };
  const ctx = await requireOrg(
    new Request("http://bench/", { headers: { Authorization: `Bearer ${await issueToken(ownerId!, "api")}` } }),
    { orgId: String(org.id) },
  );

  // The server's request log (one line per request, written to stdout each event-loop turn) is not
  // worth printing here: stdout is silenced while a case runs, and progress goes through `say`.
  const write = process.stdout.write.bind(process.stdout);
  const say = (line: string) => write(`${line}\n`);
  const rows: Row[] = [];
  try {
    const cases = [
      ...WINDOWS.map((days) => {
        const range = { startMs: lastDay - (days - 1) * DAY, endMs: lastDay + DAY, offsetMs: 0 };
        return { call: `dashboard figures, ${days} day${days === 1 ? "" : "s"}`, ...calls.dashboard(ctx, range) };
      }),
      { call: "connections page of 250 with relations", ...calls.connectionsPage(ctx) },
    ];
    for (const c of cases) {
      say(`  ${c.call}`);
      process.stdout.write = (() => true) as typeof process.stdout.write;
      const post = async () => {
        const res = await fetch(endpoint, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${await nextToken()}`,
            "X-Organization-Id": String(org.id),
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ query: c.query, variables: c.variables }),
        });
        const body = (await res.json()) as { errors?: unknown };
        if (!res.ok || body.errors) throw new Error(`GraphQL answered ${res.status}: ${JSON.stringify(body.errors)}`);
      };
      await post(); // a new token's first use writes last_used_at once; not part of the count
      const queries = { direct: await calls.countQueries(c.direct), graphql: await calls.countQueries(post) };
      const direct: number[] = [];
      const graphql: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        for (const [samples, run] of (i % 2 === 0
          ? [
              [direct, c.direct],
              [graphql, post],
            ]
          : [
              [graphql, post],
              [direct, c.direct],
            ]) as [number[], () => Promise<unknown>][]) {
          const started = performance.now();
          await run();
          samples.push(performance.now() - started);
        }
      }
      process.stdout.write = write;
      const stats = (s: number[]) => {
        const sorted = [...s].sort((a, b) => a - b);
        return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
      };
      rows.push({ call: c.call, direct: stats(direct), graphql: stats(graphql), queries });
    }
  } finally {
    process.stdout.write = write;
    server.close();
    await closeDatabase();
  }
  return rows;
}
