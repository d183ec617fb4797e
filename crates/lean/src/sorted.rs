//! The crate's ordered map and set: a vector kept sorted by key.
//!
//! They stand in for `BTreeMap` and `BTreeSet`, whose node splitting,
//! merging and iteration code is stamped out again for every key and value
//! type, forty-odd times over in this crate (what that costs is measured,
//! not quoted: see `README.md` here). A sorted vector is a binary search and a slice, which is all this crate
//! needs: its maps hold days, months and node ids (tens to a few thousand
//! keys), are mostly built in key order (an append) or collected at once
//! (one stable sort), and are read far more often than written.
//!
//! `sorted_vector_map` (rust-shed) has the same idea and API, but depends
//! on `quickcheck` outside its tests, which brings `getrandom` into the wasm
//! build. The API here is `BTreeMap`'s, as much of it as the crate uses, so
//! call sites read the same.

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Bound, RangeBounds};

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::order;

/// An ordered map: entries sorted by key, each key once.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

/// An ordered set: items sorted, each once.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedSet<K> {
    items: Vec<K>,
}

/// Where `key` is in `keys`, or where it would go.
fn find<T, K, Q>(items: &[T], key: &Q, key_of: impl Fn(&T) -> &K) -> Result<usize, usize>
where
    K: Borrow<Q>,
    Q: Ord + ?Sized,
{
    items.binary_search_by(|item| key_of(item).borrow().cmp(key))
}

/// The positions of `items` whose keys lie in `range`.
fn span<T, K, Q, R>(items: &[T], range: &R, key_of: impl Fn(&T) -> &K) -> std::ops::Range<usize>
where
    K: Borrow<Q>,
    Q: Ord + ?Sized,
    R: RangeBounds<Q>,
{
    let start = match range.start_bound() {
        Bound::Included(k) => items.partition_point(|i| key_of(i).borrow() < k),
        Bound::Excluded(k) => items.partition_point(|i| key_of(i).borrow() <= k),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(k) => items.partition_point(|i| key_of(i).borrow() <= k),
        Bound::Excluded(k) => items.partition_point(|i| key_of(i).borrow() < k),
        Bound::Unbounded => items.len(),
    };
    start..end.max(start)
}

/// Sorts `items` by key and keeps, of equal keys, the last one (as
/// collecting into a `BTreeMap` does).
fn sorted_unique<T, K: Ord>(mut items: Vec<T>, key_of: impl Fn(&T) -> &K) -> Vec<T> {
    let in_order = items
        .windows(2)
        .all(|w| matches!(w, [a, b] if key_of(a) < key_of(b)));
    if in_order {
        return items;
    }
    order::sort_by(&mut items, |a, b| key_of(a).cmp(key_of(b)));
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        match out.last_mut() {
            Some(last) if key_of(last) == key_of(&item) => *last = item,
            _ => out.push(item),
        }
    }
    out
}

fn pair_key<K, V>(entry: &(K, V)) -> &K {
    &entry.0
}

fn item_key<K>(item: &K) -> &K {
    item
}

type Pair<'a, K, V> = (&'a K, &'a V);

/// The map's entries in key order, borrowed.
pub type Iter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> Pair<'a, K, V>>;

fn as_pair<K, V>(entry: &(K, V)) -> Pair<'_, K, V> {
    (&entry.0, &entry.1)
}

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> Iter<'_, K, V> {
        self.entries
            .iter()
            .map(as_pair as fn(&(K, V)) -> Pair<'_, K, V>)
    }

    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(as_pair)
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(as_pair)
    }

    /// Keeps the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = find(&self.entries, key, pair_key).ok()?;
        self.entries.get(at).map(|(_, v)| v)
    }

    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = find(&self.entries, key, pair_key).ok()?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        find(&self.entries, key, pair_key).is_ok()
    }

    /// Puts `value` under `key`, returning what was there.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.entry(key) {
            Entry::Occupied(slot) => Some(std::mem::replace(slot, value)),
            Entry::Vacant(vacant) => {
                vacant.insert(value);
                None
            }
        }
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = find(&self.entries, key, pair_key).ok()?;
        (at < self.entries.len()).then(|| self.entries.remove(at).1)
    }

    /// The slot for `key`, to fill or change in place.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        // Keys mostly arrive in order: check the end before searching.
        let at = match self.entries.last() {
            None => Err(0),
            Some((last, _)) => match last.cmp(&key) {
                Ordering::Less => Err(self.entries.len()),
                Ordering::Equal => Ok(self.entries.len().saturating_sub(1)),
                Ordering::Greater => find(&self.entries, &key, pair_key),
            },
        };
        match at {
            Ok(i) => Entry::Occupied(value_at(&mut self.entries, i)),
            Err(at) => Entry::Vacant(VacantEntry {
                entries: &mut self.entries,
                at,
                key,
            }),
        }
    }

    /// The entries whose keys lie in `range`, in key order.
    pub fn range<Q, R>(&self, range: R) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let span = span(&self.entries, &range, pair_key);
        self.entries
            .get(span)
            .unwrap_or_default()
            .iter()
            .map(as_pair as fn(&(K, V)) -> Pair<'_, K, V>)
    }

    /// Moves every entry of `other` into this map (`other`'s win on a tie).
    pub fn append(&mut self, other: &mut SortedMap<K, V>) {
        self.extend(std::mem::take(&mut other.entries));
    }
}

/// The value at `at`, which a successful search of `entries` returned.
#[allow(clippy::indexing_slicing)]
fn value_at<K, V>(entries: &mut [(K, V)], at: usize) -> &mut V {
    &mut entries[at].1
}

/// The slot `SortedMap::entry` finds.
pub enum Entry<'a, K, V> {
    Occupied(&'a mut V),
    Vacant(VacantEntry<'a, K, V>),
}

pub struct VacantEntry<'a, K, V> {
    entries: &'a mut Vec<(K, V)>,
    at: usize,
    key: K,
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    pub fn insert(self, value: V) -> &'a mut V {
        let at = self.at.min(self.entries.len());
        &mut self.entries.insert_mut(at, (self.key, value)).1
    }
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        match self {
            Entry::Occupied(v) => v,
            Entry::Vacant(vacant) => vacant.insert(make()),
        }
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    pub fn and_modify(self, change: impl FnOnce(&mut V)) -> Self {
        match self {
            Entry::Occupied(v) => {
                change(v);
                Entry::Occupied(v)
            }
            vacant => vacant,
        }
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        SortedMap {
            entries: sorted_unique(iter.into_iter().collect(), pair_key),
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let mut all = std::mem::take(&mut self.entries);
        all.extend(iter);
        self.entries = sorted_unique(all, pair_key);
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = Pair<'a, K, V>;
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<K> SortedSet<K> {
    pub const fn new() -> Self {
        SortedSet { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, K> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&K> {
        self.items.first()
    }

    pub fn last(&self) -> Option<&K> {
        self.items.last()
    }

    pub fn retain(&mut self, keep: impl FnMut(&K) -> bool) {
        self.items.retain(keep);
    }

    /// The items, in order, as a slice.
    pub fn as_slice(&self) -> &[K] {
        &self.items
    }
}

impl<K: Ord> SortedSet<K> {
    pub fn contains<Q>(&self, item: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        find(&self.items, item, item_key).is_ok()
    }

    /// Adds `item`; false when it was already there.
    pub fn insert(&mut self, item: K) -> bool {
        let at = match self.items.last() {
            None => Err(0),
            Some(last) if *last < item => Err(self.items.len()),
            Some(_) => find(&self.items, &item, item_key),
        };
        match at {
            Ok(_) => false,
            Err(at) => {
                self.items.insert(at.min(self.items.len()), item);
                true
            }
        }
    }

    pub fn remove<Q>(&mut self, item: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match find(&self.items, item, item_key) {
            Ok(at) if at < self.items.len() => {
                self.items.remove(at);
                true
            }
            _ => false,
        }
    }

    /// The items that lie in `range`, in order.
    pub fn range<Q, R>(&self, range: R) -> std::slice::Iter<'_, K>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let span = span(&self.items, &range, item_key);
        self.items.get(span).unwrap_or_default().iter()
    }

    /// The items of this set that are not in `other`, in order.
    pub fn difference<'a>(&'a self, other: &'a SortedSet<K>) -> impl Iterator<Item = &'a K> + 'a {
        self.items.iter().filter(move |k| !other.contains(*k))
    }

    pub fn append(&mut self, other: &mut SortedSet<K>) {
        self.extend(std::mem::take(&mut other.items));
    }
}

impl<K> Default for SortedSet<K> {
    fn default() -> Self {
        SortedSet::new()
    }
}

impl<K: fmt::Debug> fmt::Debug for SortedSet<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<K: Ord> FromIterator<K> for SortedSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        SortedSet {
            items: sorted_unique(iter.into_iter().collect(), item_key),
        }
    }
}

impl<K: Ord, const N: usize> From<[K; N]> for SortedSet<K> {
    fn from(items: [K; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<K: Ord> Extend<K> for SortedSet<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, iter: I) {
        let mut all = std::mem::take(&mut self.items);
        all.extend(iter);
        self.items = sorted_unique(all, item_key);
    }
}

impl<'a, K> IntoIterator for &'a SortedSet<K> {
    type Item = &'a K;
    type IntoIter = std::slice::Iter<'a, K>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<K> IntoIterator for SortedSet<K> {
    type Item = K;
    type IntoIter = std::vec::IntoIter<K>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<K: Serialize> Serialize for SortedSet<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for k in &self.items {
            seq.serialize_element(k)?;
        }
        seq.end()
    }
}

#[cfg(test)]
// The reference these tests compare against.
#[allow(clippy::disallowed_types)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    proptest! {
        /// Any sequence of inserts, removes and entry updates leaves the
        /// map equal to a `BTreeMap` given the same sequence.
        #[test]
        fn map_behaves_as_btreemap(ops in proptest::collection::vec((0u8..4, 0u8..40, any::<i16>()), 0..200)) {
            let mut ours = SortedMap::new();
            let mut theirs = BTreeMap::new();
            for (op, k, v) in ops {
                match op {
                    0 => prop_assert_eq!(ours.insert(k, v), theirs.insert(k, v)),
                    1 => prop_assert_eq!(ours.remove(&k), theirs.remove(&k)),
                    2 => {
                        let o = ours.entry(k).or_insert(0);
                        *o = o.wrapping_add(v);
                        let t = theirs.entry(k).or_insert(0);
                        *t = t.wrapping_add(v);
                    }
                    _ => prop_assert_eq!(ours.get(&k), theirs.get(&k)),
                }
                prop_assert!(ours.iter().eq(theirs.iter()));
            }
            let lo = 10u8;
            prop_assert!(ours.range(lo..30).eq(theirs.range(lo..30)));
            prop_assert!(ours.range(..=lo).eq(theirs.range(..=lo)));
            prop_assert!(ours.range(30..).eq(theirs.range(30..)));
        }

        /// Collecting keeps, of equal keys, the last value, as `BTreeMap` does.
        #[test]
        fn collect_behaves_as_btreemap(pairs in proptest::collection::vec((0u8..20, any::<u8>()), 0..100)) {
            let ours: SortedMap<u8, u8> = pairs.iter().copied().collect();
            let theirs: BTreeMap<u8, u8> = pairs.iter().copied().collect();
            prop_assert!(ours.iter().eq(theirs.iter()));
            let mut extended: SortedMap<u8, u8> = SortedMap::from([(5, 0), (50, 1)]);
            extended.extend(pairs.iter().copied());
            let mut btree = BTreeMap::from([(5, 0), (50, 1)]);
            btree.extend(pairs.iter().copied());
            prop_assert!(extended.iter().eq(btree.iter()));
        }

        #[test]
        fn set_behaves_as_btreeset(ops in proptest::collection::vec((any::<bool>(), 0u8..30), 0..200)) {
            let mut ours = SortedSet::new();
            let mut theirs = BTreeSet::new();
            for (add, k) in ops {
                if add {
                    prop_assert_eq!(ours.insert(k), theirs.insert(k));
                } else {
                    prop_assert_eq!(ours.remove(&k), theirs.remove(&k));
                }
                prop_assert!(ours.iter().eq(theirs.iter()));
            }
            let other: SortedSet<u8> = (0..30).step_by(3).collect();
            let btree_other: BTreeSet<u8> = (0..30).step_by(3).collect();
            prop_assert!(ours.difference(&other).eq(theirs.difference(&btree_other)));
            prop_assert!(ours.range(5..=20).eq(theirs.range(5..=20)));
        }
    }

    #[test]
    fn serialises_as_btreemap_does() -> Result<(), serde_json::Error> {
        let ours = SortedMap::from([(2, "b"), (1, "a")]);
        let theirs = BTreeMap::from([(2, "b"), (1, "a")]);
        assert_eq!(
            serde_json::to_string(&ours)?,
            serde_json::to_string(&theirs)?
        );
        let set = SortedSet::from([3, 1, 2]);
        assert_eq!(serde_json::to_string(&set)?, "[1,2,3]");
        Ok(())
    }
}
