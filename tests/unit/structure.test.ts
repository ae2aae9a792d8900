// The repository's structure, checked: the layers of docs/architecture.md point down only, services
// know nothing of Express, the guest side's modules form no cycle, engine differences stay in app/db, and every loader and action of an
// organisation's pages reaches the guard. Known exceptions are listed with the work that removes
// them; an exception that no longer occurs fails the test too, so the lists only shrink.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");

/** What each layer may import (besides packages and itself). */
const MAY_USE: Record<string, string[]> = {
  lib: [],
  env: ["lib"],
  db: ["lib", "env"],
  services: ["db", "lib", "env"],
  components: ["lib"],
  // The guest side's HTTP handlers and the pages they render as components (decisions 0070, 0071).
  guest: ["services", "components", "lib", "env"],
  // Console pages that preview a guest page ask the guest layer for it.
  routes: ["guest", "services", "components", "lib", "env"],
  tools: ["services", "db", "lib", "env"],
  root: ["routes", "guest", "services", "components", "db", "lib", "env"],
};

/** Type-only imports that are allowed across layers: the tables' row types are shared vocabulary. */
const SHARED_TYPES = new Set(["db/schema.ts"]);

/**
 * Imports that point up today, as "from → to", each removed by the work named beside it.
 * The guest side (app/services/portal) is being given a home of its own; its types move with it.
 */
const KNOWN_UPWARD = new Set<string>([
  // The gateway settings form shows the adapters' revocation kinds and the settings view.
  "components/venues/gateway-settings.tsx → services/portal/gateways/types.ts",
  "components/venues/gateway-settings.tsx → services/portal/settings.server.ts",
]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(APP, file).split(path.sep).join("/");

function layerOf(appPath: string): string {
  const [first] = appPath.split("/");
  // env.server.ts and the reader it re-exports, which server/*.mjs share.
  if (appPath.startsWith("env.server") || appPath === "config.server.mjs") return "env";
  if (!appPath.includes("/")) return "root";
  return first;
}

interface Import {
  target: string; // path under app/, with extension
  typeOnly: boolean;
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate.startsWith(APP) ? relative(candidate) : null;
  }
  return null;
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = resolveImport(file, specifier);
    if (target) found.push({ target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(APP);
// Reading the whole app (and type-checking the routes for the guard) takes seconds on a busy machine.
const SLOW = { timeout: 120_000 };

describe("the layers", () => {
  it("point down only: every import goes to the same layer or one the layer may use", SLOW, () => {
    const upward = new Set<string>();
    for (const file of files) {
      const from = relative(file);
      const layer = layerOf(from);
      for (const { target, typeOnly } of importsOf(file)) {
        const to = layerOf(target);
        if (to === layer || MAY_USE[layer]?.includes(to)) continue;
        if (typeOnly && SHARED_TYPES.has(target)) continue;
        upward.add(`${from} → ${target}`);
      }
    }
    const unexpected = [...upward].filter((edge) => !KNOWN_UPWARD.has(edge)).sort();
    const gone = [...KNOWN_UPWARD].filter((edge) => !upward.has(edge));
    expect(unexpected, "imports that point up the layers").toEqual([]);
    expect(gone, "known exceptions that no longer occur: remove them from KNOWN_UPWARD").toEqual([]);
  });

  it("keep Express out of the services", () => {
    const users = files
      .map(relative)
      .filter((f) => f.startsWith("services/"))
      .filter((f) => /from\s+["']express["']/.test(fs.readFileSync(path.join(APP, f), "utf8")));
    expect(users, "services importing express").toEqual([]);
  });

  it("keep the guest side's areas apart: only routes.ts imports them, and its modules form no cycle", () => {
    const guest = files.map(relative).filter((f) => f.startsWith("guest/"));
    const edges = new Map(
      guest.map((f) => [
        f,
        importsOf(path.join(APP, f))
          .map((i) => i.target)
          .filter((t) => t.startsWith("guest/")),
      ]),
    );
    // The helpers and page builders every area shares; each area is its own module, as app/routes' files are.
    const shared = new Set([
      "guest/http.ts",
      "guest/connect-page.ts",
      "guest/pages.tsx",
      "guest/html.ts",
      "guest/survey-page.ts",
      "guest/unsubscribe-page.ts",
      // The catalogues of guest words (decision 0079).
      "guest/i18n/index.ts",
      "guest/i18n/en.ts",
      "guest/i18n/sw.ts",
    ]);
    const crossings = [...edges].flatMap(([from, targets]) =>
      from === "guest/routes.ts" ? [] : targets.filter((t) => !shared.has(t)).map((t) => `${from} → ${t}`),
    );
    expect(crossings, "guest areas importing each other").toEqual([]);
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
    };
    for (const file of guest) visit(file, []);
    expect(cycles, "import cycles in app/guest").toEqual([]);
  });

  it("keep engine forks, prepared-statement marks and planner hints inside app/db", () => {
    // Outside app/db, SQL that only one engine speaks or that steers a planner goes through the
    // named helpers in app/db/sql.server.ts (decision 0069); nothing asks which engine runs.
    const forbidden: [string, RegExp][] = [
      ["asks which engine runs", /\bdialect\(|=== "(postgres|sqlite)"|!== "(postgres|sqlite)"/],
      ["marks or names prepared statements", /\bPREPARED\b|\/\* prepared \*\/|\bqueryNamed\b|\.query = /],
      ["locks rows (lockedForUpdate, claimable)", /\.forUpdate\(|\.skipLocked\(/],
      [
        "carries a planner hint (unindexed, checkedPerRow)",
        /\} \+ 0\b|\|\| ''|sql`\+|\b(INDEXED BY|NOT INDEXED|indexed by|not indexed)\b|\bnoIndex\(/,
      ],
      [
        "writes one engine's SQL",
        /strftime\(|string_agg|group_concat|json_extract|::json|pg_advisory|synchronous_commit|::(int[248]?|bigint|text)\b/,
      ],
    ];
    const found = files
      .map(relative)
      .filter((f) => !f.startsWith("db/"))
      .flatMap((f) => {
        const text = fs.readFileSync(path.join(APP, f), "utf8");
        return forbidden.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${f} ${what}`);
      });
    expect(found, "engine forks outside app/db").toEqual([]);
  });
});

describe("the guard", () => {
  it("is reached by every loader and action of an organisation's pages", SLOW, () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(ROOT, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const routeFiles = files.filter((f) => /^routes\/\$orgId_?\+\//.test(relative(f)) && !path.basename(f).startsWith("__"));
    const program = ts.createProgram(routeFiles, config.options);
    const checker = program.getTypeChecker();
    const guardFile = path.join(APP, "services/guard.server.ts");

    const reaches = new Map<ts.Node, boolean>();
    /** Whether the function reaches requireOrg (directly or through functions of the app it calls). */
    const reachesGuard = (fn: ts.Node): boolean => {
      const known = reaches.get(fn);
      if (known !== undefined) return known;
      reaches.set(fn, false); // a cycle reaches nothing new
      let found = false;
      const visit = (node: ts.Node) => {
        if (found) return;
        if (ts.isCallExpression(node)) {
          let symbol = checker.getSymbolAtLocation(node.expression);
          if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
          for (const declaration of symbol?.declarations ?? []) {
            const file = declaration.getSourceFile().fileName;
            if (path.resolve(file) === guardFile && symbol!.name === "requireOrg") found = true;
            else if (path.resolve(file).startsWith(APP) && !found) {
              const body = functionOf(declaration, checker);
              if (body && reachesGuard(body)) found = true;
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(fn);
      reaches.set(fn, found);
      return found;
    };

    const unguarded: string[] = [];
    let checked = 0;
    for (const file of routeFiles) {
      const source = program.getSourceFile(file)!;
      const moduleSymbol = checker.getSymbolAtLocation(source);
      for (const name of ["loader", "action"]) {
        let exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
        if (!exported) continue;
        if (exported.flags & ts.SymbolFlags.Alias) exported = checker.getAliasedSymbol(exported);
        const body = exported.declarations?.map((d) => functionOf(d, checker)).find(Boolean);
        checked++;
        if (!body || !reachesGuard(body)) unguarded.push(`${relative(file)} ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(unguarded).toEqual([]);
  });
});

/** The code a declared function runs: its body; for `const loader = other`, the body of `other`. */
function functionOf(declaration: ts.Node, checker: ts.TypeChecker, depth = 0): ts.Node | undefined {
  if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return declaration.body;
  if (!ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
  const init = declaration.initializer;
  if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init.body;
  if ((ts.isIdentifier(init) || ts.isPropertyAccessExpression(init)) && depth < 5) {
    let symbol = checker.getSymbolAtLocation(init);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.map((d) => functionOf(d, checker, depth + 1)).find(Boolean);
  }
  return init; // e.g. a wrapped handler, withX(async () => …): look inside the expression
}
