// The local static server never serves a file outside dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inside, parseHeaders, startServer } from './serve.mjs';

test('paths that climb out of dist are refused, whole components compared', async () => {
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  const dist = join(base, 'dist');
  await mkdir(dist);
  await mkdir(join(base, 'dist-secret'));
  await writeFile(join(dist, 'index.html'), '<h1>app</h1>');
  await writeFile(join(dist, 'app.js'), 'ok');
  await writeFile(join(base, 'dist-secret', 'x'), 'SECRET');
  await writeFile(join(base, 'top.txt'), 'SECRET');
  assert.equal(inside(dist, '/app.js'), join(dist, 'app.js'));
  for (const bad of ['/..%2fdist-secret/x', '/../dist-secret/x', '/%2e%2e/top.txt', '/%00', '/%E0%A4%A']) {
    assert.equal(inside(dist, bad), null, bad);
  }
  const { server, url } = await startServer({ root: dist });
  try {
    for (const path of ['/..%2fdist-secret/x', '/%2e%2e%2ftop.txt', '/..%2f..%2fetc%2fpasswd']) {
      const res = await fetch(url + path);
      const body = await res.text();
      assert.ok(!body.includes('SECRET'), `${path} served a file outside dist`);
    }
    assert.equal(await (await fetch(url + '/app.js')).text(), 'ok');
    assert.match(await (await fetch(url + '/teach')).text(), /app/, 'deep links fall back to the index');
  } finally {
    server.close();
    await rm(base, { recursive: true, force: true });
  }
});

test('text and wasm go out gzipped to a client that asks, as a static host sends them', async () => {
  const { gunzipSync } = await import('node:zlib');
  const { get } = await import('node:http');
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  await writeFile(join(base, 'index.html'), '<h1>app</h1>');
  await writeFile(join(base, 'app.js'), 'console.log("ok");'.repeat(50));
  const { server, url } = await startServer({ root: base });
  const raw = (path, encoding) => new Promise((ok, fail) => {
    get(url + path, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', fail);
  });
  try {
    const zipped = await raw('/app.js', 'gzip, deflate, br');
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.body).toString(), 'console.log("ok");'.repeat(50));
    assert.ok(zipped.body.length < 200, `${zipped.body.length} bytes`);
    const plain = await raw('/app.js');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), 'console.log("ok");'.repeat(50));
  } finally {
    server.close();
    await rm(base, { recursive: true, force: true });
  }
});

test('the build\'s brotli copy goes to a client that accepts brotli, gzip to the rest, and a stale copy never', async () => {
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const { get } = await import('node:http');
  const { execFileSync } = await import('node:child_process');
  const { utimes } = await import('node:fs/promises');
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  const text = 'console.log("ok");'.repeat(50);
  await writeFile(join(base, 'index.html'), '<h1>app</h1>');
  await writeFile(join(base, 'scenarios.html'), '<h1>scenarios</h1>'.repeat(10));
  await writeFile(join(base, 'app.js'), text);
  execFileSync(process.execPath, [new URL('../../scripts/precompress.mjs', import.meta.url).pathname, base]);
  const raw = (url, path, encoding) => new Promise((ok, fail) => {
    get(url + path, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', fail);
  });
  const { server, url } = await startServer({ root: base });
  const gzipOnly = await startServer({ root: base, brotli: false });
  try {
    const packed = await raw(url, '/app.js', 'gzip, deflate, br, zstd');
    assert.equal(packed.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(packed.body).toString(), text);
    assert.match(packed.headers.vary, /accept-encoding/);
    // A deep link gets its page's copy too.
    const deep = await raw(url, '/scenarios/3', 'gzip, br');
    assert.equal(deep.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(deep.body).toString(), '<h1>scenarios</h1>'.repeat(10));
    const zipped = await raw(url, '/app.js', 'gzip');
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.body).toString(), text);
    const host = await raw(gzipOnly.url, '/app.js', 'gzip, br');
    assert.equal(host.headers['content-encoding'], 'gzip', 'a host without brotli');
    // A file changed after its copy was written is served from itself,
    // whatever the clocks say.
    await writeFile(join(base, 'app.js'), 'changed();'.repeat(40));
    const earlier = new Date(Date.now() - 60000);
    await utimes(join(base, 'app.js'), earlier, earlier);
    const fresh = await raw(url, '/app.js', 'br, gzip');
    assert.equal(fresh.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(fresh.body).toString(), 'changed();'.repeat(40));
  } finally {
    server.close();
    gzipOnly.server.close();
    await rm(base, { recursive: true, force: true });
  }
});

test('a long link is served, and every refusal is a page that says why', async () => {
  const { MAX_HEAD } = await import('./serve.mjs');
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  await writeFile(join(base, 'state-write.html'), '<h1>app</h1>');
  const { server, url } = await startServer({ root: base });
  try {
    // 20 KB: past Node's own 16 KB limit, which answered an empty 431.
    const long = await fetch(`${url}/lab/state-write?predict=${'watermark_overwrite,'.repeat(1000)}`);
    assert.equal(long.status, 200);
    assert.match(await long.text(), /app/);
    const over = await fetch(`${url}/lab/state-write?predict=${'x'.repeat(MAX_HEAD + 1)}`);
    assert.equal(over.status, 431);
    assert.match(over.headers.get('content-type'), /text\/html/);
    assert.match(await over.text(), /<h1>That link is too long<\/h1>.*is over 64 KB/s);
    const missing = await fetch(`${url}/nothing.js`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /<h1>Nothing at that address<\/h1>/);
    const outside = await fetch(`${url}/..%2f..%2fetc%2fpasswd`);
    assert.equal(outside.status, 403);
    assert.match(await outside.text(), /<h1>That address is outside the lab<\/h1>/);
  } finally {
    server.close();
    await rm(base, { recursive: true, force: true });
  }
});

test('a drawn page goes out with the headers the build\'s _headers gives its path, and only from a host with the build\'s rules', async () => {
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  await mkdir(join(base, 'at', 'lab'), { recursive: true });
  await writeFile(join(base, 'index.html'), '<h1>app</h1>');
  await writeFile(join(base, 'lateness.html'), '<h1>lab</h1>');
  await writeFile(join(base, 'at', 'lab', 'lateness.html'), '<h1>drawn lab</h1>');
  await writeFile(join(base, '_headers'), '# the build\'s\n/lab/lateness\n  Link: </l_bg.wasm>; rel=preload; as=fetch\n\n/lab/lateness/\n  Link: </l_bg.wasm>; rel=preload; as=fetch\n');
  const withRules = await startServer({ root: base });
  const without = await startServer({ root: base, ahead: false });
  try {
    for (const path of ['/lab/lateness', '/lab/lateness/', '/lab/lateness?lateness=3']) {
      const res = await fetch(withRules.url + path);
      assert.equal(res.headers.get('link'), '</l_bg.wasm>; rel=preload; as=fetch', path);
      assert.equal(await res.text(), '<h1>drawn lab</h1>', path);
    }
    assert.equal((await fetch(withRules.url + '/teach')).headers.get('link'), null);
    const bare = await fetch(without.url + '/lab/lateness');
    assert.equal(bare.headers.get('link'), null);
    assert.equal(await bare.text(), '<h1>lab</h1>');
  } finally {
    withRules.server.close();
    without.server.close();
    await rm(base, { recursive: true, force: true });
  }
  assert.deepEqual([...parseHeaders('/a\n  X-One: 1\n  X-Two: a: b\n/b\n')], [['/a', [['X-One', '1'], ['X-Two', 'a: b']]], ['/b', []]]);
  assert.throws(() => parseHeaders('  X-One: 1\n'), /outside a rule/);
});

test('a _headers file the server cannot read leaves the pages without its headers, and every file still served; a header named twice goes out with both values', async () => {
  const base = await mkdtemp(join(tmpdir(), 'serve-'));
  await mkdir(join(base, 'at'), { recursive: true });
  await writeFile(join(base, 'index.html'), '<h1>app</h1>');
  await writeFile(join(base, 'at', 'dates.html'), '<h1>drawn dates</h1>');
  await writeFile(join(base, 'app.js'), 'ok');
  await writeFile(join(base, '_headers'), '  Link: </x.wasm>\n');
  const { server, url } = await startServer({ root: base });
  const said = [];
  const error = console.error;
  console.error = (line) => said.push(line);
  try {
    const page = await fetch(url + '/dates');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('link'), null);
    assert.equal(await page.text(), '<h1>drawn dates</h1>');
    assert.equal(await (await fetch(url + '/app.js')).text(), 'ok');
    await fetch(url + '/dates');
    assert.equal(said.length, 1, said.join('\n'));
    assert.match(said[0], /_headers is not read/);
    await writeFile(join(base, '_headers'), '/dates\n  Link: </a.wasm>; rel=preload\n  Link: </b.js>; rel=modulepreload\n');
    assert.equal((await fetch(url + '/dates')).headers.get('link'), '</a.wasm>; rel=preload, </b.js>; rel=modulepreload');
  } finally {
    console.error = error;
    server.close();
    await rm(base, { recursive: true, force: true });
  }
});
