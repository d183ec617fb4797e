// prefers-reduced-motion: with it set, nothing on any page animates or
// transitions (the backfill lab's run, the one animation driven from Rust,
// is tested in backfill.test.mjs: it jumps to the end).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const ROUTES = ['/', '/lab/state-write', '/lab/lateness', '/lab/backfill', '/teach', '/scenarios', '/scenarios/4', '/lab/lateness?present=1'];

/// Every element (and its ::before/::after) that would move.
const moving = () => [...document.querySelectorAll('*')].flatMap((el) =>
  [null, '::before', '::after'].flatMap((pseudo) => {
    const s = getComputedStyle(el, pseudo);
    const seconds = (list) => list.split(',').some((t) => parseFloat(t) > 0);
    const animated = s.animationName !== 'none' && seconds(s.animationDuration);
    const transitioned = seconds(s.transitionDuration);
    return animated || transitioned ? [`${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}${pseudo ?? ''}`] : [];
  }));

for (const path of ROUTES) {
  test(`${path}: nothing moves with reduced motion`, async () => {
    const context = await env.browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${env.url}${path}`);
    await page.waitForSelector('main h1');
    assert.deepEqual(await page.evaluate(moving), []);
    await context.close();
  });
}

test('the reduced-motion rule is what stops them: a transition added to the page is cancelled', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${env.url}/`);
  await page.waitForSelector('main h1');
  // The page's CSP forbids style tags; the CSS object model is allowed.
  await page.evaluate(() => { document.querySelector('main h1').style.transition = 'color 2s'; });
  assert.deepEqual(await page.evaluate(moving), []);
  await context.close();
  const moves = await env.browser.newContext({ reducedMotion: 'no-preference' });
  const other = await moves.newPage();
  await other.goto(`${env.url}/`);
  await other.waitForSelector('main h1');
  await other.evaluate(() => { document.querySelector('main h1').style.transition = 'color 2s'; });
  assert.deepEqual(await other.evaluate(moving), ['h1'], 'without the preference the same rule does move');
  await moves.close();
});
