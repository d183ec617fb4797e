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
function inline(html, readSheet) {
  const links = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+\.css)" integrity="(sha384-[^"]+)"\s*\/?>/g)];
  if (links.length !== 1) throw new Error(`${links.length} stylesheet links, not one`);
  const [link, href, integrity] = links[0];
  const css = readSheet(href);
  // The sheet inlined is the one the page named (what the link's integrity
  // attribute guaranteed), and nothing in it can close the element early.
  if (`sha384-${digest('sha384', css)}` !== integrity) throw new Error(`${href} does not match the page's integrity hash`);
  if (/<\/style/i.test(css)) throw new Error(`${href} holds "</style"`);
  // The browser hashes the element's text as parsed (line ends made LF, a
  // NUL replaced): a sheet holding either, or a byte-order mark, would be
  // blocked by its own hash.
  if (/[\r\0\uFEFF]/.test(css)) throw new Error(`${href} holds a carriage return, a NUL or a byte-order mark`);
  const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"\s*\/?>/g)];
  if (metas.length !== 1) throw new Error(`${metas.length} policies, not one`);
  const [meta, policy] = metas[0];
  const styles = policy.match(/(^|; *)style-src 'self'(?=;|$)/g) ?? [];
  if (styles.length !== 1) throw new Error(`the policy's style-src is not exactly 'self': ${policy}`);
  // The meta policy governs only what follows it: the sheet must too.
  if (metas[0].index > links[0].index) throw new Error('the stylesheet comes before the policy');
  const pinned = policy.replace(/(^|; *)style-src 'self'(?=;|$)/, (_, before) => `${before}style-src 'self' 'sha256-${digest('sha256', css)}'`);
  return html
    .replace(meta, () => meta.replace(policy, () => pinned))
    .replace(link, () => `<style>${css}</style>`);
}

function main() {
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

main();
