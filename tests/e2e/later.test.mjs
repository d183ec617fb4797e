// Parts of a page that arrive after it is live (src/ui/later.rs): a
// scenario's first screen answers before its canvas has come, which says
// it is fetching where it goes, lives through a failed fetch with the
// saved design untouched, then comes with it (and the list's "Take your
// work with you" the same). With the scenarios part's other chunks held
// back at the network, the canvas answers, a
// check started meanwhile says it is fetching the grader and gives its
// verdict once the chunk comes; the export panel fetches its exporters
// only when opened, says so, offers nothing until they have come, then
// shows the code; a chunk that fails to come is said, and trying again
// works. The labs' practitioner parts (State x Write's equivalent code,
// the backfill lab's commands, the lateness lab's tools, State x Write's
// folded settings and its room view for presenter mode) come the same way:
// the lab answers without them, a shelf opened early says it is fetching,
// then shows them. The class page takes work files and links before its
// grader has come, says it is fetching, keeps what was handed in through
// a failed fetch and grades it once the grader comes; scenario 4's drift
// query (which runs the week) comes with the grader. The backfill lab's
// engine comes the same way: a prediction made before it has come says
// it is running the drift query, claims nothing the engine says, and
// answers once it comes. The lateness lab's charts come right after it is
// live: the page drawn ahead keeps its copy in their place until then.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, live, DIST } from './browser.mjs';
import { startServer } from './serve.mjs';
import { buildChain, DAILY } from './designs.mjs';
import { readFileSync } from 'node:fs';

const CATALOGUE = JSON.parse(readFileSync(new URL('./catalogue.json', import.meta.url), 'utf8'));

let env;
// The same site with its pages drawn ahead of time (`held`'s `ahead`).
let drawn;
before(async () => {
  env = await launch();
  drawn = await startServer({ root: DIST, ahead: true });
});
after(async () => {
  await env?.close();
  drawn?.server.close();
});

const CHUNK = /\/split-partition-lab-(scenarios|lateness|state-write|backfill|class)-[0-9a-f]{16}\/[^/]+\.wasm$/;

/// A page whose later chunks wait at the network until released (or fail,
/// with `fail`). The chunks a page fetches as soon as it is live (State x
/// Write's engine and panels, a scenario's canvas, the list's "Take your
/// work with you"), which the other tests read with the rest held, come at
/// once, unless `atOnce` holds them at a gate of their own (`atOnceGate`;
/// the small chunks they share with the others, chunk_<n>, wait at `gate`).
/// Those shared chunks come at once too otherwise: a test holding the
/// grader holds its own chunk, not what it shares with the canvas.
function gated() {
  const gate = {};
  gate.open = new Promise((resolve) => { gate.release = () => resolve('continue'); gate.fail = () => resolve('abort'); });
  return gate;
}

const AT_ONCE = /\/split-partition-lab-(state-write-[0-9a-f]{16}\/split_cells|scenarios-[0-9a-f]{16}\/split_(canvas|my_work)|lateness-[0-9a-f]{16}\/split_charts)\.wasm$/;
const SHARED = /\/split-partition-lab-(state-write|scenarios|lateness)-[0-9a-f]{16}\/chunk_\d+\.wasm$/;

async function held(path, { atOnce = false, storage = {}, ahead = false } = {}) {
  // No service worker: it would fetch the chunks past the held route.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  // What this browser had kept (a saved design), there before the page.
  await context.addInitScript((kept) => {
    if (!Object.keys(kept).length || sessionStorage.getItem('test/kept')) return;
    sessionStorage.setItem('test/kept', '1');
    for (const [key, value] of Object.entries(kept)) localStorage.setItem(key, value);
  }, storage);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  const gate = gated();
  const atOnceGate = gated();
  const asked = [];
  const at = {};
  await page.route(CHUNK, async (route) => {
    const path = new URL(route.request().url()).pathname;
    asked.push(path);
    at[path.split('/').pop()] ??= Date.now();
    if (!atOnce && (AT_ONCE.test(path) || SHARED.test(path))) await route.continue();
    else if ((await (AT_ONCE.test(path) ? atOnceGate : gate).open) === 'abort') await route.abort('failed');
    else await route.continue();
  });
  await page.goto((ahead ? drawn.url : env.url) + path);
  await live(page, { chunks: !atOnce });
  // When each chunk was first asked for, and when the page was live.
  return { page, context, errors, asked, gate, atOnceGate, at, liveAt: Date.now() };
}

/// Waits until the held route has seen a request for `chunk` (the page may
/// have asked before the test looked: the grader is fetched a second
/// after the canvas is drawn).
async function askedFor(page, asked, chunk) {
  for (let i = 0; i < 200 && !asked.some((p) => chunk.test(p)); i += 1) await page.waitForTimeout(50);
  assert.ok(asked.some((p) => chunk.test(p)), `${chunk} was asked for: ${asked}`);
}

test('a scenario answers before its grader has come; a check waits visibly, then gives its verdict', async () => {
  const { page, context, errors, asked, gate } = await held('/scenarios/1');
  // The canvas answers with the grader still held back.
  await buildChain(page, DAILY);
  assert.equal(await page.locator('svg.board g.node').count(), 4);
  await page.getByRole('button', { name: 'Check my design' }).click();
  await askedFor(page, asked, /\/split_grader\.wasm$/);
  const progress = page.locator('.check-progress');
  await progress.locator('label').filter({ hasText: 'Fetching the grader (the first check only)' }).waitFor();
  // A bar that does not claim a step, and no verdict before the grader.
  assert.equal(await progress.locator('progress').getAttribute('value'), null);
  assert.equal(await page.locator('.report .verdict').count(), 0, 'no verdict before the grader has come');
  // The button stays reachable and says it is busy.
  assert.equal(await page.getByRole('button', { name: 'Check my design' }).getAttribute('aria-disabled'), 'true');
  gate.release();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('.check-progress').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the export panel fetches its exporters when opened, says so, offers nothing until they come, then shows the code', async () => {
  const { page, context, errors, asked, gate } = await held('/scenarios/1');
  await buildChain(page, DAILY);
  assert.ok(!asked.some((p) => /split_exporters/.test(p)), `the exporters wait for the panel: ${asked}`);
  await page.getByText('Export as code').click();
  await askedFor(page, asked, /\/split_exporters\.wasm$/);
  const shelf = page.locator('details.export-code');
  await shelf.getByRole('status').filter({ hasText: 'Fetching the exporters…' }).waitFor();
  assert.equal(await shelf.locator('.code-block').count(), 0);
  assert.equal(await shelf.getByRole('button', { name: /Prepare a runnable project/ }).count(), 0, 'no button that cannot work yet');
  gate.release();
  await shelf.locator('.code-block').first().waitFor({ timeout: 20000 });
  assert.ok(await shelf.locator('.code-block').count() >= 5, 'a block per tool');
  assert.match(await shelf.locator('.code-block').first().innerText(), /\S/);
  await shelf.getByRole('button', { name: /Prepare a runnable project/ }).waitFor();
  assert.equal(await shelf.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 4\'s drift query run before the grader has come says it is fetching, then answers', async () => {
  const { page, context, errors, asked, gate } = await held('/scenarios/4');
  await page.getByLabel('Look back from', { exact: true }).fill('2026-08-08');
  await page.getByRole('button', { name: 'Run the drift query' }).click();
  await askedFor(page, asked, /\/split_grader\.wasm$/);
  await page.locator('.drift-lookback .fetch-status').filter({ hasText: 'Fetching the drift query (the first run only).' }).waitFor();
  assert.equal(await page.locator('[data-figure="lookback"]').count(), 0, 'no answer before the query has come');
  assert.equal(await page.locator('table.drift').count(), 0);
  gate.release();
  await page.locator('[data-figure="lookback"]').filter({ hasText: 'Scanned 6 days of silver, 8 Aug to 13 Aug: 6 are more than a penny out.' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('table.drift tbody tr').count(), 6);
  assert.equal(await page.locator('.drift-lookback .fetch-status').innerText(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a grader that fails to come is said where the student looks, and checking again fetches it', async () => {
  const { page, context, gate } = await held('/scenarios/1');
  await buildChain(page, DAILY);
  gate.fail();
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.check .notice').filter({ hasText: 'The grader could not be fetched: check the connection, then check your design again.' }).waitFor();
  assert.equal(await page.locator('.check-progress').count(), 0);
  // The network is back: the same button fetches it and checks.
  await page.unroute(CHUNK);
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor({ timeout: 20000 });
  // The page lived through the failure: the canvas still answers.
  await page.locator('.palette-item[data-kind="transform"]').click();
  assert.equal(await page.locator('svg.board g.node').count(), 5);
  await context.close();
});

test('the lateness lab answers before its reader of your own data has come; choosing your data waits visibly, then offers the file', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/lateness?lateness=2&predict=skip');
  // The lab's own control answers with the reader held back.
  const slider = page.locator('#lateness-slider');
  const before = await page.locator('output[for="lateness-slider"]').innerText();
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.locator('output[for="lateness-slider"]').innerText(), before);
  await page.getByRole('radio', { name: 'Your data (CSV)' }).check();
  await askedFor(page, asked, /\/split_reader\.wasm$/);
  await page.getByRole('status').filter({ hasText: 'Fetching the reader for your own data…' }).waitFor();
  assert.equal(await page.getByLabel(/CSV file/).count(), 0, 'no file input that cannot read yet');
  gate.release();
  await page.getByLabel(/CSV file/).waitFor({ timeout: 20000 });
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching the reader' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the State x Write lab answers before its code has come; a panel opened early says so, then shows the code and its project', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/state-write?lookback=2');
  // The prediction answers with the code held back.
  const lock = page.getByRole('button', { name: 'Lock in and reveal the verdicts' });
  assert.equal(await lock.isDisabled(), true);
  await page.locator('#predict-none').check();
  assert.equal(await lock.isDisabled(), false);
  const list = page.getByRole('region', { name: 'Partition list + Overwrite', exact: true });
  await list.getByText('Equivalent code').click();
  await askedFor(page, asked, /\/split_code\.wasm$/);
  await list.getByRole('status').filter({ hasText: 'Fetching the code…' }).waitFor();
  assert.equal(await list.locator('pre[data-tool]').count(), 0, 'no code before it has come');
  assert.equal(await list.getByRole('link', { name: /runnable project/ }).count(), 0, 'no link that cannot work yet');
  gate.release();
  await list.locator('pre[data-tool="dbt"]').waitFor({ timeout: 20000 });
  assert.match(await list.locator('pre[data-tool="dbt"]').innerText(), /delete\+insert/);
  assert.match(await list.locator('pre[data-tool="Spark"]').innerText(), /the 2 days before it/, 'the code is for the page\'s controls');
  await list.getByRole('link', { name: /runnable project/ }).waitFor();
  assert.equal(await list.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('State x Write\'s settings come after it answers: the fold opened early says so, then changes the week; a link that sets the week fetches them at once', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/state-write');
  await page.locator('#predict-none').check();
  assert.equal(await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).isDisabled(), false);
  const settings = page.locator('details#settings');
  await settings.locator(':scope > summary').click();
  await askedFor(page, asked, /\/split_settings\.wasm$/);
  await settings.getByRole('status').filter({ hasText: 'Fetching the settings…' }).waitFor();
  assert.equal(await settings.locator('input[type=radio]').count(), 0, 'no control before it works');
  gate.release();
  await page.getByRole('radio', { name: 'arrives Wed 03:10' }).check({ timeout: 20000 });
  await page.waitForURL(/late=wed/);
  assert.equal(await settings.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
  // A link that sets the week opens the fold and asks for them before anyone does.
  const linked = await held('/lab/state-write?late=fri&crash=off');
  await askedFor(linked.page, linked.asked, /\/split_settings\.wasm$/);
  // At once: before the verdicts, which wait the second after the lab is live.
  await askedFor(linked.page, linked.asked, /\/split_verdicts\.wasm$/);
  const order = (chunk) => linked.asked.findIndex((p) => chunk.test(p));
  assert.ok(order(/split_settings/) < order(/split_verdicts/), `asked at once: ${linked.asked}`);
  assert.equal(await linked.page.locator('details#settings').evaluate((d) => d.open), true);
  linked.gate.release();
  assert.equal(await linked.page.getByRole('radio', { name: 'arrives Fri 03:10' }).isChecked({ timeout: 20000 }), true);
  assert.equal(await linked.page.getByRole('radio', { name: 'runs cleanly' }).isChecked(), true);
  assert.deepEqual(linked.errors, []);
  await linked.context.close();
});

test('State x Write\'s room view comes only for presenter mode: a student never fetches it, a projector waits visibly, then sees it', async () => {
  const student = await held('/lab/state-write');
  // Past the moment the other chunks are fetched (a second after the lab is live).
  await askedFor(student.page, student.asked, /\/split_settings\.wasm$/);
  await student.page.waitForTimeout(500);
  assert.ok(!student.asked.some((p) => /split_room_view/.test(p)), `a student's page fetches no room view: ${student.asked}`);
  student.gate.release();
  await student.context.close();
  const { page, context, errors, asked, gate } = await held('/lab/state-write?present=1&predict=skip&run=8');
  await askedFor(page, asked, /\/split_room_view\.wasm$/);
  await page.getByRole('status').filter({ hasText: 'Fetching the room view…' }).waitFor();
  assert.equal(await page.locator('table[data-figure="room"]').count(), 0);
  // The lab answers meanwhile: the clicker steps the week.
  await page.keyboard.press('PageUp');
  await page.waitForURL(/run=7/);
  gate.release();
  const room = page.locator('table[data-figure="room"]');
  await room.waitFor({ timeout: 20000 });
  assert.equal(await room.locator('tbody tr').count(), 6);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching the room view' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a scenario\'s first screen answers before its canvas has come; the canvas waits visibly where it goes, keeps a saved design through a failed fetch, then comes with it', async () => {
  // A design saved in this browser on an earlier visit.
  const earlier = await held('/scenarios/1');
  await buildChain(earlier.page, DAILY);
  const storage = await earlier.page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
  assert.ok(storage['partition-lab/design/1'], 'the design was saved');
  await earlier.context.close();

  const { page, context, asked, gate, atOnceGate } = await held('/scenarios/1', { atOnce: true, storage });
  await askedFor(page, asked, /\/split_canvas\.wasm$/);
  const place = page.locator('.canvas-place');
  assert.equal(await place.getAttribute('aria-busy'), 'true');
  await place.getByRole('status').filter({ hasText: 'Fetching the design canvas…' }).waitFor();
  assert.equal(await place.getByRole('heading', { name: 'Your design' }).count(), 1, 'its place keeps its heading');
  assert.equal(await page.locator('.palette, svg.board, section.check').count(), 0, 'no control before it has come');
  // The first screen answers meanwhile: presenter mode goes on and off.
  const presenter = page.getByRole('button', { name: 'Presenter mode' });
  await presenter.click();
  await page.waitForURL(/present=1/);
  assert.equal(await presenter.getAttribute('aria-pressed'), 'true');
  await presenter.click();
  await page.waitForURL((url) => !url.search.includes('present'));
  atOnceGate.fail();
  gate.fail();
  await place.locator('.notice').filter({ hasText: 'The design canvas could not be fetched: check the connection, then try again. Your design is kept, in this browser or in your link.' }).waitFor({ timeout: 20000 });
  assert.equal(await place.getAttribute('aria-busy'), null, 'not busy once nothing is fetching');
  assert.equal(asked.filter((p) => /\/split_canvas\.wasm$/.test(p)).length, 1, 'asked for once, before the page was drawn and by the page');
  await page.unroute(CHUNK);
  await place.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  // The canvas comes with the saved design, and the reader's focus moves
  // from the button that went to the canvas's heading.
  await page.locator('svg.board g.node').first().waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.activeElement?.id === 'designer-title');
  assert.equal(await page.locator('svg.board g.node').count(), 4, 'the saved design, kept through the failed fetch');
  assert.equal(await place.locator('.notice').filter({ hasText: 'could not be fetched' }).count(), 0);
  assert.equal(await page.getByRole('heading', { name: 'Your design' }).count(), 1);
  await page.getByRole('button', { name: 'Check my design' }).waitFor();
  await context.close();
});

test('a shared design waits in the address for the canvas: presenter mode turned on and off before it has come keeps it, and the canvas opens it', async () => {
  const earlier = await held('/scenarios/1');
  await buildChain(earlier.page, DAILY);
  await earlier.page.getByText('Save, share, import').click();
  const link = await earlier.page.getByLabel('Share link').inputValue();
  assert.match(link, /#design=/);
  await earlier.context.close();

  const { page, context, asked, gate, atOnceGate } = await held(link.replace(env.url, ''), { atOnce: true });
  await askedFor(page, asked, /\/split_canvas\.wasm$/);
  const presenter = page.getByRole('button', { name: 'Presenter mode' });
  await presenter.click();
  await page.waitForURL(/present=1/);
  assert.equal(new URL(page.url()).hash, new URL(link).hash, 'the design stays in the address');
  await presenter.click();
  await page.waitForURL((url) => !url.search.includes('present'));
  assert.equal(new URL(page.url()).hash, new URL(link).hash);
  gate.release();
  atOnceGate.release();
  await page.locator('.notice').filter({ hasText: 'Opened the design from the link' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('svg.board g.node').count(), 4);
  assert.equal(new URL(page.url()).hash, '', 'read, it leaves the address');
  await context.close();
});

test('the scenario list answers before "Take your work with you" has come, which waits visibly, then works', async () => {
  const { page, context, errors, asked, gate, atOnceGate } = await held('/scenarios', { atOnce: true });
  await askedFor(page, asked, /\/split_my_work\.wasm$/);
  const place = page.locator('.my-work-place');
  assert.equal(await place.getAttribute('aria-busy'), 'true');
  await place.getByRole('status').filter({ hasText: 'Fetching the download and the restore…' }).waitFor();
  assert.equal(await place.getByRole('heading', { name: 'Take your work with you' }).count(), 1);
  assert.equal(await page.getByText('Download my work').count(), 0, 'no link before it has come');
  assert.equal(await page.locator('li.card').count(), 6, 'the list is there');
  gate.release();
  atOnceGate.release();
  await page.getByRole('link', { name: 'Download my work' }).waitFor({ timeout: 20000 });
  await page.getByLabel('Restore my work from a downloaded work file').waitFor();
  assert.equal(await place.getAttribute('aria-busy'), null);
  assert.equal(await place.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('State x Write answers before its engine and panels have come: the runs are named from the schedule, the panels wait visibly where they go, then show the run the reader moved to', async () => {
  const { page, context, errors, asked, gate, atOnceGate } = await held('/lab/state-write?predict=skip&run=1', { atOnce: true });
  await askedFor(page, asked, /\/split_cells\.wasm$/);
  const cells = page.locator('.cells');
  assert.equal(await cells.getAttribute('aria-busy'), 'true');
  await page.getByRole('status').filter({ hasText: 'Fetching the pipelines\' panels…' }).waitFor();
  assert.equal(await page.locator('section.cell').count(), 0, 'no panel before it has come');
  // The engine comes with them: the week's runs are named from the
  // schedule meanwhile, the crash's retry included.
  await page.locator('details.week').getByText('Run 4: Thu 00:20 (retry)').waitFor();
  assert.match(await page.locator('section.scrubber').innerText(), /Run 1: Tue 00:15, for Mon 06-01/);
  // The runs answer meanwhile: the reader moves to run 3.
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.waitForURL(/run=3/);
  gate.release();
  atOnceGate.release();
  await page.locator('section.cell').first().waitFor({ timeout: 20000 });
  assert.equal(await page.locator('section.cell').count(), 6);
  assert.equal(await cells.getAttribute('aria-busy'), null);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching the pipelines' }).count(), 0);
  // What they show is run 3's, as on a page opened there.
  const shown = await cells.innerText();
  const direct = await held('/lab/state-write?predict=skip&run=3');
  direct.gate.release();
  assert.equal(await direct.page.locator('.cells').innerText(), shown);
  await direct.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('before the prediction State x Write waits for its engine to open the runs every pipeline shares, says nothing of them meanwhile, and lives through its failure: trying again by key lands on the first panel', async () => {
  // A quiet week (no late order, no crash, no lookback): every run is the
  // same in every pipeline, so the engine opens them all. The link asks
  // for run 3.
  const { page, context, gate, atOnceGate } = await held('/lab/state-write?late=off&crash=off&lookback=0&run=3', { atOnce: true });
  const predict = page.locator('section.predict');
  const next = page.getByRole('button', { name: 'Next', exact: true });
  // Until the engine has compared them the week stops at run 1, and
  // nothing is said of where they differ or of the run the link asked for.
  assert.doesNotMatch(await predict.innerText(), /differ/);
  assert.equal(await next.isDisabled(), true);
  assert.match(await page.locator('section.scrubber').innerText(), /1 of 7/);
  assert.equal(await page.locator('main .notice').count(), 0, 'no note on the link\'s run');
  atOnceGate.fail();
  gate.fail();
  await page.locator('.notice').filter({ hasText: 'The pipelines\' panels could not be fetched: check the connection, then try again.' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('section.cell').count(), 0);
  assert.equal(await page.locator('.cells').getAttribute('aria-busy'), null, 'not busy once nothing is fetching');
  // The lab lives through it: the prediction still answers.
  await page.locator('#predict-none').check();
  assert.equal(await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).isDisabled(), false);
  await page.unroute(CHUNK);
  // By keyboard: the reader lands on the first panel once they come.
  await page.locator('.cells-status').getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('section.cell').first().waitFor({ timeout: 20000 });
  assert.equal(await page.locator('section.cell').count(), 6);
  await page.waitForFunction(() => document.activeElement?.id === 'cell-watermarkappend');
  assert.equal(await page.locator('.notice').filter({ hasText: 'panels could not be fetched' }).count(), 0);
  // The engine has come: every run is open, and the link's run 3 is on show.
  await page.locator('section.scrubber').getByText(/3 of 7/).waitFor();
  assert.equal(await next.isDisabled(), false);
  await context.close();
});

test('a prediction locked in before State x Write\'s engine has come says it is being judged, then is', async () => {
  const { page, context, errors, gate, atOnceGate } = await held('/lab/state-write', { atOnce: true });
  // The verdicts come; the engine does not yet.
  gate.release();
  await page.locator('#predict-none').check();
  await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).click();
  await page.waitForURL(/predict=/);
  await page.locator('section.predict').getByRole('status').filter({ hasText: 'Judging your prediction: fetching the pipelines\' runs…' }).waitFor();
  assert.equal(await page.locator('.prediction-result').count(), 0, 'no judgement without the engine\'s week');
  atOnceGate.release();
  await page.locator('.prediction-result').waitFor({ timeout: 20000 });
  assert.match(await page.locator('.prediction-result').innerText(), /you picked none of them/);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Judging' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the backfill lab answers before its commands have come; the shelf opened early says so, then shows them', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/backfill');
  const lock = page.getByRole('button', { name: 'Lock in and run the drift query' });
  assert.equal(await lock.isDisabled(), true);
  await page.locator('#guess-0').check();
  assert.equal(await lock.isDisabled(), false);
  const shelf = page.locator('details#commands');
  await shelf.locator(':scope > summary').click();
  await askedFor(page, asked, /\/split_shelf\.wasm$/);
  await shelf.getByRole('status').filter({ hasText: 'Fetching the commands…' }).waitFor();
  assert.equal(await shelf.locator('.command').count(), 0, 'no command before it has come');
  gate.release();
  await shelf.locator('.command').first().waitFor({ timeout: 20000 });
  assert.match(await shelf.locator('.command pre').first().innerText(), /\S/);
  await shelf.getByRole('link', { name: /^Download this plan as a runnable project/ }).waitFor();
  assert.equal(await shelf.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a shelf that fails to come says so where it is opened, and trying again shows it', async () => {
  const { page, context, gate } = await held('/lab/backfill');
  gate.fail();
  const shelf = page.locator('details#commands');
  await shelf.locator(':scope > summary').click();
  await shelf.locator('.notice').filter({ hasText: 'The commands could not be fetched: check the connection, then try again.' }).waitFor({ timeout: 20000 });
  assert.equal(await shelf.locator('.command').count(), 0);
  // Still no network: trying again keeps the reader on the button, busy
  // while it tries, and says so again.
  await page.unroute(CHUNK);
  let failAgain;
  const second = new Promise((resolve) => { failAgain = resolve; });
  await page.route(CHUNK, async (route) => { await second; await route.abort('failed'); });
  const again = shelf.getByRole('button', { name: 'Try again' });
  await again.focus();
  await page.keyboard.press('Enter');
  await shelf.getByRole('status').filter({ hasText: 'Fetching the commands…' }).waitFor();
  assert.equal(await again.getAttribute('aria-disabled'), 'true');
  assert.equal(await shelf.locator('.notice:not([hidden])').count(), 0, 'no failure said while trying');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Try again');
  failAgain();
  await shelf.locator('.notice:not([hidden])').filter({ hasText: 'could not be fetched' }).waitFor({ timeout: 20000 });
  assert.equal(await again.getAttribute('aria-disabled'), null);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Try again');
  // The network is back: the button fetches it.
  await page.unroute(CHUNK);
  await again.click();
  await shelf.locator('.command').first().waitFor({ timeout: 20000 });
  assert.equal(await shelf.locator('.notice').count(), 0);
  // The lab lived through the failure: it still answers.
  await page.locator('#guess-0').check();
  assert.equal(await page.getByRole('button', { name: 'Lock in and run the drift query' }).isDisabled(), false);
  await context.close();
});

test('the lateness lab\'s tools come after it answers: the shelf opened early says so, then shows them', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/lateness?lateness=2&predict=skip');
  const before = await page.locator('output[for="lateness-slider"]').innerText();
  await page.locator('#lateness-slider').focus();
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.locator('output[for="lateness-slider"]').innerText(), before);
  const shelf = page.locator('details#tools');
  await shelf.locator(':scope > summary').click();
  await askedFor(page, asked, /\/split_shelf\.wasm$/);
  await shelf.getByRole('status').filter({ hasText: 'Fetching the code…' }).waitFor();
  assert.equal(await shelf.locator('h3').count(), 0, 'no tool before it has come');
  gate.release();
  await shelf.locator('#dagster-heading').waitFor({ timeout: 20000 });
  // Made for the page's setting: 3 days after the slider's step.
  assert.match(await shelf.innerText(), /3 days/);
  assert.equal(await shelf.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lateness lab asks before its charts have come: the drawn delays stay in place, inert, until they come, then follow the lab', async () => {
  const { page, context, errors, asked, gate, atOnceGate } = await held('/lab/lateness', { atOnce: true, ahead: true });
  await askedFor(page, asked, /\/split_charts\.wasm$/);
  const delays = page.locator('[data-below="lateness-delays"]');
  assert.equal(await delays.getAttribute('aria-busy'), 'true');
  // The page drawn ahead's delays, where they go and out of reach: no
  // line saying they are on their way in their place.
  assert.ok(await delays.locator(':scope > [data-drawn][inert]').count() > 0, 'the drawn copy stays');
  assert.equal(await delays.locator('#histogram-heading').count(), 1);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching the month\'s charts' }).count(), 0);
  // The lab answers meanwhile: the slider, and the question.
  const before = await page.locator('output[for="lateness-slider"]').innerText();
  await page.locator('#lateness-slider').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((was) => document.querySelector('output[for="lateness-slider"]').innerText !== was, before);
  await page.getByRole('radio', { name: 'B. 90 % to under 99 %' }).check();
  gate.release();
  atOnceGate.release();
  await page.waitForFunction(() => !document.querySelector('[data-below="lateness-delays"]').hasAttribute('aria-busy'), null, { timeout: 20000 });
  assert.equal(await page.locator('[data-drawn]').count(), 0, 'the drawn copy goes as the live delays come');
  assert.equal(await delays.locator('#histogram-heading').count(), 1);
  // Live: another profile's month is counted afresh.
  const month = await delays.locator('.histogram table').textContent();
  await page.getByRole('radio', { name: 'Partner batch files' }).check();
  await page.waitForFunction((was) => document.querySelector('[data-below="lateness-delays"] .histogram table')?.textContent !== was, month);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link to another month than the drawn page\'s keeps none of its delays: the place says the charts are on their way', async () => {
  const { page, context, gate, atOnceGate } = await held('/lab/lateness?profile=partner', { atOnce: true, ahead: true });
  const delays = page.locator('[data-below="lateness-delays"]');
  await delays.getByRole('status').filter({ hasText: 'Fetching the month\'s charts…' }).waitFor();
  assert.equal(await page.locator('[data-drawn]').count(), 0, 'no copy of the web checkout\'s delays');
  assert.equal(await delays.getAttribute('aria-busy'), null);
  gate.release();
  atOnceGate.release();
  await delays.locator('#histogram-heading').waitFor({ timeout: 20000 });
  assert.equal(await delays.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  await context.close();
});

test('lateness charts that fail to come are said where they go, the figures answering meanwhile, and trying again shows them, the reader on their first heading', async () => {
  const { page, context, gate, atOnceGate } = await held('/lab/lateness?lateness=2&predict=skip', { atOnce: true });
  // No page drawn ahead holds these (each is the question's): the place
  // says at once that they are on their way.
  await page.locator('[data-below="lateness-figures"]').getByRole('status').filter({ hasText: 'Fetching the month\'s charts…' }).waitFor();
  atOnceGate.fail();
  gate.fail();
  const status = page.locator('.charts-status');
  await status.locator('.notice').filter({ hasText: 'The month\'s charts could not be fetched: check the connection, then try again.' }).waitFor({ timeout: 20000 });
  assert.equal(await page.locator('#curve-heading').count(), 0);
  assert.equal(await page.locator('[data-below="lateness-figures"]').getAttribute('aria-busy'), null, 'not busy once nothing is fetching');
  // The three figures answer the slider without them.
  const open = await page.locator('[data-figure="open"]').innerText();
  await page.locator('#lateness-slider').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((was) => document.querySelector('[data-figure="open"]').innerText !== was, open);
  await page.unroute(CHUNK);
  // By keyboard: the reader lands on the first chart once they come.
  await status.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#curve-heading').waitFor({ timeout: 20000 });
  assert.equal(await page.locator('.charts-status').count(), 0);
  await page.waitForFunction(() => document.activeElement?.id === 'curve-heading');
  // Drawn for the slider's setting: 3 days.
  assert.equal(await page.locator('section.curve tr.current th').textContent(), '3 days (current)');
  await context.close();
});

test('a prediction locked in before the verdicts have come waits visibly, then is judged', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/state-write');
  await page.locator('#predict-none').check();
  await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).click();
  await page.waitForURL(/predict=/);
  await askedFor(page, asked, /\/split_verdicts\.wasm$/);
  await page.getByRole('status').filter({ hasText: 'Fetching the verdicts…' }).first().waitFor();
  assert.equal(await page.locator('.prediction-result').count(), 0, 'no judgement before the verdicts have come');
  // At the last run every cell waits visibly too; the prediction's line is
  // the one announced.
  await page.getByRole('button', { name: 'Go to the last run' }).first().click();
  await page.waitForURL(/run=8/);
  assert.equal(await page.locator('.cells').getByText('Fetching the verdicts…').count(), 6);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching the verdicts…' }).count(), 1);
  gate.release();
  await page.locator('.prediction-result').waitFor({ timeout: 20000 });
  assert.match(await page.locator('.prediction-result').innerText(), /you picked none of them\. With these settings the silent ones? (is|are) /);
  await page.locator('.cells .verdict').first().waitFor();
  assert.equal(await page.locator('.cells .verdict').count(), 6, 'every cell its verdict');
  assert.equal(await page.getByRole('status').filter({ hasText: 'Fetching' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the backfill lab asks before its engine has come; a prediction waits visibly, then answers', async () => {
  const { page, context, errors, asked, gate } = await held('/lab/backfill');
  // The prediction is taken with the engine held back.
  await page.getByRole('group', { name: 'When do you think the bad code shipped?' })
    .getByRole('radio', { name: 'the 8th' }).check();
  await page.getByRole('button', { name: 'Lock in and run the drift query' }).click();
  await askedFor(page, asked, /\/split_engine\.wasm$/);
  // Step 1 says what it waits for, and the reader's focus waits there.
  const waiting = page.locator('#answer-wait');
  await waiting.getByRole('status').filter({ hasText: 'Running the drift query: fetching the lab\'s engine…' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'answer-wait');
  // Nothing claims what only the engine can say: no verdict, no drift
  // rows, no box marked broken, no day's figures in the Sunday's note.
  assert.equal(await page.locator('#guess-verdict, table.drift').count(), 0);
  assert.equal(await page.locator('.grid14 .pbox.broken').count(), 0);
  assert.equal(await page.locator('.grid14 .pbox-drift').count(), 0);
  assert.doesNotMatch(await page.locator('[data-figure="sunday"]').innerText(), /£/);
  // A run waits for the engine too, and says so.
  const run = page.getByRole('button', { name: 'Run the backfill' });
  assert.equal(await run.getAttribute('aria-disabled'), 'true');
  assert.match(await page.locator('#run-gate').innerText(), /once the lab's engine has come/);
  gate.release();
  // The answer takes the reader's focus over from the line that waited.
  await page.locator('#guess-verdict').filter({ hasText: 'you said the 8th' }).waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.activeElement?.id === 'guess-verdict');
  assert.equal(await waiting.isHidden(), true);
  assert.ok(await page.locator('table.drift tbody tr').count() > 0);
  assert.ok(await page.locator('.grid14 .pbox.broken').count() > 0);
  assert.match(await page.locator('[data-figure="sunday"]').innerText(), /£/);
  assert.equal(await run.getAttribute('aria-disabled'), null);
  assert.equal(await page.locator('#run-gate').isHidden(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a backfill engine that fails to come is said in step 1 and at the run; trying again by key answers, with the focus on the verdict', async () => {
  const { page, context, gate } = await held('/lab/backfill');
  gate.fail();
  await page.getByRole('button', { name: 'Skip the prediction' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The lab\'s engine could not be fetched, so the drift query has not run' });
  await alert.waitFor();
  assert.match(await page.locator('#run-gate').innerText(), /could not be fetched: try again in step 1/);
  assert.equal(await page.locator('#guess-verdict').count(), 0);
  // The network is back: "Try again", pressed by key, fetches it; the
  // answer takes the focus over from the button that is gone.
  await page.unroute(CHUNK);
  await page.locator('#answer-wait').getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#guess-verdict').waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.activeElement?.id === 'guess-verdict');
  assert.equal(await alert.count(), 0);
  assert.equal(await page.locator('#run-gate').isHidden(), true);
  await context.close();
});

test('a link to the moment after a backfill run shows the lab at once, and the answer and the run\'s outcome once they have come', async () => {
  const { page, context, errors, asked, gate, at, liveAt } = await held('/lab/backfill?from=3&concurrency=12&guess=skip&ran=end');
  // Both are asked for at once (the engine replays the run, the outcome
  // draws it), not a second after the page is drawn as on a first visit.
  await askedFor(page, asked, /\/split_engine\.wasm$/);
  await askedFor(page, asked, /\/split_outcome\.wasm$/);
  assert.ok(at['split_engine.wasm'] - liveAt < 500, `the engine asked for ${at['split_engine.wasm'] - liveAt} ms after the page was live`);
  assert.ok(at['split_outcome.wasm'] - liveAt < 500, `the outcome asked for ${at['split_outcome.wasm'] - liveAt} ms after the page was live`);
  // Each section says what it waits for; the lab answers meanwhile.
  await page.getByRole('status').filter({ hasText: 'Running the drift query: fetching the lab\'s engine…' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Fetching the run\'s outcome…' }).waitFor();
  assert.equal(await page.locator('.run-outcome').count(), 0, 'no outcome before it has come');
  assert.equal(await page.locator('.grid14 .pbox-phase').count(), 0, 'no box rebuilt before the engine has replayed the run');
  await page.getByRole('button', { name: 'Reset August' }).waitFor();
  await page.getByRole('radio', { name: 'as delivered' }).waitFor();
  gate.release();
  await page.locator('.run-outcome').waitFor({ timeout: 20000 });
  assert.match(await page.locator('[data-figure="remaining"]').innerText(), /\S/);
  // Every partition in the plan rebuilt, as the replayed run left it.
  const planned = await page.locator('.grid14 .pbox:not(.out):not(.tonight)').count();
  assert.ok(planned > 0);
  assert.equal(await page.locator('.grid14 .pbox.rebuilt').count(), planned);
  // The reader of a link is left where the page put them: the answer
  // coming does not take the focus (nor scroll to it).
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
  assert.equal(await page.getByRole('status').filter({ hasText: /Fetching|fetching/ }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the class page takes work before its grader has come, keeps it through a failed fetch, and grades it once the grader comes', async () => {
  const { page, context, errors, asked, gate } = await held('/class');
  const passing = CATALOGUE.find((e) => e.scenario === 1 && e.fails === null);
  const failing = CATALOGUE.find((e) => e.scenario === 2 && e.fails !== null);
  const design = (e) => JSON.parse(Buffer.from(e.link.split('#design=')[1], 'base64url').toString('utf8'));
  const work = JSON.stringify({
    format: 'partition-lab-work',
    version: 1,
    student: { name: 'Ada Lovelace', class: '' },
    scenarios: [{ scenario: 1, saved_at: 1764579600000, progress: '', design: design(passing) }],
  });
  const skipped = page.locator('.notice.warning li');
  const nothing = 'the pasted links: there was nothing to read: paste one link per line';
  // An empty box is said at once, with the grader still held back.
  await page.getByText('Or paste share links').click();
  const grade = page.getByRole('button', { name: 'Grade these links' });
  await grade.click();
  await skipped.filter({ hasText: nothing }).waitFor();
  // Handed in at once: the page takes the file and the links, and says
  // what it waits for; nothing is graded or tallied before the grader.
  await page.getByLabel(/Choose the students' work files/).setInputFiles({ name: 'ada.json', mimeType: 'application/json', buffer: Buffer.from(work) });
  const box = page.getByLabel(/One share link per line/);
  await box.fill(`Grace Hopper, ${env.url}${failing.link}\nsee you Monday`);
  await grade.click();
  await askedFor(page, asked, /\/split_marking\.wasm$/);
  const status = page.locator('.class-page .fetch-status');
  await status.filter({ hasText: 'Fetching the grader: what you hand in meanwhile is read and graded once it has come.' }).waitFor();
  assert.equal(await page.locator('.class-progress').count(), 0, 'nothing graded before the grader');
  assert.equal(await page.locator('table.class-students').count(), 0);
  // The links left the box as they were taken: pressing again hands in
  // nothing twice, and what is typed meanwhile stays the instructor's.
  assert.equal(await box.inputValue(), '');
  await grade.click();
  await page.waitForFunction((text) => [...document.querySelectorAll('.notice.warning li')].filter((li) => li.innerText === text).length === 2, nothing);
  const typed = `Alan Turing, ${env.url}${passing.link}`;
  await box.fill(typed);
  // The fetch fails: said where the instructor looks, what was handed in kept.
  gate.fail();
  const alert = page.getByRole('alert').filter({ hasText: 'The grader could not be fetched (check the connection). What you hand in is kept, and graded once it comes.' });
  await alert.waitFor();
  assert.equal(await page.locator('.class-progress').count(), 0);
  // The network is back: trying again fetches it, and what was handed in
  // is graded, once each.
  await page.unroute(CHUNK);
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.locator('.class-progress label').filter({ hasText: 'Graded all 2 designs.' }).waitFor({ timeout: 60000 });
  assert.equal(await alert.count(), 0);
  const rows = await page.locator('table.class-students tbody tr').allInnerTexts();
  assert.equal(rows.length, 2, rows.join('\n'));
  assert.ok(rows.some((r) => /^Ada Lovelace/.test(r)), rows.join('\n'));
  assert.ok(rows.some((r) => /^Grace Hopper/.test(r)), rows.join('\n'));
  // The line not read comes back to the box, after what was typed there.
  assert.equal(await box.inputValue(), `${typed}\nsee you Monday`);
  assert.ok((await skipped.allInnerTexts()).some((t) => t === 'line 2: no share link on it'));
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|net::ERR_FAILED|Failed to fetch/.test(e)), []);
  await context.close();
});
