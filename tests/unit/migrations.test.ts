// Migrations are frozen (app/db/migrations/README.md). What they build is compared with a snapshot
// in tests/integration/migrations-schema.test.ts; this checks what they may depend on, so that no
// edit made for today's code reaches a migration that already ran somewhere:
// - a migration imports kysely, node built-ins, ./_dialect and frozen/ modules, nothing else;
// - _dialect imports kysely and node built-ins; frozen/ modules those, _dialect and each other;
// - frozen/ files never change (their hashes are below: a new frozen file adds its line);
// - nothing outside app/db/migrations imports from it but its list of migrations (index.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FOLDER = path.resolve("app/db/migrations");
const MIGRATION = /^\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+\.ts$/;

const FROZEN_SHA256: Record<string, string> = {
  "frozen/analytics-triggers-v1/presence.ts": "3bbda471599f6c727c6cbb18d7301238e234ca2cec23dfc96400bc69c60826c1",
  "frozen/analytics-triggers-v1/sql.ts": "06d5ee5ceb8333eb5a5d87dfa0d129f69df0d575a691f6ca9aa597f43fe5675a",
  "frozen/analytics-triggers-v1/triggers.ts": "b7edf2427df84cfc2db5b535916a5b2f5a02d1dc1fe8bfd7b8491f7ac072bdfc",
  "frozen/analytics-triggers-v1/visits.ts": "4729a23946b17bcc297878ecd70810e6160d48b3b05552e15c1b6315addf4fe3",
};

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();

const importsOf = (file: string) => ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles.map((i) => i.fileName);

/** Where an import leads: a package or node built-in as written, a relative one as a path inside the folder ("../x" outside it). */
function target(file: string, specifier: string): string {
  if (specifier.startsWith("~/")) return path.relative(FOLDER, path.resolve("app", specifier.slice(2)));
  if (!specifier.startsWith(".")) return specifier;
  return path.relative(FOLDER, path.resolve(path.dirname(file), specifier));
}

const isPackageOrBuiltIn = (t: string) => t === "kysely" || t.startsWith("node:");
const isFrozen = (t: string) => t.startsWith(`frozen${path.sep}`);

describe("migrations", () => {
  it("import only kysely, node built-ins, _dialect and frozen modules; _dialect and frozen modules no more", () => {
    const wrong: string[] = [];
    for (const file of filesUnder(FOLDER).filter((f) => f.endsWith(".ts"))) {
      const name = path.relative(FOLDER, file);
      const allowed = MIGRATION.test(name)
        ? (t: string) => isPackageOrBuiltIn(t) || t === "_dialect" || isFrozen(t)
        : name === "_dialect.ts"
          ? isPackageOrBuiltIn
          : isFrozen(name)
            ? (t: string) => isPackageOrBuiltIn(t) || t === "_dialect" || isFrozen(t)
            : name === "index.ts"
              ? (t: string) => t === "kysely" || MIGRATION.test(`${t}.ts`)
              : () => false;
      for (const specifier of importsOf(file)) if (!allowed(target(file, specifier))) wrong.push(`${name} imports ${specifier}`);
      if (!allowed("kysely")) wrong.push(`${name} is neither a migration, index.ts, _dialect.ts nor a frozen module`);
    }
    expect(wrong).toEqual([]);
  });

  it("are all listed in index.ts, in order", () => {
    const files = fs
      .readdirSync(FOLDER)
      .filter((f) => MIGRATION.test(f))
      .map((f) => f.replace(/\.ts$/, ""));
    const index = fs.readFileSync(path.join(FOLDER, "index.ts"), "utf8");
    const listed = [...index.matchAll(/^\s+"([^"]+)": \w+,$/gm)].map((m) => m[1]);
    expect(listed).toEqual(files);
    expect(importsOf(path.join(FOLDER, "index.ts")).filter((s) => s !== "kysely")).toEqual(files.map((f) => `./${f}`));
  });

  it("keep their frozen modules exactly as they were written", () => {
    const frozen = filesUnder(path.join(FOLDER, "frozen")).map((file) => [
      path.relative(FOLDER, file),
      createHash("sha256").update(fs.readFileSync(file)).digest("hex"),
    ]);
    expect(Object.fromEntries(frozen), "frozen files never change: new behaviour is a new migration").toEqual(FROZEN_SHA256);
  });

  it("are reached from outside through their list (index.ts) only", () => {
    const wrong: string[] = [];
    for (const root of ["app", "tests", "bench", "scripts", "server"]) {
      if (!fs.existsSync(root)) continue;
      for (const file of filesUnder(path.resolve(root)).filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !f.startsWith(FOLDER + path.sep))) {
        for (const specifier of importsOf(file)) {
          const t = target(file, specifier);
          const inside = !t.startsWith("..") && !path.isAbsolute(t) && (specifier.startsWith(".") || specifier.startsWith("~/"));
          if (inside && t !== "" && t !== "index") wrong.push(`${path.relative(process.cwd(), file)} imports ${specifier}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
