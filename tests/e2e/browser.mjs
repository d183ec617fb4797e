// Shared set-up for the browser tests: one server, one Chromium, and a page
// helper that records console errors and runs axe-core.
import { chromium } from 'playwright-core';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startServer } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const AXE_SOURCE = readFileSync(AXE, 'utf8');

export const ROOT = join(here, '..', '..');
// scripts/bench points this at its own build (with the benchmark hooks).
export const DIST = process.env.PARTITION_LAB_DIST ?? join(ROOT, 'dist');

const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

/// The suite's browser and server. The server sends each half's page, and
/// the app draws every page itself, unless `ahead`: then it sends the page
/// drawn ahead of time where there is one, as a host given the README's
/// rules does (ahead.test.mjs, the offline test and the first-load bench).
export async function launch({ ahead = false } = {}) {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error('dist/index.html is missing: build the app first (scripts/test does)');
  }
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no browser at ${executablePath}: run scripts/setup --browser, or set CHROMIUM`);
  }
  const { server, url } = await startServer({ root: DIST, ahead });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/// Opens a page that collects console errors and uncaught exceptions.
export async function openPage(env, path, viewport = { width: 1280, height: 800 }, options = {}) {
  const context = await env.browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  // The app ships a strict Content-Security-Policy: anything it blocks is
  // an error of the page's, recorded as such (and kept on window for tests).
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text()) && msg.type() !== 'error') errors.push(msg.text());
  });
  await page.goto(env.url + path);
  await live(page);
  return { page, errors, context };
}

/// Waits for the live page: its heading drawn by the app, and a page drawn
/// ahead of time (if that is what came) taken over.
export async function live(page, { chunks = true } = {}) {
  // The live page has taken over, and drawn its parts below the first
  // screen (src/ui/below.rs: <main> is busy until then), and (unless a
  // test holds them back) the parts that come in chunks of their own
  // right after it, each busy where it goes until then.
  await page.waitForFunction((chunks) => document.querySelector('main h1') && !document.body.classList.contains('ahead') && !document.querySelector('main[aria-busy]') && !(chunks && document.querySelector('main [aria-busy="true"]')), chunks);
}

/// Clicks a download link and returns the file the browser saved: its
/// suggested name, its bytes and its text.
export async function downloaded(link) {
  const [download] = await Promise.all([link.page().waitForEvent('download'), link.click()]);
  const bytes = readFileSync(await download.path());
  return { name: download.suggestedFilename(), bytes, text: bytes.toString('utf8') };
}

/// The files of an uncompressed tar archive, by name.
export function tarFiles(bytes) {
  const files = new Map();
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = bytes.subarray(at, at + 100).toString('latin1').replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(bytes.subarray(at + 124, at + 136).toString('latin1').replace(/\0.*$/s, ''), 8);
    files.set(name, bytes.subarray(at + 512, at + 512 + size).toString('utf8'));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/// Runs axe-core (WCAG 2.x A and AA rules) and returns its violations.
export async function axe(page) {
  // Evaluated through the DevTools protocol, not as an inline <script>:
  // the page's CSP rightly refuses inline scripts, and axe is not the app's.
  if (!(await page.evaluate(() => Boolean(window.axe)))) {
    await page.evaluate(AXE_SOURCE);
  }
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
}

/// Content-Security-Policy violations the page has reported so far.
export async function cspViolations(page) {
  return page.evaluate(() => window.__cspViolations ?? ['the CSP listener was not installed']);
}

/// Visible text in the page drawn under `floor` px (SVG text by its drawn
/// size), as "size tag.class: text". The canvas board is left out: at a
/// phone's width the page shows the list instead, and at a projector's the
/// board is a picture to point at, not to read.
export async function smallText(page, floor) {
  return page.evaluate((floor) => {
    const found = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || el.closest('svg.board, .visually-hidden, desc, title')) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!box.width || !box.height || style.visibility === 'hidden') continue;
      const svg = el instanceof SVGElement ? el.closest('svg') : null;
      const drawn = parseFloat(style.fontSize) * (svg ? svg.getScreenCTM().a : 1);
      if (drawn < floor - 0.5) found.push(`${drawn.toFixed(1)} ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${n.textContent.trim().slice(0, 30)}`);
    }
    return found;
  }, floor);
}
