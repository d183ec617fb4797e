// Browser benchmarks: prints figures, asserts nothing. Run by scripts/bench
// against a release build in dist/.
//  - the lateness slider: time from an input event to the figures on screen
//    having changed (one step of a drag), per profile;
//  - the State x Write lab: time to re-run its five pipelines on a control change.
import { launch } from './browser.mjs';

const env = await launch();
const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms over ${times.length} steps`;
}

console.log('lateness slider, one step = input event until the completeness figure has changed on screen:');
for (const profile of ['web', 'mobile', 'partner']) {
  await page.goto(`${env.url}/lab/lateness?profile=${profile}&lateness=0`);
  await page.waitForSelector('[data-figure="completeness"]');
  const times = await page.evaluate(async () => {
    const slider = document.getElementById('lateness-slider');
    const watched = document.querySelector('[data-figure="open"]');
    const out = [];
    for (let round = 0; round < 4; round += 1) {
      for (let v = 0; v <= 15; v += 1) {
        const next = round % 2 === 0 ? v : 15 - v;
        if (String(next) === slider.value) continue;
        const before = watched.textContent;
        const changed = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (watched.textContent !== before) {
              observer.disconnect();
              resolve(performance.now());
            }
          });
          observer.observe(watched, { childList: true, characterData: true, subtree: true });
        });
        const t0 = performance.now();
        slider.value = String(next);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        const t1 = await changed;
        out.push(t1 - t0);
      }
    }
    return out;
  });
  console.log(`  ${profile.padEnd(8)} ${stats(times)}`);
}

console.log('State x Write lab, one control change = click until the five cells show the new week:');
await page.goto(`${env.url}/lab/state-write`);
await page.waitForSelector('.cell');
const swTimes = [];
for (let i = 0; i < 12; i += 1) {
  const label = i % 2 === 0 ? 'runs cleanly' : 'crashes, retried at 00:20';
  const t = await page.evaluate(async (name) => {
    const input = [...document.querySelectorAll('input[type=radio]')].find((r) => r.labels[0]?.textContent === name);
    const count = document.querySelector('.run-count');
    const before = count.textContent;
    const changed = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (count.textContent !== before) { observer.disconnect(); resolve(performance.now()); }
      });
      observer.observe(count, { childList: true, characterData: true, subtree: true });
    });
    const t0 = performance.now();
    input.click();
    return (await changed) - t0;
  }, label);
  swTimes.push(t);
}
console.log(`  ${stats(swTimes)}`);
console.log('engine throughput inside the browser (release wasm), 730 partitions x 48 events a day:');
await page.goto(`${env.url}/`);
await page.waitForSelector('main h1');
const names = ['watermark + append', 'watermark + overwrite partition', 'partition list(1) + append', 'partition list(1) + overwrite', 'full refresh (replace table)'];
const wasm = await page.evaluate(async () => {
  const b = window.wasmBindings;
  const events = b.bench_prepare(730, 48);
  const out = [];
  for (let combo = 0; combo < 5; combo += 1) {
    let best = Infinity;
    let rows = 0;
    for (let i = 0; i < (combo === 4 ? 1 : 3); i += 1) {
      const t0 = performance.now();
      rows = b.bench_simulate(combo);
      best = Math.min(best, performance.now() - t0);
    }
    out.push({ events, best, rows });
  }
  return out;
});
wasm.forEach((r, i) => {
  console.log(`  ${names[i].padEnd(34)} ${r.best.toFixed(1).padStart(9)} ms ${Math.round(r.events / (r.best / 1000)).toString().padStart(12)} events/s ${String(r.rows).padStart(10)} rows read`);
});
console.log('grading in the browser (release wasm), a sample design per scenario, best of 5:');
const grading = await page.evaluate(async () => {
  const b = window.wasmBindings;
  const out = [];
  for (let n = 1; n <= 5; n += 1) {
    let best = Infinity;
    let passed = 0;
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      passed = b.bench_grade(n);
      best = Math.min(best, performance.now() - t0);
    }
    out.push({ n, best, passed });
  }
  return out;
});
grading.forEach((g) => {
  console.log(`  scenario ${g.n}: ${g.best.toFixed(1).padStart(8)} ms (${g.passed} rule(s) passed)`);
});
console.log('shrinking in the browser (release wasm), a failing design, budget 400 simulations:');
const shrinking = await page.evaluate(async () => {
  const b = window.wasmBindings;
  const out = [];
  for (const n of [1, 4, 5]) {
    const t0 = performance.now();
    const simulations = b.bench_shrink(n);
    out.push({ n, ms: performance.now() - t0, simulations });
  }
  return out;
});
shrinking.forEach((s) => {
  console.log(`  scenario ${s.n}: ${s.ms.toFixed(1).padStart(8)} ms (${s.simulations} simulations)`);
});
await env.close();
