// Turning summed figures into the answer shapes of app/lib/analytics.ts (the tests' reference from
// the connection rows shapes its sums with these too, so both round alike).
import type { DeviceDimension, DeviceUsage, UsageTotals } from "~/lib/analytics";

/** Brand and browser charts show the top 5 and top 10 (docs/guide/api.md#queries). */
const DEFAULT_DEVICE_LIMIT: Record<DeviceDimension, number | undefined> = { is_mobile: undefined, os: undefined, brand: 5, browser: 10 };

export const toSeconds = (ms: number) => Math.round(ms / 1000);

export interface TotalsRow {
  footfall: number | string;
  connections: number | string;
  upload: number | string;
  download: number | string;
  /** Ended connections' durations plus the open sessions' time so far. */
  dwellMs: number | string;
}

export function toTotals(row: TotalsRow, customers: { newCustomers: number; repeatCustomers: number }): UsageTotals {
  const footfall = Number(row.footfall);
  const connections = Number(row.connections);
  const upload = Number(row.upload);
  const download = Number(row.download);
  const dwellMs = Number(row.dwellMs);
  return {
    upload,
    download,
    bandwidth: upload + download,
    footfall,
    connections,
    // Never negative, whatever the data says.
    abandoned: Math.max(0, footfall - connections),
    newCustomers: customers.newCustomers,
    repeatCustomers: customers.repeatCustomers,
    dwellTime: toSeconds(dwellMs),
    // Every authorized connection has a dwell: an open session's is its time so far.
    avgDwellTime: connections > 0 ? toSeconds(dwellMs / connections) : 0,
  };
}

/** Most connections first (then footfall, then name), cut to the dimension's limit. */
export function toDeviceUsage(
  rows: readonly { key: string; connections: number | string; footfall: number | string }[],
  dimension: DeviceDimension,
  limit = DEFAULT_DEVICE_LIMIT[dimension],
): DeviceUsage[] {
  const usage = rows
    .map((r) => ({ key: r.key, connections: Number(r.connections), footfall: Number(r.footfall) }))
    .filter((r) => r.footfall > 0)
    .sort((a, b) => b.connections - a.connections || b.footfall - a.footfall || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return limit === undefined ? usage : usage.slice(0, limit);
}
