import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/**
 * E.164 form of a phone number; local numbers (07…, 01…) are read as Kenyan.
 * Returns null when the input is not a possible phone number.
 */
export function normalizePhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), "KE");
  return parsed && parsed.isPossible() ? parsed.number : null;
}

export function looksLikeEmail(value: string): boolean {
  return value.includes("@");
}
