import { z } from "zod";
import { CANVAS_HEIGHT, CANVAS_WIDTH, MAX_MAP_ZOOM, MIN_MAP_ZOOM, parseLayoutPolygons, POLYGON_MESSAGES, type Polygon } from "~/lib/layout";

// The layout designer's and map's forms, shared by the pages (with and without JavaScript) and
// the API (PUT access_points/map/{id}, PUT venues/{id} layout fields). Numbers arrive as text and
// are read by conform's coercion; empty optional fields are undefined.

export const LAYOUT_MESSAGES = {
  lat: POLYGON_MESSAGES.latitude,
  lng: POLYGON_MESSAGES.longitude,
  latLngPair: "Give both latitude and longitude, or neither.",
  layoutX: `Layout X must be a number of pixels between 0 and ${CANVAS_WIDTH}.`,
  layoutY: `Layout Y must be a number of pixels between 0 and ${CANVAS_HEIGHT}.`,
  layoutPair: "Give both layout X and layout Y, or neither.",
  zoom: `Zoom must be a number between ${MIN_MAP_ZOOM} and ${MAX_MAP_ZOOM}.`,
  accessPoint: "Access point field is required.",
  zone: "Zone field is required.",
} as const;

const M = LAYOUT_MESSAGES;

function bounded(min: number, max: number, message: string) {
  return z.number({ required_error: message, invalid_type_error: message }).min(min, message).max(max, message);
}

export const latitude = bounded(-90, 90, M.lat);
export const longitude = bounded(-180, 180, M.lng);
export const layoutX = bounded(0, CANVAS_WIDTH, M.layoutX);
export const layoutY = bounded(0, CANVAS_HEIGHT, M.layoutY);
export const mapZoom = bounded(MIN_MAP_ZOOM, MAX_MAP_ZOOM, M.zoom);

const recordId = (message: string) =>
  z.number({ required_error: message, invalid_type_error: message }).int(message).positive(message).max(2_147_483_647, message);

/** Both of a pair or neither; the message goes on the field that is missing. */
function pairRefinement<A extends string, B extends string>(a: A, b: B, message: string) {
  return (value: Partial<Record<A | B, unknown>>, ctx: z.RefinementCtx) => {
    const hasA = value[a] !== undefined;
    const hasB = value[b] !== undefined;
    if (hasA !== hasB) ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: [hasA ? b : a] });
  };
}

// ---- Floor plan (layout designer)

/** One marker dropped on the floor plan (the enhanced designer posts one per drag). */
export const floorMoveSchema = z.object({ id: recordId(M.accessPoint), layout_x: layoutX, layout_y: layoutY });

const floorRow = z
  .object({ id: recordId(M.accessPoint), layout_x: layoutX.optional(), layout_y: layoutY.optional() })
  .superRefine(pairRefinement("layout_x", "layout_y", M.layoutPair));

/** The typed form: every access point's x and y; both empty takes the access point off the plan. */
export const floorPositionsSchema = z.object({ positions: z.array(floorRow).max(1000).default([]) });

// ---- Map

/** PUT access_points/map/{id}: where a marker was dropped. */
export const apMapPositionSchema = z.object({ lat: latitude, lng: longitude });

export const mapMoveSchema = apMapPositionSchema.extend({ id: recordId(M.accessPoint) });

const mapRow = z
  .object({ id: recordId(M.accessPoint), lat: latitude.optional(), lng: longitude.optional() })
  .superRefine(pairRefinement("lat", "lng", M.latLngPair));

export const mapPositionsSchema = z.object({ positions: z.array(mapRow).max(1000).default([]) });

/** A layout polygon posted as JSON text (a textarea, the map's Update Layout, the API). */
export const layoutPolygonField = z
  .string()
  .optional()
  .transform((text, ctx): Polygon[] | undefined => {
    if (text === undefined) return undefined;
    const parsed = parseLayoutPolygons(text);
    if (!parsed.ok) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
      return z.NEVER;
    }
    return parsed.polygons;
  });

/**
 * The venue's map: centre (lat, lng), zoom and layout polygon. Fields left out are left as they
 * are; an empty polygon text clears the polygon.
 */
export const venueMapSchema = z
  .object({ lat: latitude.optional(), lng: longitude.optional(), map_zoom: mapZoom.optional(), layout_polygon: layoutPolygonField })
  .superRefine(pairRefinement("lat", "lng", M.latLngPair));

export type VenueMapInput = z.output<typeof venueMapSchema>;

/** A new zone: the square's south-west corner. */
export const zoneSchema = z.object({ lat: latitude, lng: longitude });

export const removeZoneSchema = z.object({ zone_id: recordId(M.zone) });
