import { useFetcher } from "@remix-run/react";
import type { GeoJSONSource, Map as MapLibreMap, Marker as MapLibreMarker, StyleSpecification } from "maplibre-gl";
import { useEffect, useRef, useState } from "react";
import { MAP_HEIGHT, squareAround, ZONE_SIZE, type LatLng, type Polygon } from "~/lib/layout";

export interface MapAccessPoint {
  id: number;
  name: string;
  lat: number;
  lng: number;
  /** False: no saved position, drawn at a staggered spot near the centre. */
  placed: boolean;
}

/** What the map's saves answer (the map route's fetcher intents). */
export type MapSaveResult = { ok: true } | { ok: false; message: string };

/** No MAP_STYLE_URL: a plain background and nothing else, so the map makes no outside requests. */
const PLAIN_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#eef2f7" } }],
};

type MapLibre = typeof import("maplibre-gl");

const ring = (polygon: Polygon) => [...polygon, polygon[0]].map((p) => [p.lng, p.lat]);
const featureCollection = (polygons: Polygon[]) => ({
  type: "FeatureCollection" as const,
  features: polygons
    .filter((p) => p.length >= 3)
    .map((p) => ({ type: "Feature" as const, properties: {}, geometry: { type: "Polygon" as const, coordinates: [ring(p)] } })),
});

/**
 * The network map (maplibre-gl, loaded in the browser only): access point markers that save
 * their spot when dropped, the layout polygon with draggable corners saved by Update Layout, and
 * zones added by clicking the map after a confirmation. Every failed save is reported through
 * onError; without JavaScript the page's forms do the same work.
 */
export function NetworkMap({
  styleUrl,
  center,
  zoom,
  accessPoints,
  polygons,
  zones,
  editable,
  onError,
}: {
  styleUrl: string | null;
  center: LatLng;
  zoom: number;
  accessPoints: MapAccessPoint[];
  polygons: Polygon[];
  zones: { id: number; polygon: Polygon }[];
  editable: boolean;
  onError: (message: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [lib, setLib] = useState<MapLibre | null>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // Editors start from a small square around the centre when no polygon is saved yet.
  const startingDraft = (saved: Polygon[]) => (saved.length || !editable ? saved : [squareAround(center, 0.0004)]);
  const [draft, setDraft] = useState<Polygon[]>(() => startingDraft(polygons));
  // The saved polygon replaces the draft whenever the server's changes (after Update Layout).
  const savedPolygons = JSON.stringify(polygons);
  const lastSaved = useRef(savedPolygons);
  useEffect(() => {
    if (lastSaved.current === savedPolygons) return;
    lastSaved.current = savedPolygons;
    setDraft(startingDraft(JSON.parse(savedPolygons)));
    // Only a change of the saved polygon resets the draft.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedPolygons]);
  const layout = useFetcher<MapSaveResult>({ key: "map-layout" });
  const zoneFetcher = useFetcher<MapSaveResult>({ key: "map-zone" });
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  // Create the map once, in the browser.
  useEffect(() => {
    let cancelled = false;
    let created: MapLibreMap | null = null;
    import("maplibre-gl")
      .then((m) => {
        if (cancelled || !container.current) return;
        m.setWorkerUrl(`/vendor/maplibre-gl-worker.mjs?v=${m.getVersion()}`);
        created = new m.Map({
          container: container.current,
          style: styleUrl ?? PLAIN_STYLE,
          center: [center.lng, center.lat],
          zoom,
          attributionControl: styleUrl ? undefined : false,
        });
        created.addControl(new m.NavigationControl({ showCompass: false }), "top-right");
        let loaded = false;
        // Before the first paint an error means no map at all (an unreachable MAP_STYLE_URL): say so.
        created.on("error", (event) => {
          console.error("map error", event.error);
          if (!loaded) setFailed(`The map could not be loaded: ${event.error?.message ?? "unknown error"}`);
        });
        created.on("load", () => {
          loaded = true;
          if (cancelled || !created) return;
          created.addSource("layout", { type: "geojson", data: featureCollection([]) });
          created.addSource("zones", { type: "geojson", data: featureCollection([]) });
          created.addLayer({ id: "layout-fill", type: "fill", source: "layout", paint: { "fill-color": "#6366f1", "fill-opacity": 0.15 } });
          created.addLayer({ id: "layout-line", type: "line", source: "layout", paint: { "line-color": "#4f46e5", "line-width": 2 } });
          created.addLayer({ id: "zones-fill", type: "fill", source: "zones", paint: { "fill-color": "#f59e0b", "fill-opacity": 0.3 } });
          created.addLayer({ id: "zones-line", type: "line", source: "zones", paint: { "line-color": "#b45309", "line-width": 1.5 } });
          setLib(m);
          setMap(created);
        });
      })
      .catch((error: unknown) => setFailed(`The map could not be loaded: ${String(error)}`));
    return () => {
      cancelled = true;
      created?.remove();
    };
    // The map is made once per page; later data reaches it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    (map?.getSource("layout") as GeoJSONSource | undefined)?.setData(featureCollection(draft));
  }, [map, draft]);

  const savedZones = JSON.stringify(zones.map((z) => z.polygon));
  useEffect(() => {
    (map?.getSource("zones") as GeoJSONSource | undefined)?.setData(featureCollection(JSON.parse(savedZones)));
  }, [map, savedZones]);

  // Clicking the map (not a marker) asks, then adds a zone centred on the spot.
  const submitZone = useRef(zoneFetcher.submit);
  submitZone.current = zoneFetcher.submit;
  useEffect(() => {
    if (!map || !editable) return;
    const onClick = (event: { lngLat: { lat: number; lng: number }; originalEvent: MouseEvent }) => {
      if (event.originalEvent.target !== map.getCanvas()) return;
      if (!window.confirm("Add a zone here?")) return;
      submitZone.current(
        { intent: "add-zone", fetcher: "1", lat: String(event.lngLat.lat - ZONE_SIZE / 2), lng: String(event.lngLat.lng - ZONE_SIZE / 2) },
        { method: "post" },
      );
    };
    map.on("click", onClick);
    return () => {
      map.off("click", onClick);
    };
  }, [map, editable]);

  useReportFailure(layout, (message) => onErrorRef.current(`The layout was not saved: ${message}`));
  useReportFailure(zoneFetcher, (message) => onErrorRef.current(`The zone was not added: ${message}`));

  const updateLayout = () => {
    if (!map) return;
    const c = map.getCenter();
    layout.submit(
      {
        intent: "update-layout",
        fetcher: "1",
        layout_polygon: JSON.stringify(draft),
        lat: String(c.lat),
        lng: String(c.lng),
        map_zoom: String(Math.round(map.getZoom() * 100) / 100),
      },
      { method: "post" },
    );
  };

  return (
    <div className="space-y-2">
      <div className="relative overflow-hidden rounded-md border border-slate-200 bg-slate-100" style={{ height: MAP_HEIGHT }}>
        <div ref={container} data-testid="network-map" className="h-full w-full" />
        {!map ? (
          <p className="absolute inset-x-0 top-1/2 -translate-y-1/2 px-4 text-center text-sm text-slate-600">
            {failed ?? "The map needs JavaScript. The forms below set the same positions, layout and zones."}
          </p>
        ) : null}
      </div>
      {lib && map
        ? accessPoints.map((ap) => <ApMarker key={ap.id} lib={lib} map={map} ap={ap} editable={editable} onError={onErrorRef} />)
        : null}
      {lib && map && editable
        ? draft.flatMap((polygon, p) =>
            polygon.map((point, v) => (
              <VertexMarker
                key={`${p}-${v}`}
                lib={lib}
                map={map}
                point={point}
                onMove={(moved) => setDraft((all) => all.map((poly, i) => (i === p ? poly.map((pt, j) => (j === v ? moved : pt)) : poly)))}
              />
            )),
          )
        : null}
      {editable ? (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-primary" onClick={updateLayout} disabled={!map || layout.state !== "idle"}>
            {layout.state !== "idle" ? "Saving…" : "Update Layout"}
          </button>
          <p className="text-xs text-slate-500">
            Drag the purple polygon&apos;s corners, then Update Layout to save it with the map&apos;s centre and zoom. Click the map to add
            a zone.
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** Reports a fetcher's failed answer once, as soon as it arrives (before revalidation may unmount the caller). */
function useReportFailure(fetcher: { data?: MapSaveResult }, report: (message: string) => void) {
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.data && fetcher.data !== reported.current) {
      reported.current = fetcher.data;
      if (!fetcher.data.ok) report(fetcher.data.message);
    }
  });
}

function markerElement(text: string, placed: boolean, editable: boolean): HTMLElement {
  const element = document.createElement("div");
  element.className = `whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium shadow ${
    placed ? "border-indigo-700 bg-indigo-600 text-white" : "border-dashed border-slate-500 bg-white text-slate-700"
  } ${editable ? "cursor-move" : ""}`;
  element.textContent = text;
  return element;
}

/** One access point's marker; a drop saves its lat/lng, a failed save puts it back and says why. */
function ApMarker({
  lib,
  map,
  ap,
  editable,
  onError,
}: {
  lib: MapLibre;
  map: MapLibreMap;
  ap: MapAccessPoint;
  editable: boolean;
  onError: { current: (message: string) => void };
}) {
  const fetcher = useFetcher<MapSaveResult>({ key: `map-position-${ap.id}` });
  const marker = useRef<MapLibreMarker | null>(null);
  const submit = useRef(fetcher.submit);
  submit.current = fetcher.submit;

  useEffect(() => {
    const element = markerElement(ap.placed ? ap.name : `${ap.name} (not placed)`, ap.placed, editable);
    element.dataset.testid = `map-marker-${ap.id}`;
    element.setAttribute("aria-label", ap.name);
    const created = new lib.Marker({ element, draggable: editable }).setLngLat([ap.lng, ap.lat]).addTo(map);
    created.on("dragend", () => {
      const { lat, lng } = created.getLngLat();
      submit.current({ intent: "ap-position", fetcher: "1", id: String(ap.id), lat: String(lat), lng: String(lng) }, { method: "post" });
    });
    marker.current = created;
    return () => {
      created.remove();
    };
    // The position is set on the live marker by the effect below, so moving it never re-creates it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lib, map, ap.id, ap.name, ap.placed, editable]);

  // The saved position wins whenever the server's data changes (or a save failed).
  useEffect(() => {
    marker.current?.setLngLat([ap.lng, ap.lat]);
  }, [ap.lat, ap.lng, fetcher.data]);

  useReportFailure(fetcher, (message) => onError.current(`The position of ${ap.name} was not saved: ${message}`));
  return null;
}

function VertexMarker({ lib, map, point, onMove }: { lib: MapLibre; map: MapLibreMap; point: LatLng; onMove: (p: LatLng) => void }) {
  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;
  const marker = useRef<MapLibreMarker | null>(null);
  useEffect(() => {
    const element = document.createElement("div");
    element.className = "h-3 w-3 cursor-move rounded-full border-2 border-indigo-700 bg-white";
    element.setAttribute("aria-label", "Layout polygon corner");
    const created = new lib.Marker({ element, draggable: true }).setLngLat([point.lng, point.lat]).addTo(map);
    created.on("drag", () => {
      const { lat, lng } = created.getLngLat();
      onMoveRef.current({ lat, lng });
    });
    marker.current = created;
    return () => {
      created.remove();
    };
    // Created once per corner; its position follows `point` below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lib, map]);
  useEffect(() => {
    marker.current?.setLngLat([point.lng, point.lat]);
  }, [point.lat, point.lng]);
  return null;
}
