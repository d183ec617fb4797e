// A static server for dist/ with the rules a static host is given, so deep
// links such as /lab/lateness?profile=mobile load the app: a path with a
// page drawn ahead of time gets it (at/<path>.html, src/ui/ahead.rs), any
// other /scenarios and below scenarios.html, /dates dates.html, /class
// class.html, /lab/lateness lateness.html, /lab/state-write
// state-write.html, /lab/backfill backfill.html, every other extensionless
// path index.html; and each drawn page with the headers the build's
// `_headers` gives its path (a Link that starts its wasm).
// Used by `scripts/run` and by the browser tests.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/// The file under `dist` a URL path names, or null when the path would
/// leave it. Compares whole path components: `/..%2fdist-secret/x` must not
/// reach a sibling folder whose name merely starts with `dist`.
export function inside(dist, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(dist, '.' + sep + path);
  const rel = relative(dist, file);
  if (rel === '') return file;
  if (isAbsolute(rel) || rel === '..' || rel.startsWith('..' + sep)) return null;
  return file;
}

// Compressed as a static host or CDN serves them: the brotli copy
// scripts/build wrote when the browser accepts brotli (as every current
// browser does), else gzip, compressed once per file version. The wasm is
// a third of its size gzipped and less with brotli, which is what a phone
// on a slow network waits for.
const COMPRESSIBLE = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json']);
const gzipped = new Map();

function gzipOnce(file, mtime, body) {
  const key = `${file}:${mtime}`;
  if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
  return gzipped.get(key);
}

/// The page that loads the part of the site a path belongs to, as
/// src/bundles.rs splits it.
export function page(path) {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '/scenarios' || trimmed.startsWith('/scenarios/')) return 'scenarios.html';
  if (trimmed === '/lab/lateness') return 'lateness.html';
  if (trimmed === '/lab/state-write') return 'state-write.html';
  if (trimmed === '/lab/backfill') return 'backfill.html';
  if (trimmed === '/class') return 'class.html';
  return trimmed === '/dates' ? 'dates.html' : 'index.html';
}

/// The page drawn ahead of time for a path, as src/ui/ahead.rs names it
/// (it may not exist: then the part's page serves).
export function drawn(path) {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? 'at/index.html' : `at${trimmed}.html`;
}

/// The rules of a `_headers` file as the build writes it
/// (src/ui/ahead.rs): each path on a line of its own, its headers
/// indented below it. Path to [name, value] pairs; exact paths only (the
/// build writes no pattern).
export function parseHeaders(text) {
  const rules = new Map();
  let path = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      path = line.trim();
      if (!rules.has(path)) rules.set(path, []);
      continue;
    }
    const at = line.indexOf(':');
    if (path === null || at < 0) throw new Error(`_headers: a line outside a rule: ${line}`);
    rules.get(path).push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
  }
  return rules;
}

const headerRules = new Map();

/// The build's `_headers` rules, read once per version of the file (none
/// when it has none). A file the server cannot read is said once, and the
/// pages go out without its headers rather than not at all.
async function rulesOf(dist) {
  const file = join(dist, '_headers');
  const info = await stat(file).catch(() => null);
  if (!info) return new Map();
  const key = `${file}:${info.mtimeMs}:${info.size}`;
  if (!headerRules.has(key)) {
    try {
      headerRules.set(key, parseHeaders(await readFile(file, 'utf8')));
    } catch (e) {
      console.error(`serve: ${file} is not read, no page is sent its headers: ${e.message}`);
      headerRules.set(key, new Map());
    }
  }
  return headerRules.get(key);
}

const copies = new Map();

/// `file`'s brotli copy when there is one and it holds exactly `body` (a
/// file changed after the build, as the offline test's new sw.js is, has a
/// stale copy); checked once per version of the two.
async function brotliCopy(file, body) {
  const [plain, packed] = await Promise.all([stat(file), stat(file + '.br').catch(() => null)]);
  if (packed === null) return null;
  const key = `${file}:${plain.mtimeMs}:${plain.size}:${packed.mtimeMs}:${packed.size}`;
  if (!copies.has(key)) {
    const copy = await readFile(file + '.br');
    let same = false;
    try {
      same = brotliDecompressSync(copy).equals(body);
    } catch {
      same = false;
    }
    copies.set(key, same ? copy : null);
  }
  return copies.get(key);
}

/// The longest request head the server reads (Node's own default is
/// 16 KB). The app makes no link over 8 KB (crates/core/src/address.rs: one that
/// arrives is shown with a note), but a link made elsewhere can be longer,
/// and the page that explains it is better than the browser's own error.
export const MAX_HEAD = 64 * 1024;

const WHY = {
  400: ['The request could not be read', 'The server could not read this request. Try the address again, or start from the <a href="/">overview</a>.'],
  403: ['That address is outside the lab', 'It names a file outside the lab&#39;s own folder, which this server never serves. Start from the <a href="/">overview</a>.'],
  404: ['Nothing at that address', 'The lab has no file at this address. Start from the <a href="/">overview</a>.'],
  431: ['That link is too long', `The request (its address and headers) is over ${MAX_HEAD / 1024} KB, more than this server reads, so the lab cannot open it. The lab&#39;s own links are under 8 KB: ask for a new link, or share the design as a file (Save, share, import).`],
};

/// A page saying why a request was refused: the browser shows it instead
/// of an empty error.
export function refusal(status) {
  const [title, why] = WHY[status] ?? WHY[400];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Partition Lab</title></head><body><main><h1>${title}</h1><p>${why}</p><p>(HTTP ${status})</p></main></body></html>`;
}

function refuse(res, status) {
  res.writeHead(status, { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' }).end(refusal(status));
}

/// `brotli: false` serves gzip only, as a host without brotli does;
/// `ahead: false` serves the halves' pages alone, as a host without the
/// rules for the pages drawn ahead of time does (nor their headers).
export function startServer({ root, port = 0, host = '127.0.0.1', brotli = true, ahead = true }) {
  const dist = resolve(root);
  const server = createServer({ maxHeaderSize: MAX_HEAD }, async (req, res) => {
    try {
      let file = inside(dist, new URL(req.url, 'http://x').pathname);
      if (file === null) {
        refuse(res, 403);
        return;
      }
      const info = await stat(file).catch(() => null);
      // A deep link (no extension) gets the app; a missing asset is a 404,
      // so a broken build cannot hide behind the index page.
      if (!info && extname(file)) {
        refuse(res, 404);
        return;
      }
      if (!info || info.isDirectory() || !extname(file)) {
        const path = new URL(req.url, 'http://x').pathname;
        const drawnFile = ahead ? inside(dist, '/' + drawn(path)) : null;
        const found = drawnFile && (await stat(drawnFile).catch(() => null));
        file = found?.isFile() ? drawnFile : join(dist, page(path));
      }
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache', vary: 'accept-encoding' };
      // A host with the build's rules sends its headers too: a drawn
      // page's Link starts the page's wasm with the response.
      if (ahead) {
        for (const [name, value] of (await rulesOf(dist)).get(new URL(req.url, 'http://x').pathname) ?? []) {
          const key = name.toLowerCase();
          // A header named twice is sent with both values, as hosts do.
          headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
        }
      }
      const accepts = req.headers['accept-encoding'] ?? '';
      const copy = brotli && COMPRESSIBLE.has(extname(file)) && /\bbr\b/.test(accepts) ? await brotliCopy(file, body) : null;
      if (copy) {
        headers['content-encoding'] = 'br';
        res.writeHead(200, headers);
        res.end(copy);
        return;
      }
      if (COMPRESSIBLE.has(extname(file)) && /\bgzip\b/.test(accepts)) {
        const mtime = (await stat(file)).mtimeMs;
        headers['content-encoding'] = 'gzip';
        res.writeHead(200, headers);
        res.end(gzipOnce(file, mtime, body));
        return;
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      refuse(res, 404);
    }
  });
  // Requests Node refuses before any handler sees them (a head over
  // MAX_HEAD, a malformed request) get a page too, not an empty 431 or 400.
  server.on('clientError', (err, socket) => {
    if (!socket.writable) return;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = refusal(status);
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({ server, url: `http://${host}:${actual}` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? 'dist';
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await startServer({ root, port });
  console.log(`Partition Lab is being served at ${url}/  (Ctrl+C to stop)`);
}
