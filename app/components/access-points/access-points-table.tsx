import { Link } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { formatCount } from "~/lib/format";
import { makeLabel } from "~/lib/schemas/access-points";

export interface AccessPointRow {
  id: number;
  name: string;
  make: string;
  mac_address: string;
  serial_number: string;
  customersCount: number;
  connectionsCount: number;
  onlineConnectionsCount: number;
}

/**
 * The access points list (docs/guide/access-points.md#access-points-list): Name, Make, Mac address, Serial
 * number, Clients, Connections, Online.
 */
export function AccessPointsTable({ orgId, rows, empty }: { orgId: number; rows: readonly AccessPointRow[]; empty: string }) {
  return (
    <DataTable
      rows={rows}
      rowKey={(ap) => ap.id}
      empty={empty}
      columns={[
        {
          header: "Name",
          cell: (ap) => (
            <Link to={`/${orgId}/ap/${ap.id}`} className="link">
              {ap.name}
            </Link>
          ),
        },
        { header: "Make", cell: (ap) => makeLabel(ap.make) },
        { header: "Mac address", mono: true, nowrap: true, cell: (ap) => ap.mac_address },
        { header: "Serial number", nowrap: true, cell: (ap) => ap.serial_number },
        { header: "Clients", numeric: true, cell: (ap) => formatCount(ap.customersCount) },
        { header: "Connections", numeric: true, cell: (ap) => formatCount(ap.connectionsCount) },
        { header: "Online", numeric: true, cell: (ap) => formatCount(ap.onlineConnectionsCount) },
      ]}
    />
  );
}
