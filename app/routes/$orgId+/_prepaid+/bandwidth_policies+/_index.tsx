import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { requireOrg } from "~/services/guard.server";
import { listPolicies, speedText } from "~/services/prepaid/policies.server";

export const meta: MetaFunction = () => [{ title: "Bandwidth policies | Mlango" }];

// bandwidthPolicies: newest first, paged and searched by name (docs/guide/plans-and-prepaid.md#bandwidth-policies).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_bandwidth_policy");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listPolicies(ctx, list);
  return json({
    policies: rows.map((p) => ({
      id: Number(p.id),
      name: p.name,
      max_upload: speedText(p.max_upload, p.max_upload_unit),
      max_download: speedText(p.max_download, p.max_download_unit),
      description: p.description,
    })),
    total,
    list,
    orgId: ctx.org.id,
    canCreate: ctx.permissions.has("create_bandwidth_policy"),
  });
}

export default function BandwidthPolicies() {
  const { policies, total, list, orgId, canCreate } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Bandwidth policies</h1>
        {canCreate ? (
          <Link to={`/${orgId}/bandwidth_policies/new`} className="btn-primary">
            New policy
          </Link>
        ) : null}
      </div>
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search policies by name" />
      <DataTable
        rows={policies}
        rowKey={(p) => p.id}
        empty={list.search ? "No bandwidth policy matches the search." : "No bandwidth policies yet."}
        columns={[
          { header: "#", cell: (_p, index) => rowNumber(list, index) },
          {
            header: "Name",
            cell: (p) => (
              <Link to={`/${orgId}/bandwidth_policy/${p.id}`} className="link">
                {p.name}
              </Link>
            ),
          },
          { header: "Max upload", nowrap: true, cell: (p) => p.max_upload },
          { header: "Max download", nowrap: true, cell: (p) => p.max_download },
          { header: "Description", cell: (p) => p.description ?? "" },
        ]}
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
