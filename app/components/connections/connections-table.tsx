import { Link, useLocation, useParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { authModeLabel } from "~/lib/auth-modes";
import { closeQuestion, type ConnectionRow } from "~/lib/connections";
import { formatBytes, formatCount, formatHms } from "~/lib/format";
import { PAGE_SIZES, rowNumber, type ListParams } from "~/lib/pagination";
import { Time, useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

// Usage in a loader (venue or access point tab, dashboard dashlet, customer profile):
//   const list = parseListParams(url.searchParams);              // dashlet: (sp, PAGE_SIZES, 5, "online_")
//   const filter = { venueId: venue.id, authorized: true };       // ConnectionFilter (~/lib/connections)
//   return json({ connections: await listConnections(ctx, filter, list), list,
//     canClose: ctx.permissions.has("edit_connections"), exportHref: connectionsCsvHref(ctx.org.id, filter, list.search) });
// and <ConnectionsTable page={connections} params={list} canClose={canClose} exportHref={exportHref} />
// (dashlets: compact prefix="online_" title="Who is online", without exportHref).

export interface ConnectionsTableProps {
  /** 'Authorized connections' unless the screen names it otherwise. */
  title?: string;
  page: { rows: ConnectionRow[]; total: number; capped?: boolean };
  params: Pick<ListParams, "page" | "pageSize" | "offset" | "search">;
  /** The viewer holds edit_connections: online rows get a Close button. */
  canClose: boolean;
  /** The export of the same list (connectionsCsvHref); no Export CSV button without it. */
  exportHref?: string;
  /** Dashlets: no page-size choice, search box or export; paging stays. */
  compact?: boolean;
  /** Names this table's URL params (`{prefix}page`, …) when a page shows several lists. */
  prefix?: string;
  pageSizes?: readonly number[];
  /**
   * The list's own filter fields (the connections page's status), in the form of the page size and search
   * so one submit keeps all of them; `filterNames` are their params.
   */
  filters?: ReactNode;
  filterNames?: readonly string[];
  /** Columns that repeat the page's own subject (the Network column on a network's tabs). */
  hide?: readonly ("Customer" | "Network" | "Access Point")[];
}

/** The one connections table of every screen (docs/guide/connections-devices-customers.md#connections-table). */
export function ConnectionsTable({
  title = "Authorized connections",
  page,
  params,
  canClose,
  exportHref,
  compact = false,
  prefix = "",
  pageSizes = PAGE_SIZES,
  filters,
  filterNames = [],
  hide = [],
}: ConnectionsTableProps) {
  const { orgId } = useParams();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const headingId = `${prefix || "connections"}-title`;
  const zone = formatOffset(useOrgClock().offsetMs);
  return (
    <section className={compact ? "" : "card"} aria-labelledby={headingId}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          {!compact && exportHref ? <ExportButton href={exportHref} empty={page.total === 0} /> : null}
        </div>
      </div>
      {compact ? null : (
        <ListControls
          pageSize={params.pageSize}
          search={params.search}
          pageSizes={pageSizes}
          prefix={prefix}
          searchLabel="Search connections"
          controls={filterNames}
        >
          {filters}
        </ListControls>
      )}
      <DataTable
        rows={page.rows}
        rowKey={(row) => row.id}
        empty={params.search ? "No connection matches the search." : "No connections to show."}
        columns={[
          { header: "#", nowrap: true, cell: (_row, index) => rowNumber(params, index) },
          // "DD-MM-YYYY HH:mm" may break between the date and the time.
          { header: `Connected At (${zone})`, cell: (row) => <Time ms={row.createdAt} /> },
          !hide.includes("Customer") && {
            header: "Customer",
            cell: (row) =>
              row.customer ? (
                <Link to={`/${orgId}/customers/${row.customer.id}`} className="link">
                  {row.customer.name}
                </Link>
              ) : (
                "—"
              ),
          },
          { header: "Device", cell: (row) => (row.device ? row.device.label : "—") },
          !hide.includes("Network") && { header: "Network", cell: (row) => (row.venue ? row.venue.name : "—") },
          !hide.includes("Access Point") && { header: "Access Point", cell: (row) => <AccessPointCell accessPoint={row.accessPoint} /> },
          { header: "Auth Mode", cell: (row) => (row.authorizationMode ? authModeLabel(row.authorizationMode) : "—") },
          { header: "Duration", numeric: true, cell: (row) => formatHms(row.durationSeconds) },
          { header: "Consumption", numeric: true, cell: (row) => formatBytes(row.usage) },
          {
            header: "Status",
            cell: (row) => (
              <span className={row.online ? "font-medium text-green-700" : "text-slate-500"}>{row.online ? "Online" : "Offline"}</span>
            ),
          },
        ]}
        actions={(row) => (
          <>
            <Link to={`/${orgId}/connections/${row.id}/timeline`} className="btn-secondary">
              Timeline
            </Link>
            {row.online && canClose ? (
              <ConfirmButton
                intent="close"
                action={`/${orgId}/connections/${row.id}/close`}
                fields={{ redirectTo: here }}
                message={closeQuestion(row)}
              >
                Close
              </ConfirmButton>
            ) : null}
          </>
        )}
      />
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <RangeText params={params} shown={page.rows.length} total={page.total} capped={page.capped ?? false} />
      </div>
      <Pagination page={params.page} pageSize={params.pageSize} total={page.total} prefix={prefix} />
    </section>
  );
}

/** A guest who came through an access point the operator never added (or deleted) shows its MAC, marked. */
function AccessPointCell({ accessPoint }: { accessPoint: ConnectionRow["accessPoint"] }) {
  if (!accessPoint) return <>—</>;
  if (accessPoint.id !== null) return <>{accessPoint.name ?? accessPoint.macAddress}</>;
  return (
    <span className="whitespace-nowrap">
      <span className="font-mono text-xs">{accessPoint.macAddress}</span> <span className="text-xs text-amber-700">unregistered</span>
    </span>
  );
}

function RangeText({
  params,
  shown,
  total,
  capped,
}: {
  params: Pick<ListParams, "offset">;
  shown: number;
  total: number;
  capped: boolean;
}) {
  if (shown === 0) return null;
  const of = capped ? `more than ${formatCount(total)}` : formatCount(total);
  return (
    <p>
      Showing {formatCount(params.offset + 1)} to {formatCount(params.offset + shown)} of {of} connections
    </p>
  );
}

/** A plain link to the export (a resource route: the browser downloads it, with or without JavaScript). */
function ExportButton({ href, empty }: { href: string; empty: boolean }) {
  if (empty) {
    return (
      <span className="flex items-center gap-2 text-sm text-slate-500">
        <button type="button" className="btn-secondary" disabled>
          Export CSV
        </button>
        No data available to export.
      </span>
    );
  }
  return (
    <a href={href} className="btn-secondary" download="connections.csv">
      Export CSV
    </a>
  );
}
