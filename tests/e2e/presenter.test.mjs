// Presenter mode on every lab and scenario page: large type on a 1920x1080
// projector, nothing wider than the screen, axe clean, a clicker's keys,
// and a link that reopens exactly what is on show.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, live, axe, smallText } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

async function projector() {
  const context = await env.browser.newContext({ viewport: { width: 1920, height: 1080 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

const pages = [
  ['/lab/state-write?present=1', 'State x Write lab'],
  ['/lab/state-write?present=1&predict=skip', 'State x Write lab'],
  ['/lab/lateness?present=1', 'Allowed-lateness lab'],
  ['/lab/lateness?present=1&predict=skip', 'Allowed-lateness lab'],
  ['/lab/backfill?present=1', 'Currency-bug backfill lab'],
  ['/lab/backfill?from=3&present=1&guess=skip&ran=end', 'Currency-bug backfill lab'],
  ['/scenarios/1?present=1', 'Scenario 1: Clicks, forward'],
  ['/scenarios/4?present=1', 'Scenario 4: The currency bug'],
  ['/?present=1', 'Partition Lab'],
  ['/teach?present=1', 'Lesson plan: one 50-minute session'],
  ['/dates?lateness=1&present=1', "One pipeline's dates in every tool"],
];

for (const [path, title] of pages) {
  test(`${path}: readable from the back of a room, fits, axe clean, and its link reopens it`, async () => {
    const { context, page, errors } = await projector();
    await page.goto(`${env.url}${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // Every part drawn, those that come in chunks of their own too.
    await live(page);
    assert.equal(await page.locator('.presenter').count(), 1);
    const toggle = page.getByRole('button', { name: 'Presenter mode' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.presenter')).fontSize));
    assert.ok(size >= 24, `presenter type is ${size}px`);
    // Everything on show that the room reads is drawn at 24 px or more:
    // text, table cells, chips and tags, and chart labels as the chart's
    // scale draws them. (The design canvas is the student's tool, zoomed
    // with its own buttons; its node labels are left to its zoom.)
    const small = await smallText(page, 24);
    assert.deepEqual(small, [], `text under 24 px: ${JSON.stringify(small.slice(0, 8))}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the projector`);
    assert.equal(await page.locator('.explain-text:visible').count(), 0, 'explanations are folded');
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));

    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    await page.getByRole('status').filter({ hasText: 'The link to this state copied.' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(link.startsWith(env.url), link);
    assert.match(link, /[?&]present=1/);
    if (path.startsWith('/scenarios/')) assert.match(link, /#design=/, 'a scenario link carries the design');
    const again = await context.newPage();
    await again.goto(link);
    await again.getByRole('heading', { level: 1, name: title }).waitFor();
    assert.equal(await again.locator('.presenter').count(), 1);
    if (path.startsWith('/scenarios/')) {
      await again.waitForSelector('svg.board g.node');
      assert.equal(await again.locator('svg.board g.node').count(), await page.locator('svg.board g.node').count());
    }

    await toggle.click();
    await page.waitForFunction(() => !document.querySelector('.presenter'));
    assert.doesNotMatch(page.url(), /present=1/);
    assert.equal(await page.getByRole('button', { name: 'Copy link to this state' }).count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('/lab/backfill?present=1: a clicker walks the story (predict by key, reveal, run, interrupt, resume), then the sections', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/backfill?from=3&concurrency=4&markers=on&present=1`);
  await page.waitForSelector('.presenter h2');
  const focused = () => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.textContent : null));
  // 1. The question to the room; nothing answers it yet.
  await page.keyboard.press('PageDown');
  assert.equal(await focused(), '1. Which partitions are wrong: ask the data');
  assert.equal(await page.locator('table.drift').isVisible(), false);
  assert.doesNotMatch(page.url(), /guess=/);
  // 2. No answer entered: PageDown says what to do, and reveals nothing.
  await page.keyboard.press('PageDown');
  await page.locator('.clicker-note').filter({ hasText: "Enter the room's answer first" }).waitFor();
  assert.equal(await page.locator('table.drift').isVisible(), false);
  assert.doesNotMatch(page.url(), /guess=/);
  // The room says the 8th: key 2, then PageDown reveals it, never a skip.
  await page.keyboard.press('2');
  assert.equal(await page.getByRole('group', { name: 'When do you think the bad code shipped?' }).getByRole('radio', { name: 'the 8th' }).isChecked(), true);
  await page.keyboard.press('PageDown');
  await page.waitForURL(/guess=8/);
  await page.locator('table.drift').waitFor();
  assert.equal(await page.locator('table.drift tbody tr').count(), 11);
  // 3. The run.
  await page.keyboard.press('PageDown');
  const clock = page.locator('.clock');
  await clock.filter({ hasText: 'Backfill running' }).waitFor();
  assert.equal(await focused(), '3. How fast: run it');
  // 4. The source fails over.
  await page.keyboard.press('PageDown');
  await page.waitForURL(/ran=\d+(&|$)/);
  assert.match(await page.locator('.outcome-headline').innerText(), /interrupted/);
  // 5. The re-run resumes from the markers, and 6 lets it finish.
  await page.keyboard.press('PageDown');
  await clock.filter({ hasText: 'Backfill running' }).waitFor();
  await page.keyboard.press('PageDown');
  await page.waitForURL(/ran=\d+,end/);
  assert.match(await page.locator('.outcome-headline').innerText(), /Every partition matches its source again/);
  // Then the rest of the page, a section at a time, and back.
  await page.keyboard.press('PageDown');
  const next = await focused();
  assert.ok(next && next !== '3. How fast: run it', `${next}`);
  await page.keyboard.press('PageUp');
  assert.equal(await focused(), '3. How fast: run it');
  assert.match(page.url(), /ran=\d+,end/, 'PageUp undoes nothing the room saw');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const path of ['/scenarios/4?present=1']) {
  test(`${path}: a clicker's PageDown and PageUp walk the sections`, async () => {
    const { context, page, errors } = await projector();
    await page.goto(`${env.url}${path}`);
    await page.waitForSelector('.presenter h2');
    const focused = () => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.textContent : null));
    await page.keyboard.press('PageDown');
    const first = await focused();
    assert.ok(first, 'PageDown focuses a section heading');
    await page.keyboard.press('PageDown');
    const second = await focused();
    assert.ok(second && second !== first, `${first} then ${second}`);
    await page.keyboard.press('PageUp');
    assert.equal(await focused(), first);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('/teach?present=1: a clicker walks the plan step by step; a step opened from it offers its neighbours and the clicker goes on to the next at the lab\'s end', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/teach?present=1`);
  await page.waitForSelector('.presenter h2');
  const focused = () => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.textContent : null));
  await page.keyboard.press('PageDown');
  assert.match(await focused(), /The partition is the unit/);
  await page.keyboard.press('PageDown');
  assert.match(await focused(), /^2/);
  await page.keyboard.press('PageUp');
  assert.match(await focused(), /The partition is the unit/);
  // Each step's link carries its number.
  const links = await page.getByRole('link', { name: 'Open the lab state to project' }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.equal(links.length, 7);
  links.forEach((href, i) => assert.match(href, new RegExp(`[?&]lesson=${i + 1}$`), href));
  // Step 4, the lateness lab: the plan's neighbours are offered, and stay
  // as the lab rewrites its address.
  await page.goto(`${env.url}${links[3]}`);
  const nav = page.getByRole('navigation', { name: 'Lesson plan' });
  await nav.waitFor();
  assert.match(await nav.innerText(), /Lesson step 4 of 7/);
  assert.match(await nav.getByRole('link', { name: /^Step 5: / }).getAttribute('href'), /^\/lab\/backfill\?.*lesson=5$/);
  assert.match(await nav.getByRole('link', { name: /^← Step 3: / }).getAttribute('href'), /lesson=3$/);
  // The room's answer first, by key; PageDown reveals it, then moves the slider.
  await page.keyboard.press('PageDown');
  await page.locator('.clicker-note').filter({ hasText: "Enter the room's answer first" }).waitFor();
  assert.equal(await page.locator('[data-figure]').count(), 0);
  await page.keyboard.press('2');
  await page.keyboard.press('PageDown');
  await page.waitForURL(/predict=90to99/);
  await page.keyboard.press('PageDown');
  await page.waitForURL(/lateness=3/);
  assert.match(await nav.innerText(), /Lesson step 4 of 7/, 'the step outlives the lab\'s own address');
  // And a reload of the tab, the address no longer naming it: the tab
  // keeps it (sessionStorage, through design::saves).
  assert.doesNotMatch(page.url(), /lesson=/);
  await page.reload();
  await nav.waitFor();
  assert.match(await nav.innerText(), /Lesson step 4 of 7/, 'the step outlives a reload');
  // At the slider's end the clicker goes on to step 5.
  for (let i = 0; i < 20 && !/\/lab\/backfill/.test(page.url()); i += 1) {
    await page.keyboard.press('PageDown');
  }
  await page.waitForURL(/\/lab\/backfill\?.*lesson=5/);
  await page.getByRole('heading', { level: 1, name: 'Currency-bug backfill lab' }).waitFor();
  assert.match(await page.getByRole('navigation', { name: 'Lesson plan' }).innerText(), /Lesson step 5 of 7/);
  // The same page reached another way is not in the plan: typed into this
  // tab, or opened in another, it offers no step (once it is live).
  const live = (p) => p.waitForFunction(() => !document.body.classList.contains('ahead'));
  const plain = `${env.url}/lab/backfill?present=1`;
  const other = await context.newPage();
  await other.goto(plain);
  await live(other);
  await other.getByRole('heading', { level: 1, name: 'Currency-bug backfill lab' }).waitFor();
  assert.equal(await other.getByRole('navigation', { name: 'Lesson plan' }).count(), 0, 'another tab has no lesson step');
  await other.close();
  await page.goto(plain);
  await live(page);
  await page.getByRole('heading', { level: 1, name: 'Currency-bug backfill lab' }).waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Lesson plan' }).count(), 0, 'a link without the step leaves the plan');
  await page.reload();
  await live(page);
  assert.equal(await page.getByRole('navigation', { name: 'Lesson plan' }).count(), 0, 'and a reload does not bring it back');
  assert.deepEqual(errors, []);
  await context.close();
});

test('State x Write on a projector: a week whose first run tells the pipelines apart shows no room view before the prediction', async () => {
  const { context, page, errors } = await projector();
  // The scheduler down from Tuesday: the first run already differs.
  await page.goto(`${env.url}/lab/state-write?late=off&crash=on&lookback=0&down=tue-sat&present=1`);
  await live(page);
  await page.getByText("Every pipeline's silver is shown here once the room has predicted: in this week they differ from the first run.").waitFor();
  assert.equal(await page.locator('table[data-figure="room"]').count(), 0, 'no silver before the prediction');
  assert.equal(await page.locator('.cells .sealed').count(), 6, 'as each cell keeps its runs');
  await page.getByRole('button', { name: 'Skip the prediction' }).click();
  const room = page.locator('table[data-figure="room"]');
  await room.waitFor({ timeout: 20000 });
  assert.equal(await room.locator('tbody tr').count(), 6);
  assert.deepEqual(errors, []);
  await context.close();
});

test('State x Write on a projector: all six pipelines on one screen, counted from the same cells', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/state-write?present=1&predict=skip&late=wed&run=8`);
  await live(page);
  const room = page.locator('table[data-figure="room"]');
  await room.waitFor();
  assert.equal(await room.locator('tbody tr').count(), 6);
  const box = await room.boundingBox();
  assert.ok(box.height <= 1080, `the six pipelines take ${box.height}px`);
  const rows = await room.locator('tbody tr').allInnerTexts();
  assert.match(rows[0], /^Watermark \+ Append/);
  assert.ok(rows.some((r) => r.includes('❐')), 'an append doubles a day');
  // The counts are the cells': the first pipeline's doubled orders on its first day.
  const firstCell = page.locator('.cell').first();
  const doubled = await firstCell.locator('.partition').first().locator('.chip.dup').count();
  const firstDay = await room.locator('tbody tr').first().locator('td').first().innerText();
  assert.equal(doubled > 0, firstDay.includes('❐'));
  if (doubled > 0) assert.match(firstDay, new RegExp(`${doubled} ❐`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('side by side: the lateness lab shows two settings and what the second changes', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/lateness?profile=mobile&lateness=2&present=1&predict=skip`);
  await page.getByLabel('Side by side with').selectOption('5');
  await page.waitForURL(/compare=5/);
  const comparison = page.locator('[data-figure="comparison"]');
  assert.equal(await comparison.locator('h2').innerText(), '2 days against 5 days');
  const columns = await comparison.locator('.compare-column').allInnerTexts();
  assert.equal(columns.length, 2);
  assert.match(columns[0], /99\.24 %[\s\S]*3 partitions[\s\S]*Thu 3 Sep, on time/);
  assert.match(columns[1], /99\.88 %[\s\S]*6 partitions[\s\S]*Mon 7 Sep, late/);
  assert.deepEqual(await comparison.locator('.differences li').allInnerTexts(), [
    'Complete: 99.24 % → 99.88 % (+0.64 points)',
    'Open each night: 3 → 6 partitions (+3)',
    'August closes: Thu 3 Sep (on time) → Mon 7 Sep (late)',
  ]);
  // The clicker (PageDown) still moves the first setting, even with the
  // select focused; the comparison follows.
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('[data-figure="comparison"] h2').textContent === '3 days against 5 days');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow}px too wide`);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await page.getByLabel('Side by side with').selectOption('');
  await page.waitForFunction(() => !location.search.includes('compare='));
  assert.equal(await comparison.count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('side by side: State x Write pins two cells next to each other', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/state-write?late=wed&run=8&present=1&predict=skip`);
  await live(page);
  await page.waitForSelector('.cells');
  await page.getByRole('button', { name: 'Pin Watermark + Overwrite side by side' }).click();
  await page.getByRole('button', { name: 'Pin Partition list + Overwrite side by side' }).click();
  await page.waitForURL(/pin=watermark_overwrite,partition_list_overwrite/);
  const shown = await page.locator('.cells .cell:visible').evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label'), Math.round(e.getBoundingClientRect().top)]));
  assert.deepEqual(shown.map(([name]) => name), ['Watermark + Overwrite', 'Partition list + Overwrite']);
  assert.equal(shown[0][1], shown[1][1], 'the two cells sit next to each other');
  assert.match(await page.locator('.pinned-note').innerText(), /^Side by side: Watermark \+ Overwrite and Partition list \+ Overwrite\./);
  // Unpinning one brings the others back to choose a new pair from.
  await page.getByRole('button', { name: 'Pin Watermark + Overwrite side by side' }).click();
  await page.waitForURL(/pin=partition_list_overwrite(&|$)/);
  assert.equal(await page.locator('.cells .cell:visible').count(), 6);
  assert.match(await page.locator('.pinned-note').innerText(), /^Pinned: Partition list \+ Overwrite\. Pin one more/);
  await page.getByRole('button', { name: 'Pin Partition list + Append side by side' }).click();
  await page.waitForURL(/pin=partition_list_overwrite,partition_list_append/);
  assert.equal(await page.locator('.cells .cell:visible').count(), 2);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await page.getByRole('button', { name: 'Show all cells' }).click();
  await page.waitForFunction(() => !location.search.includes('pin='));
  assert.equal(await page.locator('.cells .cell:visible').count(), 6);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a clicker\'s PageDown steps the lab even with a radio focused; the radio keeps its arrows, Alt+arrow is left to the browser', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/state-write?late=tue&run=2&present=1&predict=skip`);
  await live(page);
  await page.waitForSelector('.cells');
  await page.locator('details#settings > summary').click();
  await page.locator('input[name="late"]:checked').focus();
  await page.keyboard.press('PageDown');
  await page.waitForURL(/run=3/);
  assert.match(page.url(), /late=tue/, 'the radio did not move');
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(/late=wed/);
  assert.match(page.url(), /run=3|run=\d/);
  await page.locator('main h1').click();
  const before = Number(new URL(page.url()).searchParams.get('run'));
  await page.keyboard.press('Alt+ArrowRight');
  // Then a key that does step: had Alt+→ stepped too, this lands two on.
  await page.keyboard.press('PageDown');
  await page.waitForURL(new RegExp(`run=${before + 1}(&|$)`));
  assert.equal(Number(new URL(page.url()).searchParams.get('run')), before + 1, 'Alt+→ is not a step');
  assert.deepEqual(errors, []);
  await context.close();
});

// The lesson plan with a clicker alone (SPEC 12): at each step the room's
// question is on the screen while it thinks and gone once revealed; the
// room's answer goes in by key; PageDown never skips it; steps 2 and 6 run
// to their end, and the last step opens scenario 1 with its question.
test('the lesson steps run by clicker alone: the question for the room until the reveal, the answer by key, never skipped', async () => {
  const { context, page, errors } = await projector();
  const ask = page.locator('.ask-room');
  // Step 2, State x Write: the runs every pipeline shares, then the answer.
  await page.goto(`${env.url}/lab/state-write?late=tue&crash=on&lookback=1&commit=after&run=1&present=1&lesson=2`);
  // The engine too: the clicker steps the runs it opens.
  await live(page);
  await ask.waitFor();
  assert.match(await ask.innerText(), /^Ask the room: Six pipelines load the same week/);
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('PageDown');
    if (await page.locator('.clicker-note').filter({ hasText: "Enter the room's answer first" }).count()) break;
  }
  assert.doesNotMatch(page.url(), /predict=/, 'no answer, no reveal');
  assert.equal(await ask.count(), 1, 'the question stays up while the room thinks');
  // The room says Watermark + Overwrite: key 2 ticks it, PageDown reveals.
  await page.keyboard.press('2');
  assert.equal(await page.getByRole('checkbox', { name: /Watermark \+ Overwrite/ }).isChecked(), true);
  await page.keyboard.press('PageDown');
  await page.waitForURL(/predict=watermark_overwrite/);
  assert.equal(await ask.count(), 0, 'the question goes once the answer is revealed');
  // On to the week's end, and from there to step 3.
  for (let i = 0; i < 12 && !/lesson=3/.test(page.url()); i += 1) {
    await page.keyboard.press('PageDown');
  }
  await page.waitForURL(/lesson=3/);
  // Step 6, the backfill lab: run, interrupt, run it again, to the end, by PageDown alone.
  await page.goto(`${env.url}/lab/backfill?from=3&concurrency=4&markers=off&present=1&guess=skip&lesson=6`);
  await ask.waitFor();
  assert.match(await ask.innerText(), /interrupted in its second wave/);
  const clock = page.locator('.clock');
  await page.keyboard.press('PageDown');
  await clock.filter({ hasText: 'Backfill running' }).waitFor();
  assert.equal(await ask.count(), 0);
  await page.keyboard.press('PageDown');
  await page.waitForURL(/ran=\d+(&|$)/);
  await page.keyboard.press('PageDown');
  await clock.filter({ hasText: 'Backfill running' }).waitFor();
  await page.keyboard.press('PageDown');
  await page.waitForURL(/ran=\d+,end/);
  assert.match(await page.locator('.outcome-headline').innerText(), /partition/);
  // The last step: scenario 1, designed with the room.
  for (let i = 0; i < 20 && !/\/scenarios\/1/.test(page.url()); i += 1) {
    await page.keyboard.press('PageDown');
  }
  await page.waitForURL(/\/scenarios\/1\?.*lesson=7/);
  await ask.waitFor();
  assert.match(await ask.innerText(), /^Ask the room: Two weeks of clicks/);
  assert.match(await page.getByRole('navigation', { name: 'Lesson plan' }).innerText(), /Lesson step 7 of 7/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the room\'s show of hands: entered before the reveal, drawn beside the answer after it, and kept in the moment\'s link', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/state-write?late=tue&crash=on&lookback=1&commit=after&run=1&present=1`);
  // The engine too: the clicker steps the runs it opens.
  await live(page);
  const form = page.getByRole('group', { name: /The room's hands/ });
  await form.waitFor();
  assert.equal(await page.locator('.room-spread').count(), 0, 'no spread before the reveal');
  await form.getByLabel('Watermark + Overwrite', { exact: true }).fill('12');
  await form.getByLabel('Watermark + Overwrite', { exact: true }).press('Tab');
  await form.getByLabel('Trailing window + Overwrite', { exact: true }).fill('5');
  await form.getByLabel('Trailing window + Overwrite', { exact: true }).press('Tab');
  for (let i = 0; i < 3; i += 1) await form.getByRole('button', { name: '+1 hand for none of them' }).click();
  await page.waitForURL(/room=0\.12\.0\.0\.5\.0\.3/);
  assert.match(await form.innerText(), /20 hands so far/);
  assert.doesNotMatch(page.url(), /predict=/, 'hands are not a prediction: nothing is revealed yet');

  await page.getByRole('checkbox', { name: /Watermark \+ Overwrite/ }).check();
  await page.getByRole('button', { name: 'Lock in and reveal the verdicts' }).click();
  await page.waitForURL(/predict=watermark_overwrite/);
  const spread = page.locator('figure.room-spread');
  await spread.waitFor();
  const lines = await spread.locator('li').allInnerTexts();
  // Shares of 20 hands; the answer is the engine's silent pipeline.
  assert.deepEqual(lines.map((l) => l.trim()), [
    'Watermark + Append: 0 hands (0 %)',
    'Watermark + Overwrite: 12 hands (60 %) ✓ the answer',
    'Partition list + Append: 0 hands (0 %)',
    'Partition list + Overwrite: 0 hands (0 %)',
    'Trailing window + Overwrite: 5 hands (25 %)',
    'Full refresh: 0 hands (0 %)',
    'none of them: 3 hands (15 %)',
  ]);
  assert.match(await spread.locator('figcaption').innerText(), /20 hands/);
  const bars = await spread.locator('rect').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
  assert.deepEqual(bars, [0, 100, 0, 0, 42, 0, 25]);
  assert.deepEqual(await axe(page), []);

  // The moment's link reopens the spread as it was.
  const link = page.url();
  const again = await context.newPage();
  await again.goto(link);
  await again.locator('figure.room-spread').waitFor();
  assert.deepEqual((await again.locator('figure.room-spread li').allInnerTexts()).map((l) => l.trim()), lines.map((l) => l.trim()));
  // Another week is another question: its hands go with the old prediction.
  if (!(await page.locator('details#settings').evaluate((d) => d.open))) await page.locator('details#settings > summary').click();
  await page.getByRole('radio', { name: 'arrives Wed 03:10' }).check();
  await page.waitForURL(/late=wed/);
  assert.doesNotMatch(page.url(), /room=/);
  assert.equal(await page.locator('figure.room-spread').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the room\'s hands at the lateness and backfill predictions: the spread marks the band and the ship date the data gives', async () => {
  const { context, page, errors } = await projector();
  await page.goto(`${env.url}/lab/lateness?profile=mobile&lateness=2&present=1`);
  const form = page.getByRole('group', { name: /The room's hands/ });
  await form.waitFor();
  const hands = [4, 9, 6, 1];
  const labels = ['A. under 90 %', 'B. 90 % to under 99 %', 'C. 99 % to under 99.9 %', 'D. 99.9 % or more'];
  for (const [i, label] of labels.entries()) {
    await form.getByLabel(label, { exact: true }).fill(String(hands[i]));
    await form.getByLabel(label, { exact: true }).press('Tab');
  }
  await page.waitForURL(/room=4\.9\.6\.1/);
  assert.doesNotMatch(page.url(), /predict=/);
  await page.getByRole('radio', { name: labels[1] }).check();
  await page.getByRole('button', { name: 'Lock in and show the figures' }).click();
  const spread = page.locator('figure.room-spread');
  await spread.waitFor();
  const lines = (await spread.locator('li').allInnerTexts()).map((l) => l.trim());
  assert.deepEqual(lines.map((l) => l.replace(' ✓ the answer', '')), [
    'A. under 90 %: 4 hands (20 %)', 'B. 90 % to under 99 %: 9 hands (45 %)', 'C. 99 % to under 99.9 %: 6 hands (30 %)', 'D. 99.9 % or more: 1 hand (5 %)',
  ]);
  // The ✓ is the band the lab's own answer names.
  const said = await page.locator('.prediction-result p').first().innerText();
  const band = /: right\./.test(said) ? labels[1].slice(3) : said.match(/\(([^)]+)\)/)[1];
  assert.deepEqual(lines.filter((l) => l.endsWith('✓ the answer')).map((l) => l.split(':')[0].slice(3)), [band], said);
  assert.deepEqual(await axe(page), []);

  await page.goto(`${env.url}/lab/backfill?present=1`);
  const ship = page.getByRole('group', { name: /The room's hands/ });
  await ship.waitFor();
  for (let i = 0; i < 5; i += 1) await ship.getByRole('button', { name: '+1 hand for the 8th' }).click();
  await ship.getByLabel('the 3rd', { exact: true }).fill('2');
  await ship.getByLabel('the 3rd', { exact: true }).press('Tab');
  await page.waitForURL(/room=2\.5\.0/);
  await page.getByRole('group', { name: 'When do you think the bad code shipped?' }).getByRole('radio', { name: 'the 8th' }).check();
  await page.getByRole('button', { name: 'Lock in and run the drift query' }).click();
  await page.locator('figure.room-spread').waitFor();
  assert.deepEqual((await page.locator('figure.room-spread li').allInnerTexts()).map((l) => l.trim()), [
    'the 3rd: 2 hands (29 %) ✓ the answer', 'the 8th: 5 hands (71 %)', 'the 12th: 0 hands (0 %)',
  ]);
  assert.match(await page.locator('#guess-verdict').innerText(), /first row is 3 Aug/);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
