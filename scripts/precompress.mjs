// The very last step of scripts/build: writes a brotli copy (NAME.br) beside
// every text and wasm file of the build, for hosts that serve precompressed
// files (nginx's brotli_static, Caddy's `precompressed`) and for the test
// server. Brotli at its best setting takes a fifth off the gzipped wasm,
// and the wasm is what a phone on a slow network waits for; compressing at
// build time means no server spends seconds of CPU on it per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

export const COMPRESSIBLE = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json']);

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node scripts/precompress.mjs <built folder>');
  process.exit(1);
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let before = 0;
let after = 0;
for (const path of walk(dist).filter((p) => COMPRESSIBLE.has(extname(p)))) {
  const body = readFileSync(path);
  const packed = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  writeFileSync(path + '.br', packed);
  before += body.length;
  after += packed.length;
}
console.log(`precompress: ${before} bytes to ${after} with brotli`);
