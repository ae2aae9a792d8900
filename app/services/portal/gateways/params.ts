// Checks shared by the adapters' entry parsers and grants.
import { normaliseMac } from "~/lib/mac";
import type { GrantLimits } from "./types";

/** Longest value any gateway parameter may have (URLs included). */
export const MAX_PARAM = 2048;

export function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name);
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** An http(s) URL no longer than MAX_PARAM, or null. */
export function httpUrl(value: string | null): string | null {
  if (!value || value.length > MAX_PARAM) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function mac(value: string | null): string | null {
  return value && value.length <= 32 ? normaliseMac(value) : null;
}

/** An IPv4 or IPv6 address as text (not resolved), or null. */
export function ip(value: string | null): string | null {
  if (!value || value.length > 45) return null;
  return /^[0-9a-f.:]+$/i.test(value) ? value : null;
}

export function short(value: string | null, max = 128): string | null {
  return value && value.length <= max ? value : null;
}

/**
 * A grant's limits as whole numbers, null where there is none: speeds at least 1 kbps, data at least
 * 0 bytes (numbers that come back from the database as text are read too).
 */
export function grantLimits(limits: GrantLimits | undefined): GrantLimits {
  const whole = (value: number | string | null | undefined, min: number) => {
    const n = value === null || value === undefined || value === "" ? NaN : Number(value);
    return Number.isFinite(n) ? Math.max(min, Math.floor(n)) : null;
  };
  return { upKbps: whole(limits?.upKbps, 1), downKbps: whole(limits?.downKbps, 1), bytes: whole(limits?.bytes, 0) };
}

export const hasLimits = (limits: GrantLimits): boolean => limits.upKbps !== null || limits.downKbps !== null || limits.bytes !== null;
