import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useCallback, useState } from "react";
import { FloorPlan } from "~/components/layout/floor-plan";
import { LayoutUploadForm } from "~/components/layout/layout-upload-form";
import { PositionsForm } from "~/components/layout/positions-form";
import { DataTable } from "~/components/ui/data-table";
import { DateRangeForm } from "~/components/ui/date-range-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { parseDateRange } from "~/lib/date-range";
import { CANVAS_HEIGHT, CANVAS_WIDTH, floorPositions } from "~/lib/layout";
import { floorMoveSchema, floorPositionsSchema } from "~/lib/schemas/layout";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import {
  connectionsPerAccessPoint,
  fetcherSave,
  firstError,
  getVenueLayout,
  layoutImageUrl,
  listVenueAccessPoints,
  MAX_ACCESS_POINTS_SHOWN,
  saveLayoutImage,
  setFloorPositions,
  venueIdParam,
} from "~/services/layout.server";
import { redirectWithToast } from "~/services/session.server";
import { readImageUpload } from "~/services/storage.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Layout Designer · ${data.venue.name} · Mlango` : "Mlango" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueLayout(ctx, venueIdParam(params.venueId));
  const url = new URL(request.url);
  const all = await listVenueAccessPoints(ctx, venue.id);
  const aps = all.slice(0, MAX_ACCESS_POINTS_SHOWN);
  const spots = floorPositions(aps.map((ap) => ({ layout_x: ap.layoutX, layout_y: ap.layoutY })));
  const markers = aps.map((ap, i) => ({ id: ap.id, name: ap.name, ...spots[i] }));
  let heatmap = null;
  if (url.searchParams.get("mode") === "heatmap") {
    const range = parseDateRange(url.searchParams, ctx.org.clock);
    const counts = await connectionsPerAccessPoint(ctx, venue.id, range);
    const rows = markers.map((m) => ({ id: m.id, name: m.name, placed: m.placed, connections: counts.get(m.id) ?? 0 }));
    const points = markers.filter((m) => m.placed).map((m) => ({ id: m.id, x: m.x, y: m.y, connections: counts.get(m.id) ?? 0 }));
    heatmap = { range, rows, points };
  }
  return json({
    venue: { id: venue.id, name: venue.name },
    imageUrl: venue.layoutImage ? layoutImageUrl(ctx.org.id, venue.id, venue.layoutImage) : null,
    markers,
    rows: aps.map((ap) => ({ id: ap.id, name: ap.name, layoutX: ap.layoutX, layoutY: ap.layoutY })),
    truncated: all.length > aps.length,
    canEdit: ctx.permissions.has("edit_network_layout"),
    changing: url.searchParams.has("change"),
    heatmap,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venueId = venueIdParam(params.venueId);
  const here = `/${ctx.org.id}/venues/${venueId}/layout`;
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) return upload(request, ctx, venueId, here);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "move":
      return move(ctx, venueId, form);
    case "positions": {
      requirePermission(ctx, "edit_network_layout");
      const submission = parseForm(form, { schema: floorPositionsSchema });
      if (submission.status !== "success") return json({ form: "positions" as const, result: submission.reply() }, { status: 400 });
      await setFloorPositions(ctx, venueId, submission.value.positions);
      return redirectWithToast(request, here, "Access point positions saved.");
    }
    default:
      return json({ form: "none" as const, message: "Unknown action." }, { status: 400 });
  }
}

// The file is checked (permission, network, then size and content) before anything is stored.
async function upload(request: Request, ctx: OrgContext, venueId: number, here: string) {
  requirePermission(ctx, "edit_network_layout");
  await getVenueLayout(ctx, venueId);
  const uploaded = await readImageUpload(request, "file");
  if (!uploaded.ok) return json({ form: "upload" as const, message: uploaded.message }, { status: 400 });
  await saveLayoutImage(ctx, venueId, uploaded.image);
  return redirectWithToast(request, here, "Layout plan saved.");
}

// One dropped marker, posted by a fetcher: every failure comes back as data the page shows.
function move(ctx: OrgContext, venueId: number, form: FormData) {
  return fetcherSave(async () => {
    requirePermission(ctx, "edit_network_layout");
    const submission = parseForm(form, { schema: floorMoveSchema });
    if (submission.status !== "success") return { ok: false, message: firstError(submission.error) };
    await setFloorPositions(ctx, venueId, [submission.value]);
    return { ok: true };
  });
}

export default function LayoutDesigner() {
  const { venue, imageUrl, markers, rows, truncated, canEdit, changing, heatmap } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const [saveErrors, setSaveErrors] = useState<string[]>([]);
  const onSaveFailed = useCallback(
    (name: string, message: string) => setSaveErrors((errors) => [...errors, `The position of ${name} was not saved: ${message}`]),
    [],
  );
  // Links to this page with other modes; the date range stays.
  const hrefWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    next.delete("change");
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    return next.size ? `${pathname}?${next}` : pathname;
  };
  const uploadError = actionData && "form" in actionData && actionData.form === "upload" ? actionData.message : null;
  const showUpload = canEdit && (!imageUrl || changing || uploadError !== null);

  return (
    <div className="space-y-4">
      <section className="card space-y-4" aria-labelledby="layout-heading">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="layout-heading" className="text-lg font-semibold">
            Layout Designer
          </h2>
          {imageUrl ? (
            <nav aria-label="Layout mode" className="flex flex-wrap gap-2 text-sm">
              <Link
                to={hrefWith({ mode: null })}
                className={heatmap ? "btn-secondary" : "btn-primary"}
                aria-current={heatmap ? undefined : "page"}
              >
                Access points
              </Link>
              <Link
                to={hrefWith({ mode: "heatmap" })}
                className={heatmap ? "btn-primary" : "btn-secondary"}
                aria-current={heatmap ? "page" : undefined}
              >
                Heatmap
              </Link>
              {canEdit && !showUpload ? (
                <Link to={hrefWith({ mode: null, change: "1" })} className="btn-secondary">
                  Change layout plan
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
        {actionData && "form" in actionData && actionData.form === "none" ? <FormErrors errors={[actionData.message]} /> : null}
        {saveErrors.length ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
            {saveErrors.map((e, i) => (
              <p key={i}>{e}</p>
            ))}
            <button type="button" className="link mt-2" onClick={() => setSaveErrors([])}>
              Dismiss
            </button>
          </div>
        ) : null}
        {showUpload ? (
          <div>
            <p className="mb-3 text-sm text-slate-600">
              {imageUrl
                ? "Upload a new floor plan to replace the current one."
                : "Upload a floor plan of this network, then place its access points on it."}
            </p>
            <LayoutUploadForm error={uploadError} cancelTo={imageUrl ? hrefWith({}) : undefined} />
          </div>
        ) : null}
        {!imageUrl && !canEdit ? <p className="text-sm text-slate-600">No layout plan has been uploaded for this network yet.</p> : null}
        {imageUrl && !showUpload ? (
          <>
            {heatmap ? <DateRangeForm range={heatmap.range} /> : null}
            <FloorPlan
              imageUrl={imageUrl}
              venueName={venue.name}
              markers={markers}
              heat={heatmap?.points ?? null}
              editable={canEdit}
              onSaveFailed={onSaveFailed}
            />
            <p className="text-xs text-slate-500">
              {heatmap
                ? "Heat shows authorized connections per placed access point in the chosen period: red is the busiest."
                : markers.some((m) => !m.placed)
                  ? "Access points with a dashed outline are not placed yet and are lined up along the top."
                  : null}
              {truncated ? ` Showing the first ${markers.length} access points.` : null}
            </p>
          </>
        ) : null}
      </section>

      {heatmap && imageUrl ? <HeatmapTable rows={heatmap.rows} /> : null}

      {imageUrl && canEdit && !heatmap && rows.length ? (
        <section className="card" aria-labelledby="positions-heading">
          <h2 id="positions-heading" className="mb-2 text-lg font-semibold">
            Positions on the plan
          </h2>
          <PositionsForm
            key={rows.map((r) => `${r.id}:${r.layoutX}:${r.layoutY}`).join(",")}
            id="floor-positions"
            schema={floorPositionsSchema}
            intent="positions"
            columns={[
              { name: "layout_x", label: "X" },
              { name: "layout_y", label: "Y" },
            ]}
            rows={rows.map((r) => ({ id: r.id, name: r.name, values: { layout_x: r.layoutX, layout_y: r.layoutY } }))}
            hint={`Pixels from the plan's top-left corner: X from 0 to ${CANVAS_WIDTH}, Y from 0 to ${CANVAS_HEIGHT}. Leave both empty to take an access point off the plan.`}
            lastResult={actionData && "form" in actionData && actionData.form === "positions" ? actionData.result : null}
          />
        </section>
      ) : null}
    </div>
  );
}

function HeatmapTable({ rows }: { rows: { id: number; name: string; placed: boolean; connections: number }[] }) {
  return (
    <section className="card" aria-labelledby="heat-heading">
      <h2 id="heat-heading" className="mb-2 text-lg font-semibold">
        Connections per access point
      </h2>
      <DataTable
        rows={rows}
        rowKey={(r) => r.id}
        empty="No access points in this network yet."
        columns={[
          {
            header: "Access point",
            cell: (r) => (
              <span>
                {r.name}
                {r.placed ? null : <span className="text-slate-500"> (not placed, not on the heatmap)</span>}
              </span>
            ),
          },
          { header: "Connections", numeric: true, cell: (r) => r.connections },
        ]}
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
