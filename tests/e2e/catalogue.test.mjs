// The designs scripts/check-real runs on real tools (the export room's
// catalogue, tests/e2e/catalogue.json, kept current by a native test),
// each opened by its share link as a student's would be: the page grades it
// as the catalogue labels it, and its "Export as code" shows exactly the dbt
// and Spark blocks the checks were given (shown code is run code).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage } from './browser.mjs';

const designs = JSON.parse(readFileSync(new URL('./catalogue.json', import.meta.url), 'utf8'));

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

test('the catalogue holds daily and backfill designs, passing ones and mistakes', () => {
  assert.ok(designs.length >= 20, `${designs.length} designs`);
  assert.ok(designs.some((d) => d.fails === null) && designs.some((d) => d.fails !== null));
  assert.deepEqual([...new Set(designs.map((d) => d.scenario))].sort(), [1, 2, 3, 4, 5, 6]);
});

test('every design the real-tool checks run is graded in the browser as labelled, and shows the code they ran', async () => {
  for (const design of designs) {
    // A browser of its own each: no student's saved design to weigh against the link's.
    const { page, errors, context } = await openPage(env, design.link);
    const check = page.getByRole('button', { name: 'Check my design' });
    await check.click();
    const verdict = page.locator('.report .verdict').filter({ hasText: /requirements met/ });
    await verdict.waitFor({ timeout: 60_000 });
    const said = await verdict.innerText();
    if (design.fails === null) {
      assert.match(said, /^✓ Passed/, `${design.name}: ${said}`);
    } else {
      assert.match(said, /^✗/, `${design.name}: ${said}`);
      const rule = page.locator(`.report li.rule[data-rule="${design.fails}"]`);
      assert.ok(await rule.evaluate((li) => li.classList.contains('rule-failed')), `${design.name} fails ${design.fails}`);
    }
    const shelf = page.locator('details.export-code');
    if (!(await shelf.evaluate((d) => d.open))) await shelf.locator('summary').click();
    for (const [tool, want] of [['dbt', design.dbt], ['Spark', design.spark]]) {
      const block = shelf.locator('.code-block').filter({ has: page.getByRole('heading', { name: tool, exact: true }) });
      assert.equal((await block.locator('pre').innerText()).trimEnd(), want.trimEnd(), `${design.name}: the ${tool} block`);
    }
    assert.deepEqual(errors, [], design.name);
    await context.close();
  }
});
