// Designs built on a scenario's canvas the way a student would, shared by
// the browser tests and the screenshot script.

export const node = (page, id) => page.locator(`svg.board g.node[data-node="${id}"]`);

/// Source -> state -> transform -> write by the palette and connect menu.
export async function buildChain(page) {
  for (const kind of ['processing state', 'transform', 'write target']) {
    await page.locator(`.palette-item[data-kind="${kind}"]`).click();
  }
  for (const [from, to] of [[0, 1], [1, 2], [2, 3]]) {
    await node(page, to).locator('rect.node-box').click();
    await page.locator('.connect-menu select').selectOption(`from:${from}`);
    await page.locator('.connect-menu').getByRole('button', { name: 'Connect' }).click();
  }
}
