// /{orgId}/ads/campaigns (menu "Campaign List", view_ads; docs/guide/ads.md#campaigns): the organisation's
// campaigns, newest first, paged and searched by name or client, with the spec's derived status
// (pause "1" Paused; else status "0" Active; else Inactive). Pause/Activate (edit_ads) changes the
// campaign on the server, so serving stops or resumes at once. Export campaigns.csv.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { ADS_CSV, ADS_MESSAGES, formatKsh, type CampaignStatus } from "~/lib/schemas/ads";
import { listCampaigns, setCampaignPaused } from "~/services/ads/campaigns.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { Time, useOrgClock } from "~/components/ui/time";
import { formatOffset } from "~/lib/time-zone";

export const meta: MetaFunction = () => [{ title: "Campaign List | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_ads");
  const list = parseListParams(new URL(request.url).searchParams);
  const { rows, total } = await listCampaigns(ctx, list);
  return json({ orgId: ctx.org.id, rows, total, list, canEdit: ctx.permissions.has("edit_ads") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_ads");
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "pause" && intent !== "activate") return json({ message: "Unknown action." }, { status: 400 });
  await setCampaignPaused(ctx, parseId(form.get("id")), intent === "pause");
  const back = new URL(request.url);
  return redirectWithToast(
    request,
    `/${ctx.org.id}/ads/campaigns${back.search}`,
    intent === "pause" ? ADS_MESSAGES.paused : ADS_MESSAGES.activated,
  );
}

const BADGE: Record<CampaignStatus, string> = {
  Active: "border-green-300 bg-green-50 text-green-800",
  Paused: "border-amber-300 bg-amber-50 text-amber-800",
  Inactive: "border-slate-300 bg-slate-100 text-slate-700",
};

export default function Campaigns() {
  const { orgId, rows, total, list, canEdit } = useLoaderData<typeof loader>();
  const zone = formatOffset(useOrgClock().offsetMs);
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Campaign List</h1>
        <div className="flex gap-2">
          {total > 0 || list.search ? (
            <a href={`/${orgId}/ads/campaigns.csv`} className="btn-secondary" download={ADS_CSV}>
              Export CSV
            </a>
          ) : (
            <button type="button" className="btn-secondary" disabled title={ADS_MESSAGES.noData}>
              Export CSV
            </button>
          )}
          {canEdit ? (
            <Link to={`/${orgId}/ads/create`} className="btn-primary">
              Create Campaign
            </Link>
          ) : null}
        </div>
      </div>
      {actionData && "message" in actionData ? (
        <p role="alert" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {actionData.message}
        </p>
      ) : null}
      <ListControls pageSize={list.pageSize} search={list.search} searchLabel="Search campaigns by name or client" />
      <DataTable
        rows={rows}
        rowKey={(c) => c.id}
        empty="No campaigns yet."
        columns={[
          { header: "#", cell: (_c, index) => rowNumber(list, index) },
          { header: "Campaign", cell: (c) => <span className="font-medium">{c.name}</span> },
          { header: "Client", cell: (c) => c.clientName },
          { header: "Revenue", numeric: true, cell: (c) => formatKsh(c.revenueCents) },
          { header: `Activate Time (${zone})`, nowrap: true, cell: (c) => <Time ms={c.activateAt} /> },
          { header: `Expire Time (${zone})`, nowrap: true, cell: (c) => (c.expireAt === null ? "—" : <Time ms={c.expireAt} />) },
          {
            header: "Networks",
            cell: (c) => (c.allNetworks ? "All" : c.venueIds.length === 0 ? "None (deleted)" : formatCount(c.venueIds.length)),
          },
          {
            header: "Banners",
            nowrap: true,
            cell: (c) => (
              <Link to={`/${orgId}/ads/banners/${c.id}`} className="link">
                {formatCount(c.banners)} banner{c.banners === 1 ? "" : "s"}
              </Link>
            ),
          },
          {
            header: "Status",
            cell: (c) => (
              <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE[c.derivedStatus]}`}>
                {c.derivedStatus}
              </span>
            ),
          },
        ]}
        actions={
          canEdit
            ? (c) => (
                <Form method="post" className="inline">
                  <input type="hidden" name="id" value={c.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={c.pause === "1" ? "activate" : "pause"}
                    className="btn-secondary text-xs"
                    aria-label={`${c.pause === "1" ? "Activate" : "Pause"} ${c.name}`}
                  >
                    {c.pause === "1" ? "Activate" : "Pause"}
                  </button>
                </Form>
              )
            : undefined
        }
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
