// What a reader meets on a page: the words shown (the page's visible text,
// as document.body.innerText gives it: a closed <details> shows only its
// summary) and its sentences, the longest first. Shared by the reading
// test and scripts/bench's word counts.

/// Visible text of `selector` (default: the page's main content), less
/// the options of its closed drop-down lists (innerText lists every
/// option; a reader sees only the one chosen, which its label beside it
/// says).
export async function visibleText(page, selector = 'main') {
  return page.locator(selector).first().evaluate((el) => {
    let text = el.innerText;
    for (const select of el.querySelectorAll('select')) {
      const options = select.innerText;
      if (options) text = text.replace(options, '');
    }
    return text;
  });
}

/// Words: runs of non-space holding a letter or a digit ("£48.60",
/// "o-0603-37" and "R1" are words; "·" and "→" are not).
export function words(text) {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/// Sentences: each line of the text (innerText puts blocks, cells and
/// list items on lines of their own), split after a full stop, question
/// or exclamation mark followed by a space and a capital, a digit or an
/// opening quote. A line without a stop is one sentence (a label, a cell).
export function sentences(text) {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}“"‘(])/u))
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0);
}

/// The longest sentences, with their word counts, longest first.
export function longest(text, n = 5) {
  return sentences(text)
    .map((s) => ({ words: words(s).length, sentence: s }))
    .sort((a, b) => b.words - a.words)
    .slice(0, n);
}

/// Words shown on the page outside `selector`: the overview's words
/// other than its glossary's.
export async function wordsOutside(page, selector) {
  const all = words(await visibleText(page));
  const inside = await page.locator(selector).evaluateAll((els) => els.map((el) => el.innerText).join('\n'));
  return all.length - words(inside).length;
}
