// Designs built on a scenario's canvas the way a student would, shared by
// the browser tests and the screenshot script. A node from the palette
// arrives with its choices unmade ("Choose…"): every design here makes
// each one, by the inspector, as a student must.

export const node = (page, id) => page.locator(`svg.board g.node[data-node="${id}"]`);
/// The same node as a card of the list layout (a phone's).
export const step = (page, id) => page.locator(`.design-steps li[data-node="${id}"]`);

/// Opens node `id`'s settings (or its connect menu) the way the page
/// offers: a click on the board's box, or the list card's button.
async function open(page, id, button = 'Settings') {
  if (await page.locator('.design-steps').count()) {
    await step(page, id).getByRole('button', { name: button, exact: true }).click();
  } else {
    await node(page, id).locator('rect.node-box').click();
  }
}

/// Selects node `id` and sets each [label, value] in its inspector: a
/// menu by its option's value, a number or date typed and entered, a
/// yes/no setting by 'true' or 'false' (a menu until chosen, a box after).
export async function choose(page, id, choices) {
  await open(page, id);
  for (const [label, value] of choices) {
    const field = page.locator('.inspector').getByLabel(label, { exact: true });
    const tag = await field.evaluate((el) => `${el.tagName}:${el.type}`);
    if (tag.startsWith('SELECT')) {
      await field.selectOption(value);
    } else if (tag === 'INPUT:checkbox') {
      await field.setChecked(value === 'true');
    } else {
      await field.fill(value);
      await field.press('Enter');
    }
  }
}

/// The choices of a daily chain that rebuilds each day's partition: a
/// partition list with a day's lookback, overwrite. Tests override one.
export const DAILY = {
  state: [['Remembers', 'list'], ['Lookback', '1'], ['Partitions listed by', 'event'], ['State saved', 'after']],
  transform: [['Reads from', 'bronze'], ['Partition rows by', 'event']],
  write: [['Write mode', 'overwrite']],
};

/// Connects each [from, to] by the connect menu.
export async function wire(page, edges) {
  for (const [from, to] of edges) {
    await open(page, to, 'Connect…');
    // On a phone the menu opens in the card itself, under the finger.
    const list = await page.locator('.design-steps').count();
    const menu = list ? step(page, to).locator('.step-connect .connect-menu') : page.locator('.connect-menu');
    await menu.locator('select').selectOption(`from:${from}`);
    await menu.getByRole('button', { name: 'Connect' }).click();
    if (list) await step(page, to).getByRole('button', { name: 'Close connections' }).click();
  }
}

/// Source -> state -> transform -> write by the palette and connect menu,
/// each node's choices made (`DAILY` unless given).
export async function buildChain(page, choices = DAILY) {
  for (const kind of ['processing state', 'transform', 'write target']) {
    await page.locator(`.palette-item[data-kind="${kind}"]`).click();
  }
  await wire(page, [[0, 1], [1, 2], [2, 3]]);
  await choose(page, 1, choices.state);
  await choose(page, 2, choices.transform);
  await choose(page, 3, choices.write);
}
