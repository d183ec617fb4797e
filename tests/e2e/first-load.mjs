// First load of the lateness lab: the time from navigation start until its
// slider is on the page and answers (an input moves the "partitions still
// open" figure). Cache empty, each load in a new context; once unthrottled
// and once on a phone-class profile through the DevTools protocol: 1.6 Mbps
// down, 750 kbps up, 150 ms latency, CPU 4x slower. Served with the build's
// brotli copies (as hosts and CDNs send them to current browsers), and on
// the phone once more gzipped only (a host without brotli). Prints figures
// and asserts nothing (the goal is under 2.5 s on the phone).
import { launch, DIST } from './browser.mjs';
import { startServer } from './serve.mjs';

const PHONE = { latency: 150, down: 1.6e6 / 8, up: 750e3 / 8, cpu: 4 };
const PROFILES = [
  ['unthrottled', null, 'brotli'],
  ['phone', PHONE, 'brotli'],
  ['phone', PHONE, 'gzip'],
];
const LOADS = 5;

// Runs in the page before the app: waits for the slider, moves it one step,
// and records when the figure changed (ms since navigation start).
function watchUsable() {
  window.__usable = new Promise((resolve) => {
    const poke = () => {
      const slider = document.getElementById('lateness-slider');
      const figure = document.querySelector('[data-figure="open"]');
      if (!slider || !figure) return false;
      window.__present = performance.now();
      const before = figure.textContent;
      new MutationObserver((_, observer) => {
        if (figure.textContent !== before) {
          observer.disconnect();
          resolve(performance.now());
        }
      }).observe(figure, { childList: true, characterData: true, subtree: true });
      slider.value = String(Number(slider.value) + 1);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      return true;
    };
    const waiting = new MutationObserver(() => {
      if (poke()) waiting.disconnect();
    });
    const start = () => waiting.observe(document.documentElement, { childList: true, subtree: true });
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start);
  });
}

const env = await launch();
const gzipOnly = await startServer({ root: DIST, brotli: false });
console.log(`lateness lab, first load until the slider answers (median of ${LOADS} loads, empty cache):`);
try {
  for (const [name, profile, encoding] of PROFILES) {
    const url = encoding === 'gzip' ? gzipOnly.url : env.url;
    const times = [];
    const present = [];
    for (let i = 0; i < LOADS; i += 1) {
      const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addInitScript(watchUsable);
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
      await page.goto(`${url}/lab/lateness?lateness=2`, { waitUntil: 'commit' });
      times.push(await page.evaluate(() => window.__usable));
      present.push(await page.evaluate(() => window.__present));
      await context.close();
    }
    times.sort((a, b) => a - b);
    present.sort((a, b) => a - b);
    const median = (v) => v[Math.floor(v.length / 2)];
    console.log(`  ${`${name}, ${encoding}`.padEnd(20)} ${(median(times) / 1000).toFixed(2)} s (fastest ${(times[0] / 1000).toFixed(2)} s, slowest ${(times[times.length - 1] / 1000).toFixed(2)} s); the slider appeared at ${(median(present) / 1000).toFixed(2)} s`);
  }
} finally {
  gzipOnly.server.close();
  await env.close();
}
