// OUTBOUND_ALLOW: the internal hosts a deployment lets operators' settings reach (an on-premise UniFi
// controller; app/services/outbound.server.ts). Plain JavaScript without Node's modules, so that the
// configuration reader (app/config.server.mjs, run by Node without a build) validates it at start and
// the guard builds its lists from the same parser.

/** @typedef {{ kind: "host"; name: string } | { kind: "range"; address: string; prefix: number; family: "ipv4" | "ipv6" }} AllowEntry */

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** Four decimal parts without leading zeros: the unambiguous spelling (no octal, hex or short forms). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** @param {string} address @returns {"ipv4" | "ipv6" | null} */
function family(address) {
  if (IPV4.test(address)) return "ipv4";
  return address.includes(":") && URL.canParse(`http://[${address}]/`) ? "ipv6" : null;
}

/**
 * Its entries (comma- or space-separated host names, addresses and CIDR ranges), or the first that is none of them.
 * @param {string | undefined} value
 * @returns {{ ok: true; entries: AllowEntry[] } | { ok: false; entry: string }}
 */
export function parseAllowList(value) {
  /** @type {AllowEntry[]} */
  const entries = [];
  for (const entry of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [address, prefixText, extra] = entry.split("/");
    const kind = family(address);
    if (kind && extra === undefined) {
      const max = kind === "ipv4" ? 32 : 128;
      const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= max)) return { ok: false, entry };
      entries.push({ kind: "range", address, prefix, family: kind });
      continue;
    }
    const name = entry.toLowerCase().replace(/\.$/, "");
    // A name whose last label is a number is an address in another spelling ("010.0.0.1", "0x7f.1").
    const numeric = /^(?:\d+|0x[0-9a-f]*)$/.test(name.split(".").at(-1) ?? "");
    if (prefixText !== undefined || !HOST_NAME.test(name) || numeric) return { ok: false, entry };
    entries.push({ kind: "host", name });
  }
  return { ok: true, entries };
}
