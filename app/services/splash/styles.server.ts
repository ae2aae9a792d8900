// The styling templates a splash page names (docs/guide/splash-pages.md#create-splash-page),
// served from this server: Bootstrap 4 and 3 are the packages' own files under /splash/styles/;
// Tailwind has no single file (v3 generates what a page uses), so a page's Tailwind CSS is
// compiled from its HTML when it is saved or published and inlined in the page (a few KB, not
// the megabytes of a full build).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import postcss from "postcss";
import tailwindcss from "tailwindcss";
import type { CssTemplate } from "~/db/schema";

const require = createRequire(import.meta.url);

const BOOTSTRAP = {
  "bootstrap4.css": { module: "bootstrap4", file: "bootstrap4/dist/css/bootstrap.min.css" },
  "bootstrap3.css": { module: "bootstrap3", file: "bootstrap3/dist/css/bootstrap.min.css" },
} as const;

interface StyleFile {
  body: Buffer;
  /** In the file's URL, so it can be cached for a year and still change with an upgrade. */
  version: string;
}

const files = new Map<string, StyleFile>();

function styleFile(name: keyof typeof BOOTSTRAP): StyleFile {
  let file = files.get(name);
  if (!file) {
    const { module, file: path } = BOOTSTRAP[name];
    const version = (JSON.parse(readFileSync(require.resolve(`${module}/package.json`), "utf8")) as { version: string }).version;
    file = { body: readFileSync(require.resolve(path)), version };
    files.set(name, file);
  }
  return file;
}

/** The stylesheet link of a Bootstrap template, or null for Tailwind (inlined instead). */
export function styleHref(template: CssTemplate): string | null {
  if (template === "tailwind.css") return null;
  return `/splash/styles/${template.replace(".css", "")}-${styleFile(template).version}.css`;
}

/** The body of /splash/styles/{name}-{version}.css, or null when there is no such file. */
export function styleFileFor(requested: string): Buffer | null {
  const match = /^(bootstrap[34])-([0-9.]+)\.css$/.exec(requested);
  if (!match) return null;
  const file = styleFile(`${match[1]}.css` as keyof typeof BOOTSTRAP);
  return file.version === match[2] ? file.body : null;
}

const TAILWIND_INPUT = "@tailwind base;@tailwind components;@tailwind utilities;";
const compiled = new Map<string, Promise<string>>();
const COMPILED_KEPT = 50;

/** Tailwind v3's CSS for the classes this HTML uses (preflight included), minified lightly. */
export function compileTailwind(html: string): Promise<string> {
  let css = compiled.get(html);
  if (!css) {
    css = postcss([tailwindcss({ content: [{ raw: html, extension: "html" }], corePlugins: { preflight: true } })])
      .process(TAILWIND_INPUT, { from: undefined })
      .then((result) => result.css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\n\s*/g, ""));
    compiled.set(html, css);
    css.catch(() => compiled.delete(html));
    if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  }
  return css;
}
