import { z } from "zod";
import { normaliseMac } from "~/lib/mac";
import { latitude, layoutX, layoutY, LAYOUT_MESSAGES, longitude } from "./layout";
import { optionalText, optionalUrl, requiredText, VENUE_MESSAGES } from "./venues";

// The access point (hotspot) form, create and edit, shared by the pages and the API
// (POST/PUT access_points: name, make, mac_address, serial_number, custom_splash_url,
// success_url, description, venue_id, lat, lng — plus layout_x/layout_y, the floor-plan spot).
// Required messages are the guide's, word for word (docs/guide/access-points.md#validation).

/** The makes the spec names, the other gateways Mlango serves (openNDS, UniFi), and the product's own. */
export const AP_MAKES = ["Meraki", "Mikrotik", "Cisco Controller", "Rukus", "openNDS", "UniFi", "Mlango"] as const;
export type ApMake = (typeof AP_MAKES)[number];

/** What a person reads: the spec stores the brand Ruckus as "Rukus", which stays the value. */
const MAKE_LABELS: Partial<Record<string, string>> = { Rukus: "Ruckus" };
export function makeLabel(make: string): string {
  return MAKE_LABELS[make] ?? make;
}
const LABELS = AP_MAKES.map(makeLabel);

export const ACCESS_POINT_MESSAGES = {
  nameRequired: "Name field is required.",
  makeRequired: "Make field is required.",
  macRequired: "Mac address field is required.",
  serialRequired: "Serial number field is required.",
  venueRequired: "Network field is required.",
  makeInvalid: `Choose one of ${LABELS.slice(0, -1).join(", ")} or ${LABELS[LABELS.length - 1]}.`,
  macInvalid: "Enter a MAC address such as aa:bb:cc:dd:ee:ff, AA-BB-CC-DD-EE-FF, aabb.ccdd.eeff or aabbccddeeff.",
  // Positions are checked as the layout designer and map check them (pixels of its canvas).
  latInvalid: LAYOUT_MESSAGES.lat,
  lngInvalid: LAYOUT_MESSAGES.lng,
  latLngPair: LAYOUT_MESSAGES.latLngPair,
  layoutXInvalid: LAYOUT_MESSAGES.layoutX,
  layoutYInvalid: LAYOUT_MESSAGES.layoutY,
  layoutPair: LAYOUT_MESSAGES.layoutPair,
  tooLong: VENUE_MESSAGES.tooLong,
} as const;

/** An optional position number (conform reads the text as a number; empty is null). */
const optional = (schema: z.ZodNumber) => schema.optional().transform((v) => v ?? null);

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
        // The brand's spelling is taken too, and stored as the spec's value.
        const make = AP_MAKES.find((m) => m.toLowerCase() === v.toLowerCase() || makeLabel(m).toLowerCase() === v.toLowerCase());
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
    lat: optional(latitude),
    lng: optional(longitude),
    layout_x: optional(layoutX),
    layout_y: optional(layoutY),
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
