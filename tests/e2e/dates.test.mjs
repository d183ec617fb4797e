// The dates page in a real browser: one pipeline on one calendar in each
// tool's terms, its controls and the address, deep links from the labs,
// a phone, axe. What each tool says is proven on the tools themselves by
// scripts/real/dates_*.py; here the page is held to the rules it states.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const query = (page) => Object.fromEntries(new URL(page.url()).searchParams);
const DAY = 86_400_000;
// "2026-08-05" + n days, as the tools write a date.
const plus = (iso, n) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const card = (page, name) => page.locator('section.tool-card', { has: page.getByRole('heading', { name, exact: true }) });
// The grid's cells of a tool's row, each column's text.
const row = async (page, tool) => page.locator('table.dates-grid tbody tr', { has: page.getByRole('rowheader', { name: tool, exact: true }) }).locator('td').allInnerTexts();

// The page's own rule, written again from the chapter: the run at 02:00 on
// d+1 builds d, and the run on d+1+L is the last that may change it.
/// Opens the folded tool cards ("In each tool's terms").
async function openTerms(page) {
  const terms = page.locator('details#terms');
  if (!(await terms.evaluate((d) => d.open))) await terms.locator(':scope > summary').click();
}

async function holdsTheRule(page, day, lateness, first, last) {
  await openTerms(page);
  const columns = await page.locator('table.dates-grid thead th').allInnerTexts();
  // Tool, then d .. d+2+L.
  assert.equal(columns.length, 1 + lateness + 3, columns.join('|'));
  const lab = await row(page, 'The lab');
  assert.match(lab[1], /02:00 the run builds/);
  assert.match(lab[1 + lateness], /02:00 the (last run that may change|run builds .* and is the last)/);
  // Airflow 3's default stamps the run with the moment it fires: d+1.
  const trigger = await card(page, 'Airflow 3 default (CronTriggerTimetable)').innerText();
  assert.ok(trigger.includes(`logical date\n${plus(day, 1)}T02:00:00+00:00`), trigger);
  assert.ok(trigger.includes(`--from-date ${plus(first, 1)}T02:00:00+00:00 --to-date ${plus(last, 1)}T02:00:00+00:00`), trigger);
  const interval = await card(page, 'Airflow data intervals (CronDataIntervalTimetable)').innerText();
  assert.ok(interval.includes(`logical date\n${day}T02:00:00+00:00`), interval);
  assert.ok(interval.includes(`--from-date ${first}T02:00:00+00:00 --to-date ${last}T02:00:00+00:00`), interval);
  const dagster = await card(page, 'Dagster').innerText();
  assert.ok(dagster.includes(`--partition-range ${first}...${last}`), dagster);
  // Dagster keeps no lateness: the card says d is built once, by the tick on d+1.
  assert.ok(dagster.includes(`Dagster has no allowed-lateness setting: the schedule's tick at `) && dagster.includes(`02:00 builds ${day} and no later tick requests it again`), dagster);
  assert.ok(dagster.includes('Dagster launches only the latest missed tick'), dagster);
  assert.ok(dagster.includes(lateness === 0 ? "as the lab's lateness of 0 days says" : "unlike the lab's allowed lateness"), dagster);
  const dbt = await card(page, 'dbt microbatch').innerText();
  assert.ok(dbt.includes(`--event-time-start ${first} --event-time-end ${plus(last, 1)}`), dbt);
  assert.ok(dbt.includes(`lookback=${lateness + 1})`), dbt);
  const sqlmesh = await card(page, 'SQLMesh').innerText();
  assert.ok(sqlmesh.includes(`--start ${first} --end ${last}`), sqlmesh);
  assert.ok(sqlmesh.includes(lateness === 0 ? 'kind INCREMENTAL_BY_TIME_RANGE (time_column dt),' : `lookback ${lateness}),`), sqlmesh);
  const beam = await card(page, 'Beam / Flink').innerText();
  assert.ok(beam.includes(`Duration(seconds=${lateness} * DAY)`), beam);
}

test('the chapter\'s pipeline on one calendar: every tool, the traps flagged in words, axe clean', async () => {
  const { page, errors, context } = await openPage(env, '/dates');
  await page.getByRole('heading', { name: "One pipeline's dates in every tool" }).waitFor();
  assert.equal(await page.locator('table.dates-grid tbody tr').count(), 7);
  await holdsTheRule(page, '2026-08-05', 2, '2026-08-03', '2026-08-13');
  // Every trap says so in words, not only in colour.
  const traps = page.locator('.mark.trap');
  assert.ok(await traps.count() >= 4);
  for (const t of await traps.all()) {
    assert.equal(await t.locator('[role="img"][aria-label="Watch out:"]').count(), 1);
  }
  // The backfill's own dates typed bare: midnights, so the last day's run
  // is left out, and under the default timetable every partition moves back.
  const interval = await card(page, 'Airflow data intervals (CronDataIntervalTimetable)').innerText();
  assert.ok(interval.includes('Airflow runs the logical dates 3 Aug 02:00 to 12 Aug 02:00, which rebuild the partitions 3 Aug to 12 Aug: 1 day of the range not rebuilt.'), interval);
  assert.ok(interval.includes('--reprocess-behavior completed'), interval);
  const trigger = await card(page, 'Airflow 3 default (CronTriggerTimetable)').innerText();
  assert.ok(trigger.includes('which rebuild the partitions 2 Aug to 11 Aug: a good day (2 Aug) rebuilt, and 2 days of the range not.'), trigger);
  assert.ok((await card(page, 'dbt microbatch').innerText()).includes('runs 10 batches instead of 11'));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the controls rewrite the address, a reload keeps the pipeline, and a bad link says what it ignored', async () => {
  const { page, errors, context } = await openPage(env, '/dates');
  await page.getByLabel('Partition d').selectOption('31');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('day') === '31');
  const slider = page.getByRole('slider', { name: 'Allowed lateness' });
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('lateness') === '0');
  // A backfill's first date past its last pulls the last along.
  await page.getByLabel('Backfill from').selectOption('20');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('to') === '20');
  assert.deepEqual(query(page), { day: '31', lateness: '0', from: '20', to: '20' });
  await holdsTheRule(page, '2026-08-31', 0, '2026-08-20', '2026-08-20');
  await page.reload();
  await holdsTheRule(page, '2026-08-31', 0, '2026-08-20', '2026-08-20');
  assert.equal(await slider.inputValue(), '0');
  await page.goto(`${env.url}/dates?day=40&lateness=3`);
  await page.getByText('Ignored day=40').waitFor();
  await holdsTheRule(page, '2026-08-05', 3, '2026-08-03', '2026-08-13');
  // A key given twice: the first value is used, and the others are said.
  await page.goto(`${env.url}/dates?day=9&day=20&lateness=1&lateness=99&from=3&from=x&utm=a&utm=b`);
  await page.getByText('Ignored day=20: expected day= once in a link; showing its first value, 9.').waitFor();
  await page.getByText('Ignored lateness=99: expected lateness= once in a link; showing its first value, 1.').waitFor();
  await page.getByText('Ignored from=x: expected from= once in a link; showing its first value, 3.').waitFor();
  assert.equal(await slider.inputValue(), '1');
  assert.doesNotMatch(await page.locator('.notice').innerText(), /utm/, 'a key the page does not read is not its to note');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the labs link here with their own state: the lateness lab its lateness, the backfill lab its plan', async () => {
  const { page, errors, context } = await openPage(env, '/lab/lateness?lateness=4&predict=skip');
  // On the practitioner's shelf, folded until opened.
  await page.locator('details#tools > summary').click();
  // The shelf's content comes in a chunk of its own (src/ui/later.rs).
  await page.locator('#dagster-heading').waitFor();
  assert.match(await page.locator('main').innerText(), /Dagster has no allowed-lateness setting: its daily schedule requests each day's partition once, the morning after/);
  await page.getByRole('link', { name: 'This lateness (4 days) as each tool\'s dates' }).click();
  await page.waitForURL(/\/dates\?lateness=4$/);
  await holdsTheRule(page, '2026-08-05', 4, '2026-08-03', '2026-08-13');
  await page.goto(`${env.url}/lab/backfill?guess=8&from=8`);
  await page.locator('details#commands > summary').click();
  await page.getByRole('link', { name: "this backfill's dates in every tool" }).click();
  await page.waitForURL(/\/dates\?day=8&from=8$/);
  await holdsTheRule(page, '2026-08-08', 2, '2026-08-08', '2026-08-13');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 390 px phone the page does not scroll sideways: the calendar scrolls inside its frame, by keyboard too', async () => {
  const { page, errors, context } = await openPage(env, '/dates?lateness=7', { width: 390, height: 844 });
  await page.locator('table.dates-grid').waitFor();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide`);
  const frame = page.getByRole('region', { name: 'The calendar' });
  assert.ok(await frame.evaluate((e) => e.scrollWidth > e.clientWidth), 'the calendar scrolls');
  assert.equal(await frame.getAttribute('tabindex'), '0');
  const small = await page.evaluate(() => [...document.querySelectorAll('.dates-page p, .dates-page dd, .dates-page td')]
    .filter((e) => e.innerText.trim() && parseFloat(getComputedStyle(e).fontSize) < 12).length);
  assert.equal(small, 0);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
