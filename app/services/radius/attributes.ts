// FreeRADIUS's rest module sends a request's attributes as JSON — {"User-Name": {"type": "string",
// "value": ["mlg12"]}, …} — and reads replies as {"reply:Session-Timeout": 3600, "control:…": …}.
// Everything in the body is the NAS's (a guest's device may have chosen some of it): read with limits.
import type { RadiusMake } from "~/db/schema";
import { hasNul } from "~/lib/nul";

export type RadiusAttributes = ReadonlyMap<string, string | number>;

/** The first value of each attribute, or null when the body is not the rest module's shape. */
export function readAttributes(body: unknown): RadiusAttributes | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const attributes = new Map<string, string | number>();
  for (const [name, entry] of Object.entries(body as Record<string, unknown>)) {
    if (name.length > 64 || !entry || typeof entry !== "object") return null;
    const values = (entry as { value?: unknown }).value;
    const first = Array.isArray(values) ? values[0] : undefined;
    if (typeof first === "string") {
      if (first.length > 4096 || hasNul(first)) return null;
      attributes.set(name, first);
    } else if (typeof first === "number" && Number.isFinite(first)) {
      attributes.set(name, first);
    } else {
      return null;
    }
  }
  return attributes;
}

export const text = (a: RadiusAttributes, name: string): string | null => {
  const v = a.get(name);
  return v === undefined ? null : String(v);
};

/** A non-negative whole number attribute (counters may arrive as numbers or digit strings). */
export function count(a: RadiusAttributes, name: string): number | null {
  const v = a.get(name);
  if (v === undefined) return null;
  const n = typeof v === "number" ? v : /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Octets and their Gigawords (RFC 2869) as one byte count. */
export function octets(a: RadiusAttributes, name: "Acct-Input" | "Acct-Output"): number | null {
  const low = count(a, `${name}-Octets`);
  if (low === null) return null;
  const high = count(a, `${name}-Gigawords`) ?? 0;
  const total = high * 2 ** 32 + low;
  return Number.isSafeInteger(total) ? total : null;
}

/**
 * Calling-Station-Id as the make writes it, so a NAS that compares it as text finds its session:
 * RouterOS sends the MAC "in capital letters" with colons (RouterOS manual, RADIUS → Supported
 * RADIUS Attributes → Access-Request); the others take RFC 3580 §3.21's AA-BB-CC-DD-EE-FF.
 */
export function callingStationId(make: RadiusMake, mac: string): string {
  const upper = mac.toUpperCase();
  return make === "mikrotik" ? upper.replace(/-/g, ":") : upper.replace(/:/g, "-");
}

const UINT32 = 2 ** 32;

export interface ReplyLimits {
  sessionSeconds: number;
  idleSeconds: number;
  interimSeconds: number;
  /** data left, bytes */
  bytes: number | null;
  upKbps: number | null;
  downKbps: number | null;
}

/** The Access-Accept's limits in each make's attributes. */
export function limitAttributes(limits: ReplyLimits): Record<string, string | number> {
  const reply: Record<string, string | number> = {
    "reply:Session-Timeout": Math.max(1, limits.sessionSeconds),
    "reply:Idle-Timeout": limits.idleSeconds,
    "reply:Acct-Interim-Interval": limits.interimSeconds,
  };
  if (limits.bytes !== null) {
    const bytes = Math.max(0, Math.floor(limits.bytes));
    reply["reply:Mikrotik-Total-Limit"] = bytes % UINT32;
    reply["reply:Mikrotik-Total-Limit-Gigawords"] = Math.floor(bytes / UINT32);
    // CoovaChilli's attribute is 32 bits (its Gigawords companion is not in FreeRADIUS 3.2's dictionary).
    reply["reply:ChilliSpot-Max-Total-Octets"] = Math.min(bytes, UINT32 - 1);
  }
  const rate = mikrotikRate(limits);
  if (rate) reply["reply:Mikrotik-Rate-Limit"] = rate;
  if (limits.upKbps !== null) reply["reply:WISPr-Bandwidth-Max-Up"] = limits.upKbps * 1000;
  if (limits.downKbps !== null) reply["reply:WISPr-Bandwidth-Max-Down"] = limits.downKbps * 1000;
  return reply;
}

/**
 * MikroTik's "rx/tx" rate, read from the router's side: what it receives from the guest is the
 * upload. 0 is no limit there. Null when neither speed is limited.
 */
export function mikrotikRate(speed: { upKbps: number | null; downKbps: number | null }): string | null {
  return speed.upKbps === null && speed.downKbps === null ? null : `${speed.upKbps ?? 0}k/${speed.downKbps ?? 0}k`;
}
