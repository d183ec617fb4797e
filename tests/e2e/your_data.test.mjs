// The lateness lab's "your data" in a real browser: a CSV chosen, pasted or
// generated, its figures (checked against an independent computation of
// the definition in this file), the bad-row report, bad files, the run
// time in the URL, privacy, hostile names, the SQL, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, axe, downloaded, ROOT } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const figure = (page, name) => page.locator(`[data-figure="${name}"]`).innerText();
const fixture = (name) => readFileSync(join(ROOT, 'tests', 'data', 'arrivals', name));

async function upload(page, name, buffer) {
  await page.getByLabel(/CSV file/).setInputFiles({ name, mimeType: 'text/csv', buffer });
}

async function yours(path = '/lab/lateness?profile=yours') {
  const opened = await openPage(env, path);
  await opened.page.getByRole('radio', { name: 'Your data (CSV)' }).waitFor();
  return opened;
}

// The definition, written again here: an event of UTC day d is complete at
// allowed lateness L when it arrived by the run at `run` (minutes past
// midnight UTC) on day d+1+L.
function needed(eventMs, arrivedMs, run) {
  const day = 86_400_000;
  const deadline = Math.floor(eventMs / day) * day + day + run * 60_000;
  return arrivedMs <= deadline ? 0 : Math.ceil((arrivedMs - deadline) / day);
}

function generated(rows, seed) {
  let x = seed;
  const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const start = Date.UTC(2026, 7, 1);
  const lines = ['value,event_time,ignored,arrival_time'];
  const facts = [];
  for (let i = 0; i < rows; i++) {
    const event = start + Math.floor(next() * 31 * 86_400) * 1000;
    const wait = Math.floor(next() ** 4 * 9 * 86_400) * 1000;
    const cents = 1 + Math.floor(next() * 9999);
    const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
    lines.push(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')},${iso(event)},x,${iso(event + wait)}`);
    facts.push({ event, arrived: event + wait, cents });
  }
  return { text: lines.join('\n') + '\n', facts };
}

test('a chosen file gives the figures the definition gives, with no errors and no axe violations', async () => {
  const { page, errors, context } = await yours('/lab/lateness?profile=yours&lateness=2');
  const { text, facts } = generated(20_000, 7);
  await upload(page, 'arrivals.csv', Buffer.from(text));
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 20,000 of the 20,000 rows in arrivals.csv, dated in UTC.');
  const slider = page.getByRole('slider', { name: 'Allowed lateness' });
  for (const l of [0, 2, 5]) {
    await slider.fill(String(l));
    const count = facts.filter((f) => needed(f.event, f.arrived, 120) <= l).length;
    const cents = facts.filter((f) => needed(f.event, f.arrived, 120) <= l).reduce((s, f) => s + f.cents, 0);
    const total = facts.reduce((s, f) => s + f.cents, 0);
    const bp = (part, whole) => Math.floor((part * 10000) / whole);
    const expected = (v) => `${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')} %`;
    assert.equal(await figure(page, 'yours-complete'), expected(bp(cents, total)), `L=${l}`);
    assert.match(await page.locator('.figures').innerText(), new RegExp(`${expected(bp(count, facts.length)).replace('.', '\\.')} of events`));
    assert.equal(await figure(page, 'yours-open'), l === 0 ? '1 partition' : `${l + 1} partitions`);
  }
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the hand-checked file shows its months, close dates and a recommendation', async () => {
  const { page, context } = await yours('/lab/lateness?profile=yours&lateness=2');
  await upload(page, 'edges.csv', fixture('edges.csv'));
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await figure(page, 'yours-complete'), '17.72 %');
  assert.equal(await page.locator('tr[data-month]').count(), 5);
  const august = await page.locator('tr[data-month="2026-08"]').innerText();
  assert.match(august, /Thu 3 Sep, within the rule/);
  assert.match(await figure(page, 'yours-recommendation'), /^15 days: the smallest allowed lateness that keeps 99\.9 % of value complete/);
  // 95 % of value also needs the New Year's Eve order: 15 days again.
  await page.getByLabel('Target completeness by value').selectOption('95');
  assert.match(await figure(page, 'yours-recommendation'), /^15 days: the smallest allowed lateness that keeps 95 %/);
  await page.getByLabel('Finance closes a month by its').selectOption('2');
  assert.match(await page.locator('tr[data-month="2026-08"]').innerText(), /, after the rule/);
  assert.equal(new URL(page.url()).searchParams.get('close'), '2');
  await context.close();
});

test('rows that cannot be used are counted by reason, with their lines', async () => {
  const { page, context } = await yours();
  await upload(page, 'messy.csv', fixture('messy.csv'));
  await page.locator('[data-figure="yours-bad"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 6 of the 9 rows in messy.csv, dated in UTC (no value column: by value means by events).');
  const reasons = await page.locator('[data-figure="yours-bad"] li').allInnerTexts();
  assert.deepEqual(reasons, [
    '1 row: a field is missing or empty',
    '1 row: event_time is not an ISO 8601 time',
    '1 row: arrival_time is before event_time',
  ]);
  assert.equal(await page.locator('#bad-rows-heading').innerText(), '3 rows left out');
  const lines = await page.locator('.bad-rows tbody th').allInnerTexts();
  assert.deepEqual(lines, ['4', '6', '7']);
  await context.close();
});

test('a file it cannot read says why where the user is looking, and the page keeps working', async () => {
  const { page, errors, context } = await yours();
  const alert = page.locator('.your-data > [role="alert"]');
  await upload(page, 'empty.csv', Buffer.from(''));
  await assert.doesNotReject(alert.filter({ hasText: 'empty.csv could not be read: The file is empty.' }).waitFor());
  // A header without the lab's names asks which columns hold what.
  await upload(page, 'wrong.csv', Buffer.from('when,arrived\n2026-08-03T09:00:00Z,2026-08-03T10:00:00Z\n'));
  await page.locator('.columns [role="status"]', { hasText: "Which of wrong.csv's columns hold the event time and the arrival time?" }).waitFor();
  assert.equal(await alert.innerText(), '', 'a question, not an error');
  await page.getByRole('button', { name: 'Read wrong.csv with these columns' }).click();
  await page.locator('.columns [role="alert"]', { hasText: 'Choose the columns that hold the event time and the arrival time.' }).waitFor();
  await page.getByLabel('Event time (when it happened)').selectOption({ label: 'when' });
  await page.getByLabel('Arrival time (when it reached the pipeline)').selectOption({ label: 'arrived' });
  await page.getByRole('button', { name: 'Read wrong.csv with these columns' }).click();
  await page.locator('[data-figure="yours-rows"]', { hasText: 'Based on 1 of the 1 rows in wrong.csv, dated in UTC (no value column' }).waitFor();
  // A second file asks about its own columns, under its own name.
  await page.locator('.columns [role="status"]', { hasText: 'wrong.csv was read with the columns below' }).waitFor();
  await upload(page, 'other.csv', Buffer.from('a,b,a\n2026-08-03T09:00:00Z,2026-08-03T10:00:00Z,x\n'));
  await page.locator('.columns [role="status"]', { hasText: "Which of other.csv's columns hold" }).waitFor();
  assert.equal(await page.locator('.columns legend').innerText(), 'The columns of other.csv');
  await page.getByLabel('Event time (when it happened)').selectOption({ index: 1 });
  await page.getByLabel('Arrival time (when it reached the pipeline)').selectOption({ label: 'b' });
  await page.getByRole('button', { name: 'Read other.csv with these columns' }).click();
  await page.locator('.columns [role="alert"]', { hasText: 'The header row names 2 columns "a"' }).waitFor();
  await upload(page, 'junk.csv', Buffer.from('event_time,arrival_time\nsoon,later\n'));
  await alert.filter({ hasText: 'None of the file\'s 1 rows could be read' }).waitFor();
  // Still usable: a good file afterwards reads.
  await upload(page, 'edges.csv', fixture('edges.csv'));
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await alert.innerText(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a first row that cannot name the columns is refused where the user looks, and rows of the wrong width are bad rows by line', async () => {
  const { page, errors, context } = await yours();
  const alert = page.locator('.your-data > [role="alert"]');
  const rows = '2026-03-01T10:00:00Z,2026-03-01T10:05:00Z,1\n'.repeat(10);
  // 200,000 commas: no column named, so no data row is taken as the names.
  await upload(page, 'commas.csv', Buffer.from(`${','.repeat(200_000)}\n${rows}`));
  await alert.filter({ hasText: 'commas.csv could not be read: its first row, which must name the columns, has 200,001 columns and names none of them.' }).waitFor();
  assert.equal(await page.locator('.columns').count(), 0, 'no picker offers data as names');
  // A file of commas only, under 1 MB: not "its first 1 MB".
  await upload(page, 'only.csv', Buffer.from(','.repeat(195_000)));
  await alert.filter({ hasText: 'only.csv could not be read: its first row, which must name the columns, has 195,001 columns' }).waitFor();
  // No header at all: the first row is data.
  await upload(page, 'headless.csv', Buffer.from(rows));
  await alert.filter({ hasText: 'headless.csv could not be read: its first row reads as data, not as column names ("2026-03-01T10:00:00Z" is a time)' }).waitFor();
  // Rows wider or narrower than the header are never read as if whole.
  const wide = `event_time,arrival_time,value\n${'2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,2'}${',7'.repeat(47)}\n`.repeat(1)
    + '2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,1\n'
    + '2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\n';
  await upload(page, 'wide.csv', Buffer.from(wide));
  await page.locator('[data-figure="yours-bad"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 1 of the 3 rows in wide.csv, dated in UTC.');
  assert.deepEqual(await page.locator('[data-figure="yours-bad"] li').allInnerTexts(), ['2 rows: it has more or fewer fields than the header row has columns']);
  assert.deepEqual(await page.locator('.bad-rows tbody th').allInnerTexts(), ['2', '4']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('pasted text reads the same; the run time is a setting in the URL, the data never is', async () => {
  const { page, context } = await yours('/lab/lateness?profile=yours&lateness=0');
  await page.getByText('Or paste CSV text').click();
  await page.getByLabel('CSV text, header row first').fill(fixture('edges.csv').toString());
  await page.getByRole('button', { name: 'Read the pasted text' }).click();
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 9 of the 9 rows in the pasted text, dated in UTC.');
  // At 02:00, 4 of 9 events are complete at L = 0; at 03:00 one more is.
  assert.equal(await figure(page, 'yours-complete'), '6.00 %');
  await page.getByLabel('Daily run time (UTC)').fill('03:00');
  await page.getByLabel('Daily run time (UTC)').dispatchEvent('change');
  await page.locator('[data-figure="yours-complete"]', { hasText: '8.47 %' }).waitFor();
  const url = page.url();
  assert.equal(new URL(url).searchParams.get('run'), '03:00');
  assert.doesNotMatch(url, /2026-0|event_time|arrival/);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.doesNotMatch(stored, /2026-08-03|event_time/);
  await context.close();
});

test('a hostile file name and row stay text, and the SQL quotes what the user types', async () => {
  const { page, errors, context } = await yours();
  const name = '<img src=x onerror="window.__pwned=1">.csv';
  const body = 'event_time,arrival_time,value\n<script>window.__pwned=2</script>,2026-08-03T10:00:00Z,1\n2026-08-03T09:00:00Z,2026-08-03T10:00:00Z,1\n';
  await upload(page, name, Buffer.from(body));
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.match(await figure(page, 'yours-rows'), /<img src=x onerror=/);
  assert.match(await page.locator('.bad-rows code').innerText(), /<script>/);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
  await page.getByLabel('Table', { exact: true }).fill('raw."arrivals"; drop table x');
  await page.getByText('DuckDB', { exact: true }).click();
  const sql = await page.locator('.warehouse pre').first().innerText();
  assert.match(sql, /FROM "raw"\."""arrivals""; drop table x"/);
  assert.deepEqual(errors, []);
  await context.close();
});

// The definition in a time zone, written again with the browser's own
// time zone database (Intl): partition d is local day d, the run on a
// local day is its wall clock read as the lab says (a skipped time as if
// the clocks had not changed, a repeated one at its first).
function wallMs(ms, zone) {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
}
function instantOf(wall, zone) {
  const day = 86_400_000;
  const before = wallMs(wall - day, zone) - (wall - day);
  const after = wallMs(wall + day, zone) - (wall + day);
  const readings = [...new Set([before, after])].map((o) => wall - o).filter((t) => wallMs(t, zone) === wall);
  return readings.length ? Math.min(...readings) : wall - before;
}
function neededIn(event, arrived, zone, runMinutes) {
  const day = 86_400_000;
  const eventDay = Math.floor(wallMs(event, zone) / day) * day;
  for (let l = 0; ; l++) {
    if (arrived <= instantOf(eventDay + (1 + l) * day + runMinutes * 60_000, zone)) return l;
  }
}

test('a file with its own column names and partitions in a time zone: the figures are the definition\'s across clock changes', async () => {
  const { page, errors, context } = await yours('/lab/lateness?profile=yours&lateness=0');
  const text = fixture('clock_changes.csv').toString();
  const rows = text.trim().split('\n').slice(1).map((line) => line.split(',')).map(([e, a]) => [Date.parse(e), Date.parse(a)]);
  await upload(page, 'clock_changes.csv', Buffer.from(text));
  await page.locator('.columns [role="status"]', { hasText: "Which of clock_changes.csv's columns hold" }).waitFor();
  await page.getByLabel('Event time (when it happened)').selectOption({ label: 'ordered_at' });
  await page.getByLabel('Arrival time (when it reached the pipeline)').selectOption({ label: 'received_at' });
  await page.getByLabel('Value (optional)').selectOption({ label: 'amount' });
  await page.getByRole('button', { name: 'Read clock_changes.csv with these columns' }).click();
  const kept = rows.filter(([e]) => new Date(e).getUTCFullYear() >= 2008);
  const of = (n) => n.toLocaleString('en-GB');
  await page.locator('[data-figure="yours-rows"]', { hasText: `Based on ${of(rows.length)} of the ${of(rows.length)} rows in clock_changes.csv, dated in UTC.` }).waitFor();
  const counts = async () => {
    const line = await page.locator('[data-figure="yours-complete"] + p').innerText();
    const [, complete, total] = line.match(/\(([\d,]+) of ([\d,]+)\)/).map((x) => x.replaceAll(',', ''));
    return [Number(complete), Number(total)];
  };
  for (const [zone, run] of [['Europe/London', '01:30'], ['America/New_York', '02:30'], ['Australia/Sydney', '02:30'], ['America/New_York', '02:00']]) {
    const zoneInput = page.getByLabel('Partitions are dated in (time zone)');
    await zoneInput.fill(zone);
    await zoneInput.dispatchEvent('change');
    const runInput = page.getByLabel(`Daily run time (${zone})`);
    await runInput.fill(run);
    await runInput.dispatchEvent('change');
    // A new zone reads the file again: the two rows of 2007 are before the
    // zone rules the lab holds, and are left out with that reason.
    await page.locator('[data-figure="yours-rows"]', { hasText: `Based on ${of(kept.length)} of the ${of(rows.length)} rows in clock_changes.csv, dated in ${zone}.` }).waitFor();
    const [h, m] = run.split(':').map(Number);
    const expected = kept.filter(([e, a]) => neededIn(e, a, zone, h * 60 + m) === 0).length;
    await page.waitForFunction(([want]) => document.querySelector('[data-figure="yours-complete"] + p')?.innerText.includes(want), [`(${of(expected)} of ${of(kept.length)})`]);
    assert.deepEqual(await counts(), [expected, kept.length], `${zone} at ${run}`);
    assert.match(await figure(page, 'yours-late'), new RegExp(`^${of(kept.length - expected)} events worth [\\d.]+ arrive after their day is final and are booked to the adjustments table\\.$`));
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('zone'), zone);
  }
  // Names typed for the warehouse stay across a re-read in another zone.
  await page.getByLabel('Table', { exact: true }).fill('raw.orders_arrivals');
  assert.match(await page.locator('[data-figure="yours-bad"]').innerText(), /2 rows: it happened before 2008 \(UTC\)/);
  // The page says on which of the data's days the run time is skipped.
  assert.match(await page.locator('#zone-note').innerText(), /on Sun 8 Mar the clocks skip 02:00, so it runs at 03:00/);
  // Its calendar, its late rows by line, the adjustments by month booked.
  await page.getByRole('heading', { name: 'Which partitions can still change' }).waitFor();
  assert.ok(await page.getByLabel(/Look at the run at 02:00 \(America\/New_York\) on/).isVisible());
  assert.match(await page.locator('.late-examples li').first().innerText(), /^Line [\d,]+ \([\d.]+\): happened .*, arrived .*: needed \d+ days? of lateness\.$/);
  const booked = await page.locator('[data-figure="yours-adjustments"] tbody th').allInnerTexts();
  assert.ok(booked.length >= 2, booked.join());
  const zoneInput0 = page.getByLabel('Partitions are dated in (time zone)');
  await zoneInput0.fill('Europe/Berlin');
  await zoneInput0.dispatchEvent('change');
  await page.locator('[data-figure="yours-rows"]', { hasText: 'dated in Europe/Berlin' }).waitFor();
  assert.equal(await page.getByLabel('Table', { exact: true }).inputValue(), 'raw.orders_arrivals');
  await zoneInput0.fill('America/New_York');
  await zoneInput0.dispatchEvent('change');
  await page.locator('[data-figure="yours-rows"]', { hasText: 'dated in America/New_York' }).waitFor();
  // The SQL names the columns the file was read with, and the zone.
  await page.getByText('DuckDB', { exact: true }).click();
  const sql = await page.locator('.warehouse pre').first().innerText();
  assert.match(sql, /TRY_CAST\("ordered_at" AS TIMESTAMPTZ\)/);
  assert.match(sql, /FROM "raw"\."orders_arrivals"/);
  assert.match(sql, /timezone\('America\/New_York', arrival_day \+ TIME '02:00:00'\)/);
  // A zone the lab does not hold is refused where it was typed.
  const zoneInput = page.getByLabel('Partitions are dated in (time zone)');
  await zoneInput.fill('Mars/Olympus_Mons');
  await zoneInput.dispatchEvent('change');
  await page.locator('[role="alert"]', { hasText: '"Mars/Olympus_Mons" is not one of the time zones the lab holds' }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('zone'), 'America/New_York');
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the allowed lateness as a Beam window setting: the file follows the page\'s columns, zone, run time and slider, and says how many events it drops', async () => {
  const { page, errors, context } = await yours('/lab/lateness?profile=yours&lateness=1&zone=America%2FNew_York&run=01%3A30');
  await upload(page, 'clock_changes.csv', fixture('clock_changes.csv'));
  await page.locator('.columns [role="status"]', { hasText: "Which of clock_changes.csv's columns hold" }).waitFor();
  await page.getByLabel('Event time (when it happened)').selectOption({ label: 'ordered_at' });
  await page.getByLabel('Arrival time (when it reached the pipeline)').selectOption({ label: 'received_at' });
  await page.getByRole('button', { name: 'Read clock_changes.csv with these columns' }).click();
  await page.locator('[data-figure="yours-rows"]', { hasText: 'dated in America/New_York' }).waitFor();
  const section = page.locator('section[aria-labelledby="streaming-heading"]');
  await section.getByRole('heading', { name: 'The same lateness in a streaming engine' }).waitFor();
  await section.getByText('Apache Beam (Python)', { exact: true }).click();
  const code = () => section.locator('pre').innerText();
  const late = async () => Number((await figure(page, 'yours-late')).match(/^([\d,]+) events/)[1].replaceAll(',', ''));
  for (const l of [1, 3]) {
    if (l !== 1) {
      await page.getByRole('slider', { name: 'Allowed lateness' }).fill(String(l));
      await page.waitForFunction((want) => new URL(location.href).searchParams.get('lateness') === want, String(l));
    }
    await page.waitForFunction(([want]) => [...document.querySelectorAll('section pre')].some((p) => p.innerText.includes(want)), [`ALLOWED_LATENESS_DAYS = ${l}\n`]);
    const text = await code();
    assert.match(text, /^ZONE = "America\/New_York"$/m);
    assert.match(text, /^RUN_TIME = time\(1, 30\)$/m);
    assert.match(text, /"event": "ordered_at",/);
    assert.match(text, /"arrival": "received_at",/);
    assert.match(text, /"value": None,/);
    // New York's days are 23 or 25 hours long when its clocks change.
    assert.match(text, /LocalDays\(\),\n\s+allowed_lateness=Duration\(seconds=lateness_days \* DAY \+ HOUR\)/);
    const n = await late();
    assert.ok(n > 0);
    const words = await section.locator('p').first().innerText();
    assert.ok(words.includes(`(${l} day${l === 1 ? '' : 's'}), it drops ${n.toLocaleString('en-GB')} events as late`), words);
    // The download is the same file.
    const file = await downloaded(section.getByRole('link', { name: 'Download lateness_beam.py' }));
    assert.equal(file.name, 'lateness_beam.py');
    assert.equal(file.text.trimEnd(), text.trimEnd());
  }
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
