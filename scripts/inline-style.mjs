// A step of scripts/build, after the pages are drawn ahead: each drawn page
// (at/**.html) carries the stylesheet inline, pinned by its hash in the
// page's Content-Security-Policy, instead of linking it. A drawn page
// cannot paint before its stylesheet has come; linked, that is one more
// round trip, over a phone's link shared with the wasm the page preloads
// (measured on the phone profile: painted 0.70 to 0.91 s linked, 0.52 to
// 0.61 s inline). The parts' own pages (the shells Trunk wrote, for
// addresses no page is drawn for) keep the link, and the service worker
// keeps the file for them.
//   node scripts/inline-style.mjs <built folder>
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function fail(message) {
  console.error(`inline-style: ${message}`);
  process.exit(1);
}

const digest = (algorithm, text) => createHash(algorithm).update(text, 'utf8').digest('base64');

/// The page with its one stylesheet link replaced by the sheet itself, and
/// the sheet's hash added to the policy's style-src.
export function inline(html, readSheet) {
  const links = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+\.css)" integrity="(sha384-[^"]+)"\s*\/?>/g)];
  if (links.length !== 1) throw new Error(`${links.length} stylesheet links, not one`);
  const [link, href, integrity] = links[0];
  const css = readSheet(href);
  // The sheet inlined is the one the page named (what the link's integrity
  // attribute guaranteed), and nothing in it can close the element early.
  if (`sha384-${digest('sha384', css)}` !== integrity) throw new Error(`${href} does not match the page's integrity hash`);
  if (/<\/style/i.test(css)) throw new Error(`${href} holds "</style"`);
  const policy = /style-src 'self'(?=[;"])/g;
  const found = html.match(policy) ?? [];
  if (found.length !== 1) throw new Error(`${found.length} "style-src 'self'" in the policy, not one`);
  // The meta policy governs only what follows it: the sheet must too.
  if (html.indexOf(found[0]) > html.indexOf(link)) throw new Error('the stylesheet comes before the policy');
  return html
    .replace(policy, `style-src 'self' 'sha256-${digest('sha256', css)}'`)
    .replace(link, () => `<style>${css}</style>`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2];
  if (!dist) fail('usage: node scripts/inline-style.mjs <built folder>');
  const pages = walk(join(dist, 'at')).filter((path) => path.endsWith('.html'));
  if (pages.length === 0) fail(`no drawn page in ${dist}/at`);
  const sheets = new Map();
  const readSheet = (href) => {
    if (!sheets.has(href)) sheets.set(href, readFileSync(join(dist, href), 'utf8'));
    return sheets.get(href);
  };
  let added = 0;
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    let out;
    try {
      out = inline(html, readSheet);
    } catch (e) {
      fail(`${page}: ${e.message}`);
    }
    added += out.length - html.length;
    writeFileSync(page, out);
  }
  console.log(`inline-style: the stylesheet inline in ${pages.length} drawn pages (${added} bytes before compression)`);
}
