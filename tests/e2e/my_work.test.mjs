// "Download my work" and "Restore my work": work made in one browser
// carries to another (a fresh context is another machine), newer work
// there is replaced only when the student says so and is kept as a
// backup, and a bad file changes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, axe } from './browser.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const nodes = (page) => page.locator('svg.board g.node');

/// Adds a palette item to the board by keyboard (the palette's buttons).
async function addNode(page, kind) {
  await page.locator(`.palette-item[data-kind="${kind}"]`).click();
}

async function restoreFrom(page, file) {
  await page.getByLabel('Restore my work from a downloaded work file').setInputFiles(file);
}

test('work moves between machines, asks before replacing newer work, and refuses a bad file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'partition-lab-work-'));
  // The lab computer: a design for scenario 1, checked.
  const lab = await openPage(env, '/scenarios/1');
  await addNode(lab.page, 'transform');
  assert.equal(await nodes(lab.page).count(), 2);
  await lab.page.getByRole('button', { name: 'Check my design' }).click();
  await lab.page.locator('.check').getByText(/structural problem/).first().waitFor();
  await lab.page.goto(`${env.url}/scenarios`);
  const [download] = await Promise.all([
    lab.page.waitForEvent('download'),
    lab.page.getByRole('link', { name: 'Download my work' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'partition-lab-work.json');
  const file = join(dir, 'work.json');
  await download.saveAs(file);
  const saved = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(saved.format, 'partition-lab-work');
  assert.deepEqual(saved.scenarios.map((s) => s.scenario), [1]);
  assert.equal(saved.scenarios[0].progress, 'structural');
  assert.ok(Math.abs(saved.scenarios[0].saved_at - Date.now()) < 600000, `saved_at ${saved.scenarios[0].saved_at}`);
  assert.equal(Object.keys(saved.scenarios[0].design.graph.nodes).length, 2);

  // Home: nothing there yet, so the file's work is taken as it is.
  const home = await openPage(env, '/scenarios');
  await restoreFrom(home.page, file);
  await home.page.locator('.restore-outcome li').filter({ hasText: 'Scenario 1: restored.' }).waitFor();
  assert.match(await home.page.locator('li[data-scenario="1"] .progress').innerText(), /structural problems/);
  await home.page.goto(`${env.url}/scenarios/1`);
  await home.page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(home.page).count(), 2);

  // Newer work at home: restoring the older file asks first.
  await addNode(home.page, 'write target');
  assert.equal(await nodes(home.page).count(), 3);
  await home.page.goto(`${env.url}/scenarios`);
  await restoreFrom(home.page, file);
  const ask = home.page.getByRole('group', { name: /Newer work here/ });
  await ask.waitFor();
  const tick = ask.getByRole('checkbox', { name: /^Scenario 1: replace the design here \(saved \d{4}-\d\d-\d\d \d\d:\d\d UTC\) with the file's \(saved / });
  assert.equal(await tick.isChecked(), false);
  const violations = await axe(home.page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await ask.getByRole('button', { name: 'Keep mine for all of these' }).click();
  await home.page.locator('.restore-outcome li').filter({ hasText: 'kept the design here' }).waitFor();
  await home.page.goto(`${env.url}/scenarios/1`);
  await home.page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(home.page).count(), 3, 'kept, as asked');

  await home.page.goto(`${env.url}/scenarios`);
  await restoreFrom(home.page, file);
  await tick.check();
  await ask.getByRole('button', { name: 'Replace the ticked ones' }).click();
  await home.page.locator('.restore-outcome li').filter({ hasText: 'kept as a backup' }).waitFor();
  await home.page.goto(`${env.url}/scenarios/1`);
  await home.page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(home.page).count(), 2, 'replaced, as asked');
  assert.equal(await home.page.getByRole('button', { name: 'Bring back my earlier design' }).count(), 1, 'the replaced design is offered back');

  // A damaged file: refused whole, with the reason, nothing changed.
  const bad = join(dir, 'bad.json');
  saved.scenarios[0].design.graph.nodes['0'].config.Source.table = 'bronze.orders';
  await writeFile(bad, JSON.stringify(saved));
  await home.page.goto(`${env.url}/scenarios`);
  await restoreFrom(home.page, bad);
  const refused = await home.page.locator('.restore-outcome .notice').innerText();
  assert.match(refused, /^bad\.json could not be restored: scenario 1's design: .*bronze\.orders.*Nothing was changed\.$/);
  // A scenario the lab does not have: the range named is the catalogue's.
  const far = join(dir, 'far.json');
  saved.scenarios[0].scenario = 99;
  await writeFile(far, JSON.stringify(saved));
  await restoreFrom(home.page, far);
  await home.page.locator('.restore-outcome .notice', { hasText: 'far.json could not be restored: an entry names no scenario from 1 to 6.' }).waitFor();
  await home.page.goto(`${env.url}/scenarios/1`);
  await home.page.waitForSelector('svg.board g.node');
  assert.equal(await nodes(home.page).count(), 2);

  assert.deepEqual([...lab.errors, ...home.errors], []);
  await lab.context.close();
  await home.context.close();
});

// SPEC 14 for a self-learner: fresh data goes home with the design made on
// it. The work file names it, a restore on another machine opens the page
// on it again, and the class page grades the design on it.
test('a self-learner\'s fresh data travels in the work file and opens again where it is restored', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'partition-lab-work-'));
  const lab = await openPage(env, '/scenarios/6');
  await lab.page.getByRole('button', { name: 'Fresh data', exact: true }).click();
  await lab.page.waitForURL(/\/scenarios\/6\?variant=\d+$/);
  const variant = new URL(lab.page.url()).searchParams.get('variant');
  await lab.page.locator('[data-figure="whose-data"]').waitFor();
  const story = (await lab.page.locator('.page > p').allInnerTexts()).join(' ').match(/On \w+ \d+ June at 01:30/)[0];
  await addNode(lab.page, 'transform');
  await lab.page.goto(`${env.url}/scenarios`);
  const [download] = await Promise.all([
    lab.page.waitForEvent('download'),
    lab.page.getByRole('link', { name: 'Download my work' }).click(),
  ]);
  const file = join(dir, 'work.json');
  await download.saveAs(file);
  const saved = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(saved.version, 2);
  assert.deepEqual(saved.scenarios.map((s) => [s.scenario, s.variant]), [[6, variant]]);

  // Another machine: restored, the page opens on that data, not the chapter's.
  const home = await openPage(env, '/scenarios');
  await restoreFrom(home.page, file);
  await home.page.locator('.restore-outcome li').filter({ hasText: 'Scenario 6: restored.' }).waitFor();
  await home.page.goto(`${env.url}/scenarios/6`);
  const whose = home.page.locator('[data-figure="whose-data"]');
  await whose.waitFor();
  assert.match(await whose.innerText(), new RegExp(`^Data variant ${variant}:`));
  assert.match((await home.page.locator('.page > p').allInnerTexts()).join(' '), new RegExp(story));
  assert.equal(await nodes(home.page).count(), 2);
  // The chapter's data is still one click away.
  await home.page.getByRole('button', { name: 'Back to the chapter\'s data' }).click();
  await home.page.waitForURL(/\?variant=0$/);
  await whose.filter({ hasText: /^These are the chapter's figures/ }).waitFor();
  assert.deepEqual([...lab.errors, ...home.errors], []);
  await lab.context.close();
  await home.context.close();
});

// A design kept as the backup keeps the data it was made on: brought back
// over a link's design on other data, it is saved with its own data and
// the page opens again on it.
test('a design brought back from the backup comes back on the data it was made on', async () => {
  const classmate = await openPage(env, '/scenarios/1?variant=0');
  await addNode(classmate.page, 'transform');
  await addNode(classmate.page, 'transform');
  await classmate.page.getByText('Save, share, import').click();
  const link = await classmate.page.getByLabel('Share link').inputValue();
  assert.match(link, /\/scenarios\/1\?variant=0#design=/);

  const { page, errors, context } = await openPage(env, '/scenarios/1');
  await page.getByRole('button', { name: 'Fresh data', exact: true }).click();
  await page.waitForURL(/\/scenarios\/1\?variant=\d+$/);
  const variant = new URL(page.url()).searchParams.get('variant');
  const whose = page.locator('[data-figure="whose-data"]');
  await whose.waitFor();
  await addNode(page, 'transform');
  assert.equal(await nodes(page).count(), 2);
  // The classmate's link, on the chapter's data, replaces it: kept first.
  await page.goto(link);
  await page.locator('.link-prompt').getByRole('button', { name: "Open the link's design" }).click();
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.node').length === 3);
  assert.match(await whose.innerText(), /^These are the chapter's figures/);
  const backup = page.getByRole('region', { name: 'Design kept from before it was replaced' });
  await backup.getByRole('button', { name: 'Bring back my earlier design' }).click();
  // Back, on its own data.
  await page.waitForURL(new RegExp(`/scenarios/1\\?variant=${variant}$`));
  await whose.filter({ hasText: `Data variant ${variant}` }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('svg.board g.node').length === 2);
  // And the link's design is the backup now, on the chapter's data.
  assert.equal(await page.evaluate(() => localStorage.getItem('partition-lab/design/1/before-link/variant')), '0');
  assert.deepEqual([...classmate.errors, ...errors], []);
  await classmate.context.close();
  await context.close();
});
