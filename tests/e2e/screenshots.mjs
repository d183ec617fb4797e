// Regenerates the README's pictures from the real app (scripts/screenshots
// builds it first): each lab in a telling state and a checked scenario,
// at 1280 px wide with motion reduced, so a run ends at once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, ROOT } from './browser.mjs';
import { buildChain, DAILY } from './designs.mjs';

const out = join(ROOT, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const env = await launch();
const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', deviceScaleFactor: 1 });

async function shoot(name, path, act, target = 'main') {
  const page = await context.newPage();
  await page.goto(`${env.url}${path}`);
  await page.waitForSelector('main h1');
  await act(page);
  const file = join(out, `${name}.png`);
  if (target) {
    await page.locator(target).first().screenshot({ path: file });
  } else {
    await page.screenshot({ path: file });
  }
  console.log(`wrote ${file}`);
  await page.close();
}

await shoot('state-write', '/lab/state-write?late=wed&crash=on&lookback=1&commit=after&run=8&predict=skip', async (page) => {
  await page.locator('.verdict').first().waitFor();
  // The scrubber stays on top as the cells scroll under it: one screenful.
  await page.evaluate(() => window.scrollTo(0, document.querySelector('.cells').getBoundingClientRect().top + window.scrollY - 330));
}, null);

await shoot('lateness', '/lab/lateness?profile=mobile&lateness=2&predict=skip', async (page) => {
  await page.locator('[data-figure="open"]').waitFor();
}, '.figures');

await shoot('lateness-curve', '/lab/lateness?profile=mobile&lateness=2&predict=skip', async (page) => {
  await page.locator('.chart').waitFor();
}, '.chart');

await shoot('backfill', '/lab/backfill?from=8&concurrency=4&guess=8', async (page) => {
  await page.getByRole('button', { name: 'Run the backfill' }).click();
  await page.locator('.run-outcome').waitFor({ timeout: 20000 });
}, 'section[aria-labelledby="grid-heading"]');

await shoot('scenario', '/scenarios/1', async (page) => {
  await buildChain(page, { ...DAILY, write: [['Write mode', 'append']] });
  await page.getByRole('button', { name: 'Check my design' }).click();
  await page.locator('.report .verdict').waitFor();
  await page.locator('.report').scrollIntoViewIfNeeded();
}, '.report');

await context.close();
await env.close();
