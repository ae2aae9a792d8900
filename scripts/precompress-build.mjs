// After `remix build` (npm run build): writes name.br and name.gz beside every script and stylesheet
// in public/build, compressed once at the best settings, for server/precompressed.mjs to send. Brotli
// at quality 11 is about 15 % smaller than the quality 4 a response compressed on the fly gets, but
// far too slow to run per request. Files whose compressed copies are already newer are skipped.
//   node scripts/precompress-build.mjs [dir]   (default public/build)
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const root = path.resolve(process.argv[2] ?? "public/build");
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json"]);

async function* files(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name))) yield full;
  }
}

async function newer(copy, than) {
  try {
    return (await fs.stat(copy)).mtimeMs >= than;
  } catch {
    return false;
  }
}

async function compress(file) {
  const { mtimeMs, size } = await fs.stat(file);
  if (size < 1024 || ((await newer(`${file}.br`, mtimeMs)) && (await newer(`${file}.gz`, mtimeMs)))) return [0, 0];
  const body = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip(body, { level: 9 }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  return [body.length, br.length];
}

const started = Date.now();
const queue = [];
for await (const file of files(root)) queue.push(file);
let raw = 0;
let packed = 0;
let done = 0;
// zlib's work runs on libuv's thread pool (4 threads by default).
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const [a, b] = await compress(file);
      raw += a;
      packed += b;
      if (a) done++;
    }
  }),
);
console.log(
  `precompressed ${done} files in ${path.relative(process.cwd(), root)}: ${(raw / 1024).toFixed(0)} KB → ${(packed / 1024).toFixed(0)} KB brotli, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
