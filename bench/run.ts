// The benchmarks' runner: npm run bench -- <name> [--pg] [options…]
// Runs bench/<name>.bench.ts in a process of its own with the other options passed through. SQLite
// always; --pg adds PostgreSQL: BENCH_POSTGRES_URL, postgres://postgres@127.0.0.1:5432/test unless
// set. `npm run bench -- --help` lists the benchmarks; `npm run bench -- <name> --help` prints the
// benchmark's opening comment, which describes it and its options.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { BENCHMARKS } from "./benchmarks";

const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

function overview(): string {
  const width = Math.max(...Object.keys(BENCHMARKS).map((name) => name.length));
  return [
    "Usage: npm run bench -- <name> [--pg] [options…]",
    "",
    "Runs bench/<name>.bench.ts on SQLite; --pg adds PostgreSQL (BENCH_POSTGRES_URL, else",
    `${DEFAULT_POSTGRES_URL}). The other options go to the benchmark;`,
    "`npm run bench -- <name> --help` shows what it measures and its options.",
    "",
    "Benchmarks:",
    ...Object.entries(BENCHMARKS).map(([name, b]) => `  ${name.padEnd(width)}  ${b.summary}`),
  ].join("\n");
}

/** The comment lines a benchmark's file starts with, without the comment marks. */
function openingComment(file: string): string {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const end = lines.findIndex((line) => !line.startsWith("//"));
  return lines
    .slice(0, end)
    .map((line) => line.replace(/^\/\/ ?/, ""))
    .join("\n");
}

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || name === "--help" || name === "-h") {
  (name === undefined ? console.error : console.log)(overview());
  process.exit(name === undefined ? 2 : 0);
}
const benchmark = BENCHMARKS[name];
if (!benchmark) {
  console.error(`Unknown benchmark "${name}".\n\n${overview()}`);
  process.exit(2);
}
const file = fileURLToPath(new URL(`./${name}.bench.ts`, import.meta.url));
if (rest.includes("--help") || rest.includes("-h")) {
  console.log(openingComment(file));
  process.exit(0);
}

const env = { ...process.env };
// The benchmarks measure PostgreSQL too whenever BENCH_POSTGRES_URL is set.
if (rest.includes("--pg")) env.BENCH_POSTGRES_URL ||= DEFAULT_POSTGRES_URL;
if (benchmark.exposeGc) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --expose-gc`.trim();
// process.execArgv carries tsx's loader, as the benchmarks' own child processes do.
const child = spawn(process.execPath, [...process.execArgv, file, ...rest.filter((arg) => arg !== "--pg")], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => {
  process.exitCode = code ?? 1;
});
