import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

describe("reading conform forms on the server", () => {
  // parseWithZod throws on a hostile __intent__ or __state__ (a 500); parseForm answers 400
  // (app/services/forms.server.ts). The browser's onValidate may call parseWithZod: it runs on the
  // user's own form.
  it("goes through parseForm everywhere but in the browser's onValidate", () => {
    const direct = sources("app").flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) => /\bparseWithZod\(/.test(line) && !/onValidate/.test(line))
        .filter(({ where }) => !where.startsWith(path.join("app", "services", "forms.server.ts")))
        .map(({ where }) => where),
    );
    expect(direct).toEqual([]);
  });
});
