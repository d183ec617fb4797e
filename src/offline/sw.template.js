// Partition Lab's service worker, so a lab loaded once keeps working on a
// flaky classroom network. scripts/service-worker.mjs (the last step of
// scripts/build) writes dist/sw.js from this file, filling in the build's files and
// a version computed from their bytes: a new deploy is a new sw.js, which
// the browser installs beside the old one; it takes over at once and
// deletes the old build's cache.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `partition-lab-${VERSION}`;
// Trunk names these by their content's hash, and a part's later chunks sit
// in a folder named by its main module's (split-<part>-<hash>/), so a saved
// copy is always the right one; other files (the pages, the runners) come
// from the network when it answers, so a deploy's new ones are never
// hidden by old ones.
const HASHED = /-[0-9a-f]{8,}(_bg)?\.[a-z]+$|^\/split-[a-z-]+-[0-9a-f]{16}\//;
// How long a page load waits for the network before using the saved app.
const NETWORK_WAIT_MS = 4000;

async function save(cache, file) {
  const response = await fetch(new Request(file, { cache: HASHED.test(file) ? 'force-cache' : 'no-cache' }));
  if (!response.ok) throw new Error(`${file}: ${response.status}`);
  // A host that redirects /index.html to / would leave a redirect here,
  // which a page load may not be answered with: keep the page itself.
  const kept = response.redirected
    ? new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers })
    : response;
  await cache.put(file, kept);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.all(FILES.map((file) => save(cache, file))))
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
    // Every page is one of the app's seven (deep links included; the same
    // split as src/bundles.rs): the network's newest build when it
    // answers, the saved one when it does not.
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const page = path === '/scenarios' || path.startsWith('/scenarios/') ? '/scenarios.html'
      : path === '/dates' ? '/dates.html'
      : path === '/class' ? '/class.html'
      : path === '/lab/lateness' ? '/lateness.html'
      : path === '/lab/state-write' ? '/state-write.html'
      : path === '/lab/backfill' ? '/backfill.html' : '/index.html';
    // The page drawn ahead of time for the path (src/ui/ahead.rs), when
    // the build has one; the part's page otherwise.
    const drawn = path === '' ? '/at/index.html' : `/at${path}.html`;
    const saved = () => caches.open(CACHE).then((cache) => cache.match(drawn).then((copy) => copy ?? cache.match(page)));
    event.respondWith(
      withTimeout(fetch(request), NETWORK_WAIT_MS)
        // An error page (a 502, a captive portal's) is no better than none.
        .then((answer) => (answer.ok ? answer : saved().then((copy) => copy ?? answer)))
        .catch(() => saved().then((copy) => copy ?? Response.error())),
    );
    return;
  }
  const path = new URL(request.url).pathname;
  if (HASHED.test(path)) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request, { ignoreSearch: true }).then((saved) => saved ?? fetch(request)),
      ),
    );
    return;
  }
  event.respondWith(
    fetch(request)
      .then((answer) => (answer.ok ? answer : Promise.reject(new Error(String(answer.status)))))
      .catch(() => caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true })).then((saved) => saved ?? Response.error())),
  );
});
