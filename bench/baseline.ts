// What the benchmarks that compare this checkout with another (--baseline DIR: portal, mpesa) share:
// the ports and database names of a run (BENCH_PORT_BASE, BENCH_DB_SUFFIX), the baseline checkout,
// the turns that interleave the parts of two child processes, and the new / baseline / ratio table.
import { fork, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fmt, table } from "../scripts/simulator/report";

/** The first of the ports a benchmark uses (each adds its own offsets), or `fallback` when unset. */
export function portBase(fallback: number): number;
export function portBase(fallback?: undefined): number | undefined;
export function portBase(fallback?: number): number | undefined {
  const value = process.env.BENCH_PORT_BASE;
  if (!value) return fallback;
  const port = Number(value);
  if (!Number.isSafeInteger(port) || port < 1024 || port > 65_000) throw new Error(`BENCH_PORT_BASE must be a port, got "${value}".`);
  return port;
}

/**
 * A benchmark database's name for this checkout: `base`, then BENCH_DB_SUFFIX or a short hash of the
 * checkout's path (so that two checkouts benching at once never share one), then `_baseline` for the
 * baseline's side of a comparison.
 */
export function benchDatabaseName(base: string, side: Side, checkout = process.cwd()): string {
  const suffix = process.env.BENCH_DB_SUFFIX ?? createHash("sha1").update(fs.realpathSync(checkout)).digest("hex").slice(0, 8);
  if (!/^[a-z0-9_]{1,20}$/.test(suffix)) throw new Error(`BENCH_DB_SUFFIX takes up to 20 of a–z, 0–9 and _, got "${suffix}".`);
  return `${base}_${suffix}${side === "baseline" ? "_baseline" : ""}`;
}

export type Side = "new" | "baseline";

/** The checkout --baseline names, absolute, once it is checked to hold a build. */
export function baselineCheckout(dir: string | undefined): string | null {
  if (dir === undefined) return null;
  const checkout = path.resolve(dir);
  for (const file of ["server.mjs", "build/index.js", "node_modules"])
    if (!fs.existsSync(path.join(checkout, file)))
      throw new Error(`--baseline ${dir}: no ${file} there (make one with bash scripts/bench-baseline.sh <commit>).`);
  return checkout;
}

// ---------------------------------------------------------------------------------------------
// Turns: two children (this checkout's and the baseline's) run the same parts one after the other

/**
 * In a child run by `runInTurns`: waits until the parent says this part may start (at once outside
 * a comparison). Call it before each measured part; the other child runs the same part meanwhile.
 */
export async function turn(part: string): Promise<void> {
  if (!process.env.BENCH_TURNS) return;
  const go = new Promise<void>((resolve) => process.once("message", () => resolve()));
  process.send!({ turn: part });
  await go;
}

interface Run {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

type Event = { turn: string } | { result: unknown } | { exit: number | null };

/** The events of a child, one at a time. */
function events(child: ChildProcess): () => Promise<Event> {
  const queue: Event[] = [];
  let waiting: ((event: Event) => void) | null = null;
  const push = (event: Event) => {
    if (waiting) {
      const wake = waiting;
      waiting = null;
      wake(event);
    } else queue.push(event);
  };
  child.on("message", (message) =>
    push(message && typeof message === "object" && "turn" in message ? (message as { turn: string }) : { result: message }),
  );
  child.on("exit", (code) => push({ exit: code }));
  return () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => (waiting = resolve)));
}

/**
 * Forks the runs (each with BENCH_TURNS set) and lets them set up side by side; then, part by part
 * (each `turn`), one run at a time, so that the machine's other load falls on all alike: in the order
 * given, then the reverse, and so on, so that none always goes first. Answers what each sent last
 * before exiting 0.
 */
export async function runInTurns<R>(runs: Run[]): Promise<R[]> {
  const children = runs.map((run) =>
    fork(run.file, run.args, { cwd: run.cwd, env: { ...run.env, BENCH_TURNS: "1" }, execArgv: process.execArgv }),
  );
  try {
    const next = children.map(events);
    const results: (R | undefined)[] = runs.map(() => undefined);
    /** Runs child i up to its next turn (its part's name) or its end (null). */
    const until = async (i: number): Promise<string | null> => {
      for (;;) {
        const event = await next[i]!();
        if ("turn" in event) return event.turn;
        if ("result" in event) results[i] = event.result as R;
        else if (event.exit === 0 && results[i] !== undefined) return null;
        else throw new Error(`${runs[i]!.cwd}: the benchmark failed (exit code ${event.exit})`);
      }
    };
    const at = await Promise.all(children.map((_, i) => until(i)));
    const order = children.map((_, i) => i);
    while (at.some((part) => part !== null)) {
      for (const i of order) {
        if (at[i] === null) continue;
        children[i]!.send({ go: at[i] });
        at[i] = await until(i);
      }
      order.reverse();
    }
    return results as R[];
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// The comparison table

export interface Measure<T> {
  name: string;
  value: (result: T) => number | undefined;
  digits?: number;
}

/** Per engine and measure: this checkout's figure, the baseline's and new ÷ baseline. */
export function comparisonTable<T>(pairs: { engine: string; current: T; baseline: T }[], measures: Measure<T>[]): string {
  const rows = [["measure", "engine", "new", "baseline", "new ÷ baseline"]];
  for (const measure of measures)
    for (const { engine, current, baseline } of pairs) {
      const a = measure.value(current);
      const b = measure.value(baseline);
      if (!Number.isFinite(a) && !Number.isFinite(b)) continue;
      const ratio = Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? fmt(a! / b!, 2) : "–";
      rows.push([measure.name, engine, fmt(a, measure.digits), fmt(b, measure.digits), ratio]);
    }
  return table(rows, 2);
}
