import { describe, expect, it } from "vitest";
import { TEMPLATES, findTemplate, type SplashTemplate } from "~/services/splash/templates";

// The built-in splash templates follow the page format the renderer relies on: one connect form,
// declared options only, nothing fetched from another host, small enough for a cheap phone.
const PLACEHOLDER = /\{\{\s*config\.([a-z][a-z0-9_]{0,39})\s*\}\}/g;
const HEX = /^#[0-9a-f]{6}$/i;

const placeholders = (text: string) => new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!));
const count = (text: string, part: string) => text.split(part).length - 1;

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
const defaults = (t: SplashTemplate) => Object.fromEntries(t.configs.map((c) => [c.name, c.defaultValue]));

describe("splash templates", () => {
  it("are the café, hotel and mall templates, one per styling template, with unique ids", () => {
    expect(TEMPLATES.map((t) => t.id)).toEqual(["cafe", "hotel", "mall"]);
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    expect(new Set(TEMPLATES.map((t) => t.cssTemplate))).toEqual(new Set(["tailwind.css", "bootstrap4.css", "bootstrap3.css"]));
    for (const t of TEMPLATES) expect(findTemplate(t.id)).toBe(t);
    expect(findTemplate("nope")).toBeUndefined();
  });

  describe.each(TEMPLATES.map((t) => [t.id, t] as const))("%s", (_id, t) => {
    it("has a name, a one-sentence description and no script", () => {
      expect(t.name.trim()).not.toBe("");
      expect(t.description).toMatch(/^[A-Z].*\.$/);
      expect(t.scripts).toBe("");
      expect(t.html).not.toMatch(/<script|\son[a-z]+\s*=|javascript:/i);
    });

    it("marks the connect form exactly once, inside the .mlango-connect element", () => {
      expect(count(t.html, "{{ connect_form }}")).toBe(1);
      expect(t.html).toMatch(/<div class="mlango-connect[^"]*">\{\{ connect_form \}\}<\/div>/);
      expect(t.css).not.toContain("connect_form");
    });

    it("uses exactly the options it declares, in the HTML only", () => {
      const names = t.configs.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
      expect(placeholders(t.html)).toEqual(new Set(names));
      expect(t.css).not.toContain("{{");
      // Every {{ … }} in the HTML is one of the two kinds of placeholder, written exactly.
      const all = t.html.match(/\{\{[^}]*\}\}/g) ?? [];
      for (const p of all) expect(p).toMatch(/^\{\{ (connect_form|config\.[a-z][a-z0-9_]{0,39}) \}\}$/);
      for (const name of ["venue_name", "welcome_text", "logo_url", "primary_color", "background_color"]) expect(names).toContain(name);
      for (const c of t.configs) {
        expect(c.title.trim()).not.toBe("");
        expect(c.defaultValue.trim()).not.toBe("");
      }
    });

    it("requests nothing from another host", () => {
      for (const text of [t.html, t.css, ...t.configs.map((c) => c.defaultValue)]) {
        expect(text).not.toMatch(/https?:/i);
        expect(text).not.toContain("//");
        expect(text).not.toMatch(/@import/i);
      }
      // The only url() in the CSS and the only src in the HTML are data: URIs or the logo option.
      for (const m of t.css.matchAll(/url\(\s*['"]?([^'")]*)/g)) expect(m[1]).toMatch(/^data:/);
      for (const m of t.html.matchAll(/\s(?:src|href|srcset)="([^"]*)"/g)) expect(m[1]).toMatch(/^(data:|\{\{ config\.logo_url \}\}$)/);
    });

    it("ships a small inline SVG logo as the default logo", () => {
      const logo = defaults(t).logo_url!;
      expect(logo).toMatch(/^data:image\/svg\+xml,/);
      expect(logo).not.toMatch(/[<>"#\s]/); // URL-encoded
      const svg = decodeURIComponent(logo.slice(logo.indexOf(",") + 1));
      expect(svg).toMatch(/^<svg [^>]*xmlns='http:\/\/www\.w3\.org\/2000\/svg'[^>]*>.*<\/svg>$/);
      expect(svg).not.toMatch(/<text|<image|<script|href/i);
      expect(logo.length).toBeLessThan(1500);
    });

    it("is accessible: one h1, a logo with alt text, colours with enough contrast", () => {
      expect(count(t.html, "<h1")).toBe(1);
      expect(t.html).toContain('alt="{{ config.venue_name }} logo"');
      expect(t.html).not.toMatch(/<(html|head|body)[\s>]/i);
      const d = defaults(t);
      for (const c of t.configs.filter((c) => c.name.endsWith("_color"))) expect(c.defaultValue).toMatch(HEX);
      // White text sits on the brand colour; dark text on the page background.
      expect(contrast(d.primary_color!, "#ffffff")).toBeGreaterThanOrEqual(4.5);
      expect(contrast(d.background_color!, "#1f2937")).toBeGreaterThanOrEqual(4.5);
    });

    it("passes the colours to the CSS through custom properties", () => {
      expect(t.html).toContain("--primary: {{ config.primary_color }}");
      expect(t.html).toContain("--bg: {{ config.background_color }}");
      expect(t.css).toContain("var(--primary)");
      expect(t.css).toContain("var(--bg)");
    });

    it("stays small", () => {
      expect(new TextEncoder().encode(t.html + t.css).length).toBeLessThan(8 * 1024);
    });
  });
});
