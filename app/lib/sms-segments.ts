// How long an SMS is and how many parts it is sent in, the same in the
// browser (the live count under the text) and on the server (the count after saving, the size limit).
//
// GSM-7 (GSM 03.38): a text made only of the basic set's characters, where the extension table's
// characters (€ { } [ ] ~ \ ^ | and form feed) take two septets (escape + character). One part holds
// 160 septets; a longer text is split into parts of 153 (the rest carries the joining header).
// Anything else goes as UCS-2: 70 UTF-16 code units in one part, 67 per part when split; a character
// outside the BMP (most emoji) is a surrogate pair, two units. Neither an escape pair nor a surrogate
// pair is split across two parts, as phones and gateways do it, so a part may hold one unit less.

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "\f^{}\\[~]|€";

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = "GSM-7" | "UCS-2";

export const SMS_LIMITS = {
  "GSM-7": { single: 160, part: 153 },
  "UCS-2": { single: 70, part: 67 },
} as const;

export interface SmsCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7: extension characters count 2) or UTF-16 code units (UCS-2). */
  characters: number;
  /** Parts it is sent in; 0 for an empty text. */
  segments: number;
  /** What one part holds at this length (160 or 153; 70 or 67). */
  perSegment: number;
  /** Room left in the last part before another part is needed. */
  remaining: number;
}

/** The size of each character in the text's encoding (code points, so a surrogate pair is one item of size 2). */
function unitsOf(text: string): { encoding: SmsEncoding; sizes: number[] } {
  const chars = Array.from(text);
  if (chars.every((c) => BASIC.has(c) || EXTENSION.has(c))) {
    return { encoding: "GSM-7", sizes: chars.map((c) => (EXTENSION.has(c) ? 2 : 1)) };
  }
  return { encoding: "UCS-2", sizes: chars.map((c) => c.length) };
}

export function smsCount(text: string): SmsCount {
  const { encoding, sizes } = unitsOf(text);
  const limits = SMS_LIMITS[encoding];
  const characters = sizes.reduce((sum, n) => sum + n, 0);
  if (characters === 0) return { encoding, characters, segments: 0, perSegment: limits.single, remaining: limits.single };
  if (characters <= limits.single)
    return { encoding, characters, segments: 1, perSegment: limits.single, remaining: limits.single - characters };
  // Fill parts in order; a two-unit character that does not fit in what is left starts the next part.
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > limits.part) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, characters, segments, perSegment: limits.part, remaining: limits.part - used };
}

/** "45 characters, 1 SMS (GSM-7)"; "75 characters, 2 SMS (UCS-2: special characters)". */
export function smsCountText(count: SmsCount): string {
  const chars = `${count.characters.toLocaleString("en-US")} character${count.characters === 1 ? "" : "s"}`;
  const parts = `${count.segments} SMS`;
  const encoding = count.encoding === "GSM-7" ? "GSM-7" : "UCS-2: special characters";
  return `${chars}, ${parts} (${encoding}), ${count.remaining} left in this part`;
}
