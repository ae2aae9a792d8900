// One broadcast e-mail: the broadcast's title as the subject, its HTML
// and a text part (the broadcast's own, or one read off the HTML), a footer with the unsubscribe link
// in both, and RFC 8058's one-click headers. The Message-ID is made from the delivery row, so a mail
// sent again after a crash (decision 0018) carries the same id and receivers can tell it is a repeat.
import type { Email } from "../../email.server";
import { publicOrigin } from "../../email.server";
import { escapeHtml } from "~/lib/escape-html";
import { unsubscribeUrl } from "../unsubscribe.server";

export interface BroadcastContent {
  organizationId: number;
  organizationName: string;
  title: string;
  emailHtml: string | null;
  emailText: string | null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** A readable text from an e-mail's HTML: no tags, links as "text (address)", paragraphs kept apart. */
export function textFromHtml(markup: string): string {
  return markup
    .replace(/<(head|style|script|title)[\s\S]*?<\/\1>/gi, "")
    .replace(/<a\s[^>]*href\s*=\s*["']([^"']+)["'][^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => `${label} (${href})`)
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)>/gi, "\n\n")
    .replace(/<li[^>]*>/gi, "- ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITIES[name]!)
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function htmlFooter(organizationName: string, link: string): string {
  return `<p style="margin:24px 0 0;font:12px/1.5 sans-serif;color:#64748b">You receive this because you agreed to messages from ${escapeHtml(organizationName)}. <a href="${escapeHtml(link)}">Unsubscribe</a></p>`;
}

function withFooter(markup: string, footer: string): string {
  return /<\/body>/i.test(markup) ? markup.replace(/<\/body>(?![\s\S]*<\/body>)/i, `${footer}</body>`) : markup + footer;
}

export function broadcastEmail(content: BroadcastContent, delivery: { id: number; customerId: number; address: string }): Email {
  const link = unsubscribeUrl(content.organizationId, delivery.customerId);
  const text = content.emailText?.trim() || textFromHtml(content.emailHtml ?? "");
  return {
    to: delivery.address,
    subject: content.title,
    text: `${text}\n\n--\nTo stop messages from ${content.organizationName}, open ${link}\n`,
    html: content.emailHtml?.trim() ? withFooter(content.emailHtml, htmlFooter(content.organizationName, link)) : undefined,
    headers: {
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Message-ID": `<broadcast-delivery-${delivery.id}@${new URL(publicOrigin()).hostname}>`,
    },
  };
}
