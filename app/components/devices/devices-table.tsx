import { Form, Link, useLocation, useParams } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatBytes, formatCount } from "~/lib/format";
import { rowNumber, type ListParams } from "~/lib/pagination";
import { blockQuestion, DEVICE_PAGE_SIZES, type DeviceRow } from "~/lib/records";
import { Time, useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

// Usage in a loader (venue or access point tab, customer profile):
//   const list = parseListParams(url.searchParams, DEVICE_PAGE_SIZES, 10);
//   const devices = await listDevices(ctx, { venueId }, list);
//   return json({ devices, list, canBlock: ctx.permissions.has("edit_clients") });
// and <DevicesTable page={devices} params={list} canBlock={canBlock} />.

export interface DevicesTableProps {
  title?: string;
  page: { rows: DeviceRow[]; total: number; capped?: boolean };
  params: Pick<ListParams, "page" | "pageSize" | "offset" | "search">;
  /** The viewer holds edit_clients: rows get Block / Unblock. */
  canBlock: boolean;
  /** Hide the Customer column (on a customer's own profile). */
  hideCustomer?: boolean;
  prefix?: string;
}

/** The devices list (docs/guide/connections-devices-customers.md#devices-list): Block asks 'Are you sure you want to block device …?'. */
export function DevicesTable({ title = "Devices", page, params, canBlock, hideCustomer = false, prefix = "" }: DevicesTableProps) {
  const zone = formatOffset(useOrgClock().offsetMs);
  const { orgId } = useParams();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <section className="card" aria-labelledby={`${prefix || "devices"}-title`}>
      <h2 id={`${prefix || "devices"}-title`} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      <ListControls
        pageSize={params.pageSize}
        search={params.search}
        pageSizes={DEVICE_PAGE_SIZES}
        prefix={prefix}
        searchLabel="Search devices by name or MAC"
      />
      <DataTable
        rows={page.rows}
        rowKey={(device) => device.id}
        empty={params.search ? "No device matches the search." : "No devices to show."}
        columns={[
          { header: "#", cell: (_device, index) => rowNumber(params, index) },
          { header: "Name", cell: (device) => device.name || "—" },
          { header: "OS", cell: (device) => [device.os, device.osVersion].filter(Boolean).join(" ") || "—" },
          { header: "Type", cell: (device) => device.type },
          !hideCustomer && {
            header: "Customer",
            cell: (device) =>
              device.customer ? (
                <Link to={`/${orgId}/customers/${device.customer.id}`} className="link">
                  {device.customer.name}
                </Link>
              ) : (
                "—"
              ),
          },
          { header: "Mac Address", mono: true, nowrap: true, cell: (device) => device.macAddress },
          { header: "Connections", numeric: true, cell: (device) => formatCount(device.connectionsCount) },
          { header: `Last seen (${zone})`, cell: (device) => (device.lastSeenAt === null ? "—" : <Time ms={device.lastSeenAt} />) },
          { header: "Consumption", numeric: true, cell: (device) => formatBytes(device.usage) },
          {
            header: "Status",
            cell: (device) =>
              device.blocked ? (
                <span className="font-medium text-red-700">Blocked</span>
              ) : (
                <span className={device.online ? "font-medium text-green-700" : "text-slate-500"}>
                  {device.online ? "Online" : "Offline"}
                </span>
              ),
          },
        ]}
        actions={(device) =>
          canBlock ? (
            device.blocked ? (
              <Form method="post" action={`/${orgId}/devices/${device.id}/block`} className="inline">
                <input type="hidden" name="redirectTo" value={here} />
                <button type="submit" name="intent" value="unblock" className="btn-secondary">
                  Unblock
                </button>
              </Form>
            ) : (
              <ConfirmButton
                intent="block"
                action={`/${orgId}/devices/${device.id}/block`}
                fields={{ redirectTo: here }}
                message={blockQuestion(device)}
              >
                Block
              </ConfirmButton>
            )
          ) : null
        }
      />
      {page.rows.length > 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          Showing {formatCount(params.offset + 1)} to {formatCount(params.offset + page.rows.length)} of{" "}
          {page.capped ? `more than ${formatCount(page.total)}` : formatCount(page.total)} devices
        </p>
      ) : null}
      <Pagination page={params.page} pageSize={params.pageSize} total={page.total} prefix={prefix} />
    </section>
  );
}
