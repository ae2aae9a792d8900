// Turning a splash page into the document guests get. The operator's HTML, CSS
// and scripts go in as written: they run only under the guest pages' CSP sandbox, without
// allow-same-origin, so they never act with the console's origin (decision 0016). Option values
// are substituted HTML-escaped; the connect form goes where the page's `{{ connect_form }}` is, or
// after the page's body when it has none. The result is split there once, at publish, so a guest's
// request only concatenates before + form + after.
import type { CssTemplate } from "~/db/schema";
import { escapeHtml } from "~/lib/escape-html";
import { compileTailwind, styleHref } from "./styles.server";

/** `{{ config.welcome_text }}`: an option of the page (names are lower-case words). */
export const CONFIG_PLACEHOLDER = /\{\{\s*config\.([a-z][a-z0-9_]{0,39})\s*\}\}/g;
/** `{{ connect_form }}`: where the guest's connect form goes. */
export const CONNECT_PLACEHOLDER = /\{\{\s*connect_form\s*\}\}/;

export interface RenderablePage {
  name: string;
  css_template: CssTemplate;
  html: string;
  css: string;
  custom_scripts: string;
}

/** A page's document around the connect form. */
export interface SplashFrame {
  before: string;
  after: string;
}

/** The option names a page's HTML uses, in order of first use. */
export function placeholdersIn(html: string): string[] {
  return [...new Set([...html.matchAll(CONFIG_PLACEHOLDER)].map((m) => m[1]!))];
}

export function substituteConfigs(html: string, values: ReadonlyMap<string, string>): string {
  return html.replace(CONFIG_PLACEHOLDER, (_, name: string) => escapeHtml(values.get(name) ?? ""));
}

/** Styles for the injected form, scoped to it so they do not fight the page's own. */
const FORM_CSS = `.mlango-form{max-width:26rem;margin:1rem auto;padding:1.25rem;background:#fff;color:#0f172a;border-radius:.75rem;box-shadow:0 1px 3px #0002;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:left}
.mlango-form h2{font-size:1.25rem;font-weight:700;margin:0 0 .75rem}.mlango-form .venue{display:none}.mlango-form label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}
.mlango-form input[type=text],.mlango-form input[type=email],.mlango-form input[type=tel]{display:block;width:100%;box-sizing:border-box;padding:.6rem .7rem;font:inherit;color:inherit;background:#fff;border:1px solid #94a3b8;border-radius:.5rem;height:auto}
.mlango-form .check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin-top:.9rem}.mlango-form .check input{margin-top:.3rem}
.mlango-form button,.mlango-form .btn{display:block;box-sizing:border-box;width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;cursor:pointer}
.mlango-form .btn.alt,.mlango-form button.alt{background:#fff;color:#1e293b;border:1px solid #94a3b8}.mlango-form .err{color:#b91c1c;font-size:.85rem;margin:.25rem 0 0}
.mlango-form .alert{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:.75rem;border-radius:.5rem;margin-bottom:.75rem}.mlango-form .alert p{margin:.2rem 0}
.mlango-form .ok{background:#f0fdf4;border-color:#bbf7d0;color:#166534}.mlango-form .or{text-align:center;color:#64748b;font-size:.85rem;margin:1rem 0 0}.mlango-form a{color:#4338ca}
.mlango-form .plan{background:#eef2ff;border-radius:.5rem;padding:.5rem .75rem;margin:0 0 .75rem;font-size:.9rem}`;

/** Keeps operator CSS and scripts inside their element: `</style>` or `</script>` in them cannot close it. */
const inElement = (text: string) => text.replace(/<\/(?=(style|script)\b)/gi, "<\\/");

/**
 * The page as a frame for the connect form. `values` are the options' current values. Tailwind
 * pages get the CSS of the classes they use compiled in; Bootstrap pages link the local file.
 */
export async function renderFrame(page: RenderablePage, values: ReadonlyMap<string, string>): Promise<SplashFrame> {
  const body = substituteConfigs(page.html, values);
  const href = styleHref(page.css_template);
  const styling = href ? `<link rel="stylesheet" href="${href}">` : `<style>${inElement(await compileTailwind(body))}</style>`;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(page.name)}</title>${styling}<style>${FORM_CSS}</style>${page.css.trim() ? `<style>${inElement(page.css)}</style>` : ""}</head><body>`;
  const scripts = page.custom_scripts.trim() ? `<script>${inElement(page.custom_scripts)}</script>` : "";
  const tail = `${scripts}</body></html>`;
  const marker = CONNECT_PLACEHOLDER.exec(body);
  if (!marker) return { before: `${head}${body}<div class="mlango-form">`, after: `</div>${tail}` };
  const rest = body.slice(marker.index + marker[0].length).replace(new RegExp(CONNECT_PLACEHOLDER.source, "g"), "");
  return { before: `${head}${body.slice(0, marker.index)}<div class="mlango-form">`, after: `</div>${rest}${tail}` };
}

/** An option's value as CSS may take it: nothing that closes a declaration, a rule or a tag. */
const cssValue = (value: string) => value.replace(/[{}<>;\\\r\n]/g, "");
const OPTION_TOKEN = /\uE000([a-z][a-z0-9_]{0,39})\uE000/g;

/** The declarations of a style attribute or rule (options as OPTION_TOKEN) that use an option, with its value, important. */
function optionDeclarations(body: string, values: ReadonlyMap<string, string>): string[] {
  return body.split(";").flatMap((declaration) => {
    const colon = declaration.indexOf(":");
    const property = declaration.slice(0, colon).trim();
    const value = declaration.slice(colon + 1).trim();
    if (colon < 0 || !/^-{0,2}[A-Za-z][\w-]*$/.test(property) || !new RegExp(OPTION_TOKEN.source).test(value)) return [];
    return [`${property}:${value.replace(OPTION_TOKEN, (_, name: string) => cssValue(values.get(name) ?? ""))} !important`];
  });
}

/**
 * The builder's canvas shows the page as written, placeholders and all, so a colour given by an
 * option (`style="--primary: {{ config.primary_color }}"`, or such a rule in the page's CSS) would be
 * no colour there: white text on white. This style sheet gives those declarations their options'
 * values, for elements found by id or classes, and the page's declarations that use a variable
 * (issue 37, item 7). The canvas runs no script (0067).
 */
export function canvasOptionsCss(html: string, css: string, values: ReadonlyMap<string, string>): string {
  const tokens = (text: string) => text.replace(CONFIG_PLACEHOLDER, (_, name: string) => `\uE000${name}\uE000`);
  const rules: string[] = [];
  for (const tag of tokens(html).matchAll(/<[A-Za-z][\w-]*\s[^>]*>/g)) {
    const attributes = new Map(
      [...tag[0].matchAll(/\s(id|class|style)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)].map((a) => [a[1]!.toLowerCase(), a[2] ?? a[3] ?? ""]),
    );
    const style = attributes.get("style");
    if (!style) continue;
    const id = attributes.get("id") ?? "";
    const classes = (attributes.get("class") ?? "").split(/\s+/).filter((c) => /^-?[A-Za-z_][\w-]*$/.test(c));
    const selector = /^[A-Za-z][\w-]*$/.test(id) ? `#${id}` : classes.map((c) => `.${c}`).join("");
    const declarations = optionDeclarations(style, values);
    if (selector && declarations.length) rules.push(`${selector}{${declarations.join(";")}}`);
  }
  // GrapesJS's CSS parser drops shorthands given by a variable (background: var(--primary)), which
  // the browser cannot expand before the value is known: the canvas gets those declarations here.
  const withVariables = (body: string) =>
    body.split(";").filter((d) => d.includes("var(") && !new RegExp(OPTION_TOKEN.source).test(d) && /^\s*-{0,2}[A-Za-z][\w-]*\s*:/.test(d));
  for (const rule of tokens(css).matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = rule[1]!.trim();
    const declarations = [...withVariables(rule[2]!).map((d) => d.trim()), ...optionDeclarations(rule[2]!, values)];
    if (selector && !selector.startsWith("@") && declarations.length) rules.push(`${selector}{${declarations.join(";")}}`);
  }
  return rules.join("\n");
}
