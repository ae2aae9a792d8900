// Browser-test fixtures of the layout designer and map: networks and access points written into
// the server's database, floor-plan images made on the fly, and reads of what the pages saved.
import { deflateSync } from "node:zlib";
import { expect } from "./fixtures";

const { db } = await import("~/db/db.server");
const { buildAccessPoint, buildVenue } = await import("~/tools/factories.server");

export async function makeVenue(organizationId: number, name = "Java House") {
  return db.insertInto("venues").values(buildVenue(organizationId, { name })).returning(["id", "name"]).executeTakeFirstOrThrow();
}

export async function makeAccessPoint(organizationId: number, venueId: number, name: string) {
  return db
    .insertInto("access_points")
    .values(buildAccessPoint(organizationId, venueId, { name }))
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

export async function deleteAccessPoint(id: number) {
  await db.deleteFrom("access_points").where("id", "=", id).execute();
}

export function accessPointPosition(id: number) {
  return db.selectFrom("access_points").select(["layout_x", "layout_y", "lat", "lng"]).where("id", "=", id).executeTakeFirstOrThrow();
}

export function venueMap(id: number) {
  return db.selectFrom("venues").select(["lat", "lng", "map_zoom", "layout_polygon"]).where("id", "=", id).executeTakeFirstOrThrow();
}

/** Waits until the saved position of an access point satisfies `check`. */
export async function expectSavedPosition(id: number, check: (p: Awaited<ReturnType<typeof accessPointPosition>>) => boolean) {
  await expect.poll(async () => check(await accessPointPosition(id)), { timeout: 10_000 }).toBe(true);
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of the canvas size: a pale floor with darker walls, so it is visibly an image. */
export function floorPlanPng(width = 1310, height = 700): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const wall = y < 8 || y >= height - 8 || y === Math.floor(height / 2);
    for (let x = 0; x < width; x++) {
      const shade = wall || x < 8 || x >= width - 8 ? 90 : 235;
      row.set([shade, shade, shade + 10 > 255 ? 255 : shade + 10], 1 + x * 3);
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
