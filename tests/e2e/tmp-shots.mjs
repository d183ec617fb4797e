import { launch, openPage } from './browser.mjs';
const env = await launch();
const shot = async (path, name, act, viewport) => {
  const { page, context } = await openPage(env, path, viewport);
  if (act) await act(page);
  await page.screenshot({ path: `/tmp/shots/${name}.png` });
  await context.close();
};
await shot('/dates?day=9&day=20&lateness=1&lateness=99&from=3&from=x', 'dates-repeat');
await shot(`/lab/state-write?predict=${'watermark_overwrite,'.repeat(1000)}`, 'sxw-long', null, { width: 390, height: 844 });
await shot('/lab/lateness?profile=yours', 'yours-commas', async (page) => {
  await page.getByLabel(/CSV file/).setInputFiles({ name: 'commas.csv', mimeType: 'text/csv', buffer: Buffer.from(','.repeat(200000) + '\n' + '2026-03-01T10:00:00Z,2026-03-01T10:05:00Z,1\n'.repeat(10)) });
  await page.locator('.your-data > [role="alert"]').filter({ hasText: 'could not be read' }).waitFor();
  await page.locator('.your-data > [role="alert"]').scrollIntoViewIfNeeded();
});
await shot('/scenarios/4', 'lookback', async (page) => {
  const lb = page.getByLabel('Look back from', { exact: true });
  await lb.fill('2026-08-08');
  await page.getByRole('button', { name: 'Run the drift query' }).click();
  await lb.fill('2026-07-20');
  await page.getByRole('button', { name: 'Run the drift query' }).click();
  await page.locator('#lookback-error').scrollIntoViewIfNeeded();
});
await env.close();
