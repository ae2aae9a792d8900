import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { FLOOR_PLAN_TYPES, imageContentType, sniffImage } from "~/lib/image-type";
import {
  CANVAS_HEIGHT,
  CANVAS_WIDTH,
  floorPositions,
  MAX_POLYGON_POINTS,
  MAX_POLYGONS,
  parseLayoutPolygons,
  POLYGON_MESSAGES,
  storedPolygons,
  zoneSquare,
} from "~/lib/layout";
import { floorPositionsSchema, LAYOUT_MESSAGES, venueMapSchema } from "~/lib/schemas/layout";

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new TextEncoder().encode(text);

describe("sniffImage", () => {
  it("recognises png, jpeg and webp by their first bytes", () => {
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe("png");
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("jpeg");
    expect(sniffImage(new Uint8Array([...ascii("RIFF"), 0x24, 0, 0, 0, ...ascii("WEBPVP8 ")]))).toBe("webp");
    // GIF is recognised for splash page images; floor plans refuse it (FLOOR_PLAN_TYPES).
    expect(sniffImage(ascii("GIF89a......"))).toBe("gif");
    expect(FLOOR_PLAN_TYPES).not.toContain("gif");
  });

  it("refuses text, other images and truncated signatures whatever the file is called", () => {
    expect(sniffImage(ascii("this is not an image, even if named plan.png"))).toBeNull();
    expect(sniffImage(ascii("BM6\u0000\u0000\u0000......"))).toBeNull(); // BMP
    expect(sniffImage(ascii('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImage(new Uint8Array([...ascii("RIFF"), 0x24, 0, 0, 0, ...ascii("WAVEfmt ")]))).toBeNull();
    expect(sniffImage(bytes(0x89, 0x50, 0x4e))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });

  it("maps stored keys to their content type, and nothing else", () => {
    expect(imageContentType("floor-plans/1/venue-2-ab.webp")).toBe("image/webp");
    expect(imageContentType("floor-plans/1/venue-2-ab.jpeg")).toBe("image/jpeg");
    expect(imageContentType("x.constructor")).toBeNull();
    expect(imageContentType("x.html")).toBeNull();
  });
});

describe("parseLayoutPolygons", () => {
  const square = [
    { lat: -1.28, lng: 36.81 },
    { lat: -1.27, lng: 36.81 },
    { lat: -1.27, lng: 36.82 },
  ];

  it("reads a list of polygons and keeps only lat and lng", () => {
    const result = parseLayoutPolygons(JSON.stringify([square.map((p) => ({ ...p, note: "x" }))]));
    expect(result).toEqual({ ok: true, polygons: [square] });
  });

  it("accepts a single polygon and reads empty text as no polygon", () => {
    expect(parseLayoutPolygons(JSON.stringify(square))).toEqual({ ok: true, polygons: [square] });
    expect(parseLayoutPolygons("  ")).toEqual({ ok: true, polygons: [] });
    expect(parseLayoutPolygons("[]")).toEqual({ ok: true, polygons: [] });
  });

  it("refuses malformed JSON, wrong shapes and out-of-range points with a message", () => {
    expect(parseLayoutPolygons("{not json")).toEqual({ ok: false, message: POLYGON_MESSAGES.shape });
    expect(parseLayoutPolygons('{"lat": 1}')).toEqual({ ok: false, message: POLYGON_MESSAGES.shape });
    expect(parseLayoutPolygons("[[1, 2, 3]]")).toEqual({ ok: false, message: POLYGON_MESSAGES.shape });
    expect(parseLayoutPolygons(JSON.stringify([square.slice(0, 2)]))).toEqual({ ok: false, message: POLYGON_MESSAGES.tooFewPoints });
    expect(parseLayoutPolygons(JSON.stringify([[...square.slice(0, 2), { lat: 91, lng: 0 }]]))).toEqual({
      ok: false,
      message: POLYGON_MESSAGES.latitude,
    });
    expect(parseLayoutPolygons(JSON.stringify([[...square.slice(0, 2), { lat: 0, lng: "36" }]]))).toEqual({
      ok: false,
      message: POLYGON_MESSAGES.longitude,
    });
  });

  it("bounds the number of polygons and points", () => {
    expect(parseLayoutPolygons(JSON.stringify(Array(MAX_POLYGONS + 1).fill(square)))).toEqual({
      ok: false,
      message: POLYGON_MESSAGES.tooMany,
    });
    const many = Array.from({ length: MAX_POLYGON_POINTS + 1 }, (_, i) => ({ lat: 0, lng: i / 1000 }));
    expect(parseLayoutPolygons(JSON.stringify([many]))).toEqual({ ok: false, message: POLYGON_MESSAGES.tooManyPoints });
    expect(parseLayoutPolygons(" ".repeat(300_000))).toEqual({ ok: false, message: POLYGON_MESSAGES.tooLong });
  });

  it("reads unreadable stored JSON as no polygon rather than failing the page", () => {
    expect(storedPolygons("garbage")).toEqual([]);
    expect(storedPolygons(null)).toEqual([]);
  });
});

describe("zoneSquare", () => {
  it("is the 0.001 degree square north-east of its corner", () => {
    expect(zoneSquare({ lat: -1.2865, lng: 36.8172 })).toEqual([
      { lat: -1.2865, lng: 36.8172 },
      { lat: -1.2855, lng: 36.8172 },
      { lat: -1.2855, lng: 36.8182 },
      { lat: -1.2865, lng: 36.8182 },
    ]);
  });
  it("stays on the map at its edges", () => {
    const square = zoneSquare({ lat: 90, lng: 180 });
    expect(Math.max(...square.map((p) => p.lat))).toBeLessThanOrEqual(90);
    expect(Math.max(...square.map((p) => p.lng))).toBeLessThanOrEqual(180);
  });
});

describe("floorPositions", () => {
  it("keeps saved positions and staggers the others inside the canvas without overlaps", () => {
    const aps = [{ layout_x: 500, layout_y: 300 }, ...Array.from({ length: 30 }, () => ({ layout_x: null, layout_y: null }))];
    const positions = floorPositions(aps);
    expect(positions[0]).toEqual({ x: 500, y: 300, placed: true });
    const staggered = positions.slice(1);
    expect(staggered.every((p) => !p.placed && p.x >= 0 && p.x <= CANVAS_WIDTH && p.y >= 0 && p.y <= CANVAS_HEIGHT)).toBe(true);
    expect(new Set(staggered.map((p) => `${p.x},${p.y}`)).size).toBe(staggered.length);
  });
});

describe("layout forms", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(entries)) data.append(k, v);
    return data;
  };

  it("reads typed floor positions, empty pairs as unplaced, and refuses half pairs and out-of-canvas values", () => {
    const ok = parseWithZod(
      form({ "positions[0].id": "4", "positions[0].layout_x": "12.5", "positions[0].layout_y": "700", "positions[1].id": "5" }),
      {
        schema: floorPositionsSchema,
      },
    );
    expect(ok.status === "success" && ok.value.positions).toEqual([{ id: 4, layout_x: 12.5, layout_y: 700 }, { id: 5 }]);
    const half = parseWithZod(form({ "positions[0].id": "4", "positions[0].layout_x": "12" }), { schema: floorPositionsSchema });
    expect(half.status === "error" && half.error?.["positions[0].layout_y"]).toEqual([LAYOUT_MESSAGES.layoutPair]);
    const outside = parseWithZod(form({ "positions[0].id": "4", "positions[0].layout_x": "1311", "positions[0].layout_y": "x" }), {
      schema: floorPositionsSchema,
    });
    expect(outside.status === "error" && outside.error).toMatchObject({
      "positions[0].layout_x": [LAYOUT_MESSAGES.layoutX],
      "positions[0].layout_y": [LAYOUT_MESSAGES.layoutY],
    });
  });

  it("validates the venue map fields and its polygon", () => {
    const ok = parseWithZod(form({ lat: "-1.28", lng: "36.8", map_zoom: "19", layout_polygon: "[]" }), { schema: venueMapSchema });
    expect(ok.status === "success" && ok.value).toEqual({ lat: -1.28, lng: 36.8, map_zoom: 19, layout_polygon: [] });
    const bad = parseWithZod(form({ lat: "-100", map_zoom: "30", layout_polygon: "[[{}]]" }), { schema: venueMapSchema });
    expect(bad.status === "error" && bad.error).toMatchObject({
      lat: [LAYOUT_MESSAGES.lat],
      map_zoom: [LAYOUT_MESSAGES.zoom],
      layout_polygon: [POLYGON_MESSAGES.tooFewPoints],
    });
  });
});

describe("MAP_STYLE_URL", () => {
  it("is optional, and when set must be an http(s) URL or a path on this server", () => {
    expect(parseEnv({}).MAP_STYLE_URL).toBeUndefined();
    expect(parseEnv({ MAP_STYLE_URL: "" }).MAP_STYLE_URL).toBeUndefined();
    expect(parseEnv({ MAP_STYLE_URL: "/styles/plain.json" }).MAP_STYLE_URL).toBe("/styles/plain.json");
    expect(parseEnv({ MAP_STYLE_URL: "https://tiles.example.com/style.json" }).MAP_STYLE_URL).toBe("https://tiles.example.com/style.json");
    expect(() => parseEnv({ MAP_STYLE_URL: "javascript:alert(1)" })).toThrow(/MAP_STYLE_URL/);
  });
});
