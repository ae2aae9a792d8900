// MAC addresses of access points (and anything else that names hardware): accepted as
// aa:bb:cc:dd:ee:ff, AA-BB-CC-DD-EE-FF, aabb.ccdd.eeff (Cisco) or aabbccddeeff, in any case,
// and stored in one form — lower case, colon separated — so equal addresses compare equal
// (the unique index on organisation + MAC, the connections' access_point_mac).

const SEPARATED = /^([0-9a-f]{2})([:-])([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})$/i;
const DOTTED = /^([0-9a-f]{4})\.([0-9a-f]{4})\.([0-9a-f]{4})$/i;
const BARE = /^[0-9a-f]{12}$/i;

/** The normalised form (aa:bb:cc:dd:ee:ff), or null when the input is not a MAC address. */
export function normaliseMac(input: string): string | null {
  const value = input.trim();
  let hex: string | null = null;
  const separated = SEPARATED.exec(value);
  if (separated) hex = [1, 3, 4, 5, 6, 7].map((i) => separated[i]).join("");
  const dotted = hex ? null : DOTTED.exec(value);
  if (dotted) hex = dotted.slice(1).join("");
  if (!hex && BARE.test(value)) hex = value;
  if (!hex) return null;
  return hex.toLowerCase().match(/../g)!.join(":");
}

export function isMac(input: string): boolean {
  return normaliseMac(input) !== null;
}
