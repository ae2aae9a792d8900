import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/**
 * E.164 form of a phone number; local numbers (07…, 01…) are read as Kenyan.
 * Returns null when the input is not a possible phone number.
 */
export function normalizePhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), "KE");
  return parsed && parsed.isPossible() ? parsed.number : null;
}

/** A stored number as every screen and export shows it: E.164 (+2547…), whether it was kept so or as Daraja sends it (2547…). */
export function displayPhone(value: string | null): string | null {
  return value === null ? null : (normalizePhone(value) ?? value);
}

export function looksLikeEmail(value: string): boolean {
  return value.includes("@");
}

/**
 * The part of a phone number a filter typed ("starts with 071", "contains 0715…") as stored numbers
 * (E.164, +254…) hold it, read the way Kenyans type numbers: 07…/01… and 2547… are +2547…, and for
 * a prefix a bare 7… or 1… is the local number without its 0. Spaces, dashes and brackets are
 * dropped. Anything else (a number's middle or end, another country's +…) is kept as typed.
 */
export function phoneFragment(input: string, position: "prefix" | "anywhere"): string {
  const value = input.trim().replace(/[\s\-().]/g, "");
  if (!/^\+?\d+$/.test(value)) return input.trim();
  if (value.startsWith("+")) return value;
  if (value.startsWith("254")) return `+${value}`;
  if (/^0[17]/.test(value)) return `+254${value.slice(1)}`;
  if (position === "prefix" && /^[17]/.test(value)) return `+254${value}`;
  return value;
}
