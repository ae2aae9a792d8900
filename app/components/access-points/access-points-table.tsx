import { Link } from "@remix-run/react";
import { formatCount } from "~/lib/format";

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

/** The access points list (spec 2 §2): Name, Make, Mac address, Serial number, Clients, Connections, Online. */
export function AccessPointsTable({ orgId, rows, empty }: { orgId: number; rows: readonly AccessPointRow[]; empty: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Make</th>
            <th>Mac address</th>
            <th>Serial number</th>
            <th className="text-right">Clients</th>
            <th className="text-right">Connections</th>
            <th className="text-right">Online</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={7} className="text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : null}
          {rows.map((ap) => (
            <tr key={ap.id}>
              <td>
                <Link to={`/${orgId}/ap/${ap.id}`} className="link">
                  {ap.name}
                </Link>
              </td>
              <td>{ap.make}</td>
              <td className="font-mono">{ap.mac_address}</td>
              <td>{ap.serial_number}</td>
              <td className="text-right">{formatCount(ap.customersCount)}</td>
              <td className="text-right">{formatCount(ap.connectionsCount)}</td>
              <td className="text-right">{formatCount(ap.onlineConnectionsCount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
