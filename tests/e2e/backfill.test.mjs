// The currency-bug backfill lab in a real browser: the plan for every
// choice, the drift query, a full run, an interrupted run resumed with and
// without markers, copy buttons, the URL, reduced motion, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe, smallText, downloaded, tarFiles } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const figure = (page, name) => page.locator(`[data-figure="${name}"]`).innerText();
// Step 1's answer drawn: the lab's engine (a chunk of its own, fetched at
// the prediction) has come, so the grid and the Sunday's note say what it
// says.
const answered = (page) => page.locator('#guess-verdict').waitFor({ state: 'attached' });
const planFrom = (page) => page.getByRole('group', { name: 'The plan rebuilds from' });

/// Opens the practitioner's shelf, where the plan's commands are, and
/// waits for them (they come in a chunk of their own, src/ui/later.rs).
async function openCommands(page) {
  const shelf = page.locator('details#commands');
  if (!(await shelf.evaluate((d) => d.open))) await shelf.locator(':scope > summary').click();
  await shelf.locator('section[aria-labelledby="commands-heading"]').waitFor();
}

async function runToEnd(page) {
  // A run waits for the lab's engine (aria-disabled until it has come).
  const run = page.getByRole('button', { name: /^Run (the backfill|it again)$/ });
  await page.locator('#run-gate[hidden]').waitFor({ state: 'attached' });
  await run.click();
  await page.locator('.run-outcome').waitFor({ timeout: 20000 });
}

test('the default plan, the drift query and the grid', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill');
  // The page opens on the whole month, not on the answer.
  assert.equal(await planFrom(page).getByRole('radio', { name: 'the 1st' }).isChecked(), true);
  assert.equal(await figure(page, 'plan'), '13 silver partitions, 13 gold partitions, 4 waves, about 24 minutes');
  // The drift query answers only after a prediction (or a skip), and until
  // then the grid says only that each day was built: not by which code,
  // nor how far it drifts, nor whether the plan leaves it wrong.
  assert.equal(await page.locator('table.drift').isVisible(), false);
  // Not hidden but not drawn: the answer is made once asked for.
  assert.equal(await page.locator('#guess-verdict, table.drift, table.counts').count(), 0);
  assert.doesNotMatch(await figure(page, 'sunday'), /£/);
  const asking = await page.locator('.grid14 [role="group"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.equal(asking[0], 'Aug 01: built, in the plan');
  assert.equal(asking[2], 'Aug 03: built, in the plan');
  const gridText = await page.locator('.grid14').innerText();
  for (const word of ['broken', 'drift', '£', 'wrong', 'correct']) assert.ok(!gridText.includes(word), `${word} before the prediction: ${gridText}`);
  assert.equal(await page.getByRole('button', { name: 'Run the backfill' }).getAttribute('aria-disabled'), 'true');
  // Pressed anyway (it keeps its focus and says why): nothing starts.
  await page.getByRole('button', { name: 'Run the backfill' }).click({ force: true });
  assert.equal(await page.locator('.clock').innerText(), '', 'a run before the prediction does not start');
  assert.match(await page.locator('#run-gate').innerText(), /Predict the ship date in step 1 first/);
  await page.getByRole('button', { name: 'Skip the prediction' }).click();
  await page.waitForURL(/guess=skip/);
  assert.match(await figure(page, 'guess'), /^Prediction skipped\. The drift query's first row is 3 Aug/);
  const firstRow = await page.locator('table.drift tbody tr').first().innerText();
  assert.match(firstRow, /^2026-08-03/);
  assert.equal(await page.locator('table.drift tbody tr').count(), 11);
  // Beside it, what it cannot see: orders bronze has and silver never got.
  const counts = page.locator('table.counts[data-figure="row-counts"] tbody tr');
  assert.deepEqual((await counts.allInnerTexts()).map((t) => t.split(/\s+/)[0]), ['2026-08-03', '2026-08-08', '2026-08-09']);
  const reasons = await page.locator('.missing-orders li').allInnerTexts();
  assert.equal(reasons.length, 3);
  assert.match(reasons[0], /^o-20260803-\d+ \(£[\d,.]+\) arrived .+, after the run for 3 Aug \(Tue 4 Aug 02:00\) had built the day/);
  const names = await page.locator('.grid14 [role="group"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.equal(names.length, 14);
  assert.match(names[0], /^Aug 01: built by correct code, no drift, in the plan$/);
  assert.match(names[2], /^Aug 03: built by the broken code, drift £\d+\.\d\d, in the plan$/);
  assert.match(names[13], /^Aug 14: built tonight by the scheduled run with the fixed code$/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a prediction is checked against the drift query and never moves the plan', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=12');
  const guess = page.getByRole('group', { name: 'When do you think the bad code shipped?' });
  const lock = page.getByRole('button', { name: 'Lock in and run the drift query' });
  assert.equal(await lock.isDisabled(), true);
  await guess.getByRole('radio', { name: 'the 8th' }).check();
  await lock.click();
  const said = await figure(page, 'guess');
  assert.match(said, /^✗ Not this time: you said the 8th\. The drift query's first row is 3 Aug/);
  assert.match(said, /would leave 3 Aug to 7 Aug wrong\.$/);
  assert.equal(await page.locator('table.drift tbody tr').count(), 11);
  assert.equal(await planFrom(page).getByRole('radio', { name: 'the 12th' }).isChecked(), true);
  assert.match(page.url(), /from=12/);
  await page.getByRole('button', { name: 'Hide the result and predict again' }).click();
  await guess.getByRole('radio', { name: 'the 3rd' }).check();
  await lock.click();
  assert.match(await figure(page, 'guess'), /^✓ Right: you said the 3rd\./);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('every choice gives the cost model\'s summary', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill');
  for (const [from, n] of [['the 1st', 13], ['the 3rd', 11], ['the 8th', 6], ['the 12th', 2]]) {
    await planFrom(page).getByRole('radio', { name: from }).check();
    for (const c of [1, 4, 12]) {
      await page.getByRole('radio', { name: String(c), exact: true }).check();
      const waves = Math.ceil(n / Math.min(c, 4));
      const s = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
      await page.waitForFunction(
        (want) => document.querySelector('[data-figure="plan"]').textContent === want,
        `${s(n, 'silver partition')}, ${s(n, 'gold partition')}, ${s(waves, 'wave')}, about ${waves * 6} minutes`,
      );
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a plan from the 8th leaves the 3rd to the 7th flagged and still wrong afterwards', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=8');
  assert.equal(await page.locator('.pbox-warn').count(), 0, 'nothing is flagged before the prediction');
  await page.getByRole('group', { name: 'When do you think the bad code shipped?' }).getByRole('radio', { name: 'the 8th' }).check();
  await page.getByRole('button', { name: 'Lock in and run the drift query' }).click();
  await page.waitForURL(/guess=8/);
  // The grid marks what the engine says, once it has come.
  await answered(page);
  assert.equal(await page.locator('.pbox-warn').count(), 5);
  await runToEnd(page);
  assert.match(await figure(page, 'remaining'), /^£[\d,]+\.\d\d in total: 3 Aug/);
  assert.match(await page.locator('.outcome-headline').innerText(), /still wrong/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the full backfill makes August match its source and touches nothing else', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=3&concurrency=4&guess=skip');
  await runToEnd(page);
  assert.equal(await figure(page, 'remaining'), 'none');
  // The moment after the run is a link: it reopens with the same outcome.
  await page.waitForURL(/ran=end/);
  const again = await context.newPage();
  await again.goto(page.url());
  await again.locator('.run-outcome').waitFor();
  assert.equal(await again.locator('[data-figure="remaining"]').innerText(), 'none');
  assert.equal(await again.locator('[data-figure="restatement"]').innerText(), await page.locator('[data-figure="restatement"]').innerText());
  await again.close();
  assert.equal(await figure(page, 'needless'), '0');
  const [, now, truth] = (await figure(page, 'finance')).match(/now (£[\d,.]+) · truth (£[\d,.]+)/);
  assert.equal(now, truth);
  assert.match(await page.locator('.run-outcome').innerText(), /restated: all gold has landed/);
  // The note finance receives: the eleven corrected days, each old -> new,
  // and the month's total, which is the truth the figure above shows.
  // Each change is split into the currency fix (what the drift query
  // found) and the orders silver never had (what the row counts found).
  const note = await page.locator('[data-figure="restatement"] li').allInnerTexts();
  assert.equal(note.length, 13);
  assert.equal(note[0], 'Restatement of August 2026 (1–13 Aug): 11 daily totals corrected: +£360.79 from the currency-conversion fix and +£398.35 from 3 orders the daily runs had missed (in bronze, never in silver).');
  assert.match(note[1], /^3 Aug: £[\d,.]+ → £[\d,.]+ \(\+£[\d,.]+: \+£[\d,.]+ currency fix, \+£[\d,.]+ from 1 order missing\)$/);
  assert.match(note[2], /^4 Aug: £[\d,.]+ → £[\d,.]+ \(\+£[\d,.]+: \+£[\d,.]+ currency fix\)$/);
  const [, newTotal] = note[12].match(/→ (£[\d,.]+) \(/);
  assert.equal(newTotal, truth);
  // The run drawn on the pool: 11 dates x (silver, gold) on 4 connections.
  const pool = page.locator('figure[data-figure="pool"]');
  assert.equal(await pool.locator('.pool-lane').count(), 4);
  assert.equal(await pool.locator('.pool-bar.silver').count(), 11);
  assert.equal(await pool.locator('.pool-bar.gold').count(), 11);
  await pool.getByText('The timeline in words').click();
  assert.match(await pool.locator('.pool-rows li').first().innerText(), /^3 Aug silver, 10:00 to 10:04, connection 1$/);
  // A rebuilt partition says so: it no longer reads "broken code".
  assert.equal(await page.locator('.pbox-built', { hasText: 'broken code' }).count(), 0);
  assert.equal(await page.locator('.pbox-built', { hasText: 'rebuilt, fixed code' }).count(), 11);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

// SPEC 11's day corrected to empty: Sunday the 9th withdrawn by the
// source after the daily run built it. The count against bronze finds it
// before any run; a rebuild that replaces every date it targets empties
// it and finance lands on the truth; switching the writer to Spark's
// dynamic overwrite (chosen by the keyboard) keeps the 120 orders and
// finance stays over the truth by exactly what they are worth.
test('a Sunday withdrawn by the source: emptied by a targeted overwrite, kept by a dynamic one', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=1&sunday=withdrawn&guess=skip');
  await answered(page);
  const [, held] = (await figure(page, 'sunday')).match(/all 120 orders dated the 9th were its load test's\. The source team deleted them from bronze Thu 13 Aug 16:00\. Silver still holds (\d+) orders \(£[\d,.]+\)/);
  const counts = page.locator('table[data-figure="row-counts"]');
  const sundayRow = await counts.locator('tr', { has: page.locator('th', { hasText: '2026-08-09' }) }).locator('td').allInnerTexts();
  assert.deepEqual(sundayRow, ['0', held, '0', held]);
  assert.match(await page.locator('.missing-orders').innerText(), new RegExp(`${held} orders \\(£[\\d,.]+\\) are in silver and no longer in bronze: the source withdrew them Thu 13 Aug 16:00`));
  await runToEnd(page);
  assert.equal(await figure(page, 'remaining'), 'none');
  const totals = async () => (await figure(page, 'finance')).match(/now (£[\d,.]+) · truth (£[\d,.]+)/).slice(1);
  const [now, truth] = await totals();
  assert.equal(now, truth);
  const note = await page.locator('[data-figure="restatement"] li').allInnerTexts();
  assert.match(note[0], new RegExp(`, \\+£[\\d,.]+ from \\d+ orders the daily runs had missed \\(in bronze, never in silver\\) and -£[\\d,.]+ from ${held} orders bronze no longer holds \\(withdrawn by the source\\)`));
  assert.ok(note.some((l) => new RegExp(`^9 Aug: £[\\d,.]+ → £0\\.00 \\(-£[\\d,.]+: £0\\.00 currency fix, -£[\\d,.]+ from ${held} orders withdrawn\\)$`).test(l)), note.join('\n'));
  // The other writer, picked with the keyboard: August untouched again.
  const writer = page.getByRole('group', { name: "The rebuild's overwrite replaces" });
  await writer.getByRole('radio', { name: 'every date it rebuilds' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForURL(/writer=dynamic/);
  assert.equal(await writer.getByRole('radio', { name: 'only dates it writes rows to' }).isChecked(), true);
  assert.match(await figure(page, 'sunday'), /replaces only the dates it writes rows to leaves the 9th alone/);
  await runToEnd(page);
  const kept = await figure(page, 'kept');
  const [, worth] = kept.match(new RegExp(`^9 Aug still holds ${held} orders \\((£[\\d,.]+)\\): its rebuild read no rows from bronze`));
  assert.match(await page.locator('.outcome-headline').innerText(), /still wrong/);
  const [now2, truth2] = await totals();
  assert.equal(truth2, truth);
  const pence = (m) => Math.round(Number(m.replace(/[£,]/g, '')) * 100);
  assert.equal(pence(now2) - pence(truth2), pence(worth), `${now2} over ${truth2} by the Sunday's ${worth}`);
  // The Spark job shown is the dynamic one; the dbt rebuild is the same.
  await openCommands(page);
  const spark = await page.locator('.command', { has: page.getByRole('heading', { name: /Spark/ }) }).first().innerText();
  assert.match(spark, /replaced only where a write has rows \(dynamic overwrite\)/);
  assert.doesNotMatch(spark, /drop if exists partition/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

for (const markers of ['on', 'off']) {
  test(`interrupted in the second wave, then re-run with markers ${markers}`, async () => {
    const { page, errors, context } = await openPage(env, `/lab/backfill?from=3&markers=${markers}&guess=skip`);
    await page.getByRole('button', { name: 'Run the backfill' }).click();
    await page.waitForFunction(() => /wave 2 of 3/.test(document.querySelector('.clock').textContent), null, { timeout: 10000 });
    await page.getByRole('button', { name: /^Interrupt/ }).click();
    await page.locator('.run-outcome').waitFor();
    assert.match(await page.locator('.outcome-headline').innerText(), /interrupted/);
    // The interrupted moment is a link too: the same partitions done, the same headline.
    await page.waitForURL(/ran=\d+/);
    const grid = (p) => p.locator('.grid14 [role="group"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    const interrupted = await context.newPage();
    await interrupted.goto(page.url());
    await interrupted.locator('.run-outcome').waitFor();
    assert.match(await interrupted.locator('.outcome-headline').innerText(), /interrupted/);
    assert.deepEqual(await grid(interrupted), await grid(page));
    await interrupted.close();
    await runToEnd(page);
    await page.waitForURL(/ran=\d+,end/);
    assert.equal(await figure(page, 'remaining'), 'none');
    const twice = Number(await figure(page, 'twice'));
    if (markers === 'on') {
      assert.ok(twice <= 4, `${twice} partitions rebuilt twice: only the ones in flight may be`);
      assert.ok((await page.locator('.pbox-marker').count()) === 11);
    } else {
      assert.ok(twice >= 4, `${twice}: without markers the finished first wave is rebuilt`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('copy buttons put the plan\'s commands on the clipboard', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.url}/lab/backfill?from=12&concurrency=1`);
  await page.waitForSelector('main h1');
  await openCommands(page);
  const airflow = page.locator('.command', { has: page.getByRole('heading', { name: 'Airflow' }) });
  await airflow.getByRole('button', { name: 'Copy' }).click();
  await airflow.getByRole('status').filter({ hasText: 'Airflow copied.' }).waitFor();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(text, /airflow backfill create --dag-id marlow_orders_daily/);
  assert.match(text, /--from-date 2026-08-12T02:00:00\+00:00 --to-date 2026-08-13T02:00:00\+00:00/);
  assert.match(text, /--max-active-runs 1 --reprocess-behavior completed/);
  assert.match(await airflow.innerText(), /For Apache Airflow 3\.3/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('reduced motion runs the backfill without animating', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${env.url}/lab/backfill?concurrency=1&guess=skip`);
  await page.waitForSelector('main h1');
  // Record every text the run's clock ever shows: an animated run ticks
  // through its minutes there ("Backfill running: … wave 1 of 11 …").
  const watch = () => {
    window.clockTexts = [];
    const clock = document.querySelector('.clock');
    new MutationObserver(() => window.clockTexts.push(clock.textContent)).observe(clock, { childList: true, characterData: true, subtree: true });
  };
  await page.evaluate(watch);
  await page.getByRole('button', { name: 'Run the backfill' }).click();
  await page.locator('.run-outcome').waitFor();
  assert.deepEqual(await page.evaluate(() => window.clockTexts.filter((t) => t.includes('Backfill running'))), [],
    'with reduced motion the run jumps to its end: no minute of it is drawn');
  assert.match(await page.locator('.run-outcome').innerText(), /\S/);
  await context.close();
  // The same page without the preference does animate: the clock runs.
  const moving = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const other = await moving.newPage();
  await other.goto(`${env.url}/lab/backfill?concurrency=1&guess=skip`);
  await other.waitForSelector('main h1');
  await other.evaluate(watch);
  await other.getByRole('button', { name: 'Run the backfill' }).click();
  await other.waitForFunction(() => window.clockTexts.some((t) => t.includes('Backfill running')));
  await moving.close();
});

test('the URL carries the choices; a tampered one falls back with a note', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=12&concurrency=1&markers=off');
  assert.equal(await planFrom(page).getByRole('radio', { name: 'the 12th' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: '1', exact: true }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: 'off' }).isChecked(), true);
  // A link from before the plan's start had its own name still works.
  await page.goto(`${env.url}/lab/backfill?ship=8`);
  await page.waitForSelector('main h1');
  assert.equal(await planFrom(page).getByRole('radio', { name: 'the 8th' }).isChecked(), true);
  await page.goto(`${env.url}/lab/backfill?from=2&concurrency=99&markers=maybe`);
  await page.waitForSelector('main h1');
  const notice = await page.locator('.notice').innerText();
  for (const bit of ['from=2', 'concurrency=99', 'markers=maybe']) assert.ok(notice.includes(bit), bit);
  // Each falls back to the page's own default: the whole month, four at a time, markers on.
  assert.equal(await figure(page, 'plan'), '13 silver partitions, 13 gold partitions, 4 waves, about 24 minutes');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the backfill lab fits a phone', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill', { width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  // A run's pool chart and grid, drawn on the phone, every word 12 px or more.
  await page.goto(`${env.url}/lab/backfill?from=3&concurrency=12&guess=skip&ran=end`);
  await page.locator('figure[data-figure="pool"] .pool-queue').first().waitFor();
  const small = await smallText(page, 12);
  assert.deepEqual(small, [], `text under 12 px: ${JSON.stringify(small.slice(0, 8))}`);
  // Its tables fit too: nothing to scroll sideways inside a table's frame.
  assert.ok(await page.locator('.table-wrap table').count() >= 2, 'the drift and row-count tables are drawn');
  const wide = await page.locator('.table-wrap').evaluateAll((frames) => frames
    .map((f) => [f.querySelector('caption')?.textContent, f.scrollWidth - f.clientWidth])
    .filter(([, over]) => over > 0));
  assert.deepEqual(wide, [], 'tables wider than their frame');
  // The run's facts stack on a phone: a value never squeezed into a sliver
  // ("befor / e £173 / ,887." when it stood beside its name).
  const widths = await page.locator('.run-outcome .facts dd').evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect().width));
  assert.ok(widths.length > 0 && Math.min(...widths) > 250, `facts values ${widths.map(Math.round)} px wide`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('twelve at once on four connections: the other seven are drawn queueing, as the text says', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?from=3&concurrency=12&guess=skip&ran=end');
  await page.locator('.run-outcome').waitFor();
  assert.match(await page.locator('section[aria-labelledby="plan-heading"] .muted').first().innerText(), /more than 4 at once only queues/);
  const pool = page.locator('figure[data-figure="pool"]');
  assert.equal(await pool.locator('.pool-lane').count(), 4, 'still four connections');
  const queue = pool.locator('.pool-queue');
  assert.deepEqual(await queue.locator('text').allTextContents(), ['7 waiting', '3 waiting']);
  const said = await pool.locator('desc').textContent();
  assert.match(said, /From 10:00 to 10:06, 7 dates under way waited for a connection \(7 Aug to 13 Aug\)\./);
  assert.match(said, /From 10:06 to 10:12, 3 dates under way waited for a connection \(11 Aug to 13 Aug\)\./);
  assert.doesNotMatch(said, /Nothing waited/);
  // Four at a time asks for no more than the pool: nothing queues.
  await page.goto(`${env.url}/lab/backfill?from=3&concurrency=4&guess=skip&ran=end`);
  await page.locator('.run-outcome').waitFor();
  assert.equal(await pool.locator('.pool-queue').count(), 0);
  assert.match(await pool.locator('desc').textContent(), /Nothing waited for a connection/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the plan downloads as a runnable project made for the plan chosen, never written into the page', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill');
  await openCommands(page);
  const link = page.getByRole('link', { name: /^Download this plan as a runnable project/ });
  const project = async () => {
    const file = await downloaded(link);
    const root = file.name.replace(/\.tar$/, '');
    const files = tarFiles(file.bytes);
    return { name: file.name, sh: files.get(`${root}/airflow/backfill.sh`), run: files.get(`${root}/airflow/run_plan.sh`), files };
  };
  // The page shows the Airflow commands; the project runs the same ones.
  const shown = () => page.locator('.command', { hasText: 'airflow backfill create' }).locator('pre').innerText();
  const first = await project();
  assert.equal(first.name, 'partition-lab-backfill-2026-08-01.tar');
  for (const f of ['airflow/dags/marlow_orders_daily.py', 'airflow/backfill.sh', 'airflow/run_plan.sh', 'airflow/load_raw.py', 'rebuild.sh', 'load_history.py', 'sqlmesh/restate.sh', 'sqlmesh/history/models/silver_orders.sql', 'dagster/launch.sh', 'drift/drift.sql', 'README.txt']) {
    assert.ok(first.files.has(`partition-lab-backfill-2026-08-01/${f}`), f);
  }
  // With no scheduler the same plan's days run one manual run each, each
  // asked for at the end of its day's interval.
  assert.match(first.run, /for run in 2026-08-02T02:00:00\+00:00 .* 2026-08-14T02:00:00\+00:00; do airflow dags test marlow_orders_daily/);
  assert.match(first.sh, /--from-date 2026-08-01T02:00:00\+00:00 --to-date 2026-08-13T02:00:00\+00:00 \\\n\s+--max-active-runs 4 /);
  assert.ok(first.sh.includes((await shown()).trim()), 'backfill.sh runs the commands the page shows');
  // Another plan: the file made for the first one comes off the link at
  // once, and the next download is the new plan's.
  await planFrom(page).getByText('the 8th', { exact: true }).click();
  await page.getByRole('group', { name: 'Partitions rebuilt at once' }).getByText('12', { exact: true }).click();
  await page.waitForURL(/from=8/);
  assert.equal(await link.getAttribute('href'), '#', 'the old plan\'s file stays on the link');
  const second = await project();
  assert.equal(second.name, 'partition-lab-backfill-2026-08-08.tar');
  assert.match(second.sh, /--from-date 2026-08-08T02:00:00\+00:00 --to-date 2026-08-13T02:00:00\+00:00 \\\n\s+--max-active-runs 12 /);
  assert.ok(second.sh.includes((await shown()).trim()));
  // The page never holds a project, or any file, in an address of its own.
  assert.equal(await page.locator('a[href^="data:"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

// SPEC 14: another August, where the chapter's text cannot give the ship
// date away. Fresh data moves it; the guesses, the drift query and a run
// follow the variant's own data; a student's class code and name give the
// same August in any browser, and another student's differs.
test('fresh data and a class\'s August move the ship date: only the data tells', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill');
  const whose = page.locator('[data-figure="whose-data"]');
  assert.match(await whose.innerText(), /^These are the chapter's figures/);
  const guesses = () => page.getByRole('group', { name: 'When do you think the bad code shipped?' }).locator('label').allInnerTexts();
  assert.deepEqual(await guesses(), ['the 3rd', 'the 8th', 'the 12th']);
  // No class code on this browser: no class's August to offer.
  assert.equal(await page.getByRole('button', { name: /Use my own data/ }).count(), 0);
  await page.getByRole('button', { name: 'Fresh data', exact: true }).click();
  await page.waitForURL(/variant=\d+/);
  const variant = new URL(page.url()).searchParams.get('variant');
  assert.match(await whose.innerText(), new RegExp(`^Data variant ${variant}: the bug shipped on a day only the data can tell you`));
  const offered = await guesses();
  assert.equal(offered.length, 3);
  assert.ok(offered.includes('the 8th'), `${offered}`);
  // Still nothing told before the prediction.
  const gridText = await page.locator('.grid14').innerText();
  for (const word of ['broken', 'drift', '£']) assert.ok(!gridText.includes(word), `${word} before the prediction`);
  assert.equal(await planFrom(page).getByRole('radio').count(), 4);
  // The deploy log's 8th, locked in: the data says otherwise, and its
  // first row is one of the days offered.
  await page.getByRole('group', { name: 'When do you think the bad code shipped?' }).getByRole('radio', { name: 'the 8th' }).check();
  await page.getByRole('button', { name: 'Lock in and run the drift query' }).click();
  const said = await figure(page, 'guess');
  const [, ship] = said.match(/^✗ Not this time: you said the 8th\. The drift query's first row is (\d) Aug: the broken code built every partition from \1 Aug to 13 Aug\./).map(Number);
  assert.ok(ship >= 2 && ship <= 6, `the bug ships early in the month: ${said}`);
  const shipLabel = offered.find((o) => o.startsWith(`the ${ship}`));
  assert.ok(shipLabel, `the answer was on offer: ${offered}`);
  assert.match(said, new RegExp(`would leave ${ship} Aug to 7 Aug wrong\\.$`));
  const rows = page.locator('table.drift tbody tr');
  assert.equal(await rows.count(), 13 - ship + 1);
  assert.match(await rows.first().innerText(), new RegExp(`^2026-08-0${ship}`));
  await planFrom(page).getByRole('radio', { name: shipLabel }).check();
  await page.waitForURL(new RegExp(`variant=${variant}&from=${ship}&`));
  // A plan from the variant's ship date mends its August.
  await runToEnd(page);
  assert.equal(await figure(page, 'remaining'), 'none');
  assert.equal(await figure(page, 'needless'), '0');
  const [, now, truth] = (await figure(page, 'finance')).match(/now (£[\d,.]+) · truth (£[\d,.]+)/);
  assert.equal(now, truth);
  // The link keeps this August, its guess and its run.
  const again = await context.newPage();
  await again.goto(page.url());
  await again.locator('.run-outcome').waitFor();
  assert.equal(await again.locator('[data-figure="remaining"]').innerText(), 'none');
  assert.match(await again.locator('[data-figure="guess"]').innerText(), /^✗ Not this time: you said the 8th/);
  await again.close();
  let violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  // Back to the chapter's: the 3rd again, the lab started over.
  await page.getByRole('button', { name: 'Back to the chapter\'s data' }).click();
  await page.waitForURL((url) => !url.search.includes('variant='));
  assert.ok(!page.url().includes('guess='), 'another August starts the lab over');
  assert.deepEqual(await guesses(), ['the 3rd', 'the 8th', 'the 12th']);
  assert.deepEqual(errors, []);
  await context.close();

  // A class's students: the same name gives the same August in another
  // browser (typed differently); another name gives another variant.
  const classVariant = async (name, klass) => {
    const opened = await openPage(env, '/lab/backfill');
    await opened.page.evaluate(([n, c]) => {
      localStorage.setItem('partition-lab/student/name', n);
      localStorage.setItem('partition-lab/student/class', c);
    }, [name, klass]);
    // With a class code kept, the lab opens on the student's own data.
    await opened.page.reload();
    await opened.page.waitForURL(/variant=\d+/);
    await opened.page.locator('[data-figure="whose-data"]').waitFor();
    assert.equal(await opened.page.getByRole('button', { name: /^Use my own data/ }).count(), 0);
    // Back to the chapter's, then their own again, from the keyboard.
    await opened.page.getByRole('button', { name: 'Back to the chapter\'s data' }).click();
    await opened.page.waitForURL((url) => !url.search.includes('variant='));
    assert.equal(await opened.page.evaluate(() => document.activeElement?.id), 'fresh-data', 'focus stays in the chooser');
    await opened.page.getByRole('button', { name: /^Use my own data \(class / }).focus();
    await opened.page.keyboard.press('Enter');
    await opened.page.waitForURL(/variant=\d+/);
    const said = await opened.page.locator('[data-figure="whose-data"]').innerText();
    const v = new URL(opened.page.url()).searchParams.get('variant');
    violations = await axe(opened.page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    assert.deepEqual(opened.errors, []);
    await opened.context.close();
    return { said, v };
  };
  const ada = await classVariant('Ada Lovelace', 'DATA-101');
  assert.match(ada.said, /^Your own data \(class DATA-101, Ada Lovelace\): the bug shipped on a day only the data can tell you/);
  const adaElsewhere = await classVariant('  ada   lovelace ', 'data-101');
  assert.equal(adaElsewhere.v, ada.v, 'the same student, the same August anywhere');
  const grace = await classVariant('Grace Hopper', 'DATA-101');
  assert.notEqual(grace.v, ada.v, 'two students of one class differ');
});
