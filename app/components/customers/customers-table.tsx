import { Link, useParams } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { PAGE_SIZES, type ListParams } from "~/lib/pagination";
import type { CustomerRow } from "~/lib/records";

// Usage in a loader (customers page, venue Clients tab, access point Clients tab):
//   const list = parseListParams(url.searchParams);
//   const customers = await listCustomers(ctx, { venueId }, list);
// and <CustomersTable page={customers} params={list} />.

export interface CustomersTableProps {
  title?: string;
  page: { rows: CustomerRow[]; total: number; capped?: boolean };
  params: Pick<ListParams, "page" | "pageSize" | "offset" | "search">;
  /** Hide the records-per-page and search form (the customers page uses the header's search box). */
  hideControls?: boolean;
  prefix?: string;
}

/** The clients (Wi-Fi users) list (docs/guide/connections-devices-customers.md#customers-list): each name opens the customer's profile. */
export function CustomersTable({ title = "Customers", page, params, hideControls = false, prefix = "" }: CustomersTableProps) {
  const { orgId } = useParams();
  return (
    <section className="card" aria-labelledby={`${prefix || "customers"}-title`}>
      <h2 id={`${prefix || "customers"}-title`} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {hideControls ? null : (
        <ListControls
          pageSize={params.pageSize}
          search={params.search}
          pageSizes={PAGE_SIZES}
          prefix={prefix}
          searchLabel="Search customers"
        />
      )}
      <DataTable
        rows={page.rows}
        rowKey={(c) => c.id}
        empty={params.search ? "No customer matches the search." : "No customers to show."}
        columns={[
          {
            header: "Name",
            cell: (c) => (
              <Link to={`/${orgId}/customers/${c.id}`} className="link">
                {c.name}
              </Link>
            ),
          },
          { header: "Phone Number", nowrap: true, cell: (c) => c.phoneNumber ?? "—" },
          { header: "Email Address", long: true, cell: (c) => c.emailAddress ?? "—" },
          { header: "Facebook", long: true, cell: (c) => c.facebook ?? "—" },
          { header: "Twitter", long: true, cell: (c) => c.twitter ?? "—" },
          { header: "More info", cell: (c) => c.moreInfo ?? "—" },
        ]}
      />
      {page.rows.length > 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          Showing {formatCount(params.offset + 1)} to {formatCount(params.offset + page.rows.length)} of{" "}
          {page.capped ? `more than ${formatCount(page.total)}` : formatCount(page.total)} customers
        </p>
      ) : null}
      <Pagination page={params.page} pageSize={params.pageSize} total={page.total} prefix={prefix} />
    </section>
  );
}
