// The Customers section's table (loader: __group-customers.server.ts).
import { useLoaderData } from "@remix-run/react";
import { CustomersTable } from "~/components/customers/customers-table";
import { formatCount } from "~/lib/format";
import type { groupCustomersLoader } from "./__group-customers.server";

export function GroupCustomers() {
  const { total, rows, list, broken } = useLoaderData<typeof groupCustomersLoader>();
  return (
    <>
      {broken ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
          The stored filters of this group cannot be read, so it has no customers. Save its filters again.
        </p>
      ) : null}
      {rows ? (
        <CustomersTable page={{ rows, total }} params={{ ...list, search: "" }} hideControls />
      ) : (
        <section className="card">
          <h2 className="mb-2 text-lg font-semibold">Customers</h2>
          <p className="text-sm text-slate-700">
            This group has {formatCount(total)} customer{total === 1 ? "" : "s"}. Seeing their names and contacts needs the View clients
            permission.
          </p>
        </section>
      )}
    </>
  );
}
