// What the devices and customers tables show, and their filters (pure; shared by loaders and components).

/** Devices or customers "of" a venue or an access point: those with a connection there (in the window). */
export interface RecordFilter {
  venueId?: number;
  accessPointMac?: string;
  /** Devices of one customer (customer profile). */
  customerId?: number;
  /** Window of the connections that tie a record to a venue or access point: [startMs, endMs). */
  startMs?: number;
  endMs?: number;
}

export interface DeviceRow {
  id: number;
  name: string | null;
  macAddress: string;
  os: string | null;
  osVersion: string | null;
  type: "Mobile" | "Desktop";
  customer: { id: number; name: string } | null;
  /** Authorized connections (within the filter's venue, access point and window). */
  connectionsCount: number;
  lastSeenAt: number | null;
  /** Upload plus download bytes of those connections. */
  usage: number;
  online: boolean;
  blocked: boolean;
}

export interface CustomerRow {
  id: number;
  identity: string;
  name: string;
  phoneNumber: string | null;
  emailAddress: string | null;
  facebook: string | null;
  twitter: string | null;
  moreInfo: string | null;
}

export interface RecordPage<Row> {
  rows: Row[];
  total: number;
  /** More than `total` match (the count stopped there). */
  capped: boolean;
}

export const DEVICE_PAGE_SIZES = [10, 25, 50, 100, 250] as const;

export const DEVICE_MESSAGES = {
  blocked: "Device blocked successfully!",
  unblocked: "Device unblocked successfully!",
  blockFailed: "Failed to block device.",
  unblockFailed: "Failed to unblock device.",
  alreadyBlocked: "This device is already blocked.",
  notBlocked: "This device is not blocked.",
} as const;

export function blockQuestion(device: { name: string | null; macAddress: string }): string {
  return `Are you sure you want to block device ${device.name || device.macAddress}?`;
}
