// Scenario pages in a real browser: a failing design checked, its rule and
// evidence read, the smallest case shown, the design fixed and passed, the
// progress kept after a reload; axe on every scenario page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, openPage, axe } from './browser.mjs';
import { node, buildChain, choose, wire, DAILY } from './designs.mjs';
import { importDesign, SLOW_DESIGN } from './big-design.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

test('scenario 1: fail on R2, see the evidence and the smallest case, fix, pass, progress kept', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/1');
  await buildChain(page, { ...DAILY, write: [['Write mode', 'append']] });
  await page.getByRole('button', { name: 'Check my design' }).click();
  const verdict = page.locator('.report .verdict');
  await verdict.waitFor();
  assert.equal(await verdict.innerText(), '✗ 2 of 3 requirements met.');
  const r2 = page.locator('.rule[data-rule="R2"]');
  assert.match(await r2.locator('.rule-head').innerText(), /^✗ R2 failed/);
  assert.match(await r2.locator('.evidence').innerText(), /The retry of the run for 3 Jun \(Thu 4 Jun 02:05\) wrote a second copy of \d+ rows already there, in partitions 2026-06-02, 2026-06-03: c-0602-/);
  // The cause in this design, before the evidence: the write mode, the run
  // that read a row again, and the idea this design does not yet apply.
  const cause = await r2.locator('.cause').innerText();
  assert.match(cause, /^Why, in your design: Your write target appends\. The retry of the run for 3 Jun \(Thu 4 Jun 02:05\) read (c-[0-9-]+) again, because the run before it had written the row, then crashed before saving its state\. It appended the row beside the copy the run for 3 Jun \(Thu 4 Jun 02:00\) had written, so \1 is stored twice\./);
  assert.match(cause, /The choice: write target 3, Write mode: append\./);
  assert.equal(await r2.locator('.hint').innerText(), 'Idea to revisit: idempotent');
  // The cause comes first, then what the run showed.
  assert.deepEqual(await r2.evaluate((el) => [...el.children].map((c) => c.className).filter((c) => /cause|evidence|hint/.test(c))), ['cause', 'evidence-head', 'evidence', 'hint']);
  assert.match(await page.locator('.rule[data-rule="R1"] .rule-head').innerText(), /^✓ R1 passed/);

  await r2.getByRole('button', { name: 'Show the nodes involved' }).click();
  assert.equal(await page.locator('svg.board g.node.involved').count(), 2);

  await r2.getByRole('button', { name: 'Show me the smallest case' }).click();
  const smallest = r2.locator('[data-smallest="R2"]');
  await smallest.waitFor({ timeout: 30000 });
  const summary = await smallest.locator('p').first().innerText();
  assert.match(summary, /^1 event instead of 4,200, 1 fault instead of 2; minimal/);
  assert.equal(await smallest.locator('table.small-events tbody tr').count(), 1);
  assert.match(await smallest.locator('ol.replay').innerText(), /manual re-run|crashed/);
  assert.match(await smallest.locator('ol.replay').innerText(), /silver holds (c-[0-9-]+) in [0-9-]+, \1 in/, 'the replay shows the second copy');
  assert.match(await smallest.locator('ul.evidence').innerText(), /second copy/);
  // With the smallest case open, and stepped to its end, the page stays axe clean.
  const next = smallest.getByRole('button', { name: 'Next step' });
  if (await next.count()) {
    while (await next.isEnabled()) await next.click();
  }
  const openViolations = await axe(page);
  assert.deepEqual(openViolations, [], JSON.stringify(openViolations, null, 2));

  // Fix it: overwrite the partitions the list names.
  await node(page, 3).locator('rect.node-box').click();
  await page.getByLabel('Write mode').selectOption('overwrite');
  await page.locator('.check .notice').filter({ hasText: 'changed since this check' }).waitFor();
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  assert.equal(await page.locator('.report .verdict').innerText(), '✓ Passed: all 3 requirements met.');
  // A pass is a debrief: why each rule held, from the run; another design
  // that passes, run beside it, with both runs' figures; the way on.
  for (const id of ['R1', 'R2', 'R3']) {
    assert.ok((await page.locator(`.rule[data-rule="${id}"] .held`).innerText()).length > 40, id);
  }
  assert.match(await page.locator('.rule[data-rule="R3"] .held').innerText(), /^The run that read the most, the run for \d+ Jun \(.+\), read 2 bronze partitions\.$/);
  const debrief = page.locator('.debrief');
  await debrief.getByText('passes too').waitFor();
  assert.match(await debrief.innerText(), /“a watermark on arrival, merging on the click id” passes too\. Over the same days it read [\d,]+ bronze rows \(about half the rows yours read\) and wrote \d+ partitions in \d+ runs; yours read [\d,]+ and wrote \d+\./);
  assert.equal(await debrief.getByRole('link', { name: /Next: scenario 2, Orders that change/ }).getAttribute('href'), '/scenarios/2');
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));

  // The passing design leaves as a project that replays the scenario on real tools.
  await page.getByText('Export as code').click();
  await page.getByRole('button', { name: /Prepare a runnable project/ }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the runnable project' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'partition-lab-scenario1.tar');
  const tar = (await readFile(await download.path())).toString('latin1');
  assert.match(tar, /partition-lab-scenario1\/models\/silver_scenario1\.sql/);
  assert.match(tar, /incremental_strategy='delete\+insert', unique_key='dt'/);
  assert.match(tar, /c-0601-/, 'the scenario\'s clicks are in the seed');

  await page.goto(`${env.url}/scenarios`);
  await page.reload();
  await page.waitForSelector('main h1');
  assert.match(await page.locator('li[data-scenario="1"] .progress').innerText(), /Passed/);
  assert.match(await page.locator('li[data-scenario="2"] .progress').innerText(), /Not started/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 1: a structural problem is reported instead of a verdict, then a failing design is saved as failing', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/1');
  await page.getByRole('button', { name: 'Check my design' }).click();
  assert.match(await page.locator('.report .verdict').innerText(), /Not run: the design has 1 structural problem/);
  await buildChain(page);
  await node(page, 1).locator('rect.node-box').click();
  await page.getByLabel('Lookback').fill('3');
  await page.getByLabel('Lookback').press('Enter');
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.rule[data-rule="R3"].rule-failed').waitFor();
  assert.match(await page.locator('.rule[data-rule="R3"] .evidence').innerText(), /read 4:/);
  await page.goto(`${env.url}/scenarios`);
  assert.match(await page.locator('li[data-scenario="1"] .progress').innerText(), /Failing R3/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a node from the palette comes with nothing chosen: the check lists each choice, the inspector says "Choose…", and a choice made clears it', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/1');
  for (const kind of ['processing state', 'transform', 'write target']) {
    await page.locator(`.palette-item[data-kind="${kind}"]`).click();
  }
  await wire(page, [[0, 1], [1, 2], [2, 3]]);
  // The board shows what is left, not a placeholder that looks like a choice.
  assert.equal(await node(page, 1).locator('.node-summary').textContent(), '2 settings to choose');
  assert.equal(await node(page, 2).locator('.node-summary').textContent(), '2 settings to choose');
  assert.equal(await node(page, 3).locator('.node-summary').textContent(), '1 setting to choose');
  await node(page, 1).locator('rect.node-box').click();
  const remembers = page.locator('.inspector').getByLabel('Remembers', { exact: true });
  assert.equal(await remembers.locator('option:checked').innerText(), 'Choose…');
  assert.equal(await remembers.getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('.inspector .field.unchosen').first().innerText(), /Not chosen yet/);
  const unchosenViolations = await axe(page);
  assert.deepEqual(unchosenViolations, [], JSON.stringify(unchosenViolations, null, 2));
  // Checked as it stands: five choices to make, each named at its node; nothing is simulated.
  await page.getByRole('button', { name: 'Check my design' }).click();
  assert.match(await page.locator('.report .verdict').innerText(), /Not run: the design has 5 structural problems/);
  const listed = await page.locator('.problems').innerText();
  for (const label of ['Remembers', 'State saved', 'Reads from', 'Partition rows by', 'Write mode']) {
    assert.match(listed, new RegExp(`Choose “${label.replace(/[()]/g, '\$&')}”`), label);
  }
  assert.equal(await page.locator('.report .rule').count(), 0, 'no rule was judged');
  // Choosing a partition list brings its own two settings, unchosen.
  await remembers.selectOption('list');
  const lookback = page.locator('.inspector').getByLabel('Lookback', { exact: true });
  assert.equal(await lookback.inputValue(), '', 'the lookback is not pre-filled');
  assert.equal(await node(page, 1).locator('.node-summary').textContent(), '3 settings to choose');
  await choose(page, 1, [['Lookback', '1'], ['Partitions listed by', 'event'], ['State saved', 'after']]);
  assert.equal(await node(page, 1).locator('.node-summary').textContent(), 'list, lookback 1');
  await choose(page, 2, DAILY.transform);
  await choose(page, 3, DAILY.write);
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('every scenario page passes axe and shows its story and canvas', async () => {
  for (const n of [1, 2, 3, 4, 5]) {
    const { page, errors, context } = await openPage(env, `/scenarios/${n}`);
    assert.ok((await page.locator('main h2').first().innerText()).length > 0);
    assert.equal(await page.locator('svg.board g.node').count(), 1);
    const violations = await axe(page);
    assert.deepEqual(violations, [], `scenario ${n}: ${JSON.stringify(violations, null, 2)}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('scenario 2: append fails R2 with the doubled orders, a merge on the order id passes, progress kept', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/2');
  await buildChain(page, {
    state: [['Remembers', 'watermark'], ['Watermark column', 'arrived_at'], ['Overlap (re-read before the watermark)', '0'], ['State saved', 'after']],
    transform: DAILY.transform,
    write: [['Write mode', 'append']],
  });
  await page.getByRole('button', { name: 'Check my design' }).click();
  const r2 = page.locator('.rule[data-rule="R2"]');
  await r2.waitFor();
  assert.match(await r2.locator('.rule-head').innerText(), /^✗ R2 failed/);
  assert.match(await r2.locator('.evidence').innerText(), /\b(1 order id appears|\d+ order ids appear) more than once in silver: o-0601-01/);
  assert.match(await r2.locator('.cause').innerText(), /^Why, in your design: Your write target appends, so each change of an order became a row of its own\. Order o-\d{4}-\d{2} has \d rows in silver/);
  assert.equal(await r2.locator('.hint').innerText(), 'Idea to revisit: merge');
  assert.match(await page.locator('.rule[data-rule="R3"] .rule-head').innerText(), /^✓ R3 passed/);

  await r2.getByRole('button', { name: 'Show me the smallest case' }).click();
  const smallest = r2.locator('[data-smallest="R2"]');
  await smallest.waitFor({ timeout: 60000 });
  const kept = await smallest.locator('table.small-events tbody tr').count();
  assert.ok(kept >= 1 && kept <= 3, `${kept} change rows are enough`);
  assert.match(await smallest.locator('ul.evidence').innerText(), /more than once/);

  await page.getByLabel('Write mode').selectOption('merge');
  await page.getByLabel('Merge key').selectOption('key');
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  assert.equal(await page.locator('.report .verdict').innerText(), '✓ Passed: all 4 requirements met.');
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await page.locator('svg.board g.node').count(), 4, 'the design is kept');
  await page.goto(`${env.url}/scenarios`);
  assert.match(await page.locator('li[data-scenario="2"] .progress').innerText(), /Passed/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('checking a slow design runs in slices: its progress shows, the page keeps answering, and it stops when asked', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/3');
  await importDesign(page, env.url, SLOW_DESIGN);
  // A verdict saved earlier: a stopped check must leave it as it is.
  const saved = () => page.evaluate(() => localStorage.getItem('partition-lab/progress/3'));
  await page.evaluate(() => localStorage.setItem('partition-lab/progress/3', 'structural'));
  // A busy machine (this one slowed down): the check takes seconds, and
  // without its slices it would hold the page for all of them.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 50 });
  // Started and stopped part-way from the keyboard: while it runs the
  // button is marked busy and keeps focus; stopped, nothing is judged or
  // saved and focus comes back to it.
  const checkButton = page.getByRole('button', { name: 'Check my design' });
  await checkButton.focus();
  // What happens while it runs is watched in the page, in one round trip:
  // each call from here waits for a slice to end, and the slowed check is
  // only 60 steps long, so a test asking step by step could miss it all.
  await page.evaluate(() => { window.watched = new Promise((done) => {
    const label = () => document.querySelector('.check-progress label')?.textContent ?? null;
    const seen = {};
    let stop;
    let at;
    const observer = new MutationObserver(() => {
      const now = label();
      if (!stop) {
        // 60 steps: the design read, scenario 3's 55 runs (retry included), its 4 rules.
        if (!/^Step \d+ of 60: /.test(now ?? '')) return;
        const check = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Check my design');
        seen.busy = check.getAttribute('aria-disabled');
        seen.checkFocused = check === document.activeElement;
        stop = [...document.querySelectorAll('.check-progress button')].find((b) => b.textContent === 'Stop checking');
        stop.focus();
        at = JSON.stringify(stop.getBoundingClientRect());
        seen.before = now;
        return;
      }
      if (now === seen.before) return;
      // The line moved on (or the check ended first, which fails below).
      observer.disconnect();
      seen.after = now;
      seen.stopFocused = stop === document.activeElement;
      seen.stopStill = JSON.stringify(stop.getBoundingClientRect()) === at;
      done(seen);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }); });
  await page.keyboard.press('Enter');
  const watched = await page.evaluate(() => window.watched);
  // Stopped from the keyboard: nothing is judged or saved and focus comes
  // back to the check button.
  await page.keyboard.press('Enter');
  assert.match(watched.after ?? '', /^Step \d+ of 60: /, 'the check was still running when Stop was pressed');
  assert.equal(watched.busy, 'true', 'the check button is marked busy');
  assert.equal(watched.checkFocused, true, 'the busy button keeps focus');
  assert.equal(watched.stopFocused, true, 'focus stays on Stop while the check runs');
  assert.equal(watched.stopStill, true, 'the Stop button does not move as the words change');
  const progress = page.locator('.check-progress');
  await page.locator('.check .notice').filter({ hasText: /^Stopped after \d+ of 60 steps: no verdict was given or saved/ }).waitFor();
  assert.equal(await progress.count(), 0);
  assert.equal(await checkButton.evaluate((b) => b === document.activeElement), true, 'focus goes back to the check button');
  assert.equal(await page.locator('.report').count(), 0);
  assert.equal(await saved(), 'structural', 'a stopped check saves no verdict');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await axe(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
  // Run to the end while a timer keeps asking for the main thread: no
  // wait is long while the check runs, however long the check. The last
  // wait (the tutor reading the run and the report drawn, one task after
  // the last slice) is a figure printed, not a bound: it is one view.
  const waits = page.evaluate(() => new Promise((done) => {
    const seen = [];
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      const running = document.querySelector('.check-progress') !== null;
      seen.push({ wait: now - last, running });
      last = now;
      if (document.querySelector('.report')) done(seen); else setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
  }));
  await page.keyboard.press('Enter');
  const seen = await waits;
  await page.locator('.report .rule').first().waitFor();
  const during = seen.filter((s) => s.running).map((s) => s.wait);
  assert.ok(during.length > 3, `${during.length} timer turns during the check`);
  const longest = Math.max(...during);
  assert.ok(longest < 800, `the main thread was held for ${longest.toFixed(0)} ms while checking`);
  const drawn = Math.max(0, ...seen.filter((s) => !s.running).map((s) => s.wait));
  console.log(`the slowed check (CPU 10x): longest wait while checking ${longest.toFixed(0)} ms; `
    + `the report after the last slice in ${drawn.toFixed(0)} ms`);
  // A loose bound on the one view's wait (200 to 250 ms here; 1,657 ms in
  // CI when the tutor read every run's reads eagerly): a regression of
  // that size still fails.
  assert.ok(drawn < 3000, `the report took ${drawn.toFixed(0)} ms after the last slice`);
  assert.equal(await page.locator('.check .notice').filter({ hasText: 'Stopped' }).count(), 0);
  assert.match(await page.locator('.report .verdict').innerText(), /requirements met/);
  assert.match(await saved(), /^(passed|failing:R\d)/, 'a finished check saves its verdict');
  assert.equal(await checkButton.evaluate((b) => b === document.activeElement), true, 'focus stays on the check button');
  assert.equal(await checkButton.getAttribute('aria-disabled'), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 6: a trailing window passes only if the scheduler catches up, and the missed days are the evidence', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/6');
  const window = {
    ...DAILY,
    state: [['Remembers', 'window'], ['Window (days before the run\'s day)', '1'], ['State saved', 'after'],
      ['Catch up: after the scheduler was down, run each missed run in order', 'false']],
  };
  await buildChain(page, window);
  await page.getByRole('button', { name: 'Check my design' }).click();
  const verdict = page.locator('.report .verdict');
  await verdict.filter({ hasText: /requirements met/ }).waitFor();
  assert.equal(await verdict.innerText(), '✗ 2 of 3 requirements met.');
  const r1 = await page.locator('.report .rule[data-rule="R1"]').innerText();
  assert.match(r1, /Partition 2026-06-08: 60 of 60 sales missing/);
  assert.match(r1, /its run was due Tue 9 Jun 02:00, while the scheduler was down/);
  // The same window, the scheduler catching up: every day whole.
  await choose(page, 1, [['Catch up: after the scheduler was down, run each missed run in order', 'true']]);
  await page.getByRole('button', { name: 'Check my design' }).click();
  await verdict.filter({ hasText: 'Passed' }).waitFor();
  assert.equal(await verdict.innerText(), '✓ Passed: all 3 requirements met.');
  // Its Airflow DAG catches up too.
  await page.getByText('Export as code').click();
  assert.match(await page.locator('.code-block').filter({ hasText: 'Airflow' }).locator('pre').innerText(), /catchup=True/);
  // A window that catches up is SQLMesh's lookback, the model check-real replays.
  const sqlmesh = await page.locator('.code-block').filter({ has: page.getByRole('heading', { name: 'SQLMesh' }) }).locator('pre').innerText();
  assert.match(sqlmesh, /kind INCREMENTAL_BY_TIME_RANGE \(time_column dt, lookback 1\),/);
  assert.match(sqlmesh, /name silver\.sales,/);
  // Dagster launches only the latest missed tick: the window has no
  // Dagster form, and the block says which design has.
  const dagsterBlock = page.locator('.code-block').filter({ has: page.getByRole('heading', { name: 'Dagster' }) }).locator('pre');
  // The comment's words, unwrapped.
  const dagster = (await dagsterBlock.innerText()).replace(/\n# /g, ' ');
  assert.match(dagster, /^# No Dagster form of this design: after its scheduler was down, Dagster launches only the latest missed tick/);
  assert.match(dagster, /a partition list, whose schedule finds the missed days in Dagster's record, builds them all/);
  // A list of 5 days catching up is an asset and a schedule, the file check-real replays.
  await choose(page, 1, [['Remembers', 'list'], ['Lookback', '5'], ['Partitions listed by', 'event']]);
  await dagsterBlock.filter({ hasText: /\nLOOKBACK = 5\n/ }).waitFor();
  const definitions = await dagsterBlock.innerText();
  assert.match(definitions, /^"{3}Generated by Partition Lab for Dagster 1\.13 on DuckDB\./);
  assert.match(definitions, /SILVER = AssetKey\(\["silver", "sales"\]\)/);
  assert.match(definitions, /built = context\.instance\.get_materialized_partitions\(SILVER\)/);
  assert.match(definitions, /--partition-range FIRST\.\.\.D\nwhere D is day d and FIRST the day 5 before it\n/);
  assert.match(definitions, /give every command one\nDAGSTER_HOME and keep it/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 3: a finaliser\'s allowed lateness is the Beam block\'s setting, over the runnable project\'s bronze, following the inspector', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/3');
  await importDesign(page, env.url, SLOW_DESIGN);
  await page.getByText('Export as code').click();
  const block = page.locator('.code-block').filter({ has: page.getByRole('heading', { name: 'Beam' }) });
  assert.match(await block.innerText(), /For Apache Beam 2\.77 \(Python SDK, DirectRunner\)/);
  const beam = await block.locator('pre').innerText();
  assert.match(beam, /^# silver\.purchases in Apache Beam: daily event-time windows with this design's\n# allowed lateness of 2 days\./);
  // The header's comment, its lines joined (where it wraps depends on its words).
  assert.match(beam.replace(/\n# /g, ' '), /the rows this design books to its adjustments table instead/);
  assert.match(beam, /\nALLOWED_LATENESS_DAYS = 2\n/);
  assert.match(beam, /"arrival": "arrived_at",/);
  // The inspector's lateness is the block's.
  await choose(page, 4, [['Allowed lateness', '5']]);
  await block.locator('pre').filter({ hasText: /\nALLOWED_LATENESS_DAYS = 5\n/ }).waitFor();
  assert.equal(await block.getByRole('button', { name: /Copy/ }).count(), 1);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
  await block.screenshot({ path: 'target/beam-block-390.png' });
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('each scenario states every requirement it grades before the canvas; the list counts them and the progress', async () => {
  const counts = { 1: 3, 2: 4, 3: 4, 4: 6, 5: 4, 6: 3 };
  const { page, errors, context } = await openPage(env, '/scenarios');
  assert.match(await page.locator('p.progress').first().innerText(), /^Your progress: \d of 6 passed\.$/);
  for (const [n, count] of Object.entries(counts)) {
    assert.match(await page.locator(`.card[data-scenario="${n}"]`).innerText(), new RegExp(`· ${count} requirements`));
  }
  for (const [n, count] of Object.entries(counts)) {
    await page.goto(`${env.url}/scenarios/${n}`);
    const items = page.locator('ul.requirements li');
    await items.first().waitFor();
    assert.equal(await items.count(), count, `scenario ${n}`);
    const ids = await items.evaluateAll((lis) => lis.map((li) => li.dataset.requirement));
    assert.deepEqual(ids, Array.from({ length: count }, (_, i) => `R${i + 1}`));
    // Before the canvas, in the page's order.
    const before = await page.evaluate(() => {
      const req = document.getElementById('requirements');
      const designer = document.querySelector('.designer');
      return Boolean(req.compareDocumentPosition(designer) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(before, `scenario ${n}: the requirements come before the canvas`);
  }
  // In the same words the report uses.
  await page.goto(`${env.url}/scenarios/1`);
  const stated = await page.locator('ul.requirements li').allInnerTexts();
  await buildChain(page, { ...DAILY, write: [['Write mode', 'append']] });
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').waitFor();
  // The verdict can be drawn a moment before its rules: wait for the last.
  await page.locator('.rule .rule-head').nth(stated.length - 1).waitFor();
  const reported = await page.locator('.rule .rule-head').allInnerTexts();
  assert.deepEqual(reported.map((h) => h.replace(/^[✓✗] (R\d) (passed|failed)/, '$1')), stated);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a first check that passes is debriefed too: another passing design is run beside it, in slices', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/6');
  await buildChain(page, { ...DAILY, state: [['Remembers', 'list'], ['Lookback', '5'], ['Partitions listed by', 'event'], ['State saved', 'after'], ['Catch up: after the scheduler was down, run each missed run in order', 'false']] });
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  const debrief = page.locator('.debrief');
  await debrief.getByText('passes too').waitFor();
  assert.match(await debrief.innerText(), /“a watermark on arrival, merging” passes too\. Over the same days it read [\d,]+ bronze rows/);
  // The last scenario leads back to the list.
  assert.equal(await debrief.getByRole('link', { name: 'Back to all the scenarios' }).getAttribute('href'), '/scenarios');
  assert.deepEqual(errors, []);
  await context.close();
});

// SPEC 14 for a self-learner: scenario 4 on fresh data. The page opens
// again on it, the address keeps it through presenter mode and back, the
// drift query reads it, and the chapter's data is a click away (written
// out as variant 0, so a class code's own data cannot take its place).
test('scenario 4 on fresh data: the address keeps the variant, the drift query reads it', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  const whose = page.locator('[data-figure="whose-data"]');
  assert.match(await whose.innerText(), /^These are the chapter's figures/);
  const firstBadDay = async () => {
    await page.getByLabel('Look back from').fill('2026-08-01');
    await page.getByRole('button', { name: 'Run the drift query' }).click();
    return (await page.locator('.drift-lookback table tbody tr').first().innerText()).slice(0, 10);
  };
  assert.equal(await firstBadDay(), '2026-08-03');
  await page.getByRole('button', { name: 'Fresh data', exact: true }).click();
  await page.waitForURL(/\/scenarios\/4\?variant=\d+$/);
  await whose.waitFor();
  const variant = new URL(page.url()).searchParams.get('variant');
  assert.match(await whose.innerText(), new RegExp(`^Data variant ${variant}: the bug shipped on a day only the drift query tells`));
  const shipped = await firstBadDay();
  assert.match(shipped, /^2026-08-0[2-6]$/);
  // Presenter mode and back keep the data.
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await page.waitForURL(new RegExp(`\\?variant=${variant}&present=1$`));
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await page.waitForURL(new RegExp(`\\?variant=${variant}$`));
  // A reload is the same data.
  await page.reload();
  await whose.waitFor();
  assert.equal(await firstBadDay(), shipped);
  assert.deepEqual(await axe(page), []);
  await page.getByRole('button', { name: 'Back to the chapter\'s data' }).click();
  await page.waitForURL(/\?variant=0$/);
  await whose.waitFor();
  assert.match(await whose.innerText(), /^These are the chapter's figures/);
  assert.equal(await firstBadDay(), '2026-08-03');
  // A variant the page cannot read is said, and the chapter's data used.
  await page.goto(`${env.url}/scenarios/4?variant=abc`);
  await whose.waitFor();
  assert.match(await page.locator('.notice[role="status"]').filter({ hasText: 'could not be used' }).innerText(), /variant/);
  assert.match(await whose.innerText(), /^(These are the chapter's figures|Your own data)/);
  assert.deepEqual(errors, []);
  await context.close();
});

// SPEC 14 beyond scenario 4: scenarios 1 and 6 on one student's data (Ada
// of MATH-7's, pinned in crates/core/tests/variants.rs). What the page says
// of its numbers is the variant's; the check's evidence names the days the
// page names; the runnable project carries the variant's rows, not the
// chapter's.
const ADA = '3061885297';

test('scenario 6 on a student\'s data: the nights down are its own in the story, the evidence and the runnable project', async () => {
  const { page, errors, context } = await openPage(env, `/scenarios/6?variant=${ADA}`);
  const whose = page.locator('[data-figure="whose-data"]');
  assert.match(await whose.innerText(), new RegExp(`^Data variant ${ADA}: its own sales and its own nights without a scheduler`));
  const story = await page.locator('.page > p').allInnerTexts();
  const down = story.join(' ').match(/On (\w+) (\d+) June at 01:30 the scheduler's metadata database failed\. Nothing was scheduled until (\w+) (\d+) June at 11:00/);
  assert.ok(down, story.join('\n'));
  assert.notEqual(`${down[1]} ${down[2]}`, 'Tuesday 9', 'not the chapter\'s night');
  const facts = (await page.locator('h2:text-is("The numbers") + ul').innerText());
  const perDay = Number(facts.match(/Sales 1 to 14 June 2026, (\d+) a day/)[1]);
  const missed = facts.match(/so the runs for (\d+) to (\d+) June are missed/);
  assert.equal(Number(missed[1]), Number(down[2]) - 1, 'the first missed run is the night before the failure');
  // A window that does not catch up leaves the first missed day empty, and
  // says its run was due while this variant's scheduler was down.
  await buildChain(page, {
    ...DAILY,
    state: [['Remembers', 'window'], ['Window (days before the run\'s day)', '1'], ['State saved', 'after'],
      ['Catch up: after the scheduler was down, run each missed run in order', 'false']],
  });
  await page.getByRole('button', { name: 'Check my design' }).click();
  const verdict = page.locator('.report .verdict');
  await verdict.filter({ hasText: /requirements met/ }).waitFor({ timeout: 20000 });
  assert.equal(await verdict.innerText(), '✗ 2 of 3 requirements met.');
  const r1 = await page.locator('.report .rule[data-rule="R1"]').innerText();
  const first = missed[1].padStart(2, '0');
  assert.match(r1, new RegExp(`Partition 2026-06-${first}: ${perDay} of ${perDay} sales missing`));
  assert.match(r1, new RegExp(`its run was due ${down[1].slice(0, 3)} ${down[2]} Jun 02:00, while the scheduler was down`));
  // The runnable project replays this data: 14 days of its sales.
  await page.getByText('Export as code').click();
  await page.getByRole('button', { name: /Prepare a runnable project/ }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the runnable project' }).click(),
  ]);
  const tar = (await readFile(await download.path())).toString('latin1');
  // (The project's bronze is in it more than once: count each sale once.)
  const sales = new Set(tar.match(/\nscenario6,s-\d{4}-\d{2},/g) ?? []);
  assert.equal(sales.size, 14 * perDay, 'the variant\'s sales, not the chapter\'s 840');
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenario 1 on a student\'s data: the crash and the re-run the page names are the ones the evidence blames', async () => {
  const { page, errors, context } = await openPage(env, `/scenarios/1?variant=${ADA}`);
  const facts = await page.locator('h2:text-is("The numbers") + ul').innerText();
  const faults = facts.match(/the run for (\d+) June crashes after writing and is retried at 02:05; the run for (\d+) June is re-run by hand/);
  assert.ok(faults, facts);
  assert.notDeepEqual([faults[1], faults[2]], ['3', '8'], 'not the chapter\'s days');
  await buildChain(page, { ...DAILY, write: [['Write mode', 'append']] });
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').filter({ hasText: /requirements met/ }).waitFor({ timeout: 20000 });
  const r2 = await page.locator('.rule[data-rule="R2"] .evidence').innerText();
  assert.match(r2, new RegExp(`The retry of the run for ${faults[1]} Jun \\(\\w+ \\d+ Jun 02:05\\) wrote a second copy`));
  assert.match(r2, new RegExp(`The manual re-run for ${faults[2]} Jun \\(\\w+ \\d+ Jun 14:00\\)`));
  assert.doesNotMatch(r2, /for 3 Jun /, 'the chapter\'s crash is not this data\'s');
  // Its share link names the data, so whoever opens it sees this design on it.
  await page.getByText('Save, share, import').click();
  assert.match(await page.getByLabel('Share link').inputValue(), new RegExp(`/scenarios/1\\?variant=${ADA}#design=`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('scenarios 2 and 3 have a student\'s own data too: the numbers move, the chapter\'s are one click away; scenario 5 says it has none', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/2');
  const numbers = () => page.locator('h2:text-is("The numbers") + ul').innerText();
  for (const n of [2, 3]) {
    await page.goto(`${env.url}/scenarios/${n}`);
    const whose = page.locator('[data-figure="whose-data"]');
    await whose.waitFor();
    assert.match(await whose.innerText(), /^These are the chapter's figures: the chapter says which run crashes/);
    const chapter = await numbers();
    await page.goto(`${env.url}/scenarios/${n}?variant=${ADA}`);
    await whose.filter({ hasText: `Data variant ${ADA}` }).waitFor();
    const theirs = await numbers();
    assert.notEqual(theirs, chapter, `scenario ${n}: a student's numbers are not the chapter's`);
    // Only what a variant moves has moved: the same facts, in the same order.
    assert.equal(theirs.split('\n').length, chapter.split('\n').length);
    await page.getByRole('button', { name: 'Back to the chapter\'s data' }).click();
    await page.waitForURL(new RegExp(`/scenarios/${n}\\?variant=0$`));
    await whose.filter({ hasText: /^These are the chapter's figures/ }).waitFor();
    assert.equal(await numbers(), chapter);
  }
  assert.deepEqual(await axe(page), []);
  await page.goto(`${env.url}/scenarios/5?variant=${ADA}`);
  await page.locator('.notice[role="status"]').filter({ hasText: `This scenario has no variants yet: variant ${ADA} is the chapter's data here.` }).waitFor();
  assert.equal(await page.locator('[data-figure="whose-data"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
