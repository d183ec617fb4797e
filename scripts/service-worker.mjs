// The last step of scripts/build, over the merged build of every part: writes sw.js into it
// from src/offline/sw.template.js, listing every file of the build and a
// version that changes whenever any of their bytes do.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const staging = process.argv[2];
if (!staging) {
  console.error('usage: node scripts/service-worker.mjs <built folder>');
  process.exit(1);
}
const template = readFileSync(fileURLToPath(new URL('../src/offline/sw.template.js', import.meta.url)), 'utf8');

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const files = walk(staging)
  .map((path) => '/' + relative(staging, path).split(sep).join('/'))
  // Brotli copies are the server's business: the browser asks for NAME;
  // _redirects and _headers are the host's (its rules), never a page's.
  .filter((url) => url !== '/sw.js' && url !== '/_redirects' && url !== '/_headers' && !url.endsWith('.br'));
for (const page of ['/index.html', '/state-write.html', '/backfill.html', '/lateness.html', '/scenarios.html', '/dates.html', '/class.html']) {
  if (!files.includes(page)) {
    console.error(`service-worker: the build has no ${page}`);
    process.exit(1);
  }
}
const hash = createHash('sha256');
for (const url of files) hash.update(url).update(readFileSync(join(staging, url)));
const version = hash.digest('hex').slice(0, 16);
const out = template.replace('__VERSION__', version).replace('__FILES__', JSON.stringify(files));
if (out.includes('__VERSION__') || out.includes('__FILES__')) {
  console.error('service-worker: the template has a placeholder more than once');
  process.exit(1);
}
writeFileSync(join(staging, 'sw.js'), out);
console.log(`service-worker: ${files.length} files, version ${version}`);
