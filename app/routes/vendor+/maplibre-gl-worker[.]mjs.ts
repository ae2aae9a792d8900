import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { Readable } from "node:stream";

// GET /vendor/maplibre-gl-worker.mjs — MapLibre's worker, served from the installed package (the
// map sets it with setWorkerUrl: a bundled maplibre cannot find its worker by itself). Served from
// node_modules rather than copied into public/, so dev, build, tests and the demo all have it and
// it always matches the library in the bundle. ?v= is the library version: such URLs are immutable.
const file = createRequire(import.meta.url).resolve("maplibre-gl/dist/maplibre-gl-worker.mjs");
const version = (createRequire(import.meta.url)("maplibre-gl/package.json") as { version: string }).version;

export async function loader({ request }: { request: Request }) {
  const { size } = await stat(file);
  const versioned = new URL(request.url).searchParams.get("v") === version;
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Content-Length": String(size),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    },
  });
}
