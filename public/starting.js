// A page drawn ahead of time (src/ui/ahead.rs) before its wasm has started:
// a tap, a key or a slider moved on one of its controls is not lost in
// silence. The line that says the lab is starting says so again. Once the
// live page has taken the body over (no `ahead` on it), this does nothing.
function asked(event) {
  if (!document.body.classList.contains('ahead')) return;
  const control = event.target.closest && event.target.closest('button, input, select, textarea, summary, a[download]');
  if (!control) return;
  if (event.type === 'click') event.preventDefault();
  const line = document.querySelector('.starting');
  if (!line) return;
  line.textContent = 'Still starting: that control works in a moment. Try it again then.';
  line.classList.add('asked');
}
for (const type of ['click', 'input', 'change']) document.addEventListener(type, asked, true);
