// Words and links of the console's splash page screens, shared by the list, the details layout and
// the tests (pure: no data access).

export const SPLASH_PAGE_SIZES = [12, 24, 48, 96] as const;

export type SplashStatus = "Not set up" | "Draft" | "Published" | "Unpublished changes";

/** The card's and header's badge: no type yet; typed, never published; published as is; published, edited since. */
export function splashStatus(page: { type: number | null; published: boolean; has_unpublished_changes: boolean }): SplashStatus {
  if (page.type === null) return "Not set up";
  if (!page.published) return "Draft";
  return page.has_unpublished_changes ? "Unpublished changes" : "Published";
}

export interface SplashUsage {
  rules: number;
  networks: string[];
}

const joinNames = (names: string[]) => names.join(", ");

/** What deleting takes with it: "Its 2 display rules are removed; networks A, B go back to the built-in page." */
export function usageSentence(usage: SplashUsage): string {
  const parts: string[] = [];
  if (usage.rules > 0) parts.push(usage.rules === 1 ? "Its display rule is removed" : `Its ${usage.rules} display rules are removed`);
  if (usage.networks.length > 0) {
    parts.push(
      usage.networks.length === 1
        ? `network ${usage.networks[0]} goes back to the built-in page`
        : `networks ${joinNames(usage.networks)} go back to the built-in page`,
    );
  }
  if (parts.length === 0) return "No display rules or networks use it.";
  const sentence = parts.join("; ");
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

export function deleteQuestion(name: string, usage: SplashUsage): string {
  return `Delete the splash page ${name}? ${usageSentence(usage)} This cannot be undone.`;
}

export function deletedMessage(deleted: { name: string; rulesRemoved: number; networksReset: number }): string {
  const parts: string[] = [];
  if (deleted.rulesRemoved > 0)
    parts.push(deleted.rulesRemoved === 1 ? "1 display rule was removed" : `${deleted.rulesRemoved} display rules were removed`);
  if (deleted.networksReset > 0)
    parts.push(
      deleted.networksReset === 1
        ? "1 network went back to the built-in page"
        : `${deleted.networksReset} networks went back to the built-in page`,
    );
  return `Splash page ${deleted.name} deleted.${parts.length ? ` ${parts.join("; ").replace(/^./, (c) => c.toUpperCase())}.` : ""}`;
}

export function publishQuestion(name: string): string {
  return `Publish ${name}? Guests see this version from now on.`;
}

export const splashBase = (orgId: number, pageId: number) => `/${orgId}/splash_pages/${pageId}`;
export const previewPath = (orgId: number, pageId: number) => `${splashBase(orgId, pageId)}/preview`;

/** A return address posted by a form of the details layout: one of the page's own tabs, else its Details. */
export function safeBack(raw: unknown, base: string): string {
  if (typeof raw !== "string") return base;
  return raw === base || (/^\/\d+\/splash_pages\/\d+\/[a-z]+$/.test(raw) && raw.startsWith(`${base}/`)) ? raw : base;
}
