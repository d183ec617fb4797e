//! The crate's sorts: one for anything, and one for plain numbers.
//!
//! The standard library's sorts are fast, but every call site stamps out
//! its own copy of their quicksort, small-sort networks and fallbacks, at
//! every call site in the crate (clippy refuses them: `README.md` here).
//! This sort is compiled once: a stable bottom-up merge sort of positions,
//! comparing through `dyn`, after which the items are moved into place.
//! It is slower per comparison, which only the lateness lab's first load
//! noticed: its month's tens of thousands of times of day sort with
//! `sort_numbers`, a radix sort, instead.

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, keeping equal items in their order (stable).
pub fn sort_by<T>(items: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = items;
        merge_sort(
            (0..items.len()).collect(),
            &mut |a, b| match (items.get(a), items.get(b)) {
                (Some(x), Some(y)) => cmp(x, y),
                _ => Ordering::Equal,
            },
        )
    };
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take)),
    );
}

/// Sorts `items` by the key `key` gives each, stably.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// Sorts plain numbers ascending. A radix sort: one counting pass per byte
/// that tells the numbers apart, no comparisons and no positions to move
/// the items through. The lateness lab draws a month of orders (tens of
/// thousands of times of day) before its first paint, and there the merge
/// sort's comparisons through `dyn` showed in the first-load profile.
pub fn sort_numbers(items: &mut Vec<u32>) {
    let mut scratch = vec![0u32; items.len()];
    for shift in [0u32, 8, 16, 24] {
        let digit = |x: u32| (x.wrapping_shr(shift) & 0xff) as usize;
        let mut counts = [0usize; 256];
        for &x in items.iter() {
            if let Some(c) = counts.get_mut(digit(x)) {
                *c = c.wrapping_add(1);
            }
        }
        // Every number has the same byte here: this pass would move none.
        if counts.contains(&items.len()) {
            continue;
        }
        let mut start = 0usize;
        for c in counts.iter_mut() {
            let n = *c;
            *c = start;
            start = start.wrapping_add(n);
        }
        for &x in items.iter() {
            if let Some(c) = counts.get_mut(digit(x)) {
                if let Some(slot) = scratch.get_mut(*c) {
                    *slot = x;
                }
                *c = c.wrapping_add(1);
            }
        }
        std::mem::swap(items, &mut scratch);
    }
}

/// Positions `0..n` ordered by `cmp`; on a tie the earlier position first.
fn merge_sort(mut run: Vec<usize>, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut merged = Vec::with_capacity(run.len());
    let mut width = 1usize;
    while width < run.len() {
        merged.clear();
        for pair in run.chunks(width.saturating_mul(2)) {
            let (left, right) = pair.split_at(width.min(pair.len()));
            let (mut l, mut r) = (
                left.iter().copied().peekable(),
                right.iter().copied().peekable(),
            );
            loop {
                match (l.peek().copied(), r.peek().copied()) {
                    (Some(a), Some(b)) => {
                        if cmp(b, a) == Ordering::Less {
                            merged.push(b);
                            r.next();
                        } else {
                            merged.push(a);
                            l.next();
                        }
                    }
                    (Some(_), None) => {
                        merged.extend(l);
                        break;
                    }
                    (None, _) => {
                        merged.extend(r);
                        break;
                    }
                }
            }
        }
        std::mem::swap(&mut run, &mut merged);
        width = width.saturating_mul(2);
    }
    run
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// Agrees with the standard library's stable sort, ties included.
        #[test]
        #[allow(clippy::disallowed_methods)] // std's sort is the oracle here
        fn sorts_like_the_standard_library(items in prop::collection::vec((0u8..6, any::<u16>()), 0..300)) {
            let mut ours = items.clone();
            super::sort_by_key(&mut ours, |&(k, _)| k);
            let mut theirs = items.clone();
            theirs.sort_by_key(|&(k, _)| k);
            prop_assert_eq!(&ours, &theirs);
            let mut whole = items.clone();
            super::sort(&mut whole);
            theirs.sort();
            prop_assert_eq!(whole, theirs);
        }

        /// Sorts numbers as the standard library does, whichever bytes vary.
        #[test]
        #[allow(clippy::disallowed_methods)] // std's sort is the oracle here
        fn sorts_numbers_like_the_standard_library(
            items in prop::collection::vec(prop_oneof![0u32..300, 0u32..86_400, any::<u32>(), Just(u32::MAX)], 0..600),
        ) {
            let mut ours = items.clone();
            super::sort_numbers(&mut ours);
            let mut theirs = items;
            theirs.sort_unstable();
            prop_assert_eq!(ours, theirs);
        }
    }
}
