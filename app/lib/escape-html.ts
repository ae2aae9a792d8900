// Escaping for the markup that is still written as text: e-mails, the splash page frame around the
// connect form, the guest pages' remaining templates (app/guest/html.ts). The same five characters
// and the same entities as React's server renderer, so a text reads the same whichever wrote it.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
