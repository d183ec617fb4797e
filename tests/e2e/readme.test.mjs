// The README's pictures exist and are pictures: scripts/screenshots makes
// them from the real app, and a renamed one must not leave a broken image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './browser.mjs';

test('every image the README shows is a PNG under docs/', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length >= 4, `the README shows ${images.length} pictures`);
  for (const image of images) {
    assert.match(image, /^docs\/screenshots\/[a-z-]+\.png$/);
    const file = join(ROOT, image);
    assert.ok(existsSync(file), `${image} is missing: run scripts/screenshots`);
    const magic = readFileSync(file).subarray(0, 8).toString('hex');
    assert.equal(magic, '89504e470d0a1a0a', `${image} is not a PNG`);
  }
});
