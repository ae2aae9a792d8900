import { z } from "zod";
import { normaliseMac } from "~/lib/mac";
import { optionalText, optionalUrl, requiredText, VENUE_MESSAGES } from "./venues";

// The access point (hotspot) form, create and edit, shared by the pages and the API
// (POST/PUT access_points: name, make, mac_address, serial_number, custom_splash_url,
// success_url, description, venue_id, lat, lng — plus layout_x/layout_y, the floor-plan spot).
// Required messages are the spec's, word for word (spec 2 §5).

/** The makes the spec names, and the product's own. */
export const AP_MAKES = ["Meraki", "Mikrotik", "Cisco Controller", "Rukus", "Mlango"] as const;
export type ApMake = (typeof AP_MAKES)[number];

/** The floor-plan canvas (spec 2 §9: width 1310, default height 700); positions are its pixels. */
export const LAYOUT_CANVAS = { width: 1310, height: 700 } as const;

export const ACCESS_POINT_MESSAGES = {
  nameRequired: "Name field is required.",
  makeRequired: "Make field is required.",
  macRequired: "Mac address field is required.",
  serialRequired: "Serial number field is required.",
  venueRequired: "Network field is required.",
  makeInvalid: `Choose one of ${AP_MAKES.slice(0, -1).join(", ")} or ${AP_MAKES[AP_MAKES.length - 1]}.`,
  macInvalid: "Enter a MAC address such as aa:bb:cc:dd:ee:ff, AA-BB-CC-DD-EE-FF, aabb.ccdd.eeff or aabbccddeeff.",
  latInvalid: "Latitude must be a number between -90 and 90.",
  lngInvalid: "Longitude must be a number between -180 and 180.",
  latLngPair: "Give both latitude and longitude, or neither.",
  layoutXInvalid: `Layout X must be a number of pixels between 0 and ${LAYOUT_CANVAS.width}.`,
  layoutYInvalid: `Layout Y must be a number of pixels between 0 and ${LAYOUT_CANVAS.height}.`,
  layoutPair: "Give both layout X and layout Y, or neither.",
  tooLong: VENUE_MESSAGES.tooLong,
} as const;

/** An optional number within [min, max]: empty becomes null, anything else unreadable gets `message`. */
function optionalNumber(min: number, max: number, message: string) {
  return z
    .string()
    .trim()
    .max(40, message)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const n = Number(v);
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(v) || !Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
      return n;
    });
}

const M = ACCESS_POINT_MESSAGES;

export const accessPointSchema = z
  .object({
    name: requiredText(M.nameRequired, 150),
    make: z
      .string({ required_error: M.makeRequired, invalid_type_error: M.makeRequired })
      .trim()
      .min(1, M.makeRequired)
      .transform((v, ctx) => {
        // Case-insensitive, so "mikrotik" from a script is Mikrotik.
        const make = AP_MAKES.find((m) => m.toLowerCase() === v.toLowerCase());
        if (!make) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.makeInvalid });
          return z.NEVER;
        }
        return make;
      }),
    mac_address: requiredText(M.macRequired, 40).transform((v, ctx) => {
      const mac = normaliseMac(v);
      if (!mac) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.macInvalid });
        return z.NEVER;
      }
      return mac;
    }),
    serial_number: requiredText(M.serialRequired, 100),
    custom_splash_url: optionalUrl(),
    success_url: optionalUrl(),
    description: optionalText(2000),
    // The network: a malformed or foreign id is a 404 in the service, like any other id.
    venue_id: requiredText(M.venueRequired, 20),
    lat: optionalNumber(-90, 90, M.latInvalid),
    lng: optionalNumber(-180, 180, M.lngInvalid),
    layout_x: optionalNumber(0, LAYOUT_CANVAS.width, M.layoutXInvalid),
    layout_y: optionalNumber(0, LAYOUT_CANVAS.height, M.layoutYInvalid),
  })
  .superRefine((value, ctx) => {
    // A position is a pair: one half alone cannot be placed (checked only when both halves were readable).
    const pairs = [
      ["lat", "lng", M.latLngPair],
      ["layout_x", "layout_y", M.layoutPair],
    ] as const;
    for (const [a, b, message] of pairs) {
      const [x, y] = [value[a] as unknown, value[b] as unknown];
      const readable = (v: unknown) => v === null || typeof v === "number";
      if (readable(x) && readable(y) && (x === null) !== (y === null)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [x === null ? a : b], message });
      }
    }
  });

export type AccessPointInput = z.infer<typeof accessPointSchema>;
