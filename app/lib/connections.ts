// What the connections table shows and how its filters travel in URLs (the page, the tabs and the
// CSV export share them). Pure: used by loaders, the export route and the table component.
import { dateRange } from "./date-range";
import { parseId } from "./ids";

export interface ConnectionFilter {
  venueId?: number;
  accessPointMac?: string;
  customerId?: number;
  deviceId?: number;
  /** Authorized and not ended. */
  online?: boolean;
  /** Authorized at some point (the default of the connections table). */
  authorized?: boolean;
  /** created_at window: [startMs, endMs). */
  startMs?: number;
  endMs?: number;
}

export interface ConnectionRow {
  id: number;
  createdAt: number;
  authorizedAt: number | null;
  endedAt: number | null;
  online: boolean;
  /** Authorized time until the end (or now, while online); 0 when never authorized. */
  durationSeconds: number;
  upload: number;
  download: number;
  usage: number;
  authorizationMode: string | null;
  ssid: string | null;
  customer: { id: number; identity: string; name: string; phoneNumber: string | null } | null;
  device: { id: number; label: string; macAddress: string } | null;
  venue: { id: number; name: string } | null;
  accessPoint: { id: number | null; name: string | null; macAddress: string | null } | null;
}

export interface ConnectionPage {
  rows: ConnectionRow[];
  /** Matching connections, counted up to a cap: see `capped`. */
  total: number;
  /** There are more than `total` matching connections (the count stopped there). */
  capped: boolean;
}

export const CONNECTION_STATUSES = [
  { value: "authorized", label: "Authorized" },
  { value: "online", label: "Online" },
  { value: "all", label: "All" },
] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]["value"];

export function parseConnectionStatus(raw: string | null): ConnectionStatus {
  return CONNECTION_STATUSES.some((s) => s.value === raw) ? (raw as ConnectionStatus) : "authorized";
}

/** The status choice as filter flags: authorized by default. */
export function statusFilter(status: ConnectionStatus): Pick<ConnectionFilter, "authorized" | "online"> {
  if (status === "online") return { authorized: true, online: true };
  if (status === "authorized") return { authorized: true };
  return {};
}

export type ParsedFilter = { ok: true; filter: ConnectionFilter; status: ConnectionStatus } | { ok: false };

/**
 * status, venue_id, access_point_mac, customer_id, device_id and a created_at window (start/end as
 * YYYY-MM-DD, or start_ms/end_ms) from URL search params (the export's query). A malformed id is
 * `ok: false` (the route answers 404); unknown params are ignored.
 */
export function parseConnectionFilter(searchParams: URLSearchParams, offsetMs: number): ParsedFilter {
  const status = parseConnectionStatus(searchParams.get("status"));
  const filter: ConnectionFilter = statusFilter(status);
  for (const [param, key] of [
    ["venue_id", "venueId"],
    ["customer_id", "customerId"],
    ["device_id", "deviceId"],
  ] as const) {
    const raw = searchParams.get(param);
    if (raw === null || raw === "") continue;
    const id = parseId(raw);
    if (id === null) return { ok: false };
    filter[key] = id;
  }
  const mac = searchParams.get("access_point_mac")?.trim().toLowerCase();
  if (mac) filter.accessPointMac = mac;
  if (searchParams.get("start") || searchParams.get("end")) {
    const range = dateRange(searchParams.get("start"), searchParams.get("end"), Date.now(), offsetMs);
    filter.startMs = range.startMs;
    filter.endMs = range.endMs;
  }
  for (const [param, key] of [
    ["start_ms", "startMs"],
    ["end_ms", "endMs"],
  ] as const) {
    const raw = searchParams.get(param);
    if (raw && /^\d{1,15}$/.test(raw)) filter[key] = Number(raw);
  }
  return { ok: true, filter, status };
}

/** /{orgId}/connections.csv with the same filters and search as the table on screen. */
export function connectionsCsvHref(orgId: number, filter: ConnectionFilter, search = ""): string {
  const params = new URLSearchParams();
  params.set("status", filter.online ? "online" : filter.authorized ? "authorized" : "all");
  if (filter.venueId !== undefined) params.set("venue_id", String(filter.venueId));
  if (filter.accessPointMac !== undefined) params.set("access_point_mac", filter.accessPointMac);
  if (filter.customerId !== undefined) params.set("customer_id", String(filter.customerId));
  if (filter.deviceId !== undefined) params.set("device_id", String(filter.deviceId));
  if (filter.startMs !== undefined) params.set("start_ms", String(filter.startMs));
  if (filter.endMs !== undefined) params.set("end_ms", String(filter.endMs));
  if (search) params.set("search", search);
  return `/${orgId}/connections.csv?${params}`;
}

/** The Close button's question (docs/decisions/0003): names the guest as the table does. */
export function closeQuestion(row: Pick<ConnectionRow, "customer" | "device">): string {
  const who = row.customer?.name ?? row.device?.label;
  return who ? `Are you sure you want to close the connection of ${who}?` : "Are you sure you want to close this connection?";
}
