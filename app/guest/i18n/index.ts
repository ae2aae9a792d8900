// The guest's language (decision 0079): `lang` in the query or form (the page's switch, carried
// through the flow: no cookie, no script), else the first language of Accept-Language Mlango has,
// else the network's default, else English. Pages take a catalogue (en.ts, sw.ts); messages the
// services return in English are translated by their text (`say`).
import type { IncomingMessage } from "node:http";
import { en, type Catalogue } from "./en";
import { sw } from "./sw";

export type { Catalogue } from "./en";

export const GUEST_LANGUAGES = ["en", "sw"] as const;
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];

const CATALOGUES: Record<GuestLanguage, Catalogue> = { en, sw };

export const catalogue = (lang: GuestLanguage): Catalogue => CATALOGUES[lang];

export const isGuestLanguage = (value: unknown): value is GuestLanguage => value === "en" || value === "sw";

/** The languages of an Accept-Language header Mlango has, most wanted first ("sw-KE,sw;q=0.9,en;q=0.8" → sw). */
export function acceptedLanguage(header: string | string[] | undefined): GuestLanguage | null {
  if (typeof header !== "string" || header.length > 512) return null;
  let best: { lang: GuestLanguage; q: number } | null = null;
  for (const part of header.split(",").slice(0, 20)) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const primary = range.trim().split("-")[0];
    if (!isGuestLanguage(primary)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? null;
}

/** The language asked for explicitly: `lang` of the query or the form's body (en or sw; anything else is no choice). */
export function chosenLanguage(...sources: unknown[]): GuestLanguage | null {
  for (const source of sources) {
    if (source && typeof source === "object") {
      const value = (source as Record<string, unknown>).lang;
      if (isGuestLanguage(value)) return value;
    }
  }
  return null;
}

/** The guest's language and whether it was chosen on the page (then links and forms carry it). */
export interface Speech {
  lang: GuestLanguage;
  t: Catalogue;
  /** The `lang` the flow carries: the switch's choice, else null (nothing is added to URLs). */
  carried: GuestLanguage | null;
}

export function speechFor(req: IncomingMessage | null, networkDefault: string | null | undefined, ...sources: unknown[]): Speech {
  const carried = chosenLanguage(...sources);
  const lang =
    carried ?? acceptedLanguage(req?.headers["accept-language"]) ?? (isGuestLanguage(networkDefault) ? networkDefault : null) ?? "en";
  return { lang, t: CATALOGUES[lang], carried };
}

export const ENGLISH: Speech = { lang: "en", t: en, carried: null };

/** `href` with the carried language, when the guest chose one. */
export function withLang(href: string, carried: GuestLanguage | null): string {
  if (!carried) return href;
  return `${href}${href.includes("?") ? "&" : "?"}lang=${carried}`;
}

// English text → the same message in each language, from the catalogues' `outcomes`.
const byEnglish = new Map<string, string[]>();
function index(english: unknown, path: string[]): void {
  if (typeof english === "string") byEnglish.set(english, path);
  else if (english && typeof english === "object") for (const [key, value] of Object.entries(english)) index(value, [...path, key]);
}
index(en.outcomes, []);

function at(tree: unknown, path: string[]): string | null {
  let node = tree;
  for (const key of path) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === "string" ? node : null;
}

const PLAN_FULL = /^Your plan is already in use on (\d+) devices?,/;
const VOUCHER_EXPIRED = /^This voucher expired on (.+)\.$/;
const TRY_AGAIN_IN = /^(.+) Please try again in (\d+) minutes?\.$/;

/** A message a service returned (in English), in the guest's language; one the catalogue lacks stays as it is. */
export function say(lang: GuestLanguage, message: string): string {
  if (lang === "en") return message;
  const t = CATALOGUES[lang];
  const path = byEnglish.get(message);
  if (path) return at(t.outcomes, path) ?? message;
  const full = PLAN_FULL.exec(message);
  if (full && message === en.patterns.planFull(Number(full[1]))) return t.patterns.planFull(Number(full[1]));
  const expired = VOUCHER_EXPIRED.exec(message);
  if (expired) return t.patterns.voucherExpired(expired[1]!);
  // A throttled guest: why (GUEST_LIMIT_MESSAGES), then when to try again (guestLimitMessage).
  const wait = TRY_AGAIN_IN.exec(message);
  if (wait && message === `${wait[1]} ${en.patterns.tryAgainIn(Number(wait[2]))}`)
    return `${say(lang, wait[1]!)} ${t.patterns.tryAgainIn(Number(wait[2]))}`;
  // "Thank you: your payment arrived. {outcome}" and the like: the known message inside.
  return message;
}
