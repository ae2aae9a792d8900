import { Link } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { rowNumber, type ListParams } from "~/lib/pagination";

export interface VisitorListRow {
  id: number;
  name: string;
  identity: string;
  phone_number: string | null;
  email_address: string | null;
  facebook: string | null;
  twitter: string | null;
  more_info: string | null;
  devicesCount: number;
  connectionsCount: number;
}

/** A visitor list (docs/guide/reports.md#visitor-lists) with records per page, search, export and pages; numbers run on across pages. */
export function VisitorsTable({
  orgId,
  rows,
  total,
  capped = false,
  list,
  exportHref,
  personalData,
}: {
  orgId: number;
  rows: VisitorListRow[];
  total: number;
  /** The count stopped at `total`: there are more. */
  capped?: boolean;
  list: ListParams;
  exportHref: string;
  /** The member may see guests' names and contacts (view_clients): the list, its search, export and customer links. */
  personalData: boolean;
}) {
  const count = (
    <p className="text-sm text-slate-600">
      {capped ? "More than " : ""}
      <strong data-testid="visitors-total">{formatCount(total)}</strong> {total === 1 && !capped ? "visitor" : "visitors"}
    </p>
  );
  if (!personalData) {
    return (
      <section className="card" aria-label="Visitors">
        {count}
        <p className="mt-2 text-sm text-slate-500">
          Visitors' names and contacts are shown to members whose role has the View clients permission.
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-label="Visitors">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        {count}
        <a href={exportHref} className="btn-secondary" download>
          Export CSV
        </a>
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search by name, phone or email" />
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        empty={list.search ? "No visitor matches the search." : "No visitors in this period."}
        columns={[
          { header: "#", cell: (_row, index) => rowNumber(list, index) },
          {
            header: "Name",
            cell: (row) => (
              <Link to={`/${orgId}/customers/${row.id}/connections`} className="link">
                {row.name || row.identity}
              </Link>
            ),
          },
          { header: "Identity", long: true, cell: (row) => row.identity },
          { header: "Phone Number", nowrap: true, cell: (row) => row.phone_number ?? "" },
          { header: "Email", long: true, cell: (row) => row.email_address ?? "" },
          { header: "Facebook", long: true, cell: (row) => row.facebook ?? "" },
          { header: "Twitter", long: true, cell: (row) => row.twitter ?? "" },
          { header: "More Info", cell: (row) => row.more_info ?? "" },
          { header: "Devices", numeric: true, cell: (row) => formatCount(row.devicesCount) },
          { header: "Connections", numeric: true, cell: (row) => formatCount(row.connectionsCount) },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}
