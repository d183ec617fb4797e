// Trunk post_build hook: pins the loader script Trunk writes inline into
// the built index.html by its hash in the Content-Security-Policy, so the
// policy can forbid every other inline script. The hash is of the exact
// text between <script ...> and </script>, as the browser computes it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PLACEHOLDER = "'sha256-LOADER'";
const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('csp-hash: TRUNK_STAGING_DIR is not set (run me as a Trunk hook)');
  process.exit(1);
}
// One page per part of the site (index.html, state-write.html,
// backfill.html, lateness.html, scenarios.html, dates.html or class.html).
const pages = readdirSync(staging).filter((name) => name.endsWith('.html'));
if (pages.length === 0) {
  console.error('csp-hash: the build has no HTML page');
  process.exit(1);
}
for (const page of pages) pin(join(staging, page));

function pin(file) {
  const html = readFileSync(file, 'utf8');
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  if (inline.length === 0) {
    console.error(`csp-hash: no inline script found in ${file}`);
    process.exit(1);
  }
  if (html.split(PLACEHOLDER).length !== 2) {
    console.error(`csp-hash: ${file} should hold ${PLACEHOLDER} exactly once, in its CSP`);
    process.exit(1);
  }
  const hashes = inline
    .map((text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`)
    .join(' ');
  writeFileSync(file, html.replace(PLACEHOLDER, hashes));
  console.log(`csp-hash: pinned ${inline.length} inline script(s) in ${file}: ${hashes}`);
}
