//! The truth a pipeline should have built, and how far a table is from it.

use crate::lean::sorted::{SortedMap, SortedSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::bronze::Bronze;
use super::calendar::{Day, Instant};
use super::event::{Event, Id};
use super::table::Table;

/// The latest version of every key that had arrived by `at`, filed under
/// its event date.
pub fn truth_at<'a>(bronze: &Bronze<'a>, at: Instant) -> SortedMap<Day, SortedMap<Id, &'a Event>> {
    let mut latest: HashMap<&Id, &'a Event> = HashMap::default();
    for &i in bronze.arrived_by(at) {
        let event = bronze.event(i);
        if !event.visible_at(at) {
            continue;
        }
        let keep = latest.get(&event.key).is_none_or(|held| {
            (event.updated_at, event.arrived_at, &event.id)
                > (held.updated_at, held.arrived_at, &held.id)
        });
        if keep {
            latest.insert(&event.key, event);
        }
    }
    let mut by_day: SortedMap<Day, SortedMap<Id, &'a Event>> = SortedMap::new();
    for event in latest.into_values() {
        by_day
            .entry(event.event_date())
            .or_default()
            .insert(event.key.clone(), event);
    }
    by_day
}

/// One partition compared with the truth. Ids are business keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionDiff {
    pub dt: Day,
    pub truth_rows: usize,
    pub actual_rows: usize,
    /// Keys that belong here and are nowhere in the table.
    pub lost: Vec<Id>,
    /// Keys held here more than once, one entry per extra copy.
    pub duplicates: Vec<Id>,
    /// Keys held here that belong to another day.
    pub misplaced: Vec<Id>,
    /// Keys held here only in an older version than the latest that arrived.
    pub stale: Vec<Id>,
}

impl PartitionDiff {
    pub fn is_clean(&self) -> bool {
        self.lost.is_empty()
            && self.duplicates.is_empty()
            && self.misplaced.is_empty()
            && self.stale.is_empty()
    }
}

/// Compares every partition that the table has or that is due: with
/// `due_through`, later days are left out unless the table holds rows there.
pub fn diff(
    table: &Table,
    truth: &SortedMap<Day, SortedMap<Id, &Event>>,
    due_through: Option<Day>,
) -> Vec<PartitionDiff> {
    // Hashed, not ordered: comparing ids as strings was most of a diff's
    // time. The lists a partition reports are sorted at the end instead.
    let held: HashSet<&Id> = table.rows().map(|r| &r.key).collect();
    let true_day: HashMap<&Id, (Day, &Event)> = truth
        .iter()
        .flat_map(|(dt, keys)| keys.iter().map(move |(key, event)| (key, (*dt, *event))))
        .collect();
    let days: SortedSet<Day> = truth
        .keys()
        .copied()
        .filter(|dt| due_through.is_none_or(|last| *dt <= last))
        .chain(table.partitions().map(|(dt, _)| dt))
        .collect();
    days.into_iter()
        .map(|dt| {
            let rows = table.partition(dt);
            let expected = truth.get(&dt);
            let not_due = due_through.is_some_and(|last| dt > last);
            let lost = expected
                .into_iter()
                .filter(|_| !not_due)
                .flat_map(|keys| keys.keys())
                .filter(|key| !held.contains(key))
                .cloned()
                .collect();
            // Per key: how many rows, and the newest version among them.
            let mut seen: HashMap<&Id, (usize, Instant)> = HashMap::default();
            for row in rows {
                let entry = seen.entry(&row.key).or_insert((0, row.updated_at));
                entry.0 += 1;
                entry.1 = entry.1.max(row.updated_at);
            }
            let mut duplicates: Vec<Id> = seen
                .iter()
                .flat_map(|(key, (n, _))| std::iter::repeat_n((*key).clone(), n.saturating_sub(1)))
                .collect();
            let mut misplaced: Vec<Id> = seen
                .keys()
                .filter(|key| true_day.get(*key).is_none_or(|(day, _)| *day != dt))
                .map(|key| (*key).clone())
                .collect();
            let mut stale: Vec<Id> = seen
                .iter()
                .filter(|(key, (_, newest))| match true_day.get(*key) {
                    Some((day, latest)) if *day == dt => *newest < latest.updated_at,
                    _ => false,
                })
                .map(|(key, _)| (*key).clone())
                .collect();
            for ids in [&mut duplicates, &mut misplaced, &mut stale] {
                crate::lean::order::sort(ids);
            }
            PartitionDiff {
                dt,
                truth_rows: expected.map_or(0, SortedMap::len),
                actual_rows: rows.len(),
                lost,
                duplicates,
                misplaced,
                stale,
            }
        })
        .collect()
}
