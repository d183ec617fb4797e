// Partition Lab's service worker, so a lab loaded once keeps working on a
// flaky classroom network. scripts/service-worker.mjs (the last step of
// scripts/build) writes dist/sw.js from this file, filling in the build's files and
// a version computed from their bytes: a new deploy is a new sw.js, which
// the browser installs beside the old one; it takes over at once and
// deletes the old build's cache.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `partition-lab-${VERSION}`;
// Trunk names these by their content's hash, so a copy in the browser's
// own cache is always the right one; other files are fetched afresh.
const HASHED = /-[0-9a-f]{8,}(_bg)?\.[a-z]+$/;
// How long a page load waits for the network before using the saved app.
const NETWORK_WAIT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        cache.addAll(FILES.map((f) => new Request(f, { cache: HASHED.test(f) ? 'force-cache' : 'no-cache' }))),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('partition-lab-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // Every page is one of the app's two (deep links included; the same
    // split as src/bundles.rs): the network's newest build when it
    // answers, the saved one when it does not.
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const page = path === '/scenarios' || path.startsWith('/scenarios/') ? '/scenarios.html' : '/index.html';
    event.respondWith(
      withTimeout(fetch(request), NETWORK_WAIT_MS).catch(() =>
        caches.open(CACHE).then((cache) => cache.match(page)).then((saved) => saved ?? Response.error()),
      ),
    );
    return;
  }
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request, { ignoreSearch: true }).then((saved) => saved ?? fetch(request)),
    ),
  );
});
