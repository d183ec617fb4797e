// The lateness lab's "your data" in a real browser: a CSV chosen, pasted or
// generated, its figures (checked against an independent computation of
// the definition in this file), the bad-row report, bad files, the run
// time in the URL, privacy, hostile names, the SQL, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, axe, ROOT } from './browser.mjs';

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
  assert.equal(await figure(page, 'yours-rows'), 'Based on 20,000 of the 20,000 rows in arrivals.csv.');
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
  assert.match(august, /Thu 3 Sep/);
  assert.match(august, /✓/);
  assert.match(await figure(page, 'yours-recommendation'), /^15 days: the smallest allowed lateness that keeps 99\.9 % of value complete/);
  // 95 % of value also needs the New Year's Eve order: 15 days again.
  await page.getByLabel('Target completeness by value').selectOption('95');
  assert.match(await figure(page, 'yours-recommendation'), /^15 days: the smallest allowed lateness that keeps 95 %/);
  await page.getByLabel('Finance closes a month by its').selectOption('2');
  assert.match(await page.locator('tr[data-month="2026-08"]').innerText(), /✗/);
  assert.equal(new URL(page.url()).searchParams.get('close'), '2');
  await context.close();
});

test('rows that cannot be used are counted by reason, with their lines', async () => {
  const { page, context } = await yours();
  await upload(page, 'messy.csv', fixture('messy.csv'));
  await page.locator('[data-figure="yours-bad"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 6 of the 9 rows in messy.csv (no value column: by value means by events).');
  const reasons = await page.locator('[data-figure="yours-bad"] li').allInnerTexts();
  assert.deepEqual(reasons, [
    '1: a field is missing or empty',
    '1: event_time is not an ISO 8601 time',
    '1: arrival_time is before event_time',
  ]);
  const lines = await page.locator('.bad-rows tbody th').allInnerTexts();
  assert.deepEqual(lines, ['4', '6', '7']);
  await context.close();
});

test('a file it cannot read says why where the user is looking, and the page keeps working', async () => {
  const { page, errors, context } = await yours();
  const alert = page.locator('.your-data [role="alert"]');
  await upload(page, 'empty.csv', Buffer.from(''));
  await assert.doesNotReject(alert.filter({ hasText: 'empty.csv could not be read: The file is empty.' }).waitFor());
  await upload(page, 'wrong.csv', Buffer.from('when,arrived\n2026-08-03T09:00:00Z,2026-08-03T10:00:00Z\n'));
  await alert.filter({ hasText: 'must name the columns event_time and arrival_time' }).waitFor();
  await upload(page, 'junk.csv', Buffer.from('event_time,arrival_time\nsoon,later\n'));
  await alert.filter({ hasText: 'None of the file\'s 1 rows could be read' }).waitFor();
  // Still usable: a good file afterwards reads.
  await upload(page, 'edges.csv', fixture('edges.csv'));
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await alert.innerText(), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('pasted text reads the same; the run time is a setting in the URL, the data never is', async () => {
  const { page, context } = await yours('/lab/lateness?profile=yours&lateness=0');
  await page.getByText('Or paste CSV text').click();
  await page.getByLabel('CSV text, header row first').fill(fixture('edges.csv').toString());
  await page.getByRole('button', { name: 'Read the pasted text' }).click();
  await page.locator('[data-figure="yours-rows"]').waitFor();
  assert.equal(await figure(page, 'yours-rows'), 'Based on 9 of the 9 rows in the pasted text.');
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
