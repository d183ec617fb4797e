// The pipeline canvas in a real browser: a design built by mouse and one
// by keyboard alone, undo/redo, reload, export/import, share links (good
// and tampered), corrupted storage, export as code, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, openPage, axe } from './browser.mjs';
import { buildChain, choose, step, wire as connectByMenu, DAILY } from './designs.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const nodes = (page) => page.locator('svg.board g.node');
const problemsTitle = (page) => page.locator('#problems-title').innerText();
const node = (page, id) => page.locator(`svg.board g.node[data-node="${id}"]`);
/// What a screen reader hears about a node beyond its name.
const described = (page, id) => node(page, id).locator('desc').textContent();

async function center(locator) {
  const box = await locator.boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/// Drags a palette item onto the board at (fx, fy) of its size.
async function dragFromPalette(page, kind, fx, fy) {
  // Mouse events only land inside the viewport: bring the designer to the top.
  await page.evaluate(() => document.querySelector('.designer-grid').scrollIntoView());
  const from = await center(page.locator(`.palette-item[data-kind="${kind}"]`));
  const board = await page.locator('svg.board').boundingBox();
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y, { steps: 3 });
  await page.mouse.move(board.x + board.width * fx, board.y + board.height * fy, { steps: 8 });
  await page.mouse.up();
}

/// Drags a wire from node `from`'s output port onto node `to`.
async function wire(page, from, to) {
  const port = await center(node(page, from).locator('circle.port-out'));
  const target = await center(node(page, to).locator('rect.node-box'));
  await page.mouse.move(port.x, port.y);
  await page.mouse.down();
  await page.mouse.move(target.x, target.y, { steps: 8 });
  await page.mouse.up();
}

/// Presses Tab until the focused element matches `selector` (keyboard only).
async function tabTo(page, selector, { back = false, limit = 80 } = {}) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focusedIs = (page, selector) => page.evaluate((s) => document.activeElement?.matches(s), selector);

test('a design built by mouse: drag to add, drag to connect, configure, undo/redo, reload', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/1');
  assert.equal(await nodes(page).count(), 1, 'the scenario gives its source');
  assert.match(await described(page, 0), /the bronze source: bronze\.clicks; given by the scenario/);
  await dragFromPalette(page, 'processing state', 0.4, 0.25);
  await dragFromPalette(page, 'transform', 0.55, 0.55);
  await dragFromPalette(page, 'write target', 0.8, 0.3);
  assert.equal(await nodes(page).count(), 4);
  assert.match(await problemsTitle(page), /structural problems/);
  assert.match(await described(page, 2), /problem/);
  await wire(page, 0, 1);
  await wire(page, 1, 2);
  await wire(page, 2, 3);
  // Wired; the choices are still to make (five of them), then none is left.
  assert.equal(await problemsTitle(page), '5 structural problems');
  await choose(page, 1, DAILY.state);
  await choose(page, 2, DAILY.transform);
  await choose(page, 3, DAILY.write);
  assert.equal(await problemsTitle(page), 'No structural problems');
  assert.match(await described(page, 3), /fed by transform 2/);

  // Move a node by dragging it: one undoable step.
  const before = await node(page, 3).getAttribute('transform');
  const at = await center(node(page, 3).locator('text.node-summary'));
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x - 40, at.y + 60, { steps: 6 });
  await page.mouse.up();
  assert.notEqual(await node(page, 3).getAttribute('transform'), before);

  // Configure in the inspector: the write target is selected by the drag.
  await page.getByLabel('Write mode').selectOption('merge');
  assert.match(await problemsTitle(page), /^1 structural problem$/);
  assert.match(await page.locator('.problems li').innerText(), /write target 3: A merge needs a key/);
  await page.getByLabel('Merge key').selectOption('key');
  assert.equal(await problemsTitle(page), 'No structural problems');
  // With the inspector open on a node, and at a phone's width, axe is clean.
  const inspectorOpen = await axe(page);
  assert.deepEqual(inspectorOpen, [], JSON.stringify(inspectorOpen, null, 2));
  await page.setViewportSize({ width: 390, height: 844 });
  const narrow = await axe(page);
  assert.deepEqual(narrow, [], JSON.stringify(narrow, null, 2));
  await page.setViewportSize({ width: 1280, height: 800 });

  // Undo twice (the key, then merge itself), redo once.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  assert.match(await described(page, 3), /overwrite partition/);
  await page.keyboard.press('Control+Shift+z');
  assert.match(await described(page, 3), /merge \(no key yet\)/);
  await page.getByRole('button', { name: '↶ Undo' }).click();
  assert.match(await described(page, 3), /overwrite partition/);
  // The move is undone too, back to where it was dropped.
  await page.keyboard.press('Control+z');
  assert.equal(await node(page, 3).getAttribute('transform'), before);

  // Export as code follows the design.
  await page.getByText('Export as code').click();
  const dbt = await page.locator('.code-block').filter({ hasText: 'dbt' }).locator('pre').innerText();
  assert.match(dbt, /incremental_strategy='delete\+insert', unique_key='dt'/);
  assert.match(dbt, /the run's day and the day before it/);
  assert.match(await page.locator('.code-block').filter({ hasText: 'dbt' }).innerText(), /For dbt-core 1\.11 with dbt-duckdb 1\.11/);

  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 4, 'the design survived the reload');
  assert.equal(await problemsTitle(page), 'No structural problems');
  assert.equal(await node(page, 3).getAttribute('transform'), before);

  // Zoom changes the view, not the design.
  await page.getByRole('button', { name: 'Zoom in' }).click();
  assert.equal(await page.locator('.zoom-level').innerText(), '125 %');
  await page.getByRole('button', { name: 'Fit to view' }).click();
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a design built by touch on a 390 px phone: the list of steps, legible and finger-sized, to a pass', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/1', { width: 390, height: 844 }, { hasTouch: true, isMobile: true });
  // A phone opens on the list: the board would draw its words at 6 px.
  await page.locator('.design-steps li').first().waitFor();
  assert.equal(await page.locator('svg.board').count(), 0);
  // The list only: no switch to a board whose words would be too small.
  assert.equal(await page.getByRole('group', { name: 'Show the design as' }).count(), 0);
  for (const kind of ['write target', 'transform', 'processing state']) {
    await page.locator(`.palette-item[data-kind="${kind}"]`).tap();
  }
  // Nothing wired: the cards stand as added, none drawn as fed from above.
  assert.equal(await page.locator('.design-steps li.fed-from-above').count(), 0);
  // "Connect…" answers where the finger is: the menu opens in the card,
  // focused and on the screen.
  await step(page, 3).getByRole('button', { name: 'Connect…' }).tap();
  const menu = step(page, 3).locator('.step-connect select');
  await menu.waitFor();
  await page.waitForFunction(() => document.activeElement?.closest('.step-connect') !== null);
  const at = await menu.boundingBox();
  assert.ok(at.y >= 0 && at.y + at.height <= 844, `the menu at ${at.y}..${at.y + at.height} on an 844 px screen`);
  await step(page, 3).getByRole('button', { name: 'Close connections' }).tap();
  await connectByMenu(page, [[0, 3], [3, 2], [2, 1]]);
  // Wired: the list reads in the order the rows flow, not the order added.
  const order = await page.locator('.design-steps li').evaluateAll((lis) => lis.map((li) => li.dataset.node));
  assert.deepEqual(order, ['0', '3', '2', '1']);
  assert.equal(await page.locator('.design-steps li.fed-from-above').count(), 3);
  assert.match(await step(page, 3).innerText(), /processing state 3\s+2 settings to choose\s+Feeds transform 2/);
  // Every word at least 14 px, every button at least 44 px tall and inside the screen.
  const sizes = await page.locator('.design-steps').evaluate((list) => ({
    text: Math.min(...[...list.querySelectorAll('h4, p, button')].map((el) => parseFloat(getComputedStyle(el).fontSize))),
    buttons: [...list.querySelectorAll('button')].map((b) => b.getBoundingClientRect()).map((r) => [r.height, r.left, r.right]),
  }));
  assert.ok(sizes.text >= 14, `smallest text ${sizes.text} px`);
  for (const [height, left, right] of sizes.buttons) {
    assert.ok(height >= 44 && left >= 0 && right <= 390, `button ${height} px tall at ${left}..${right}`);
  }
  // Settings by touch, then back to the card the student came from.
  await choose(page, 3, DAILY.state);
  await choose(page, 2, DAILY.transform);
  await choose(page, 1, DAILY.write);
  await page.getByRole('button', { name: '↑ Back to the steps' }).tap();
  assert.ok(await step(page, 1).getByRole('button', { name: 'Settings' }).evaluate((b) => b === document.activeElement));
  assert.equal(await problemsTitle(page), 'No structural problems');
  assert.equal(await page.locator('.design-steps .design-step-problems').count(), 0);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scroll');
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await page.getByRole('button', { name: 'Check my design' }).tap();
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor();
  await step(page, 1).getByRole('button', { name: 'Remove' }).tap();
  assert.equal(await page.locator('.design-steps li').count(), 3);
  await page.getByRole('button', { name: '↶ Undo' }).tap();
  assert.equal(await page.locator('.design-steps li').count(), 4);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a design built by keyboard alone, with announcements, from a blank canvas to a pass', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/2');
  const said = () => page.locator('.designer [role="status"][aria-live="polite"]').innerText();

  await tabTo(page, '.palette-item[data-kind="processing state"]');
  await page.keyboard.press('Enter');
  assert.ok(await focusedIs(page, 'g.node[data-node="1"]'), 'the new node has focus');
  assert.match(await said(), /Added processing state 1/);
  // C opens the connect menu; its only choice is the source.
  await page.keyboard.press('c');
  assert.ok(await focusedIs(page, '.connect-menu select'));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.match(await said(), /Connected the bronze source to processing state 1/);
  await page.keyboard.press('Escape');
  assert.ok(await focusedIs(page, 'g.node[data-node="1"]'), 'Escape returns to the node');
  // Arrow keys move it.
  const was = await node(page, 1).getAttribute('transform');
  await page.keyboard.press('ArrowDown');
  assert.notEqual(await node(page, 1).getAttribute('transform'), was);

  await tabTo(page, '.palette-item[data-kind="transform"]', { back: true });
  await page.keyboard.press('Enter');
  assert.ok(await focusedIs(page, 'g.node[data-node="2"]'));
  await tabTo(page, '.palette-item[data-kind="write target"]', { back: true });
  await page.keyboard.press('Enter');
  assert.ok(await focusedIs(page, 'g.node[data-node="3"]'));
  // From the write target: its only possible input is the transform.
  await page.keyboard.press('c');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.match(await said(), /Connected transform 2 to write target 3/);
  // From the state: its only possible output is the transform.
  await page.keyboard.press('Escape');
  await tabTo(page, 'g.node[data-node="1"]', { back: true });
  await page.keyboard.press('c');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.match(await said(), /Connected processing state 1 to transform 2/);
  // Wired, and nothing chosen yet: the palette gives no answers.
  assert.equal(await problemsTitle(page), '5 structural problems');

  // Configure the write target: Enter opens its settings.
  await page.keyboard.press('Escape');
  await tabTo(page, 'g.node[data-node="3"]');
  await page.keyboard.press('Enter');
  assert.ok(await focusedIs(page, '#field-3-table'));
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs(page, '#field-3-mode'));
  await page.keyboard.press('m'); // "merge on a key"
  // The mode is chosen; the merge brings its key, not chosen yet.
  assert.equal(await problemsTitle(page), '5 structural problems');
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs(page, '#field-3-key'));
  await page.keyboard.press('ArrowDown'); // the business key
  assert.equal(await problemsTitle(page), '4 structural problems');
  assert.match(await described(page, 3), /merge on the business key/);

  // Delete by keyboard, then undo it.
  await page.keyboard.press('Escape');
  await tabTo(page, 'g.node[data-node="2"]', { back: true });
  await page.keyboard.press('Delete');
  assert.equal(await nodes(page).count(), 3);
  assert.match(await said(), /Deleted transform 2/);
  assert.ok(await focusedIs(page, 'g.node'), 'focus lands on a neighbour');
  await page.keyboard.press('Control+z');
  assert.equal(await nodes(page).count(), 4);
  assert.equal(await problemsTitle(page), '4 structural problems');
  // The given source refuses deletion, and says so.
  await tabTo(page, 'g.node[data-node="0"]', { back: true });
  await page.keyboard.press('Delete');
  assert.equal(await nodes(page).count(), 4);
  assert.match(await said(), /cannot be deleted/);
  // From a blank canvas to a pass without the mouse: the state remembers
  // a watermark (Enter opens its settings, its first field is the kind).
  await page.keyboard.press('Escape');
  await tabTo(page, 'g.node[data-node="1"]');
  await page.keyboard.press('Enter');
  assert.ok(await focusedIs(page, '#field-1-state'));
  await page.keyboard.press('ArrowDown'); // from "Choose…" to the first choice, a watermark
  assert.match(await page.locator('#field-1-state option:checked').innerText(), /watermark/);
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs(page, '#field-1-column'), 'the watermark brings its column');
  await page.keyboard.press('ArrowDown'); // arrived_at
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs(page, '#field-1-overlap'));
  await page.keyboard.type('0');
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs(page, '#field-1-commit'));
  await page.keyboard.press('ArrowDown'); // after the write
  assert.match(await described(page, 1), /watermark on arrived_at/);
  await page.keyboard.press('Escape');
  await tabTo(page, 'g.node[data-node="2"]');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown'); // reads bronze
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown'); // partition by event date
  assert.equal(await problemsTitle(page), 'No structural problems');
  await tabTo(page, '.check button.primary');
  await page.keyboard.press('Enter');
  await page.locator('.report .verdict').filter({ hasText: 'Passed' }).waitFor({ timeout: 30000 });
  assert.match(await page.locator('.report .verdict').innerText(), /^✓ Passed: all \d+ requirements met\.$/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

/// Scenario 1's design, built through the keyboard-free quick path: the
/// palette buttons and the connect menu.
/// Scenario 4 (the currency bug) also asks which logic version the transform runs.
async function buildSmallDesign(page, { logic = false } = {}) {
  const transform = (logic ? [['Logic version', 'fixed']] : []).concat(DAILY.transform);
  await buildChain(page, { ...DAILY, transform });
  assert.equal(await problemsTitle(page), 'No structural problems');
}

test('export, import (good and bad), start again and undo', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/3');
  await buildSmallDesign(page);
  await page.getByText('Save, share, import').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download design (JSON)' }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  const file = JSON.parse(text);
  assert.equal(file.format, 'partition-lab-design');
  assert.equal(file.version, 1);
  assert.equal(file.scenario, 3);
  assert.equal(Object.keys(file.graph.nodes).length, 4);

  await page.getByRole('button', { name: 'Start again' }).click();
  assert.equal(await nodes(page).count(), 1);
  await page.getByLabel(/Import a design file/).setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.locator('.notice').filter({ hasText: 'Imported mine.json' }).waitFor();
  assert.equal(await nodes(page).count(), 4);
  await page.keyboard.press('Control+z');
  assert.equal(await nodes(page).count(), 1, 'undo takes the import back');
  await page.keyboard.press('Control+Shift+z');
  assert.equal(await nodes(page).count(), 4);

  for (const [name, body, reason] of [
    ['junk.json', 'not json at all', /not a Partition Lab design/],
    ['newer.json', text.replace('"version": 1', '"version": 7'), /newer version/],
    ['other.json', text.replace('"scenario": 3', '"scenario": 1'), /made for scenario 1/],
    ['huge.json', ' '.repeat(300 * 1024), /at most 256 KB/],
    ['cut.json', text.slice(0, text.length / 2), /not a Partition Lab design/],
  ]) {
    await page.getByLabel(/Import a design file/).setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    const alert = page.locator('.notice.error');
    await alert.waitFor();
    const message = await alert.innerText();
    assert.match(message, new RegExp(name.replace('.', '\\.')));
    assert.match(message, reason);
    assert.match(message, /Your design is unchanged/);
    assert.equal(await nodes(page).count(), 4, `${name} left the design alone`);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('share links: a good one opens the design, a tampered one says so and changes nothing', async () => {
  const first = await openPage(env, '/scenarios/4');
  await buildSmallDesign(first.page, { logic: true });
  await first.page.getByText('Save, share, import').click();
  const link = await first.page.getByLabel('Share link').inputValue();
  // Scenario 4 names its data (the chapter's, 0) so the link opens on it.
  assert.match(link, /\/scenarios\/4\?variant=0#design=[A-Za-z0-9_-]+$/);
  await first.context.close();

  const { page, errors, context } = await openPage(env, link.replace(env.url, ''));
  await page.locator('.notice').filter({ hasText: 'Opened the design from the link' }).waitFor();
  assert.equal(await nodes(page).count(), 4);
  assert.equal(new URL(page.url()).hash, '', 'the design leaves the address once opened');
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 4, 'and stays as the saved design');

  const value = link.split('#design=')[1];
  const tampered = [
    value.slice(0, value.length - 7),
    value.slice(0, 20) + '!!' + value.slice(22),
    'eyJmb3JtYXQiOiJ4In0',
    'A'.repeat(400000),
  ];
  for (const [i, bad] of tampered.entries()) {
    // Alternately a fresh load and a link pasted into the open page.
    if (i % 2 === 0) {
      await page.goto('about:blank');
      await page.goto(`${env.url}/scenarios/4#design=${bad}`);
    } else {
      await page.evaluate((v) => { location.hash = `design=${v}`; }, bad);
    }
    const alert = page.locator('.notice.error');
    await alert.waitFor();
    assert.match(await alert.innerText(), /The link's design could not be opened: .+ Your own design is unchanged\./);
    assert.equal(await nodes(page).count(), 4);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  }
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('corrupted storage is reported and kept for download', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios/5');
  await page.evaluate(() => localStorage.setItem('partition-lab/design/5', '{"format":"partition-lab-design","version":1,"graph":{"nodes":'));
  await page.reload();
  const alert = page.locator('.notice.error');
  await alert.waitFor();
  assert.match(await alert.innerText(), /could not be read/);
  assert.equal(await nodes(page).count(), 1, 'the scenario canvas, so work can go on');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the damaged copy' }).click(),
  ]);
  const kept = await readFile(await download.path(), 'utf8');
  assert.equal(kept, '{"format":"partition-lab-design","version":1,"graph":{"nodes":');
  // New work saves normally; the damaged copy stays until deleted.
  await page.locator('.palette-item[data-kind="report"]').click();
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(page).count(), 2);
  assert.equal(await page.locator('.notice.error').count(), 0);
  await page.getByRole('button', { name: 'Delete the damaged copy' }).click();
  await page.reload();
  await page.waitForSelector('svg.board g.node');
  assert.equal(await page.getByRole('link', { name: 'Download the damaged copy' }).count(), 0);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});
