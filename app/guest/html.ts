// A tagged template for the guest pages not yet written as components (the survey form and offer,
// the unsubscribe page): it escapes every interpolated value unless it is already Html, so guest-
// and operator-typed text can never become markup (decision 0014). New pages are components in
// app/components/guest/, rendered by app/guest/pages.tsx (decision 0071).
import { escapeHtml } from "~/lib/escape-html";

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}
