// Turning summed figures into the answer shapes of app/lib/analytics.ts, the same way for the raw
// path and the roll-up path (so both round alike).
import { sql, type RawBuilder } from "kysely";
import { deviceLabel, modeLabel } from "~/db/rollups-sql.server";
import type { DeviceDimension, DeviceUsage, UsageTotals } from "~/lib/analytics";

/** Brand and browser charts show the top 5 and top 10 (spec 1 §7 aggregateDeviceSummary). */
const DEFAULT_DEVICE_LIMIT: Record<DeviceDimension, number | undefined> = { is_mobile: undefined, os: undefined, brand: 5, browser: 10 };

export const toSeconds = (ms: number) => Math.round(ms / 1000);

export interface TotalsRow {
  footfall: number | string;
  connections: number | string;
  upload: number | string;
  download: number | string;
  dwellMs: number | string;
  /** Authorized connections that have ended: the ones whose dwell counts (dwellMsOf). */
  endedConnections: number | string;
}

export function toTotals(row: TotalsRow, customers: { newCustomers: number; repeatCustomers: number }): UsageTotals {
  const footfall = Number(row.footfall);
  const connections = Number(row.connections);
  const upload = Number(row.upload);
  const download = Number(row.download);
  const dwellMs = Number(row.dwellMs);
  const ended = Number(row.endedConnections);
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
    // Only ended connections have a dwell (analytics-sql dwellMsOf): open sessions are left out of
    // the average instead of counting as zero (issue 17 item 8).
    avgDwellTime: ended > 0 ? toSeconds(dwellMs / ended) : 0,
  };
}

/**
 * The label a device is counted under: Mobile/Desktop, or its os/brand/browser; "Unknown" when
 * missing. The same SQL the roll-up triggers use, so both paths label alike.
 */
export function deviceKeyExpression(dimension: DeviceDimension, table: "devices"): RawBuilder<string> {
  if (dimension === "is_mobile")
    return sql<string>`case when ${sql.ref(`${table}.id`)} is null then 'Unknown' else ${sql.raw(deviceLabel(dimension, table))} end`;
  return sql<string>`coalesce(${sql.raw(deviceLabel(dimension, table))}, 'Unknown')`;
}

/** An authorization mode's label ("unknown" when missing), as the roll-up triggers write it. */
export const modeKeyExpression = (table: "connections"): RawBuilder<string> => sql<string>`${sql.raw(modeLabel(table))}`;

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
