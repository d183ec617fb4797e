// Pages drawn ahead of time (src/ui/ahead.rs): what a host given the
// README's rules sends for each address a link can open. Readable with
// JavaScript off, the same words as the live page, taken over by the live
// page without losing the address's state, and a control used before the
// wasm has started says so instead of doing nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { launch, live, axe, DIST } from './browser.mjs';
import { parseHeaders } from './serve.mjs';

let env;
before(async () => { env = await launch({ ahead: true }); });
after(async () => { await env?.close(); });

/// Every address the build drew a page for, from its files (at/<path>.html).
function drawnAddresses() {
  const root = join(DIST, 'at');
  const walk = (dir) => readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
  return walk(root)
    .filter((file) => file.endsWith('.html'))
    .map((file) => '/' + relative(root, file).split(sep).join('/').replace(/\.html$/, ''))
    .map((path) => (path === '/index' ? '/' : path))
    .sort();
}

/// What a reader sees of a page: its title, heading and first words, and
/// the state its controls show (which choice is made, where a slider
/// stands, which sections are open), so the live page taking over moves
/// nothing.
const reading = (page) => page.evaluate(() => {
  const main = document.querySelector('main');
  return {
    title: document.title,
    heading: main?.querySelector('h1')?.textContent ?? null,
    lede: main?.querySelector('p')?.textContent ?? null,
    mains: document.querySelectorAll('main').length,
    checked: [...main.querySelectorAll('input[type=radio], input[type=checkbox]')].map((i) => `${i.id || i.name}:${i.checked}`),
    sliders: [...main.querySelectorAll('input[type=range]')].map((i) => `${i.id}:${i.value}`),
    open: [...main.querySelectorAll('details')].map((d) => d.open),
  };
});

test('every page a link can open is drawn ahead: with JavaScript off it is there and readable, in the live page\'s words', async () => {
  const addresses = drawnAddresses();
  for (const path of ['/', '/lab/state-write', '/lab/lateness', '/lab/backfill', '/teach', '/scenarios', '/dates', '/class', '/scenarios/1', '/scenarios/6']) {
    assert.ok(addresses.includes(path), `${path} has a page drawn ahead (${addresses.join(', ')})`);
  }
  const off = await env.browser.newContext({ javaScriptEnabled: false });
  const phone = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const on = await env.browser.newContext();
  try {
    for (const path of addresses) {
      const still = await off.newPage();
      await still.goto(env.url + path);
      const drawn = await reading(still);
      assert.ok(drawn.heading, `${path}: a heading without JavaScript`);
      assert.equal(drawn.mains, 1, path);
      assert.ok(await still.locator('main h1').isVisible(), `${path}: its heading is visible`);
      // Without JavaScript the page says what it needs, and nothing
      // promises that its controls will work in a moment.
      assert.match(await still.locator('noscript').innerText(), /needs JavaScript and WebAssembly enabled/);
      assert.equal(await still.locator('.starting').isVisible(), false, `${path}: no starting line without JavaScript`);
      assert.equal(await still.locator('[role=alert]').filter({ hasText: /\S/ }).count(), 0, `${path}: nothing alarming`);
      await still.close();
      // On a phone, readable without sideways scrolling.
      const small = await phone.newPage();
      await small.goto(env.url + path);
      assert.ok(await small.locator('main h1').isVisible(), `${path}: its heading on a phone`);
      assert.ok(await small.evaluate(() => document.documentElement.scrollWidth <= 390), `${path}: fits 390 px`);
      await small.close();
      const running = await on.newPage();
      await running.goto(env.url + path);
      await live(running);
      const lively = await reading(running);
      assert.deepEqual(drawn, lively, `${path}: the page drawn ahead reads as the live one`);
      assert.equal(await running.locator('.starting').count(), 0, `${path}: the live page has no starting line`);
      await running.close();
    }
  } finally {
    await off.close();
    await phone.close();
    await on.close();
  }
});

test('a drawn page carries its stylesheet inline, pinned by its hash in the policy; the parts\' own pages link it', async () => {
  const { createHash } = await import('node:crypto');
  for (const path of ['/lab/lateness', '/lab/state-write', '/scenarios/1', '/']) {
    const sent = await (await fetch(env.url + path)).text();
    assert.match(sent, /<body class="ahead">/, path);
    assert.doesNotMatch(sent, /rel="stylesheet"/, `${path}: no stylesheet to fetch before the first paint`);
    const css = sent.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
    assert.ok(css.length > 10000, `${path}: the whole sheet is inline (${css.length} characters)`);
    // The policy allows exactly this sheet, and comes before it.
    const hash = createHash('sha256').update(css, 'utf8').digest('base64');
    assert.ok(sent.indexOf(`style-src 'self' 'sha256-${hash}'`) > -1, `${path}: the policy pins the sheet's hash`);
    assert.ok(sent.indexOf('Content-Security-Policy') < sent.indexOf('<style>'), path);
  }
  // A page the build drew nothing for is its part's own page, which links
  // the sheet (and the service worker keeps the file).
  const shell = readFileSync(join(DIST, 'lateness.html'), 'utf8');
  assert.match(shell, /<link rel="stylesheet" href="\/main-[0-9a-f]+\.css"/);
  // In the browser: the drawn page fetches no stylesheet, is styled, and the
  // policy blocks nothing, before and after the live page takes over.
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective));
  });
  const page = await context.newPage();
  const sheets = [];
  page.on('request', (request) => { if (request.resourceType() === 'stylesheet') sheets.push(request.url()); });
  await page.goto(`${env.url}/lab/lateness`);
  const styled = () => page.evaluate(() => getComputedStyle(document.querySelector('.skip-link')).position);
  assert.equal(await styled(), 'absolute', 'the drawn page is styled');
  await live(page);
  assert.equal(await styled(), 'absolute', 'the live page keeps the style');
  assert.deepEqual(sheets, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  await context.close();
});

test('a part of a lab that comes after the page has started says so on the drawn page, never an empty panel', async () => {
  for (const [path, panel] of [
    ['/lab/state-write', /<summary>Equivalent code<\/summary>(?:(?!<\/details>).)*Shown once the page has started\./s],
    ['/lab/backfill', /id="commands"(?:(?!<\/details>).)*Shown once the page has started\./s],
  ]) {
    const sent = await (await fetch(env.url + path)).text();
    assert.match(sent, /<body class="ahead">/);
    assert.match(sent, panel, path);
  }
  // The live page fetches it instead, and says nothing of the kind.
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.url}/lab/state-write`);
  await live(page);
  assert.equal(await page.getByText('Shown once the page has started.').count(), 0);
  await context.close();
});

test('the live page takes over the drawn one in place, with the address\'s own state', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    // A lab's state in its query: the drawn page shows the defaults, the
    // live one the address's.
    const path = '/lab/lateness?profile=mobile&lateness=5&predict=skip';
    const sent = await (await fetch(env.url + path)).text();
    assert.match(sent, /<body class="ahead">/);
    assert.match(sent, /<h1 id="lateness-title">Allowed-lateness lab<\/h1>/);
    await page.goto(env.url + path);
    await live(page);
    assert.equal(new URL(page.url()).search, '?profile=mobile&lateness=5&predict=skip');
    assert.equal(await page.getByRole('radio', { name: /Mobile app/ }).isChecked(), true);
    assert.equal(await page.getByRole('slider', { name: 'Allowed lateness' }).inputValue(), '5');
    assert.equal(await page.locator('main').count(), 1);
    assert.equal(await page.locator('header.site-header').count(), 1);
    assert.equal(await page.evaluate(() => document.body.className), '');
    // The live controls answer.
    const before = await page.locator('[data-figure="open"]').innerText();
    await page.getByRole('slider', { name: 'Allowed lateness' }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((b) => document.querySelector('[data-figure="open"]').textContent !== b, before);
    // A scenario deep link: the drawn page, then the live canvas.
    await page.goto(`${env.url}/scenarios/3`);
    await live(page);
    assert.equal(await page.locator('main h1').innerText(), 'Scenario 3: Late mobile events and month close');
    await page.getByRole('button', { name: 'Check my design' }).waitFor();
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a control used before the wasm has started says the lab is still starting, and works once it has', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  // The wasm held back until the test lets it go.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  try {
    await page.goto(`${env.url}/lab/lateness`, { waitUntil: 'domcontentloaded' });
    const line = page.locator('.starting');
    await line.waitFor();
    assert.match(await line.innerText(), /^Starting the lab/);
    assert.equal(await page.evaluate(() => document.body.classList.contains('ahead')), true);
    // The page before its wasm passes axe too.
    assert.deepEqual(await axe(page), []);
    const presenter = page.getByRole('button', { name: 'Presenter mode' });
    await presenter.click();
    await line.filter({ hasText: 'Still starting: that control works in a moment. Try it again then.' }).waitFor();
    assert.equal(await presenter.getAttribute('aria-pressed'), 'false', 'nothing happened behind the line');
    // A reader who moved to the slider is still there when the live page
    // takes over.
    await page.locator('#lateness-slider').focus();
    release();
    await live(page);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'lateness-slider');
    await page.getByRole('button', { name: 'Presenter mode' }).click();
    await page.waitForFunction(() => document.querySelector('.presenter-bar button')?.getAttribute('aria-pressed') === 'true');
  } finally {
    release();
    await context.close();
  }
});

test('the starting line\'s script, run only after the live page has taken over, leaves the live page alone', async () => {
  // A deferred script's own fetch can be slower than the wasm: CI once saw
  // the live body marked `starting-up` this way.
  const context = await env.browser.newContext();
  const page = await context.newPage();
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/starting.js', async (route) => { await held; await route.continue(); });
  try {
    await page.goto(`${env.url}/lab/lateness`, { waitUntil: 'commit' });
    await live(page);
    release();
    // The load event waits for every deferred script, the held one too.
    await page.waitForLoadState('load');
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/starting.js'))), true, 'the script was fetched');
    assert.equal(await page.evaluate(() => document.body.className), '');
    // Its listeners stand down too: a live control still answers.
    await page.getByRole('button', { name: 'Presenter mode' }).click();
    await page.waitForFunction(() => document.querySelector('.presenter-bar button')?.getAttribute('aria-pressed') === 'true');
  } finally {
    release();
    await context.close();
  }
});

test('the build\'s _redirects sends each path where the server does: its drawn page, else its half', async () => {
  const rules = readFileSync(join(DIST, '_redirects'), 'utf8').trim().split('\n').map((line) => line.trim().split(/\s+/));
  const drawn = rules.filter(([from]) => !from.includes('*'));
  assert.ok(drawn.length >= 2 * drawnAddresses().length - 1, `${drawn.length} rules for the drawn pages`);
  for (const [from, to, status] of drawn) {
    assert.equal(status, '200!', from);
    const sent = await (await fetch(env.url + from)).text();
    assert.equal(sent, readFileSync(join(DIST, to), 'utf8'), `${from} is sent ${to}`);
  }
  // Paths without a drawn page get their half, as the last rules say.
  assert.deepEqual(rules.slice(-2), [['/scenarios/*', '/scenarios.html', '200'], ['/*', '/index.html', '200']]);
  for (const [path, half] of [['/scenarios/9', 'scenarios.html'], ['/no/such/page', 'index.html']]) {
    assert.equal(await (await fetch(env.url + path)).text(), readFileSync(join(DIST, half), 'utf8'), path);
  }
});

test('the build\'s _headers starts each drawn page\'s own wasm with its response, and the page fetches it once', async () => {
  const rules = parseHeaders(readFileSync(join(DIST, '_headers'), 'utf8'));
  // A rule for each drawn page, with and without the trailing slash, and
  // for nothing else.
  assert.equal(rules.size, 2 * drawnAddresses().length - 1);
  for (const path of drawnAddresses()) {
    const html = readFileSync(join(DIST, 'at', path === '/' ? 'index.html' : `${path.slice(1)}.html`), 'utf8');
    const [, wasm] = html.match(/<link rel="preload" href="([^"]+\.wasm)"[^>]*type="application\/wasm">/);
    const link = `<${wasm}>; rel=preload; as=fetch; crossorigin=anonymous; type="application/wasm"`;
    for (const address of path === '/' ? ['/'] : [path, `${path}/`]) {
      assert.deepEqual(rules.get(address), [['Link', link]], address);
      assert.equal((await fetch(env.url + address)).headers.get('link'), link, `${address} is sent its Link`);
    }
  }
  // A path with no drawn page gets its part's page, and no Link.
  assert.equal((await fetch(env.url + '/scenarios/9')).headers.get('link'), null);
  // The page uses the download the header started: one request for its
  // wasm, started by the response (the head's own preload link would be
  // the parser's), not a second one the page could not use.
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const asked = [];
    cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
      if (request.url.endsWith('_bg.wasm')) asked.push(initiator.type);
    });
    await page.goto(`${env.url}/lab/backfill`);
    await live(page);
    await page.locator('#guess-0').click();
    assert.deepEqual(asked, ['other']);
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.endsWith('_bg.wasm')).length), 1);
  } finally {
    await context.close();
  }
});

test('the live page draws its first screen first: the part below stays the drawn page\'s until the first screen is painted, then is the live one, where the reader was', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  // Frames held until the test lets them go: the live page's first
  // screen is drawn and answers, and its part below waits for a frame.
  await context.addInitScript(() => {
    const frame = window.requestAnimationFrame.bind(window);
    const held = [];
    let holding = true;
    window.requestAnimationFrame = (callback) => (holding ? held.push(callback) : frame(callback));
    window.__letFramesGo = () => { holding = false; for (const callback of held.splice(0)) frame(callback); };
  });
  const page = await context.newPage();
  let release;
  const wasm = new Promise((ok) => { release = ok; });
  await page.route('**/*.wasm', async (route) => { await wasm; await route.continue(); });
  try {
    await page.goto(`${env.url}/lab/lateness`, { waitUntil: 'domcontentloaded' });
    // The reader has scrolled down to the delays, below the first screen.
    // (Not to the foot: the drawn page's starting line pads it.)
    await page.locator('#histogram-heading').evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 400));
    const drawnAt = await page.evaluate(() => window.scrollY);
    assert.ok(drawnAt > 300, `scrolled below the first screen (${drawnAt})`);
    const drawnRows = await page.locator('.histogram tbody tr').count();
    release();
    await page.waitForFunction(() => !document.body.classList.contains('ahead'), null, { polling: 50 });
    // Live, first screen only: <main> busy, the delays still the drawn
    // page's (marked), at the same place on the screen.
    assert.equal(await page.locator('main').getAttribute('aria-busy'), 'true');
    assert.equal(await page.locator('[data-below="lateness-delays"] > [data-drawn] .histogram tbody tr, [data-below="lateness-delays"] > .histogram[data-drawn] tbody tr').count(), drawnRows);
    assert.equal(await page.evaluate(() => window.scrollY), drawnAt, 'the reader is where they were');
    // The copy only: the live delays are not drawn yet.
    assert.equal(await page.locator('#histogram-heading').count(), 1);
    assert.equal(await page.locator('[data-below="lateness-delays"] > :not([data-drawn])').count(), 0);
    // A copy only: inert, nothing in it to reach or press.
    assert.equal(await page.locator('[data-drawn]:not([inert])').count(), 0);
    // The first screen answers meanwhile: another arrival profile, its
    // description.
    const about = page.locator('.lateness-controls p.muted');
    const before = await about.innerText();
    // (Clicked in the page: Playwright's own click waits for frames.)
    await page.getByRole('radio', { name: /Mobile app/ }).evaluate((radio) => radio.click());
    // (Polled by time: Playwright polls by frame unless told.)
    await page.waitForFunction((b) => document.querySelector('.lateness-controls p.muted').textContent !== b, before, { polling: 50 });
    assert.equal(await page.locator('[data-drawn]').count() > 0, true, 'the drawn copy is still there');
    await page.evaluate(() => window.__letFramesGo());
    await live(page);
    // The live delays replaced the drawn ones: one table, none marked.
    assert.equal(await page.locator('[data-drawn]').count(), 0);
    assert.equal(await page.locator('#histogram-heading').count(), 1);
    assert.equal(await page.locator('.histogram tbody tr').count(), drawnRows);
    assert.equal(await page.locator('main').getAttribute('aria-busy'), null);
    assert.ok(Math.abs(await page.evaluate(() => window.scrollY) - drawnAt) < 2, 'still where they were');
    assert.deepEqual(await axe(page), []);
  } finally {
    release();
    await context.close();
  }
});
