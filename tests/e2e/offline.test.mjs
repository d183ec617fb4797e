// The service worker: a lab loaded once reloads, and opens other pages by
// deep link, with the server gone; a new build's sw.js replaces the saved
// app and deletes the old cache.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, live, DIST } from './browser.mjs';
import { startServer } from './serve.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

/// A server over a copy of the build, which a test may change or stop.
async function ownServer() {
  const root = mkdtempSync(join(tmpdir(), 'partition-lab-offline-'));
  cpSync(DIST, root, { recursive: true });
  const { server, url } = await startServer({ root });
  const stop = () => new Promise((done) => { server.closeAllConnections?.(); server.close(done); });
  return { root, url, stop, remove: () => rmSync(root, { recursive: true, force: true }) };
}

async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20000 });
}

const cacheNames = (page) => page.evaluate(() => caches.keys());

test('with the network gone, a loaded lab reloads and a deep link opens', async () => {
  const site = await ownServer();
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${site.url}/lab/lateness?lateness=2&predict=skip`);
    await live(page);
    await page.getByRole('heading', { level: 1, name: 'Allowed-lateness lab' }).waitFor();
    await controlled(page);
    await site.stop();
    // The server is gone: nothing can come from the network now.
    const offline = await page.evaluate((u) => fetch(u).then(() => 'answered', () => 'no network'), `${site.url}/nothing-${Date.now()}.txt`);
    assert.equal(offline, 'no network');
    await page.reload();
    // Offline, the saved page drawn ahead for the path comes first; the
    // saved app takes it over.
    await live(page);
    await page.getByRole('heading', { level: 1, name: 'Allowed-lateness lab' }).waitFor();
    const before = await page.locator('[data-figure="open"]').innerText();
    await page.getByRole('slider').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((b) => document.querySelector('[data-figure="open"]').textContent !== b, before);
    // A page never visited while online: the saved app answers it too.
    await page.goto(`${site.url}/lab/backfill?from=8`);
    await live(page);
    await page.getByRole('heading', { level: 1, name: 'Currency-bug backfill lab' }).waitFor();
    assert.match(await page.locator('[data-figure="plan"]').innerText(), /^6 silver partitions/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await site.stop();
    site.remove();
  }
});

test('a new build is taken up and the old saved copy deleted', async () => {
  const site = await ownServer();
  const context = await env.browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}/`);
    await controlled(page);
    const sw = readFileSync(join(site.root, 'sw.js'), 'utf8');
    const [, version] = sw.match(/const VERSION = '([0-9a-f]{16})'/);
    assert.deepEqual(await cacheNames(page), [`partition-lab-${version}`]);
    // What a deploy does: new bytes, so a new version in a new sw.js.
    writeFileSync(join(site.root, 'sw.js'), sw.replace(version, '0123456789abcdef'));
    await page.reload();
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const want = ['partition-lab-0123456789abcdef'];
    let names = [];
    for (let i = 0; i < 100 && JSON.stringify(names) !== JSON.stringify(want); i += 1) {
      await page.waitForTimeout(200);
      names = await cacheNames(page);
    }
    assert.deepEqual(names, want);
  } finally {
    await context.close();
    await site.stop();
    site.remove();
  }
});
