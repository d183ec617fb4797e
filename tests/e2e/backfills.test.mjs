// The backfill scenarios in a real browser: a backfill built with the
// palette and inspector, checked, its failed rule read with the evidence
// and the smallest case, fixed, passed, and the progress kept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe } from './browser.mjs';
import { importBig } from './big-design.mjs';
import { choose, wire } from './designs.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const node = (page, id) => page.locator(`svg.board g.node[data-node="${id}"]`);

/// Source -> backfill -> transform -> write target [-> report], each
/// choice made: the backfill's as given, the transform reading bronze by
/// event date (with the fixed logic where the scenario offers the old),
/// overwriting each partition, restating after all gold.
async function buildBackfill(page, withReport, backfill, { logic = false } = {}) {
  const kinds = ['backfill job', 'transform', 'write target'].concat(withReport ? ['report'] : []);
  for (const kind of kinds) {
    await page.locator(`.palette-item[data-kind="${kind}"]`).click();
  }
  // Five nodes outgrow the first view: fit them all before clicking.
  await page.getByRole('button', { name: 'Fit to view' }).click();
  await wire(page, [[0, 1], [1, 2], [2, 3]].concat(withReport ? [[3, 4]] : []));
  await choose(page, 1, backfill);
  await choose(page, 2, (logic ? [['Logic version', 'fixed']] : []).concat([['Reads from', 'bronze'], ['Partition rows by', 'event']]));
  await choose(page, 3, [['Write mode', 'overwrite']]);
  if (withReport) await choose(page, 4, [['Restate the report', 'after_all_gold']]);
  await node(page, 1).locator('rect.node-box').click();
}

async function setField(page, label, value) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Enter');
}

test('scenario 4: four at a time starves tonight\'s run (R5), three at a time passes, progress kept', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  // The range is for the student to find: the page gives the drift query
  // to run, not its rows, and not the dates.
  const evidence = page.locator('table.drift tbody tr');
  assert.equal(await evidence.count(), 0, 'no rows before the query is run');
  assert.doesNotMatch(await page.locator('.page > p').allInnerTexts().then((t) => t.join(' ')), /3 to 13 August/);
  const lookback = page.getByLabel('Look back from', { exact: true });
  const runQuery = page.getByRole('button', { name: 'Run the drift query' });
  await runQuery.click();
  assert.match(await page.locator('#lookback-error').innerText(), /Choose the date to look back from/);
  // Too late a look-back date hides the first bad days, as on a warehouse.
  await lookback.fill('2026-08-08');
  await runQuery.click();
  assert.equal(await page.locator('[data-figure="lookback"]').innerText(), 'Scanned 6 days of silver, 8 Aug to 13 Aug: 6 are more than a penny out. Days before 8 Aug were not looked at.');
  assert.equal(await evidence.count(), 6);
  assert.match(await evidence.first().innerText(), /^2026-08-08/);
  // A refused date leaves no earlier answer under its message.
  await lookback.fill('2026-07-20');
  await runQuery.click();
  assert.match(await page.locator('#lookback-error').innerText(), /Silver holds 1 Aug to 13 Aug/);
  assert.equal(await page.locator('[data-figure="lookback"]').count(), 0, 'the 8th\'s result is gone');
  assert.equal(await evidence.count(), 0);
  await lookback.fill('2026-08-01');
  await runQuery.click();
  assert.equal(await page.locator('#lookback-error').innerText(), '');
  assert.equal(await evidence.count(), 11);
  assert.match(await evidence.first().innerText(), /^2026-08-03/);
  assert.match(await evidence.last().innerText(), /^2026-08-13/);
  const queried = await axe(page);
  assert.deepEqual(queried, [], JSON.stringify(queried, null, 2));
  await buildBackfill(page, true, [
    ['First date', '2026-08-03'], ['Last date', '2026-08-13'], ['Dates in flight at most', '4'],
    ['Shape', 'per_date'], ['Completion markers', 'after'], ['Yield a slot to scheduled runs', 'false'],
  ], { logic: true });
  // Every node's words stay inside its box (the long backfill summary is cut).
  const spill = await page.evaluate(() => [...document.querySelectorAll('svg.board g.node')].flatMap((g) => {
    const box = g.querySelector('rect.node-box').getBoundingClientRect();
    return [...g.querySelectorAll('text.node-kind, text.node-summary')]
      .filter((t) => t.getBoundingClientRect().right > box.right + 0.5)
      .map((t) => t.textContent);
  }));
  assert.deepEqual(spill, []);
  await page.getByRole('button', { name: 'Check my design' }).click();
  const verdict = page.locator('.report .verdict');
  await verdict.waitFor();
  assert.equal(await verdict.innerText(), '✗ 5 of 6 requirements met.');
  const r5 = page.locator('.rule[data-rule="R5"]');
  assert.match(await r5.locator('.rule-head').innerText(), /^✗ R5 failed/);
  assert.match(await r5.locator('.evidence').innerText(), /Tonight's run for 14 Aug asked for a connection at Sat 15 Aug 02:00 and got one at 02:05, 5 min late: all 4 were held by the backfill \(dates 3 Aug to 6 Aug\)/);
  assert.match(await r5.locator('.hint').innerText(), /source pool/);
  // The same story drawn: tonight's run waits, shown as a gap on its lane.
  const pool = page.locator('figure[data-figure="pool"]');
  assert.equal(await pool.locator('.pool-lane').count(), 4);
  assert.equal(await pool.locator('.pool-bar.scheduled').count(), 1);
  assert.match(await pool.locator('.pool-wait text').textContent(), /^asked 02:00 · waited 5 min$/);
  assert.match(await pool.locator('desc').textContent(), /asked for a connection at 02:00 and got connection \d at 02:05: 5 min late/);

  await r5.getByRole('button', { name: 'Show me the smallest case' }).click();
  const smallest = r5.locator('[data-smallest="R5"]');
  await smallest.waitFor({ timeout: 30000 });
  assert.match(await smallest.locator('p').first().innerText(), /^0 events instead of 1,680, 1 fault instead of 1; minimal/);
  assert.match(await smallest.innerText(), /No event is needed/);
  assert.match(await smallest.locator('ol.replay').innerText(), /The scheduled run for 2026-08-14 asks for a slot and waits 5 min for a slot/);
  // The smallest case drawn too, stepping with the stepper: at the first
  // moment nothing holds a connection yet; at the last, tonight's wait shows.
  const small = smallest.locator('figure[data-figure="pool-smallest-R5"]');
  const barsAtStart = await small.locator('.pool-bar').count();
  assert.equal(await small.locator('.pool-wait').count(), 0);
  const next = smallest.getByRole('button', { name: 'Next step' });
  while (await next.isEnabled()) await next.click();
  assert.ok(await small.locator('.pool-bar').count() > barsAtStart, 'bars appear as the moments pass');
  assert.match(await small.locator('.pool-wait text').textContent(), /waited 5 min$/);
  const openViolations = await axe(page);
  assert.deepEqual(openViolations, [], JSON.stringify(openViolations, null, 2));

  await setField(page, 'Dates in flight at most', '3');
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  assert.equal(await page.locator('.report .verdict').innerText(), '✓ Passed: all 6 requirements met.');
  assert.equal(await page.locator('figure[data-figure="pool"] .pool-wait').count(), 0, 'nothing waits at three at a time');
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await page.locator('svg.board g.node').count(), 5, 'the design is kept');
  await page.goto(`${env.url}/scenarios`);
  assert.match(await page.locator('li[data-scenario="4"] .progress').innerText(), /Passed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 5: without markers the re-run rebuilds finished partitions (R2); with them it passes', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/5');
  await buildBackfill(page, false, [
    ['First date', '2024-06-01'], ['Last date', '2026-05-31'], ['Dates in flight at most', '3'],
    ['Shape', 'per_date'], ['Completion markers', 'off'], ['Yield a slot to scheduled runs', 'false'],
  ]);
  await page.getByRole('button', { name: 'Check my design' }).click();
  const r2 = page.locator('.rule[data-rule="R2"]');
  await r2.waitFor();
  assert.match(await r2.locator('.rule-head').innerText(), /^✗ R2 failed/);
  assert.match(await r2.locator('.evidence').innerText(), /The re-run launched Sat 6 Jun 00:40 rebuilt 90 partitions that were complete before the failover at 00:10: dates 2024-06-01 to 2024-08-29/);
  assert.match(await r2.locator('.hint').innerText(), /completion marker/);
  for (const ok of ['R1', 'R3', 'R4']) {
    assert.match(await page.locator(`.rule[data-rule="${ok}"] .rule-head`).innerText(), new RegExp(`^✓ ${ok} passed`));
  }


  await page.getByLabel('Completion markers').selectOption('after');
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  assert.equal(await page.locator('.report .verdict').innerText(), '✓ Passed: all 4 requirements met.');
  await page.goto(`${env.url}/scenarios`);
  assert.match(await page.locator('li[data-scenario="5"] .progress').innerText(), /Passed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long smallest-case search shows progress, keeps the page answering, and stops when asked', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  await importBig(page, env.url);
  await page.getByRole('button', { name: 'Check my design' }).click();
  const r5 = page.locator('.rule[data-rule="R5"]');
  await r5.waitFor({ timeout: 120000 });
  // A busy machine (this one slowed down): the search takes seconds.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await r5.getByRole('button', { name: 'Show me the smallest case' }).click();
  const searching = r5.locator('.search-progress');
  await searching.waitFor();
  await page.waitForFunction(() => Number(document.querySelector('.search-progress progress')?.value) > 0, null, { timeout: 60000 });
  const lag = await page.evaluate(() => new Promise((done) => {
    const asked = performance.now();
    setTimeout(() => done(performance.now() - asked), 0);
  }));
  assert.ok(lag < 500, `a timer waited ${lag} ms during the search`);
  assert.match(await searching.locator('label').innerText(), /^Searching for the smallest case: \d+ of at most 400 cases tried$/);
  await searching.getByRole('button', { name: 'Stop the search' }).focus();
  await page.keyboard.press('Enter');
  await r5.locator('.notice').filter({ hasText: /^Stopped after \d+ of at most 400 cases/ }).waitFor({ timeout: 30000 });
  assert.equal(await searching.count(), 0);
  assert.equal(await r5.getByRole('button', { name: 'Show me the smallest case' }).evaluate((b) => b === document.activeElement), true, 'focus goes back to the button that started the search');
  assert.equal(await r5.locator('[data-smallest="R5"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
