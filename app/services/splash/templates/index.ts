// The built-in splash page templates an operator can start a page from. Each is a page body
// with `{{ connect_form }}` (where the guest's connect form goes) and `{{ config.NAME }}`
// placeholders for the operator's options (HTML-escaped, in the HTML only). Colours reach the
// CSS through custom properties set in a style attribute. No script, no external request:
// every image is a data: URI, every font a system font.
import { template as cafe } from "./cafe";
import { template as hotel } from "./hotel";
import { template as mall } from "./mall";

export type CssTemplate = "tailwind.css" | "bootstrap4.css" | "bootstrap3.css";

export interface SplashTemplateConfig {
  name: string;
  title: string;
  defaultValue: string;
}

export interface SplashTemplate {
  /** "cafe" | "hotel" | "mall" */
  id: string;
  /** Shown to the operator, e.g. "Café". */
  name: string;
  /** One sentence for the operator. */
  description: string;
  /** The styling the page is published with, loaded before `css`. */
  cssTemplate: CssTemplate;
  /** The page body's inner HTML (the renderer wraps it in <html>/<head>/<body>). */
  html: string;
  /** The page's own CSS. */
  css: string;
  /** JavaScript; "" for every built-in template: pages work without it. */
  scripts: string;
  configs: SplashTemplateConfig[];
}

export const TEMPLATES: readonly SplashTemplate[] = Object.freeze([cafe, hotel, mall]);

export function findTemplate(id: string): SplashTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
