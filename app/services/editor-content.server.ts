// What the console's visual editors (GrapesJS: the splash page builder and the e-mail designer) may be
// given. Their projects are JSON that GrapesJS turns into live DOM inside a canvas frame of the console's
// own origin, opened by whoever edits the page next — possibly an owner, whose session reaches every
// organisation they belong to. So a stored project must never be able to make script there: every
// project is cleaned when it is saved and again when it is read (rows stored before this check), and
// HTML handed to an editor to import is cleaned the same way (docs/decisions/0067-editor-canvas-script.md).
//
// Projects: script components (type or tag name, at any depth, also inside the canvas head) and tags
// that load or navigate other documents (base, meta, link, object, embed, …) are removed; so are the
// `script`, `script-export` and `script-props` properties (GrapesJS injects them into the canvas as
// script), data-bound components and values (data sources render their values as HTML), event handler
// attributes (on…), srcdoc, and URLs whose scheme is not http(s), mailto, tel, sms or cid — except a
// data:image/… URL as an image's src: an image document never runs script (an SVG shown by <img> runs
// in the browsers' secure mode: no script, no event handlers, nothing loaded). HTML strings in a project
// (`components`, `component` and `content` given as HTML) go through cleanHtml. Labels the editor shows
// as HTML in the console's own page (names, icons, toolbars, traits) are cleaned or dropped.
//
// cleanHtml re-writes HTML from an allow-list: it reads the markup the way browsers tokenise it, and
// writes only allowed elements, with attributes that passed the checks above, double-quoted and escaped,
// and text escaped. Whatever the input, the output therefore reads the same in every parser, and
// contains no script, no frame, no SVG or MathML (foreign content parses differently) and no comment.

const DROP = Symbol("drop");
type Cleaned = unknown | typeof DROP;

// ---------------------------------------------------------------------------------------------------
// URLs and attributes (shared by projects and HTML)

const SAFE_SCHEMES = new Set(["http", "https", "mailto", "tel", "sms", "cid"]);
/** Images as data: URLs (what the asset manager embeds): inert when shown by an <img>. */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)[;,]/i;
/** Attributes a browser loads or navigates to. */
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "poster",
  "data",
  "background",
  "cite",
  "codebase",
  "longdesc",
  "lowsrc",
  "dynsrc",
  "ping",
  "manifest",
  "icon",
  "profile",
  "classid",
  "archive",
]);
/** Lists of image candidates: inert, but checked for a script URL all the same. */
const SRCSET_ATTRIBUTES = new Set(["srcset", "imagesrcset"]);
const ATTRIBUTE_NAME = /^[a-z_:][a-z0-9_:.-]*$/;

/** The URL as a browser reads it: surrounding controls and spaces trimmed, tabs and line breaks removed. */
function normalizedUrl(value: string): string {
  // eslint-disable-next-line no-control-regex -- the characters browsers strip from URLs are controls
  return value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
}

/** A URL without a scheme (relative, #fragment, a {{ placeholder }}) or with a safe one; data:image/… only where `image`. */
export function isSafeUrl(value: string, image = false): boolean {
  const url = normalizedUrl(value);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  if (scheme === "data") return image && DATA_IMAGE.test(url);
  return SAFE_SCHEMES.has(scheme);
}

const SCRIPT_URL = /(?:java|vb)script:|data:/i;

/** A value that names a script URL (javascript:, vbscript:), checked on every attribute. */
const startsAsScript = (value: string) => /^(?:java|vb)script:/i.test(normalizedUrl(value));

/**
 * Whether an attribute may stay. `name` is lower case; `image`: the element is an image (data:image/…
 * allowed in src). Event handlers, srcdoc and GrapesJS's own data-gjs-* (read back as component
 * properties when HTML is imported) never stay.
 */
function keepAttribute(name: string, value: string, image: boolean): boolean {
  if (!ATTRIBUTE_NAME.test(name) || name.startsWith("on") || name === "srcdoc" || name.startsWith("data-gjs-")) return false;
  if (name === "http-equiv") return false;
  if (URL_ATTRIBUTES.has(name)) return isSafeUrl(value, image && name === "src");
  if (SRCSET_ATTRIBUTES.has(name)) return !SCRIPT_URL.test(normalizedUrl(value).replace(/\s+/g, ""));
  return !startsAsScript(value);
}

// ---------------------------------------------------------------------------------------------------
// HTML

/** Elements written back (with their content); any other tag is left out and its content kept. */
const ALLOWED_TAGS = new Set(
  (
    "a abbr address article aside audio b bdi bdo big blockquote br button caption center cite code col colgroup dd del " +
    "details dfn div dl dt em fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hr i img input ins kbd " +
    "label legend li main mark nav ol optgroup option p picture pre q s samp section select small source span strike strong " +
    "style sub summary sup table tbody td textarea tfoot th thead time tr track tt u ul var video wbr"
  ).split(" "),
);
const VOID_TAGS = new Set("area base br col embed hr img input keygen link meta param source track wbr".split(" "));
/** Left out with everything inside them. */
const DROPPED_WITH_CONTENT = new Set(
  "script svg math template iframe frame frameset object applet noembed noframes noscript xmp plaintext title".split(" "),
);
/** Elements whose content is text up to their end tag, not markup. */
const RAW_TEXT = new Set("script style xmp iframe noembed noframes noscript textarea title plaintext".split(" "));

/** Entities decoded in attribute values before they are checked: numeric ones and every named one that stands for ASCII. */
const NAMED_ASCII: Record<string, string> = {
  Tab: "\t",
  NewLine: "\n",
  excl: "!",
  quot: '"',
  QUOT: '"',
  num: "#",
  dollar: "$",
  percnt: "%",
  amp: "&",
  AMP: "&",
  apos: "'",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  lt: "<",
  LT: "<",
  equals: "=",
  gt: ">",
  GT: ">",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  Hat: "^",
  lowbar: "_",
  UnderBar: "_",
  grave: "`",
  DiacriticalGrave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  VerticalLine: "|",
  rcub: "}",
  rbrace: "}",
  nbsp: "\u00a0",
};
/** A character reference as browsers read it in attribute values (numeric ones need no semicolon). */
const CHAR_REF = /&(?:#[xX]([0-9a-fA-F]+);?|#(\d+);?|([A-Za-z][A-Za-z0-9]*);)/g;
/** A well-formed reference, kept as it is in text. */
const WELL_FORMED_REF = /^&(?:#[xX][0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);/;

function codePointOf(n: number): string {
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(n);
}

/**
 * An attribute value from the markup: `value` is what a browser gets (for the checks), `html` how it is
 * written back. Named references this does not know are kept as they are in both (they stand for
 * characters beyond ASCII, which cannot make a URL scheme).
 */
function attributeValue(raw: string): { value: string; html: string } {
  let value = "";
  let html = "";
  let last = 0;
  for (const match of raw.matchAll(CHAR_REF)) {
    const before = raw.slice(last, match.index);
    value += before;
    html += escapeAttribute(before);
    last = match.index + match[0].length;
    const [whole, hex, decimal, name] = match;
    if (name !== undefined && !(name in NAMED_ASCII)) {
      value += "\ufffd";
      html += whole;
      continue;
    }
    const char = name !== undefined ? NAMED_ASCII[name]! : codePointOf(hex !== undefined ? parseInt(hex, 16) : Number(decimal));
    value += char;
    html += escapeAttribute(char);
  }
  const rest = raw.slice(last);
  return { value: value + rest, html: html + escapeAttribute(rest) };
}

const escapeAttribute = (s: string) => s.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]!);

/** Text as written back: markup characters escaped, well-formed character references kept. */
function escapeText(s: string): string {
  return s.replace(/[<>]|&/g, (c, offset: number) => {
    if (c === "<") return "&lt;";
    if (c === ">") return "&gt;";
    return WELL_FORMED_REF.test(s.slice(offset, offset + 40)) ? "&" : "&amp;";
  });
}

interface Tag {
  name: string;
  attributes: [string, string][];
  selfClosing: boolean;
  end: number;
}

/** HTML's whitespace: tab, line feed, form feed, carriage return, space. */
function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\f";
}

/** Reads a start or end tag's name and attributes from `at` (just after `<` or `</`), as HTML's tokeniser does. */
function readTag(html: string, at: number): Tag | null {
  let i = at;
  while (i < html.length && !isSpace(html[i]) && html[i] !== "/" && html[i] !== ">") i++;
  const name = html.slice(at, i).toLowerCase();
  const attributes: [string, string][] = [];
  const seen = new Set<string>();
  let selfClosing = false;
  for (;;) {
    while (i < html.length && (isSpace(html[i]) || html[i] === "/")) {
      selfClosing = html[i] === "/";
      i++;
    }
    if (i >= html.length) return null; // a tag cut off by the end is no tag
    if (html[i] === ">") return { name, attributes, selfClosing, end: i + 1 };
    selfClosing = false;
    const nameStart = i;
    i++; // the first character may be "="
    while (i < html.length && !isSpace(html[i]) && html[i] !== "/" && html[i] !== ">" && html[i] !== "=") i++;
    const attribute = html.slice(nameStart, i).toLowerCase();
    while (i < html.length && isSpace(html[i])) i++;
    let value = "";
    if (html[i] === "=") {
      i++;
      while (i < html.length && isSpace(html[i])) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close < 0) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < html.length && !isSpace(html[i]) && html[i] !== ">") i++;
        value = html.slice(start, i);
      }
    }
    // The first of two attributes with one name is the one browsers keep.
    if (!seen.has(attribute)) {
      seen.add(attribute);
      attributes.push([attribute, value]);
    }
  }
}

/** Where a comment or other markup declaration starting at `at` (on "<!" or "<?") ends. */
function skipDeclaration(html: string, at: number): number {
  if (html.startsWith("<!--", at)) {
    if (html.startsWith("<!-->", at)) return at + 5;
    if (html.startsWith("<!--->", at)) return at + 6;
    const close = /--!?>/g;
    close.lastIndex = at + 4;
    const match = close.exec(html);
    return match ? match.index + match[0].length : html.length;
  }
  const close = html.indexOf(">", at + 2);
  return close < 0 ? html.length : close + 1;
}

/** The HTML re-written from the allow-list (see the top of this file). */
export function cleanHtml(input: string): string {
  // eslint-disable-next-line no-control-regex -- NUL never belongs in a page (and PostgreSQL cannot store it)
  const html = input.replace(/\u0000/g, "");
  let out = "";
  const open: string[] = [];
  /** While inside an element left out with its content: its name and how deep in it we are. */
  let skipping: { name: string; depth: number } | null = null;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > i && !skipping) out += escapeText(html.slice(i, textEnd));
    if (lt < 0) break;
    i = lt;
    const next = html[i + 1];
    if (next === "!" || next === "?") {
      i = skipDeclaration(html, i);
      continue;
    }
    const closing = next === "/";
    const nameAt = closing ? i + 2 : i + 1;
    if (!/[A-Za-z]/.test(html[nameAt] ?? "")) {
      if (closing) {
        // "</>" is nothing; "</3" and the like are comments to browsers.
        i = html[nameAt] === ">" ? nameAt + 1 : skipDeclaration(html, i);
      } else {
        if (!skipping) out += "&lt;";
        i++;
      }
      continue;
    }
    const tag = readTag(html, nameAt);
    if (!tag) break;
    i = tag.end;
    if (closing) {
      if (skipping) {
        if (tag.name === skipping.name && --skipping.depth === 0) skipping = null;
      } else if (open.includes(tag.name)) {
        while (open.length) {
          const name = open.pop()!;
          out += `</${name}>`;
          if (name === tag.name) break;
        }
      }
      continue;
    }
    // Text elements: their content runs to their end tag whatever it holds.
    let rawText: string | null = null;
    if (RAW_TEXT.has(tag.name)) {
      const end = tag.name === "plaintext" ? null : new RegExp(`</${tag.name}[\\t\\n\\f\\r />]`, "gi");
      if (end) end.lastIndex = i;
      const match = end?.exec(html);
      rawText = html.slice(i, match ? match.index : html.length);
      i = match ? match.index : html.length;
    }
    if (skipping) {
      if (tag.name === skipping.name && !tag.selfClosing) skipping.depth++;
      continue;
    }
    if (DROPPED_WITH_CONTENT.has(tag.name)) {
      if (rawText === null && !tag.selfClosing && !VOID_TAGS.has(tag.name)) skipping = { name: tag.name, depth: 1 };
      else if (rawText !== null) i = skipEndTag(html, i, tag.name);
      continue;
    }
    if (!ALLOWED_TAGS.has(tag.name)) continue;
    const image = tag.name === "img";
    let attributes = "";
    for (const [name, raw] of tag.attributes) {
      const { value, html: written } = attributeValue(raw);
      if (keepAttribute(name, value, image)) attributes += ` ${name}="${written}"`;
    }
    out += `<${tag.name}${attributes}>`;
    if (rawText !== null) {
      // CSS keeps its text, without "<" (so nothing in it can end the element early); a textarea's text is escaped.
      out += tag.name === "style" ? rawText.replace(/</g, "\\3c ") : escapeText(rawText);
      out += `</${tag.name}>`;
      i = skipEndTag(html, i, tag.name);
    } else if (!VOID_TAGS.has(tag.name)) {
      open.push(tag.name);
    }
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

/** Past the end tag of a text element found at `at` (if there is one). */
function skipEndTag(html: string, at: number, name: string): number {
  if (
    !html
      .slice(at, at + name.length + 2)
      .toLowerCase()
      .startsWith(`</${name}`)
  )
    return at;
  const tag = readTag(html, at + 2);
  return tag ? tag.end : html.length;
}

// ---------------------------------------------------------------------------------------------------
// Projects

/** Tags never created in the canvas: script, and what loads or navigates to other documents. */
const DROPPED_COMPONENT_TAGS = new Set(
  "script base meta link object embed applet frame frameset portal animate set animatemotion animatetransform".split(" "),
);
const TAG_NAME = /^[a-z][a-z0-9:._-]*$/i;
/** Component properties GrapesJS runs as script in the canvas. */
const SCRIPT_PROPERTIES = new Set(["script", "script-export", "script-props"]);
/** Component properties GrapesJS turns into URLs (the image's src and its fallback, a video's or frame's src). */
const URL_PROPERTIES = new Set(["src", "fallback", "href", "poster"]);
/** Top-level parts of a project the editors get elsewhere (assets from the organisation) or never use (data sources). */
const DROPPED_PROJECT_KEYS = new Set(["assets", "dataSources"]);
/** Top-level parts GrapesJS also reads when they are given as JSON text. */
const STORED_AS_TEXT = new Set(["pages", "styles", "symbols", "components"]);
/** Deeper than any real page; deeper parts are left out rather than walked. */
const MAX_DEPTH = 400;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

class ProjectCleaner {
  changed = false;

  private drop(): typeof DROP {
    this.changed = true;
    return DROP;
  }

  value(value: unknown, depth: number): Cleaned {
    if (depth > MAX_DEPTH) return this.drop();
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) {
        const cleaned = this.value(item, depth + 1);
        if (cleaned !== DROP) out.push(cleaned);
      }
      return out;
    }
    return isRecord(value) ? this.object(value, depth) : value;
  }

  html(value: string): string {
    const cleaned = cleanHtml(value);
    if (cleaned !== value) this.changed = true;
    return cleaned;
  }

  /** Text without "<" and ">". */
  private text(value: string): string {
    if (!/[<>]/.test(value)) return value;
    this.changed = true;
    return value.replace(/[<>]/g, "");
  }

  private isForbidden(obj: Record<string, unknown>): boolean {
    const type = typeof obj.type === "string" ? obj.type.trim().toLowerCase() : "";
    if (type === "script" || type.startsWith("data-")) return true;
    if (obj.tagName === undefined) return false;
    if (typeof obj.tagName !== "string") return true;
    const tagName = obj.tagName.trim();
    return !TAG_NAME.test(tagName) || DROPPED_COMPONENT_TAGS.has(tagName.toLowerCase());
  }

  private object(obj: Record<string, unknown>, depth: number): Cleaned {
    if (this.isForbidden(obj)) return this.drop();
    const type = typeof obj.type === "string" ? obj.type : "";
    const image = type === "image" || (typeof obj.tagName === "string" && obj.tagName.trim().toLowerCase() === "img");
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(obj)) {
      const cleaned = this.property(key, value, { type, image }, depth);
      if (cleaned === DROP) this.changed = true;
      else out[key] = cleaned;
    }
    return out;
  }

  private property(key: string, value: unknown, owner: { type: string; image: boolean }, depth: number): Cleaned {
    if (SCRIPT_PROPERTIES.has(key.toLowerCase()) || key === "dataResolver" || key === "icon" || key === "toolbar") return DROP;
    switch (key) {
      case "attributes":
        return isRecord(value) ? this.attributes(value, owner.image) : DROP;
      case "components":
      case "component":
        return typeof value === "string" ? this.html(value) : this.value(value, depth + 1);
      case "content":
        if (typeof value !== "string") return value === null || value === undefined ? value : DROP;
        // A text node's content is text to GrapesJS (set as textContent, escaped on export); a comment's has no markup.
        if (owner.type === "textnode") return value;
        if (owner.type === "comment") return this.text(value);
        return this.html(value);
      case "style":
        // CSS, as text or as properties: it cannot run script.
        return value;
      case "traits":
        return Array.isArray(value) ? value.filter((t) => this.keepTrait(t)) : DROP;
      case "name":
      case "label":
      case "custom-name":
        // Shown as HTML by the layer manager, the badge and the selector tags, in the console's own page.
        return typeof value === "string" ? this.text(value) : value;
    }
    if (URL_PROPERTIES.has(key) && value !== null && value !== undefined) {
      if (typeof value !== "string") return DROP;
      // GrapesJS draws an image's src or fallback given as SVG markup as a data:image/svg+xml image.
      if (owner.image && /^\s*<svg[\s>]/i.test(value)) return value;
      return isSafeUrl(value, owner.image && key !== "href") ? value : DROP;
    }
    return this.value(value, depth + 1);
  }

  private attributes(attributes: Record<string, unknown>, image: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(attributes)) {
      // Values are text; an object would be a data binding, resolved in the canvas.
      const scalar = typeof value === "string" || typeof value === "number" || typeof value === "boolean";
      if (scalar && keepAttribute(key.toLowerCase(), String(value), image)) out[key] = value;
      else this.changed = true;
    }
    return out;
  }

  /** A trait is a name, or settings without markup (GrapesJS writes their labels as HTML). */
  private keepTrait(trait: unknown): boolean {
    const keep = typeof trait === "string" ? /^[\w:-]+$/.test(trait) : isRecord(trait) && !/[<>]/.test(JSON.stringify(trait));
    if (!keep) this.changed = true;
    return keep;
  }
}

/**
 * A stored editor project (splash pages' project_data, broadcasts' email_design) with everything that
 * could make script removed. Text that is not a JSON object or array gives null (the editors then start
 * from the HTML); a project with nothing to remove comes back as the very same text.
 */
export function cleanProject(text: string | null): string | null {
  if (text === null) return null;
  let project: unknown;
  try {
    project = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof project !== "object" || project === null) return null;
  const cleaner = new ProjectCleaner();
  let cleaned: unknown;
  if (Array.isArray(project)) {
    cleaned = cleaner.value(project, 0);
  } else {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(project as Record<string, unknown>)) {
      if (DROPPED_PROJECT_KEYS.has(key)) {
        cleaner.changed = true;
        continue;
      }
      let part = value;
      if (STORED_AS_TEXT.has(key) && typeof value === "string") {
        try {
          part = JSON.parse(value);
          cleaner.changed = true;
        } catch {
          // not JSON: `components` is then HTML; the other parts are nothing GrapesJS can read
          if (key !== "components") {
            cleaner.changed = true;
            continue;
          }
        }
      }
      const result = typeof part === "string" && key === "components" ? cleaner.html(part) : cleaner.value(part, 1);
      if (result !== DROP) out[key] = result;
    }
    cleaned = out;
  }
  return cleaner.changed ? JSON.stringify(cleaned) : text;
}
