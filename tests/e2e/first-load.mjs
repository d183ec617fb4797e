// First load of a page as a student opening a link meets it: the first
// contentful paint, and the first moment its main control answers (an input
// changes what the page shows), from navigation start. Cache empty, each
// load in a new context; once unthrottled and on a phone-class profile
// through the DevTools protocol: 1.6 Mbps down, 750 kbps up, 150 ms
// latency, CPU 4x slower. Served with the build's brotli copies (as hosts
// and CDNs send them to current browsers), and on the phone once more
// gzipped only (a host without brotli). Prints figures and asserts nothing
// (issue #44's goals: on the phone with brotli, every page painted within
// 0.7 s and usable within 1.5 s). The page reports its figures on the
// console once it has answered, and the bench evaluates nothing in it
// before then: the figures hold no work of the bench's own on the page's
// main thread, which a student's browser never does.
const REPORT = 'first-load figures: ';
import { launch, DIST } from './browser.mjs';
import { startServer } from './serve.mjs';

const PHONE = { latency: 150, down: 1.6e6 / 8, up: 750e3 / 8, cpu: 4 };
const PROFILES = [
  ['unthrottled', null, 'brotli'],
  ['phone', PHONE, 'brotli'],
  ['phone', PHONE, 'gzip'],
  ['phone, no page drawn ahead', PHONE, 'brotli-shell'],
];
const LOADS = 5;
// Each page, and how its main control is asked to answer (see `watch`).
const PAGES = [
  ['the lateness lab', '/lab/lateness?lateness=2&predict=skip', 'lateness'],
  // A scenario's first screen is its story (the presenter toggle answers);
  // its canvas lies below it and comes in a chunk of its own.
  ['a scenario (1)', '/scenarios/1', 'scenario'],
  ['a scenario\'s canvas (1)', '/scenarios/1', 'canvas'],
  ['the dates page', '/dates', 'dates'],
  ['the overview', '/', 'overview'],
  ['the State x Write lab', '/lab/state-write', 'stateWrite'],
  ['the backfill lab', '/lab/backfill', 'backfill'],
  ['the class page', '/class', 'class'],
];

// Runs in the page before the app: records the first contentful paint,
// then waits for the page's main control, works it once, and records when
// the page changed in answer (ms since navigation start), and says all
// three on the console.
function watch([kind, report]) {
  let present = null;
  const fcp = new Promise((resolve) => {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'first-contentful-paint') resolve(entry.startTime);
      }
    }).observe({ type: 'paint', buffered: true });
  });
  // The control, what answers, and how to work it.
  const controls = {
    lateness: () => [document.getElementById('lateness-slider'), document.querySelector('[data-figure="open"]'), (slider) => {
      slider.value = String(Number(slider.value) + 1);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }],
    scenario: () => [document.querySelector('.presenter-bar button[aria-pressed]'), document.querySelector('.presenter-bar'), (button) => button.click()],
    canvas: () => [document.querySelector('section.check button.primary'), document.querySelector('section.check'), (button) => button.click()],
    dates: () => [document.getElementById('dates-lateness'), document.querySelector('.dates-grid-wrap'), (slider) => {
      slider.value = String(Number(slider.value) + 1);
      slider.dispatchEvent(new Event('change', { bubbles: true }));
    }],
    overview: () => [document.getElementById('glossary-filter'), document.getElementById('glossary-heading')?.closest('section'), (input) => {
      input.value = 'back';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }],
    // A prediction's first tick: the page answers by offering to run it.
    stateWrite: () => [document.getElementById('predict-none'), document.getElementById('predict-heading')?.closest('section'), (box) => box.click()],
    backfill: () => [document.getElementById('guess-0'), document.getElementById('guess-0')?.closest('fieldset')?.parentElement, (radio) => radio.click()],
    // A work file chosen: the page takes it at once (it says it is reading
    // it, or fetching the grader to).
    class: () => [document.getElementById('class-files'), document.querySelector('section.class-page'), (input) => {
      const files = new DataTransfer();
      files.items.add(new File(['{}'], 'work.json', { type: 'application/json' }));
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }],
  };
  // These pages answer a first tick by enabling a button (an attribute),
  // not by new text: the others are watched as before, for comparable figures.
  const ATTRIBUTES = ['stateWrite', 'backfill'];
  const usable = new Promise((resolve) => {
    const poke = () => {
      // A page drawn ahead of time shows the control before it works: the
      // live page, once it has taken over, is what answers.
      if (!document.body || document.body.classList.contains('ahead')) return false;
      const [control, answer, work] = controls[kind]();
      if (!control || !answer) return false;
      present = performance.now();
      // Worked in a task of its own, as a tap or a key arrives: never
      // between the page's own microtasks as it mounts (a page that takes
      // over a drawn one changes the DOM before it mounts, so a mutation
      // observer would run before the app's first effects).
      setTimeout(() => {
        const [live, shown] = controls[kind]();
        new MutationObserver((_, observer) => {
          observer.disconnect();
          resolve(performance.now());
        }).observe(shown, { childList: true, characterData: true, subtree: true, attributes: ATTRIBUTES.includes(kind) });
        work(live);
      }, 0);
      return true;
    };
    const waiting = new MutationObserver(() => {
      if (poke()) waiting.disconnect();
    });
    // Unthrottled, the live page can be up before DOMContentLoaded, with
    // nothing left to change: look once before waiting for a change.
    const start = () => {
      if (!poke()) waiting.observe(document.documentElement, { childList: true, subtree: true });
    };
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start);
  });
  Promise.all([fcp, usable]).then(([painted, answered]) => {
    console.log(report + JSON.stringify({ painted, present, answered }));
  });
}

// FIRST_LOAD_ONLY=<words> keeps the pages and profiles whose names hold
// one of the words (say "lateness,scenario,phone"): a shorter run.
const only = (process.env.FIRST_LOAD_ONLY ?? '').split(',').filter(Boolean);
const kept = (name) => only.length === 0 || only.some((w) => name.includes(w));

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const env = await launch({ ahead: true });
const gzipOnly = await startServer({ root: DIST, brotli: false });
// The same pages, the app drawing each itself: what the pages drawn ahead
// of time change.
const shellsOnly = await startServer({ root: DIST, ahead: false });
console.log(`first load, empty cache (median of ${LOADS} loads): first contentful paint; the main control on the page; the page answering it`);
try {
  for (const [title, path, kind] of PAGES.filter(([t]) => kept(t))) {
    console.log(`  ${title} (${path}):`);
    for (const [name, profile, encoding] of PROFILES.filter(([n]) => kept(n))) {
      const url = { gzip: gzipOnly.url, 'brotli-shell': shellsOnly.url }[encoding] ?? env.url;
      const fcp = [];
      const present = [];
      const usable = [];
      for (let i = 0; i < LOADS; i += 1) {
        const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
        await context.addInitScript(watch, [kind, REPORT]);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        if (profile) {
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: profile.latency,
            downloadThroughput: profile.down,
            uploadThroughput: profile.up,
          });
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
        }
        const reported = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(REPORT), timeout: 60000 });
        await page.goto(`${url}${path}`, { waitUntil: 'commit' });
        const figures = JSON.parse((await reported).text().slice(REPORT.length));
        usable.push(figures.answered);
        present.push(figures.present);
        fcp.push(figures.painted);
        await context.close();
      }
      console.log(`    ${`${name}, ${encoding.replace('-shell', '')}`.padEnd(36)} painted ${s(median(fcp))}, control there ${s(median(present))}, answered ${s(median(usable))} (fastest ${s(Math.min(...usable))}, slowest ${s(Math.max(...usable))})`);
    }
  }
} finally {
  gzipOnly.server.close();
  shellsOnly.server.close();
  await env.close();
}
