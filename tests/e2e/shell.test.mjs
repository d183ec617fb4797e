// The app shell: every route loads in Chromium without console errors,
// passes axe-core, fits a phone, and navigates client-side.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, axe, cspViolations, smallText } from './browser.mjs';

const ROUTES = [
  ['/', 'Partition Lab'],
  ['/lab/state-write', 'State x Write lab'],
  ['/lab/lateness', 'Allowed-lateness lab'],
  ['/lab/backfill', 'Currency-bug backfill lab'],
  ['/teach', 'Lesson plan: one 50-minute session'],
  ['/dates', "One pipeline's dates in every tool"],
  ['/class', "Your class's results"],
  ['/scenarios', 'Six design scenarios'],
  ['/scenarios/1', 'Scenario 1: Clicks, forward'],
  ['/scenarios/2', 'Scenario 2: Orders that change'],
  ['/scenarios/3', 'Scenario 3: Late mobile events and month close'],
  ['/scenarios/4', 'Scenario 4: The currency bug'],
  ['/scenarios/5', 'Scenario 5: Two years of history, interrupted'],
  ['/scenarios/6', 'Scenario 6: The scheduler was down'],
  ['/no/such/page', 'No page here'],
  ['/scenarios/9', 'No page here'],
];

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

for (const [path, heading] of ROUTES) {
  test(`${path} loads with its heading, no console errors and no axe violations`, async () => {
    const { page, errors, context } = await openPage(env, path);
    assert.equal((await page.textContent('main h1')).trim(), heading);
    assert.match(await page.title(), /Partition Lab/);
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    assert.deepEqual(errors, []);
    assert.deepEqual(await cspViolations(page), [], 'the page works under its CSP');
    await context.close();
  });

  test(`${path} fits a 390px-wide phone without sideways scrolling, every word 12 px or more, axe clean there too`, async () => {
    const { page, errors, context } = await openPage(env, path, { width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
    // Charts and tags included (the lateness chart's labels were 6.7 px here).
    const small = await smallText(page, 12);
    assert.deepEqual(small, [], `text under 12 px: ${JSON.stringify(small.slice(0, 8))}`);
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the navigation moves within a part without a reload, loads another part, and marks the current page', async () => {
  const { page, errors, context } = await openPage(env, '/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const wasm = () => page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.wasm')));
  // The home part (the overview, the lesson plan): its own wasm only. A
  // part's later chunks (split-<part>-<hash>/) count as that part's.
  const bundles = async () => {
    const fetched = await wasm();
    assert.equal(new Set(fetched).size, fetched.length, `a wasm fetched twice: ${fetched}`);
    return [...new Set(fetched.map((p) => p.replace(/-[0-9a-f]+_bg\.wasm$/, '').replace(/^\/split-(.+)-[0-9a-f]{16}\/[^/]+\.wasm$/, '/$1')))];
  };
  assert.deepEqual(await bundles(), ['/partition-lab']);
  await page.evaluate(() => { window.__sameDocument = true; });
  await nav.getByRole('link', { name: 'Teach' }).click();
  await page.waitForURL('**/teach');
  await page.locator('main h1', { hasText: 'Lesson plan' }).waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'navigation within the home part reloaded the page');
  // Each lab is a part of its own: a page load of its bundle alone.
  await nav.getByRole('link', { name: 'State x Write' }).click();
  await page.waitForURL('**/lab/state-write');
  await page.locator('main h1', { hasText: 'State' }).waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), undefined, 'the State x Write lab came without a page load');
  assert.deepEqual(await bundles(), ['/partition-lab-state-write']);
  // The lateness lab is a part of its own: a page load of its bundle alone.
  await nav.getByRole('link', { name: 'Lateness' }).click();
  await page.waitForURL('**/lab/lateness');
  assert.equal((await page.textContent('main h1')).trim(), 'Allowed-lateness lab');
  assert.equal(await page.evaluate(() => window.__sameDocument), undefined, 'the lateness lab came without a page load');
  assert.deepEqual(await bundles(), ['/partition-lab-lateness']);
  // The scenarios are another part: an ordinary page load of their own bundle.
  await nav.getByRole('link', { name: 'Scenarios' }).click();
  await page.waitForURL('**/scenarios');
  await page.locator('main h1', { hasText: 'Six design scenarios' }).waitFor();
  assert.deepEqual(await bundles(), ['/partition-lab-scenarios']);
  const current = page.locator('nav a[aria-current="page"]');
  assert.equal((await current.textContent()).trim(), 'Scenarios');
  await page.evaluate(() => { window.__sameDocument = true; });
  await page.getByRole('link', { name: '4. The currency bug' }).click();
  await page.waitForURL('**/scenarios/4');
  assert.equal(await page.title(), 'Scenario 4: The currency bug · Partition Lab');
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'navigation within the scenarios reloaded the page');
  await page.goBack();
  await page.waitForURL('**/scenarios');
  assert.equal((await page.textContent('main h1')).trim(), 'Six design scenarios');
  // And back to the labs from the scenarios' header.
  await nav.getByRole('link', { name: 'Backfill' }).click();
  await page.waitForURL('**/lab/backfill');
  await page.locator('main h1', { hasText: 'Currency-bug backfill lab' }).waitFor();
  assert.deepEqual(await bundles(), ['/partition-lab-backfill']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the server, like a host given the README\'s rules, sends each path to its part', async () => {
  const { page: pageFor } = await import('./serve.mjs');
  for (const [path, html] of [['/', 'index.html'], ['/lab/lateness', 'lateness.html'], ['/lab/lateness/', 'lateness.html'], ['/lab/latenessx', 'index.html'], ['/lab/state-write', 'state-write.html'], ['/lab/state-write/', 'state-write.html'], ['/lab/backfill', 'backfill.html'], ['/lab/backfillx', 'index.html'], ['/teach', 'index.html'], ['/scenarios', 'scenarios.html'], ['/scenarios/', 'scenarios.html'], ['/scenarios/4', 'scenarios.html'], ['/scenariosx', 'index.html'], ['/dates', 'dates.html'], ['/dates/', 'dates.html'], ['/datesx', 'index.html'], ['/class', 'class.html'], ['/class/', 'class.html'], ['/classx', 'index.html']]) {
    assert.equal(pageFor(path), html, path);
  }
  for (const [path, bin] of [['/teach', 'partition-lab-'], ['/lab/state-write', 'partition-lab-state-write-'], ['/lab/backfill?from=8', 'partition-lab-backfill-'], ['/lab/lateness?profile=mobile', 'partition-lab-lateness-'], ['/scenarios/2', 'partition-lab-scenarios-'], ['/dates?lateness=3', 'partition-lab-dates-'], ['/class', 'partition-lab-class-']]) {
    const body = await (await fetch(`${env.url}${path}`)).text();
    assert.match(body, new RegExp(`src="/${bin}[0-9a-f]+\\.js"|/${bin}[0-9a-f]+\\.js`), `${path} loads ${bin}`);
  }
});

test('the whole shell is reachable by keyboard, with a skip link first', async () => {
  const { page, errors, context } = await openPage(env, '/');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), 'Skip to content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  // From the top, tabbing reaches the Lateness link and Enter follows it.
  await page.goto(env.url + '/');
  await page.waitForSelector('main h1');
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => document.activeElement.textContent.trim());
    if (text === 'Lateness') break;
  }
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), 'Lateness');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'focused link has no visible outline');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/lab/lateness');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the glossary filter narrows the terms and says how many are shown', async () => {
  const { page, errors, context } = await openPage(env, '/');
  // Folded below the map until asked for.
  const glossary = page.locator('details.glossary-fold');
  assert.equal(await glossary.evaluate((d) => d.open), false);
  await glossary.locator(':scope > summary').click();
  const total = await page.locator('.glossary-entry').count();
  assert.ok(total >= 23, `only ${total} glossary terms`);
  await page.getByLabel('Filter terms').fill('watermark');
  const shown = await page.locator('.glossary dt').allTextContents();
  assert.ok(shown.includes('watermark'));
  assert.ok(shown.length < total && shown.length > 0);
  assert.match(await page.textContent('[aria-live="polite"]'), new RegExp(`^${shown.length} of ${total} terms shown$`));
  await page.getByLabel('Filter terms').fill('zzzz');
  assert.equal(await page.locator('.glossary-entry').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const width of [1280, 390]) {
  test(`the map of ideas draws an arrow from each stop to the next (${width} px)`, async () => {
    const { page, errors, context } = await openPage(env, '/', { width, height: 900 });
    const geometry = await page.evaluate(() => [...document.querySelectorAll('.idea-map > li')].map((li) => {
      const box = li.getBoundingClientRect();
      const line = getComputedStyle(li, '::after');
      const head = getComputedStyle(li, '::before');
      // Offsets of absolutely placed pseudo-elements start inside the border.
      const inner = box.top + parseFloat(getComputedStyle(li).borderTopWidth);
      return { top: box.top, line: line.content, lineEnd: inner + parseFloat(line.top) + parseFloat(line.height), head: head.content, headEnd: inner + parseFloat(head.top) + 11 };
    }));
    assert.equal(geometry.length, 5);
    for (let i = 0; i < 4; i += 1) {
      const [stop, next] = [geometry[i], geometry[i + 1]];
      assert.equal(stop.line, '""', `stop ${i + 1} draws a line`);
      assert.equal(stop.head, '""', `stop ${i + 1} draws an arrowhead`);
      // The line spans the gap, and the head ends at the next stop's top edge.
      assert.ok(Math.abs(stop.lineEnd - next.top) <= 1.5, `line ${i + 1} ends at ${stop.lineEnd}, stop ${i + 2} starts at ${next.top}`);
      assert.ok(Math.abs(stop.headEnd - next.top) <= 1.5, `arrowhead ${i + 1} ends at ${stop.headEnd}, stop ${i + 2} starts at ${next.top}`);
    }
    assert.equal(geometry[4].line, 'none', 'the last stop has no arrow');
    assert.equal(await page.locator('.idea-shows').count(), 5);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the lesson plan adds up to 50 minutes and opens each lab state in presenter mode', async () => {
  const { page, errors, context } = await openPage(env, '/teach');
  const steps = page.locator('.lesson-step');
  assert.equal(await steps.count(), 7);
  const minutes = await steps.locator('p.muted').allInnerTexts();
  assert.match(minutes.at(-1), /^Minutes \d+ to 50 /);
  await steps.nth(3).getByText('What the answer shows').click();
  assert.match(await steps.nth(3).locator('details p').innerText(), /3 to 6/);
  const violations = await axe(page);
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  await steps.nth(4).getByRole('link', { name: 'Open the lab state to project' }).click();
  await page.waitForURL('**/lab/backfill?**');
  await page.locator('.presenter h1', { hasText: 'Currency-bug backfill lab' }).waitFor();
  assert.equal(await page.locator('.notice').count(), 0, 'the link is a state the lab accepts');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the map of ideas links each lab and each term to its glossary entry', async () => {
  const { page, errors, context } = await openPage(env, '/');
  const stops = page.locator('.idea-map > li');
  assert.equal(await stops.count(), 5);
  await page.locator('.idea-terms a', { hasText: 'completion marker' }).click();
  assert.equal(await page.evaluate(() => location.hash), '#term-completion-marker');
  await page.getByRole('link', { name: 'Try it: State x Write lab' }).click();
  await page.waitForURL('**/lab/state-write');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the app ships a strict Content-Security-Policy, and it is in force', async () => {
  const { page, errors, context } = await openPage(env, '/lab/lateness');
  const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  for (const directive of ["default-src 'self'", "style-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'"]) {
    assert.ok(policy.includes(directive), `${directive} in ${policy}`);
  }
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]{43}='/, 'the loader is pinned by its hash');
  assert.deepEqual(await cspViolations(page), [], 'the app itself needs nothing the policy forbids');
  // An injected inline script (what a hostile design name would aim for) does not run.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true;';
    document.head.append(s);
    return window.__inlineRan === true;
  });
  assert.equal(ran, false, 'inline script ran under the CSP');
  await page.waitForFunction(() => window.__cspViolations.length > 0);
  assert.match((await cspViolations(page))[0], /script-src/);
  assert.ok(errors.some((e) => /Content Security Policy/.test(e)));
  await context.close();
});
