// The layout designer's and network map's constants
// (docs/guide/networks.md#layout-designer, #network-map) and the pure rules about
// positions and polygons, shared by the pages, the browser code, the service and the API.

/** The floor-plan canvas: positions of access points on it are pixels of this box. */
export const CANVAS_WIDTH = 1310;
export const CANVAS_HEIGHT = 700;
export const HEATMAP_RADIUS = 100;

export const MAP_HEIGHT = 700;
export const DEFAULT_MAP_ZOOM = 19;
export const MIN_MAP_ZOOM = 0;
export const MAX_MAP_ZOOM = 22;
/** Near the initial capital coordinates: Nairobi's city centre. */
export const DEFAULT_CENTER = { lat: -1.286389, lng: 36.817223 } as const;

/** A new zone is a square of this many degrees. */
export const ZONE_SIZE = 0.001;
export const MAX_ZONES_PER_VENUE = 200;

export const MAX_POLYGONS = 20;
export const MAX_POLYGON_POINTS = 200;
export const MIN_POLYGON_POINTS = 3;
/** More than enough for MAX_POLYGONS × MAX_POLYGON_POINTS points written out in full. */
export const MAX_POLYGON_JSON_LENGTH = 200_000;

export interface LatLng {
  lat: number;
  lng: number;
}
export type Polygon = LatLng[];

export const POLYGON_MESSAGES = {
  shape: "The layout polygon must be a JSON list of polygons, each a list of {lat, lng} points.",
  tooLong: "The layout polygon is too large.",
  tooMany: `A layout can have at most ${MAX_POLYGONS} polygons.`,
  tooFewPoints: `Each polygon needs at least ${MIN_POLYGON_POINTS} points.`,
  tooManyPoints: `A polygon can have at most ${MAX_POLYGON_POINTS} points.`,
  latitude: "Latitude must be a number between -90 and 90.",
  longitude: "Longitude must be a number between -180 and 180.",
} as const;

export function isLatitude(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= -90 && value <= 90;
}

export function isLongitude(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= -180 && value <= 180;
}

type PolygonResult = { ok: true; polygons: Polygon[] } | { ok: false; message: string };

/**
 * Reads a layout polygon as stored and as posted: a JSON list of polygons of {lat, lng} points
 * (a single polygon, a bare list of points, is accepted too). Empty text is no polygon at all.
 * Only lat and lng are kept, so stored JSON never carries anything else.
 */
export function parseLayoutPolygons(text: string): PolygonResult {
  if (text.length > MAX_POLYGON_JSON_LENGTH) return { ok: false, message: POLYGON_MESSAGES.tooLong };
  if (text.trim() === "") return { ok: true, polygons: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: POLYGON_MESSAGES.shape };
  }
  if (!Array.isArray(value)) return { ok: false, message: POLYGON_MESSAGES.shape };
  const list = value.length > 0 && !Array.isArray(value[0]) ? [value] : value;
  if (list.length > MAX_POLYGONS) return { ok: false, message: POLYGON_MESSAGES.tooMany };
  const polygons: Polygon[] = [];
  for (const raw of list) {
    const polygon = readPolygon(raw);
    if (typeof polygon === "string") return { ok: false, message: polygon };
    polygons.push(polygon);
  }
  return { ok: true, polygons };
}

/** One polygon of {lat, lng} points, or the message saying what is wrong with it. */
export function readPolygon(raw: unknown): Polygon | string {
  if (!Array.isArray(raw)) return POLYGON_MESSAGES.shape;
  if (raw.length < MIN_POLYGON_POINTS) return POLYGON_MESSAGES.tooFewPoints;
  if (raw.length > MAX_POLYGON_POINTS) return POLYGON_MESSAGES.tooManyPoints;
  const points: Polygon = [];
  for (const point of raw) {
    if (typeof point !== "object" || point === null || Array.isArray(point)) return POLYGON_MESSAGES.shape;
    const { lat, lng } = point as Record<string, unknown>;
    if (!isLatitude(lat)) return POLYGON_MESSAGES.latitude;
    if (!isLongitude(lng)) return POLYGON_MESSAGES.longitude;
    points.push({ lat, lng });
  }
  return points;
}

/** Stored JSON back to polygons; anything unreadable (old or hand-edited rows) reads as none. */
export function storedPolygons(json: string | null): Polygon[] {
  if (!json) return [];
  const parsed = parseLayoutPolygons(json);
  return parsed.ok ? parsed.polygons : [];
}

/** The square of `size` degrees whose south-west corner is `corner`, corners counter-clockwise. */
function square(corner: LatLng, size: number): Polygon {
  const round = (n: number) => Math.round(n * 1e7) / 1e7;
  const { lat, lng } = corner;
  return [
    { lat: round(lat), lng: round(lng) },
    { lat: round(lat + size), lng: round(lng) },
    { lat: round(lat + size), lng: round(lng + size) },
    { lat: round(lat), lng: round(lng + size) },
  ];
}

/** A zone: the ZONE_SIZE square whose south-west corner is `corner` (kept inside the map's range). */
export function zoneSquare(corner: LatLng): Polygon {
  return square(
    { lat: Math.min(Math.max(corner.lat, -90), 90 - ZONE_SIZE), lng: Math.min(Math.max(corner.lng, -180), 180 - ZONE_SIZE) },
    ZONE_SIZE,
  );
}

/** A square of `size` degrees centred on `center`: the polygon a network starts with on its map. */
export function squareAround(center: LatLng, size: number): Polygon {
  return square({ lat: center.lat - size / 2, lng: center.lng - size / 2 }, size);
}

export interface FloorPosition {
  x: number;
  y: number;
  /** False when the access point has no saved position and is shown at its staggered place. */
  placed: boolean;
}

const STAGGER_STEP_X = 130;
const STAGGER_STEP_Y = 60;
const STAGGER_MARGIN = 80;

/**
 * Where access points are drawn on the floor plan: their saved position, or (never placed) a
 * staggered one in rows along the top of the canvas, so none hides another.
 */
export function floorPositions(aps: readonly { layout_x: number | null; layout_y: number | null }[]): FloorPosition[] {
  const perRow = Math.floor((CANVAS_WIDTH - 2 * STAGGER_MARGIN) / STAGGER_STEP_X) + 1;
  let unplaced = 0;
  return aps.map((ap) => {
    if (ap.layout_x !== null && ap.layout_y !== null) return { x: ap.layout_x, y: ap.layout_y, placed: true };
    const n = unplaced++;
    const row = Math.floor(n / perRow);
    return {
      x: STAGGER_MARGIN + (n % perRow) * STAGGER_STEP_X + (row % 2) * (STAGGER_STEP_X / 2),
      y: Math.min(STAGGER_MARGIN + row * STAGGER_STEP_Y, CANVAS_HEIGHT - STAGGER_MARGIN),
      placed: false,
    };
  });
}

/** A canvas position clamped into the canvas and rounded to whole pixels. */
export function clampToCanvas(x: number, y: number): { x: number; y: number } {
  return {
    x: Math.round(Math.min(Math.max(x, 0), CANVAS_WIDTH)),
    y: Math.round(Math.min(Math.max(y, 0), CANVAS_HEIGHT)),
  };
}
