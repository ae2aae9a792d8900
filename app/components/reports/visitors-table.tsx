import { Link } from "@remix-run/react";
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

/** A visitor list (spec 3 §3 "Visitor record") with records per page, search, export and pages; numbers run on across pages. */
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
        <p className="mt-2 text-sm text-slate-500">Visitors' names and contacts are shown to members whose role has the View clients permission.</p>
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
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              <th>Name</th>
              <th>Identity</th>
              <th>Phone Number</th>
              <th>Email</th>
              <th>Facebook</th>
              <th>Twitter</th>
              <th>More Info</th>
              <th>Devices</th>
              <th>Connections</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={10} className="text-center text-slate-500">
                  {list.search ? "No visitor matches the search." : "No visitors in this period."}
                </td>
              </tr>
            ) : null}
            {rows.map((row, index) => (
              <tr key={row.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/customers/${row.id}/connections`} className="link">
                    {row.name || row.identity}
                  </Link>
                </td>
                <td>{row.identity}</td>
                <td>{row.phone_number ?? ""}</td>
                <td>{row.email_address ?? ""}</td>
                <td>{row.facebook ?? ""}</td>
                <td>{row.twitter ?? ""}</td>
                <td>{row.more_info ?? ""}</td>
                <td>{formatCount(row.devicesCount)}</td>
                <td>{formatCount(row.connectionsCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}
