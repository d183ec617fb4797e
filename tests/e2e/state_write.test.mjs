// The State x Write lab in a real browser: the SPEC 4 outcome table on
// screen, scrubbing by mouse and keyboard, every control, the prediction,
// the URL round-trip, bad links, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, openPage, axe, smallText, tarFiles } from './browser.mjs';

const CELLS = ['Watermark + Append', 'Watermark + Overwrite', 'Partition list + Append', 'Partition list + Overwrite', 'Trailing window + Overwrite', 'Full refresh'];

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

/** Rows per day Mon..Sun in a cell, read from the partition boxes' accessible names. */
async function rowsPerDay(page, cell) {
  const names = await page.getByRole('region', { name: cell, exact: true }).locator('.partition')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.equal(names.length, 7, `${cell} shows seven partitions`);
  return names.map((n) => Number(n.match(/: (\d+) rows?/)[1]));
}

async function table(page) {
  const out = {};
  for (const cell of CELLS) out[cell] = await rowsPerDay(page, cell);
  return out;
}

function query(page) {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

async function reveal(page, ...picks) {
  for (const pick of picks.length ? picks : ['Watermark + Overwrite']) {
    await page.getByRole('checkbox', { name: pick, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).click();
  await page.waitForURL(/predict=/);
}

/** Everything on the page that would tell the pipelines apart. */
async function answers(page) {
  return page.evaluate(() => ({
    verdicts: document.querySelectorAll('.cells .verdict').length,
    missing: document.querySelectorAll('.cells .chip.missing').length,
    duplicates: document.querySelectorAll('.cells .chip.dup').length,
    failedChecks: document.querySelectorAll('.cells .checks li.fail').length,
    deleted: document.querySelectorAll('.cells .facts dd.alarm').length,
  }));
}

function verdictText(page, cell) {
  return page.getByRole('region', { name: cell, exact: true }).locator('.verdict').innerText();
}

/// Opens the folded settings ("Try another week"), as a student does.
async function openSettings(page) {
  const settings = page.locator('details#settings');
  if (!(await settings.evaluate((d) => d.open))) await settings.locator(':scope > summary').click();
}

test('the default week shows SPEC 4\'s outcome table at the last run', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?predict=skip');
  assert.deepEqual(await table(page), {
    'Watermark + Append': [5, 4, 8, 4, 4, 4, 4],
    'Watermark + Overwrite': [1, 4, 4, 4, 4, 4, 4],
    'Partition list + Append': [9, 12, 12, 8, 8, 8, 4],
    'Partition list + Overwrite': [5, 4, 4, 4, 4, 4, 4],
    'Trailing window + Overwrite': [5, 4, 4, 4, 4, 4, 4],
    'Full refresh': [5, 4, 4, 4, 4, 4, 4],
  });
  const wa = page.getByRole('region', { name: 'Watermark + Append', exact: true });
  await wa.getByRole('group', { name: 'Wed 2026-06-03: 8 rows, 4 duplicates' }).waitFor();
  const wo = page.getByRole('region', { name: 'Watermark + Overwrite', exact: true });
  await wo.getByRole('group', { name: 'Mon 2026-06-01: 1 row, 4 missing' }).waitFor();
  assert.equal(await page.locator('.current-run').innerText(), 'Run 8: Mon 00:15, for Sun 06-07');
  assert.deepEqual(errors, []);
  await context.close();
});

test('before the prediction nothing tells the pipelines apart; locking in keeps the run and makes a link', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write');
  // It opens at the start of the week, and the week stops at the last run
  // every pipeline has in common: here run 1.
  assert.match(await page.locator('.current-run').innerText(), /^Run 1: /);
  assert.deepEqual(await answers(page), { verdicts: 0, missing: 0, duplicates: 0, failedChecks: 0, deleted: 0 });
  assert.equal(await page.getByRole('button', { name: 'Next', exact: true }).isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: /Run 2:/ }).getAttribute('aria-disabled'), 'true');
  // Every cell is the same at the run on show.
  const tables = new Set();
  for (const cell of CELLS) tables.add(JSON.stringify(await rowsPerDay(page, cell)));
  assert.equal(tables.size, 1);
  // A link to a later run waits for the prediction too, and says so.
  await page.goto(`${env.url}/lab/state-write?run=8`);
  await page.waitForSelector('main h1');
  assert.match(await page.locator('.current-run').innerText(), /^Run 1: /);
  assert.match(await page.locator('.notice').innerText(), /Run 8 is shown once you have predicted/);
  assert.deepEqual(await answers(page), { verdicts: 0, missing: 0, duplicates: 0, failedChecks: 0, deleted: 0 });
  assert.equal(await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).isDisabled(), true);

  await reveal(page, 'Watermark + Overwrite');
  assert.match(await page.locator('.current-run').innerText(), /^Run 1: /, 'locking in keeps the run on show');
  assert.equal(query(page).predict, 'watermark_overwrite');
  assert.match(await page.locator('.prediction-result').innerText(), /^✓ Right: you picked Watermark \+ Overwrite/);
  await page.getByRole('button', { name: 'Last', exact: true }).click();
  await page.waitForURL(/run=8/);
  const silent = await verdictText(page, 'Watermark + Overwrite');
  assert.match(silent, /Silent loss/);
  assert.match(silent, /o-101, o-102, o-103 and o-104 gone/);
  assert.match(silent, /run 2 \(for Tue 06-02\) overwrote Mon/);
  assert.match(silent, /Rows read in total: 33/);
  assert.match(await verdictText(page, 'Watermark + Append'), /Loud[\s\S]*unique\(order_id\) fails/);
  assert.match(await verdictText(page, 'Partition list + Append'), /Loud/);
  assert.match(await verdictText(page, 'Partition list + Overwrite'), /Correct/);
  assert.match(await verdictText(page, 'Full refresh'), /Correct[\s\S]*Rows read in total: 131/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  // The moment after the reveal is a link: it reopens with the same feedback and verdicts.
  const link = page.url();
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForSelector('.verdict');
  assert.match(await other.locator('.prediction-result').innerText(), /^✓ Right: you picked Watermark \+ Overwrite/);
  assert.equal(await other.locator('.verdict').count(), 6);
  await other.close();

  await page.getByRole('button', { name: 'Hide the verdicts and predict again' }).click();
  await page.waitForFunction(() => !location.search.includes('predict='));
  assert.deepEqual(await answers(page), { verdicts: 0, missing: 0, duplicates: 0, failedChecks: 0, deleted: 0 });
  await reveal(page, 'Full refresh');
  assert.match(await page.locator('.prediction-result').innerText(), /^✗ Not this time/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the scheduler down Wed to Fri: the trailing window never builds the days it passed, the list catches up, catch-up saves both', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?late=off&crash=off&lookback=1&down=wed-fri&catchup=off');
  // Before the prediction the holes are not drawn: every cell the same.
  assert.deepEqual(await answers(page), { verdicts: 0, missing: 0, duplicates: 0, failedChecks: 0, deleted: 0 });
  const week = page.locator('details.week');
  assert.match(await week.locator('.outage-note').innerText(), /down from Wed 00:00 to Fri 09:00: no run starts in between; then it carries on with the next scheduled run, and the runs it missed never happen/);
  const runsFor = (day) => week.locator('tbody tr').filter({ hasText: day }).locator('td').last().innerText();
  assert.equal(await runsFor('Tue 06-02'), '✕ no run: due Wed 00:15, the scheduler was down');
  assert.equal(await runsFor('Fri 06-05'), 'Run 2: Sat 00:15');
  await page.getByRole('button', { name: 'Skip the prediction', exact: true }).click();
  await page.waitForURL(/predict=skip/);
  await page.getByRole('button', { name: 'Last', exact: true }).click();
  const window = 'Trailing window + Overwrite';
  assert.deepEqual(await rowsPerDay(page, window), [4, 0, 0, 4, 4, 4, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Overwrite'), [4, 4, 4, 4, 4, 4, 4]);
  const said = await verdictText(page, window);
  assert.match(said, /Loud/);
  assert.match(said, /o-201, o-202, o-203 and o-204 never reached silver: Tue 06-02 was never built, because its run was due Wed 00:15, while the scheduler was down \(Wed 00:00 to Fri 09:00\)\. The first run back \(Sat 00:15, for Fri 06-05\) built only Thu and Fri/);
  assert.match(said, /o-301, o-302, o-303 and o-304 never reached silver: Wed 06-03 was never built/);
  assert.match(await verdictText(page, 'Partition list + Overwrite'), /Correct/);
  // Catch-up: the scheduler runs what it missed when it is back, in order.
  await page.getByRole('radio', { name: 'it catches up the missed runs first' }).check();
  await page.waitForURL(/catchup=on/);
  assert.match(await week.locator('.outage-note').innerText(), /then it catches up: it first runs every run it missed/);
  assert.equal(await runsFor('Tue 06-02'), 'Run 2: Fri 09:01 (catch-up)');
  assert.equal(await runsFor('Thu 06-04'), 'Run 4: Fri 09:03 (catch-up)');
  await page.getByRole('button', { name: 'Last', exact: true }).click();
  assert.deepEqual(await rowsPerDay(page, window), [4, 4, 4, 4, 4, 4, 4]);
  assert.match(await verdictText(page, window), /Correct/);
  // The link holds the outage.
  const q = query(page);
  assert.equal(`${q.down} ${q.catchup}`, 'wed-fri on');
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('three silent pipelines: the question takes several, and the feedback says which were found', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?late=wed');
  assert.match(await page.locator('.predict legend').innerText(), /there can be more than one/);
  await reveal(page, 'Watermark + Overwrite');
  assert.match(await page.locator('.prediction-result').innerText(),
    /^◐ Partly: you picked Watermark \+ Overwrite\. With these settings the silent ones are Watermark \+ Overwrite, Partition list \+ Overwrite and Trailing window \+ Overwrite\. So you found Watermark \+ Overwrite, missed Partition list \+ Overwrite and Trailing window \+ Overwrite\./);
  await page.getByRole('button', { name: 'Hide the verdicts and predict again' }).click();
  await reveal(page, 'Watermark + Overwrite', 'Partition list + Overwrite', 'Trailing window + Overwrite');
  assert.equal(query(page).predict, 'watermark_overwrite,partition_list_overwrite,trailing_window_overwrite');
  assert.match(await page.locator('.prediction-result').innerText(), /^✓ Right/);
  // "None of them" is the one choice that excludes the others.
  await page.getByRole('button', { name: 'Hide the verdicts and predict again' }).click();
  await page.getByRole('checkbox', { name: 'Full refresh', exact: true }).check();
  await page.getByRole('checkbox', { name: 'none of them' }).check();
  assert.equal(await page.getByRole('checkbox', { name: 'Full refresh', exact: true }).isChecked(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an instructor can skip the prediction', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write');
  await page.getByRole('button', { name: 'Skip the prediction' }).click();
  await page.waitForURL(/predict=skip/);
  assert.match(await page.locator('.prediction-result').innerText(), /Prediction skipped/);
  await page.getByRole('button', { name: 'Last', exact: true }).click();
  await page.locator('.verdict').first().waitFor();
  assert.equal(await page.locator('.verdict').count(), 6);
  // Skipping holds when the controls change; a guess would not.
  await openSettings(page);
  await page.getByRole('radio', { name: 'arrives Wed 03:10' }).check();
  await page.waitForURL(/late=wed/);
  assert.equal(query(page).predict, 'skip');
  assert.deepEqual(errors, []);
  await context.close();
});

test('full refresh reads 4, 9, 13, 13, 17, 21, 25, 29 rows, run by run, scrubbed with the keyboard', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?predict=skip');
  const slider = page.getByLabel('Run', { exact: true });
  await slider.focus();
  await page.keyboard.press('Home');
  const reads = [];
  for (let run = 1; run <= 8; run += 1) {
    await page.waitForFunction((n) => new URL(location.href).searchParams.get('run') === String(n), run);
    const text = await page.getByRole('region', { name: 'Full refresh', exact: true }).locator('.facts dd').nth(2).innerText();
    reads.push(Number(text.match(/^(\d+) rows?/)[1]));
    await page.keyboard.press('ArrowRight');
  }
  assert.deepEqual(reads, [4, 9, 13, 13, 17, 21, 25, 29]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('after run 2 the watermark cell has replaced Monday with o-105 alone', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?run=1&predict=skip');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/run=2/);
  const wo = page.getByRole('region', { name: 'Watermark + Overwrite', exact: true });
  await wo.getByRole('group', { name: 'Mon 2026-06-01: 1 row, 4 missing' }).waitFor();
  assert.match(await wo.locator('.facts').innerText(), /Deleted\s+o-101, o-102, o-103, o-104/);
  await page.getByRole('button', { name: /^Run 3:.*crashed/ }).click();
  await page.waitForURL(/run=3/);
  assert.match(await wo.locator('.incident').innerText(), /Crashed after writing and before saving its state/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('each control changes the outcome the way hand-derived runs say', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?predict=skip');
  // The default week keeps its settings folded until asked for.
  assert.equal(await page.locator('details#settings').evaluate((d) => d.open), false);
  await openSettings(page);
  // Lookback 0: the list with overwrite never re-reads Monday, so o-105 is lost too.
  await page.getByRole('radio', { name: '0 days' }).check();
  await page.waitForURL(/lookback=0/);
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Overwrite'), [4, 4, 4, 4, 4, 4, 4]);
  // Without a lookback, append only doubles the retried Wednesday.
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Append'), [4, 4, 8, 4, 4, 4, 4]);
  await page.getByRole('radio', { name: '1 day' }).check();
  // Late order on Wednesday with lookback 1: the watermark appends o-105 twice (crashed run + retry),
  // the list appends Monday twice and still misses o-105.
  await page.getByRole('radio', { name: 'arrives Wed 03:10' }).check();
  await page.waitForURL(/late=wed/);
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Append'), [6, 4, 8, 4, 4, 4, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Append'), [8, 12, 12, 8, 8, 8, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Overwrite'), [4, 4, 4, 4, 4, 4, 4]);
  // Late on Friday, lookback 2: still out of reach of every run that re-reads Monday.
  await page.getByRole('radio', { name: 'arrives Fri 03:10' }).check();
  await page.getByRole('radio', { name: '2 days' }).check();
  await page.waitForURL(/late=fri.*lookback=2|lookback=2.*late=fri/);
  await page.getByRole('region', { name: 'Partition list + Overwrite', exact: true })
    .getByRole('group', { name: 'Mon 2026-06-01: 4 rows, 1 missing' }).waitFor();
  // No crash: the watermark with append is now correct; with overwrite it still loses Monday.
  await page.getByRole('radio', { name: 'arrives Tue 03:10' }).check();
  await page.getByRole('radio', { name: 'runs cleanly' }).check();
  await page.waitForURL(/crash=off/);
  assert.equal(query(page).run, '7', 'the last of seven runs stays selected');
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Append'), [5, 4, 4, 4, 4, 4, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Overwrite'), [1, 4, 4, 4, 4, 4, 4]);
  // State saved before the write, with the crash: the watermark never writes Wednesday.
  await page.getByRole('radio', { name: 'crashes, retried at 00:20' }).check();
  await page.getByRole('radio', { name: 'before the write' }).check();
  await page.waitForURL(/commit=before/);
  await page.getByRole('button', { name: 'Last', exact: true }).click();
  await page.waitForURL(/run=8/);
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Append'), [5, 4, 0, 4, 4, 4, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Overwrite'), [1, 4, 0, 4, 4, 4, 4]);
  assert.deepEqual(await rowsPerDay(page, 'Partition list + Overwrite'), [5, 4, 4, 4, 4, 4, 4]);
  assert.match(await verdictText(page, 'Watermark + Append'), /saved its state and then crashed before writing/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the URL carries the whole state and restores it', async () => {
  const path = '/lab/state-write?late=wed&crash=off&lookback=2&commit=before&run=3&predict=skip';
  const { page, errors, context } = await openPage(env, path);
  assert.equal(await page.locator('details#settings').evaluate((d) => d.open), true, 'a link that sets the week opens its settings');
  assert.equal(await page.getByRole('radio', { name: 'arrives Wed 03:10' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: 'runs cleanly' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: '2 days' }).isChecked(), true);
  assert.equal(await page.getByRole('radio', { name: 'before the write' }).isChecked(), true);
  assert.equal(await page.getByLabel('Run', { exact: true }).inputValue(), '3');
  assert.match(await page.locator('.current-run').innerText(), /^Run 3: Thu 00:15, for Wed 06-03$/);
  await page.getByRole('radio', { name: 'after the write' }).check();
  await page.waitForURL(/commit=after/);
  assert.deepEqual(query(page), { late: 'wed', crash: 'off', lookback: '2', commit: 'after', down: 'off', catchup: 'off', run: '3', present: '0', predict: 'skip' });
  await page.reload();
  await page.waitForSelector('main h1');
  assert.equal(await page.getByRole('radio', { name: 'after the write' }).isChecked(), true);
  assert.equal(await page.locator('.notice').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a tampered link falls back to defaults and says what it ignored', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?late=sat&crash=maybe&lookback=9&commit=%3Cscript%3E&run=42&predict=everyone');
  const notice = await page.locator('.notice').innerText();
  assert.match(notice, /Ignored late=sat/);
  assert.match(notice, /Ignored lookback=9/);
  assert.match(notice, /Ignored commit=<script>/);
  assert.match(notice, /Ignored predict=everyone/);
  assert.match(notice, /Run 42 is shown once you have predicted/);
  // The defaults it fell back to: the settings stay folded, as for any default week.
  await openSettings(page);
  assert.equal(await page.getByRole('radio', { name: 'arrives Tue 03:10' }).isChecked(), true);
  // No prediction yet: the first run, the same in every pipeline.
  assert.deepEqual(await rowsPerDay(page, 'Watermark + Overwrite'), [4, 0, 0, 0, 0, 0, 0]);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link of 20,025 characters loads the lab, says what it ignored and that it is longer than the lab makes', async () => {
  const path = `/lab/state-write?predict=${'watermark_overwrite,'.repeat(1000)}`;
  assert.equal(path.length, 20_025);
  const { page, errors, context } = await openPage(env, path);
  const notice = page.locator('.notice');
  // The whole link is counted, its origin too.
  const whole = (env.url + path).length.toLocaleString('en-GB');
  await notice.filter({ hasText: `This link is ${whole} characters long` }).waitFor();
  const text = await notice.innerText();
  assert.match(text, /Ignored predict=watermark_overwrite,wate…/);
  assert.match(text, /many hosts and chat apps cut or refuse links over 8,192, and the lab never makes one/);
  // The lab itself works: the prediction form is there to answer.
  await page.getByRole('button', { name: /Lock in/ }).waitFor();
  // A control rewrites the address to the lab's own short form.
  await page.getByRole('button', { name: /Skip the prediction/ }).click();
  await page.waitForFunction(() => location.href.length < 400);
  assert.equal(await notice.filter({ hasText: 'characters long' }).count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play steps through the runs on its own and can be paused', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?run=2&predict=skip');
  // Every address the page writes, with when it wrote it.
  await page.evaluate(() => {
    window.writes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.writes.push([performance.now(), String(args[2])]); return replace(...args); };
  });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForURL(/run=4/, { timeout: 10000 });
  const ticks = await page.evaluate(() => window.writes.map(([t]) => t));
  const step = ticks[ticks.length - 1] - ticks[ticks.length - 2];
  assert.ok(step > 0, 'two steps on its own');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const paused = query(page).run;
  const pausedAt = await page.evaluate(() => performance.now());
  // Paused means no step for three of its own intervals.
  await page.waitForFunction(([from, step]) => performance.now() - from > 3 * step, [pausedAt, step]);
  assert.deepEqual(await page.evaluate((from) => window.writes.filter(([t]) => t > from), pausedAt), []);
  assert.equal(query(page).run, paused);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lab has no axe violations before the reveal and fits a phone', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write', { width: 390, height: 844 });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  // After the reveal every outcome is drawn, tags and chips at 12 px or more.
  await page.goto(`${env.url}/lab/state-write?predict=skip`);
  await page.locator('.chip.missing').first().waitFor();
  const small = await smallText(page, 12);
  assert.deepEqual(small, [], `text under 12 px: ${JSON.stringify(small.slice(0, 8))}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('each cell shows its equivalent dbt and Spark code for the current settings', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?lookback=2&commit=before');
  const list = page.getByRole('region', { name: 'Partition list + Overwrite', exact: true });
  await list.getByText('Equivalent code').click();
  const dbt = await list.locator('pre[data-tool="dbt"]').innerText();
  assert.match(dbt, /delete\+insert/);
  assert.match(dbt, /lab_targets/, 'the list is the run\'s scope');
  assert.match(dbt, /BEFORE `dbt run/, 'the commit order follows the control');
  const listSpark = await list.locator('pre[data-tool="Spark"]').innerText();
  assert.match(listSpark, /the 2 days before it/);
  assert.match(listSpark, /COMMIT = "before"/);
  const wm = page.getByRole('region', { name: 'Watermark + Overwrite', exact: true });
  await wm.getByText('Equivalent code').click();
  const spark = await wm.locator('pre[data-tool="Spark"]').innerText();
  assert.match(spark, /partitionOverwriteMode\s+"dynamic"/);
  assert.match(spark, /if state\.mark is not None:/, 'the first run reads everything');
  assert.match(await wm.locator('pre[data-tool="dbt"]').innerText(), /delete\+insert/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('presenter mode: large type, the week folded, and a clicker\'s keys step the runs', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?run=2&present=1&predict=skip');
  assert.equal(await page.locator('.lab.presenter').count(), 1);
  assert.equal(await page.locator('details.week').evaluate((d) => d.open), false);
  assert.equal(await page.getByRole('button', { name: 'Presenter mode' }).getAttribute('aria-pressed'), 'true');
  await page.locator('main h1').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(/run=3/);
  await page.keyboard.press('PageDown');
  await page.waitForURL(/run=4/);
  await page.keyboard.press('ArrowLeft');
  await page.waitForURL(/run=3/);
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await page.waitForURL(/present=0/);
  await page.locator('main h1').click();
  await page.keyboard.press('ArrowRight');
  // Then something that does step: if the arrow had stepped too, this
  // would land on run 5.
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.waitForURL(/run=4/);
  assert.equal(query(page).run, '4', 'outside presenter mode the page keys are left alone');
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a cell downloads as a runnable dbt and Spark project for the current controls', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write?lookback=2');
  const list = page.getByRole('region', { name: 'Partition list + Overwrite', exact: true });
  await list.getByText('Equivalent code').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('link', { name: /runnable project/ }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'partition-lab-partition_list_overwrite.tar');
  const bytes = await readFile(await download.path());
  const names = tarNames(bytes);
  for (const f of ['dbt_project.yml', 'profiles.yml', 'models/silver_orders_partition_list_overwrite.sql', 'spark_jobs/silver_orders_partition_list_overwrite.py', 'seeds/bronze.csv', 'pipelines.json', 'state.py', 'replay_dbt.py', 'replay_spark.py', 'README.txt']) {
    assert.ok(names.includes(`partition-lab-partition_list_overwrite/${f}`), `${f} in ${names}`);
  }
  assert.match(bytes.toString('latin1'), /"lookback": 2/);
  // What the page shows is what the project runs, byte for byte.
  for (const [tool, path] of [['dbt', 'models/silver_orders_partition_list_overwrite.sql'], ['Spark', 'spark_jobs/silver_orders_partition_list_overwrite.py']]) {
    const shown = await list.locator(`pre[data-tool="${tool}"]`).evaluate((pre) => pre.textContent);
    assert.equal(tarFile(bytes, `partition-lab-partition_list_overwrite/${path}`), shown, `${tool} shown = ${path}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

/// One file of an uncompressed tar, as text.
function tarFile(bytes, wanted) {
  return tarFiles(bytes).get(wanted);
}

/// The file names in an uncompressed tar.
function tarNames(bytes) {
  return [...tarFiles(bytes).keys()];
}
