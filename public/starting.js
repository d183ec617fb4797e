// A page drawn ahead of time (src/ui/ahead.rs), while its wasm starts.
// With JavaScript on, the line at the foot of the screen says the lab is
// starting (without it, the page's <noscript> says what is needed); a tap,
// a key or a slider moved on a control that needs the wasm is not lost in
// silence; and a lab that has not started after a while says so. Once the
// live page has taken the body over (no `ahead` on it), this does nothing:
// a deferred script can run after the wasm has already mounted (its own
// fetch was slower), and must not mark the live body.
const CONTROLS = 'button, input, select, textarea';
const LATE_MS = 20000;

function line() {
  return document.body.classList.contains('ahead') ? document.querySelector('.starting') : null;
}

function say(text) {
  const shown = line();
  if (!shown) return;
  shown.textContent = text;
  shown.classList.add('asked');
}

function asked(event) {
  if (!line() || !(event.target.closest && event.target.closest(CONTROLS))) return;
  if (event.type === 'click') event.preventDefault();
  say('Still starting: that control works in a moment. Try it again then.');
}

if (document.body.classList.contains('ahead')) document.body.classList.add('starting-up');
for (const type of ['click', 'input', 'change']) document.addEventListener(type, asked, true);
setTimeout(() => say('The lab has not started. Reload the page; if it still does not start, this browser may block WebAssembly.'), LATE_MS);
