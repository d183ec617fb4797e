// Pages a student can read in the time a lab takes (#43): the words shown
// by default (1280x800, before any interaction) within each page's
// budget, and no sentence a reader meets longer than 35 words, on the
// page as it opens and after its main interaction. Terms from the tools
// are explained where they first appear, or kept on the practitioner's
// shelf (a folded "For practitioners" section).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage } from './browser.mjs';
import { visibleText, words, longest, wordsOutside } from './reading.mjs';

const LONGEST = 35;
// Words shown by default, at most.
const BUDGET = [
  ['/lab/state-write', 700],
  ['/lab/lateness', 700],
  ['/lab/backfill', 700],
  ['/dates', 900],
];
const PAGES = ['/', '/lab/state-write', '/lab/lateness', '/lab/backfill', '/dates', '/teach', '/scenarios', '/class',
  '/scenarios/1', '/scenarios/2', '/scenarios/3', '/scenarios/4', '/scenarios/5', '/scenarios/6'];
// Words from the tools a student meets with no explanation, unless the
// page explains them where they first appear.
const TOOL_TERMS = ['lab_control', 'DirectRunner', 'replaceWhere', 'microbatch', 'hour_offset', 'logical date', 'D+2', 'reconcile'];

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

function noLongSentence(text, where) {
  const [top] = longest(text, 1);
  assert.ok(!top || top.words <= LONGEST, `${where}: a sentence of ${top?.words} words: ${top?.sentence}`);
}

for (const [path, budget] of BUDGET) {
  test(`${path} shows at most ${budget} words before any interaction`, async () => {
    const { page, errors, context } = await openPage(env, path);
    // The whole page as the issue counts it (its navigation included).
    const shown = words(await visibleText(page, 'body')).length;
    assert.ok(shown <= budget, `${path}: ${shown} words shown by default`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the overview starts on its first screen: two sentences and a way in, at most 500 words above its folded glossary', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, errors, context } = await openPage(env, '/', viewport);
    const start = page.getByRole('link', { name: 'Start with the State x Write lab' });
    const box = await start.boundingBox();
    assert.ok(box && box.y + box.height <= viewport.height, `the way in is on the first screen at ${viewport.width} px`);
    assert.equal(await page.locator('details.glossary-fold').evaluate((d) => d.open), false, 'the glossary is folded');
    assert.ok(await wordsOutside(page, 'details.glossary-fold') <= 500);
    await start.click();
    await page.waitForURL('**/lab/state-write');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

for (const path of PAGES) {
  test(`${path}: no sentence over ${LONGEST} words as it opens`, async () => {
    const { page, errors, context } = await openPage(env, path);
    noLongSentence(await visibleText(page), path);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// The main interaction of each lab: the prediction answered (or skipped),
// then the lab run to its end.
const AFTER = [
  ['/lab/state-write?predict=skip&run=7', 'the week revealed, at its last run'],
  ['/lab/lateness?predict=skip', 'the figures revealed'],
  ['/lab/lateness?predict=skip&profile=partner&lateness=0', 'the partner profile at 0 days'],
  ['/lab/backfill?guess=3&from=3', 'the ship date predicted'],
];
for (const [path, what] of AFTER) {
  test(`${path}: no sentence over ${LONGEST} words with ${what}`, async () => {
    const { page, errors, context } = await openPage(env, path);
    await page.waitForTimeout(200);
    // The backfill lab's answer comes with its engine, fetched at once.
    if (path.startsWith('/lab/backfill')) await page.locator('#guess-verdict').waitFor({ state: 'attached' });
    noLongSentence(await visibleText(page), path);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the backfill run to its end says what happened in short sentences', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?guess=3&from=3&ran=end');
  await page.locator('.outcome-headline').waitFor();
  noLongSentence(await visibleText(page), 'the backfill after its run');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a term from the tools is explained where a student first meets it, or kept on the practitioner\'s shelf', async () => {
  // The dates page is the practitioner's own: each tool in its own terms.
  for (const path of PAGES.filter((p) => p !== '/dates')) {
    const { page, errors, context } = await openPage(env, path);
    const text = await visibleText(page);
    for (const term of TOOL_TERMS) {
      const at = text.indexOf(term);
      if (at < 0) continue;
      // Explained there: the glossary's definition is a link or a title on the term.
      const explained = await page.evaluate((t) => [...document.querySelectorAll('main abbr[title], main dfn, main a[href*="#term-"]')]
        .some((el) => el.textContent.includes(t)), term);
      assert.ok(explained, `${path}: "${term}" shown unexplained: …${text.slice(Math.max(0, at - 60), at + 60)}…`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('one signal per figure: a month closed on time but far from complete says both in words', async () => {
  const { page, errors, context } = await openPage(env, '/lab/lateness?predict=skip&profile=partner&lateness=0');
  const close = await page.locator('[data-figure="close"]').innerText();
  assert.doesNotMatch(close, /[✓✗]/, 'no mark that reads as "all is well"');
  const text = await visibleText(page);
  assert.match(text, /But only \d+\.\d\d % of August's value is in its own days by then\./);
  assert.deepEqual(errors, []);
  await context.close();
});
