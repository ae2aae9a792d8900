import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import maplibreStyles from "maplibre-gl/dist/maplibre-gl.css";
import { useCallback, useState } from "react";
import { VenueMapForm, ZonesSection } from "~/components/layout/map-forms";
import { NetworkMap } from "~/components/layout/network-map";
import { PositionsForm } from "~/components/layout/positions-form";
import { ActionFeedback } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { getEnv } from "~/env.server";
import { confirmationNeeded } from "~/lib/confirm";
import { DEFAULT_CENTER, DEFAULT_MAP_ZOOM, type LatLng } from "~/lib/layout";
import { mapMoveSchema, mapPositionsSchema, removeZoneSchema, venueMapSchema, zoneSchema } from "~/lib/schemas/layout";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import {
  addZone,
  fetcherSave,
  firstError,
  getVenueLayout,
  listVenueAccessPoints,
  listZones,
  MAX_ACCESS_POINTS_SHOWN,
  removeZone,
  setMapPositions,
  updateVenueMap,
  venueIdParam,
} from "~/services/layout.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: maplibreStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Map · ${data.venue.name} · Mlango` : "Mlango" }];

/** Unplaced access points wait in rows of five north of the centre, about 30 m apart at the equator. */
function staggeredNear(center: LatLng, n: number): LatLng {
  return { lat: center.lat + 0.0004 - Math.floor(n / 5) * 0.00012, lng: center.lng - 0.00056 + (n % 5) * 0.00028 };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueLayout(ctx, venueIdParam(params.venueId));
  const [all, zones] = await Promise.all([listVenueAccessPoints(ctx, venue.id), listZones(ctx, venue.id)]);
  const aps = all.slice(0, MAX_ACCESS_POINTS_SHOWN);
  const placed = aps.filter((ap) => ap.lat !== null && ap.lng !== null);
  const center: LatLng =
    venue.lat !== null && venue.lng !== null
      ? { lat: venue.lat, lng: venue.lng }
      : placed.length
        ? { lat: placed.reduce((s, ap) => s + ap.lat!, 0) / placed.length, lng: placed.reduce((s, ap) => s + ap.lng!, 0) / placed.length }
        : DEFAULT_CENTER;
  let waiting = 0;
  const canEdit = ctx.permissions.has("edit_network_layout");
  return json({
    orgId: ctx.org.id,
    venue: { id: venue.id, name: venue.name, lat: venue.lat, lng: venue.lng, mapZoom: venue.mapZoom, polygons: venue.polygons },
    styleUrl: getEnv().MAP_STYLE_URL ?? null,
    center,
    zoom: venue.mapZoom ?? DEFAULT_MAP_ZOOM,
    accessPoints: aps.map((ap) =>
      ap.lat !== null && ap.lng !== null
        ? { id: ap.id, name: ap.name, lat: ap.lat, lng: ap.lng, placed: true }
        : { id: ap.id, name: ap.name, ...staggeredNear(center, waiting++), placed: false },
    ),
    rows: aps.map((ap) => ({ id: ap.id, name: ap.name, values: { lat: ap.lat, lng: ap.lng } })),
    truncated: all.length > aps.length,
    zones,
    canEdit,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venueId = venueIdParam(params.venueId);
  const form = await request.formData();
  const here = `/${ctx.org.id}/venues/${venueId}/map`;
  const intent = form.get("intent");
  if (form.get("fetcher") === "1") return fetcherIntent(ctx, venueId, form, intent);
  requirePermission(ctx, "edit_network_layout");
  switch (intent) {
    case "positions": {
      const submission = parseForm(form, { schema: mapPositionsSchema });
      if (submission.status !== "success") return json({ form: "positions" as const, result: submission.reply() }, { status: 400 });
      await setMapPositions(ctx, venueId, submission.value.positions);
      return redirectWithToast(request, here, "Access point positions saved.");
    }
    case "venue-map": {
      const submission = parseForm(form, { schema: venueMapSchema });
      if (submission.status !== "success") return json({ form: "venue-map" as const, result: submission.reply() }, { status: 400 });
      await updateVenueMap(ctx, venueId, withClearedPolygon(form, submission.value));
      return redirectWithToast(request, here, "Map settings saved.");
    }
    case "add-zone": {
      const submission = parseForm(form, { schema: zoneSchema });
      if (submission.status !== "success") return json({ form: "zone" as const, result: submission.reply() }, { status: 400 });
      const outcome = await addZone(ctx, venueId, submission.value);
      if (!outcome.ok)
        return json({ form: "zone" as const, result: submission.reply({ formErrors: outcome.formErrors }) }, { status: 400 });
      return redirectWithToast(request, here, "Zone added.");
    }
    case "remove-zone": {
      const submission = parseForm(form, { schema: removeZoneSchema });
      if (submission.status !== "success") return json({ form: "none" as const, message: firstError(submission.error) }, { status: 400 });
      const ask = confirmationNeeded(form, "remove-zone", "Remove this zone from the map?", { zone_id: submission.value.zone_id });
      if (ask) return json(ask);
      await removeZone(ctx, venueId, submission.value.zone_id);
      return redirectWithToast(request, here, "Zone removed.");
    }
    default:
      return json({ form: "none" as const, message: "Unknown action." }, { status: 400 });
  }
}

/** A posted but empty layout_polygon clears it (conform reads empty fields as absent). */
function withClearedPolygon(form: FormData, value: ReturnType<typeof venueMapSchema.parse>) {
  return form.has("layout_polygon") && value.layout_polygon === undefined ? { ...value, layout_polygon: [] } : value;
}

// The map's own saves (marker drops, Update Layout, zone clicks): answered as data, failures included.
function fetcherIntent(ctx: OrgContext, venueId: number, form: FormData, intent: FormDataEntryValue | null) {
  return fetcherSave(async () => {
    requirePermission(ctx, "edit_network_layout");
    if (intent === "ap-position") {
      const submission = parseForm(form, { schema: mapMoveSchema });
      if (submission.status !== "success") return { ok: false, message: firstError(submission.error) };
      await setMapPositions(ctx, venueId, [submission.value]);
      return { ok: true };
    }
    if (intent === "update-layout") {
      const submission = parseForm(form, { schema: venueMapSchema });
      if (submission.status !== "success") return { ok: false, message: firstError(submission.error) };
      await updateVenueMap(ctx, venueId, withClearedPolygon(form, submission.value));
      return { ok: true };
    }
    if (intent === "add-zone") {
      const submission = parseForm(form, { schema: zoneSchema });
      if (submission.status !== "success") return { ok: false, message: firstError(submission.error) };
      const outcome = await addZone(ctx, venueId, submission.value);
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.formErrors?.[0] ?? "The zone could not be added." };
    }
    return { ok: false, message: "Unknown action." };
  });
}

export default function NetworkMapPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [errors, setErrors] = useState<string[]>([]);
  const onError = useCallback((message: string) => setErrors((all) => [...all, message]), []);
  const resultOf = (name: string) =>
    actionData && "form" in actionData && actionData.form === name && "result" in actionData ? actionData.result : null;
  return (
    <div className="space-y-4">
      <section className="card space-y-3" aria-labelledby="map-heading">
        <h2 id="map-heading" className="text-lg font-semibold">
          Map
        </h2>
        <ActionFeedback actionData={actionData} cancelTo={`/${data.orgId}/venues/${data.venue.id}/map`} />
        {errors.length ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
            {errors.map((e, i) => (
              <p key={i}>{e}</p>
            ))}
            <button type="button" className="link mt-2" onClick={() => setErrors([])}>
              Dismiss
            </button>
          </div>
        ) : null}
        <NetworkMap
          styleUrl={data.styleUrl}
          center={data.center}
          zoom={data.zoom}
          accessPoints={data.accessPoints}
          polygons={data.venue.polygons}
          zones={data.zones}
          editable={data.canEdit}
          onError={onError}
        />
        {data.truncated ? <p className="text-xs text-slate-500">Showing the first {data.accessPoints.length} access points.</p> : null}
      </section>

      <ZonesSection zones={data.zones} canEdit={data.canEdit} lastResult={resultOf("zone")} />

      {data.canEdit && data.rows.length ? (
        <section className="card" aria-labelledby="map-positions-heading">
          <h2 id="map-positions-heading" className="mb-2 text-lg font-semibold">
            Access points on the map
          </h2>
          <PositionsForm
            key={data.rows.map((r) => `${r.id}:${r.values.lat}:${r.values.lng}`).join(",")}
            id="map-positions"
            schema={mapPositionsSchema}
            intent="positions"
            columns={[
              { name: "lat", label: "Latitude" },
              { name: "lng", label: "Longitude" },
            ]}
            rows={data.rows}
            hint="Decimal degrees. Leave both empty to take an access point off the map."
            lastResult={resultOf("positions")}
          />
        </section>
      ) : null}

      {data.canEdit ? <VenueMapForm venue={data.venue} lastResult={resultOf("venue-map")} /> : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
