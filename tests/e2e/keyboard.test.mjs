// Each lab walked through with the keyboard alone: Tab, arrows, Space and
// Enter, never the mouse, from first load to the lab's point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

/// Presses Tab until the focused element matches `selector`.
async function tabTo(page, selector, limit = 120) {
  for (let i = 0; i < limit; i += 1) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/// The focused element is visibly outlined (a focus ring the eye can follow).
async function focusVisible(page) {
  return page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  });
}

test('State x Write by keyboard: predict, reveal, step to the verdicts, then open the settings and change one', async () => {
  const { page, errors, context } = await openPage(env, '/lab/state-write');
  await tabTo(page, 'input[name="prediction"]');
  assert.ok(await focusVisible(page), 'focus is visible');
  await page.keyboard.press('Space');
  await tabTo(page, '.predict button.primary');
  await page.keyboard.press('Enter');
  await page.locator('.prediction-result').waitFor();
  assert.match(await page.locator('.prediction-result').innerText(), /With these settings the silent ones? (is|are) /);
  await tabTo(page, 'input[type="range"]');
  await page.keyboard.press('End');
  await page.waitForURL(/run=8/);
  assert.ok(await page.locator('.verdict').count() >= 5, 'every cell shows its verdict');
  // The folded settings open from the keyboard, and a radio's arrows change the week.
  await tabTo(page, 'details#settings > summary');
  await page.keyboard.press('Enter');
  // The settings are a later chunk: fetched a second after the lab is live.
  await page.locator('input[name="late"]:checked').waitFor();
  await tabTo(page, 'input[name="late"]:checked');
  assert.ok(await focusVisible(page), 'focus is visible');
  await page.keyboard.press('ArrowRight'); // Tuesday -> Wednesday
  await page.waitForURL(/late=wed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Lateness by keyboard: the slider, the policy and presenter mode', async () => {
  const { page, errors, context } = await openPage(env, '/lab/lateness?lateness=2&predict=skip');
  const open = () => page.locator('[data-figure="open"]').innerText();
  assert.equal(await open(), '3 partitions');
  await tabTo(page, 'input[type="range"]');
  assert.ok(await focusVisible(page));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-figure="open"]').textContent === '4 partitions');
  await tabTo(page, 'input[name="after"]:checked');
  await page.keyboard.press('ArrowLeft');
  await page.waitForURL(/after=drop/);
  await tabTo(page, 'button[aria-pressed]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/present=1/);
  assert.equal(await page.locator('.presenter').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Backfill by keyboard: predict, run the drift query, choose the plan, run it to the end', async () => {
  const { page, errors, context } = await openPage(env, '/lab/backfill?concurrency=12');
  await tabTo(page, 'input[name="from"]:checked');
  await page.keyboard.press('ArrowRight'); // the 1st -> the 3rd
  await page.waitForURL(/from=3/);
  await page.keyboard.press('ArrowRight'); // the 3rd -> the 8th
  await page.waitForURL(/from=8/);
  await tabTo(page, 'input[name="guess"]');
  await page.keyboard.press('Space');
  assert.ok(await focusVisible(page));
  await tabTo(page, '.predict button.primary');
  await page.keyboard.press('Enter');
  await page.locator('[data-figure="guess"]').filter({ hasText: 'The drift query' }).waitFor();
  await tabTo(page, 'input[name="concurrency"]:checked');
  await page.keyboard.press('ArrowLeft'); // 12 -> 4
  await page.waitForURL(/concurrency=4/);
  await tabTo(page, 'section[aria-labelledby="run-heading"] button.primary');
  await page.keyboard.press('Enter');
  await page.locator('.run-outcome').waitFor({ timeout: 20000 });
  assert.match(await page.locator('.outcome-headline').innerText(), /still wrong/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('Restoring work by keyboard: the download link and the file chooser are in the tab order', async () => {
  const { page, errors, context } = await openPage(env, '/scenarios');
  await tabTo(page, 'a[download="partition-lab-work.json"]');
  assert.ok(await focusVisible(page));
  await tabTo(page, '#restore-work');
  assert.deepEqual(errors, []);
  await context.close();
});
