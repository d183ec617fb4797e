//! Silver and gold: date-partitioned tables and how each write mode changes them.

use crate::lean::sorted::{SortedMap, SortedSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::calendar::{Day, Instant};
use super::config::{MergeKey, WriteMode};
use super::event::{Event, Id, OrderStatus};
use super::money::{LogicVersion, Money};

/// A silver row: one bronze row after the transform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: Id,
    pub key: Id,
    /// The partition the row is filed under.
    pub dt: Day,
    pub event_time: Instant,
    pub updated_at: Instant,
    pub arrived_at: Instant,
    /// The amount as bronze had it.
    pub raw: Money,
    /// The converted amount; `None` when there was no rate to convert with.
    pub gbp: Option<Money>,
    pub status: Option<OrderStatus>,
    pub logic: LogicVersion,
    /// Index of the run attempt that wrote this version.
    pub written_by: usize,
}

impl Row {
    /// `event` as transformed by `logic` into partition `dt`.
    pub fn from_event(
        event: &Event,
        dt: Day,
        gbp: Option<Money>,
        logic: LogicVersion,
        written_by: usize,
    ) -> Self {
        Row {
            id: event.id.clone(),
            key: event.key.clone(),
            dt,
            event_time: event.event_time,
            updated_at: event.updated_at,
            arrived_at: event.arrived_at,
            raw: event.amount,
            gbp,
            status: event.status,
            logic,
            written_by,
        }
    }

    fn merge_key(&self, key: MergeKey) -> &Id {
        match key {
            MergeKey::Key => &self.key,
            MergeKey::RowId => &self.id,
        }
    }
}

/// A date-partitioned table; empty partitions are not kept.
#[derive(Clone, Debug, Default)]
pub struct Table {
    partitions: SortedMap<Day, Vec<Row>>,
    /// Where each merge key's row lives and how new it is. Built by the
    /// first merge and kept by the merges after it, so a run of merges
    /// looks its batch's keys up instead of scanning the table each time;
    /// any other write drops it.
    merge_index: Option<MergeIndex>,
}

#[derive(Clone, Debug)]
struct MergeIndex {
    key: MergeKey,
    rows: HashMap<Id, (Day, Instant)>,
}

/// Two tables are equal when they hold the same rows; the index is a cache.
impl PartialEq for Table {
    fn eq(&self, other: &Self) -> bool {
        self.partitions == other.partitions
    }
}

impl Eq for Table {}

impl Table {
    pub fn partition(&self, dt: Day) -> &[Row] {
        self.partitions.get(&dt).map_or(&[], Vec::as_slice)
    }

    pub fn partitions(&self) -> impl Iterator<Item = (Day, &[Row])> {
        self.partitions
            .iter()
            .map(|(dt, rows)| (*dt, rows.as_slice()))
    }

    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.partitions.values().flatten()
    }

    pub fn len(&self) -> usize {
        self.partitions.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty()
    }

    /// Swaps one partition wholesale, as a backfill step's write does.
    pub fn replace_partition(&mut self, dt: Day, rows: Vec<Row>) {
        self.set(dt, rows);
    }

    fn ids(&self, dt: Day) -> Vec<Id> {
        self.partition(dt).iter().map(|r| r.id.clone()).collect()
    }

    fn set(&mut self, dt: Day, rows: Vec<Row>) {
        self.merge_index = None;
        if rows.is_empty() {
            self.partitions.remove(&dt);
        } else {
            self.partitions.insert(dt, rows);
        }
    }
}

/// What one write did to one partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionWrite {
    pub dt: Day,
    pub rows_before: usize,
    pub rows_after: usize,
    /// Row ids present after the write that were not there before (with multiplicity).
    pub added: Vec<Id>,
    /// Row ids present before the write that are gone after it (with multiplicity).
    pub removed: Vec<Id>,
}

/// Everything a write did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteEffect {
    pub partitions: Vec<PartitionWrite>,
    /// Rows not written because their partition is final.
    pub blocked: Vec<Id>,
}

/// A batch of transformed rows and the partitions an overwrite replaces
/// (which may include partitions with no rows: they are emptied).
pub struct Batch {
    pub rows: Vec<Row>,
    pub overwrite: SortedSet<Day>,
}

/// Applies `batch` to `table` with `mode`. `is_final` says which partitions
/// may no longer change; `track` asks for the per-row added/removed lists.
pub fn write(
    table: &mut Table,
    mode: WriteMode,
    batch: Batch,
    is_final: &dyn Fn(Day) -> bool,
    track: bool,
) -> WriteEffect {
    let mut before: SortedMap<Day, (usize, Vec<Id>)> = SortedMap::new();
    let mut touch = |table: &Table, dt: Day| {
        before.entry(dt).or_insert_with(|| {
            let rows = table.partition(dt);
            (rows.len(), if track { table.ids(dt) } else { Vec::new() })
        });
    };
    let mut blocked = Vec::new();
    match mode {
        WriteMode::Append => {
            for row in batch.rows {
                if is_final(row.dt) {
                    blocked.push(row.id);
                    continue;
                }
                touch(table, row.dt);
                table.partitions.entry(row.dt).or_default().push(row);
            }
            table.merge_index = None;
        }
        WriteMode::OverwritePartition | WriteMode::OverwritePresent => {
            // Only a targeted overwrite empties a target no row was written to.
            let mut grouped: SortedMap<Day, Vec<Row>> = SortedMap::new();
            if mode == WriteMode::OverwritePartition {
                grouped.extend(batch.overwrite.iter().map(|dt| (*dt, Vec::new())));
            }
            for row in batch.rows {
                grouped.entry(row.dt).or_default().push(row);
            }
            for (dt, rows) in grouped {
                if is_final(dt) {
                    blocked.extend(rows.into_iter().map(|r| r.id));
                    continue;
                }
                touch(table, dt);
                table.set(dt, rows);
            }
        }
        WriteMode::Merge { key } => {
            // Where each key's current row lives and how new it is, so a
            // batch row finds its match without scanning partitions: the
            // index the last merge left, or one built now. A table where a
            // key has two rows keeps no index (a scan finds both).
            let mut keeps_index = true;
            let mut index = match table.merge_index.take() {
                Some(kept) if kept.key == key => kept.rows,
                _ => {
                    let mut rows: HashMap<Id, (Day, Instant)> = HashMap::default();
                    for r in table.rows() {
                        let found = (r.dt, r.updated_at);
                        keeps_index &= rows.insert(r.merge_key(key).clone(), found).is_none();
                    }
                    rows
                }
            };
            // Rows replaced, per partition (removed in one pass at the end),
            // and rows added by this batch.
            let mut replaced: SortedMap<Day, HashSet<Id>> = SortedMap::new();
            let mut added: SortedMap<Day, Vec<Row>> = SortedMap::new();
            let mut added_here: HashMap<Id, Day> = HashMap::default();
            for row in batch.rows {
                let merge_key = row.merge_key(key).clone();
                let existing = index.get(&merge_key).copied();
                if let Some((old_dt, old_updated)) = existing {
                    if old_updated > row.updated_at {
                        continue;
                    }
                    if is_final(old_dt) || is_final(row.dt) {
                        blocked.push(row.id);
                        continue;
                    }
                    touch(table, old_dt);
                    match added_here.remove(&merge_key) {
                        // Matched a row this same batch added.
                        Some(dt) => {
                            if let Some(rows) = added.get_mut(&dt) {
                                rows.retain(|r| r.merge_key(key) != &merge_key);
                            }
                        }
                        None => {
                            replaced
                                .entry(old_dt)
                                .or_default()
                                .insert(merge_key.clone());
                        }
                    }
                } else if is_final(row.dt) {
                    blocked.push(row.id);
                    continue;
                }
                touch(table, row.dt);
                index.insert(merge_key.clone(), (row.dt, row.updated_at));
                added_here.insert(merge_key, row.dt);
                added.entry(row.dt).or_default().push(row);
            }
            for (dt, keys) in replaced {
                if let Some(rows) = table.partitions.get_mut(&dt) {
                    rows.retain(|old| !keys.contains(old.merge_key(key)));
                }
            }
            for (dt, rows) in added {
                table.partitions.entry(dt).or_default().extend(rows);
            }
            table.partitions.retain(|_, rows| !rows.is_empty());
            table.merge_index = keeps_index.then_some(MergeIndex { key, rows: index });
        }
        WriteMode::ReplaceTable => {
            // A full refresh rewrites final partitions too: that is its danger.
            let old: Vec<Day> = table.partitions.keys().copied().collect();
            for dt in old {
                touch(table, dt);
            }
            for row in &batch.rows {
                touch(table, row.dt);
            }
            table.partitions.clear();
            table.merge_index = None;
            for row in batch.rows {
                table.partitions.entry(row.dt).or_default().push(row);
            }
        }
    }
    let partitions = before
        .into_iter()
        .map(|(dt, (rows_before, ids_before))| {
            let rows_after = table.partition(dt).len();
            let (added, removed) = if track {
                multiset_diff(&ids_before, &table.ids(dt))
            } else {
                (Vec::new(), Vec::new())
            };
            PartitionWrite {
                dt,
                rows_before,
                rows_after,
                added,
                removed,
            }
        })
        .collect();
    WriteEffect {
        partitions,
        blocked,
    }
}

/// (in `after` but not `before`, in `before` but not `after`), counting repeats.
fn multiset_diff(before: &[Id], after: &[Id]) -> (Vec<Id>, Vec<Id>) {
    let mut counts: HashMap<&Id, i64> = HashMap::default();
    for id in after {
        *counts.entry(id).or_default() += 1;
    }
    for id in before {
        *counts.entry(id).or_default() -= 1;
    }
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let mut ordered: Vec<(&Id, i64)> = counts.into_iter().filter(|(_, n)| *n != 0).collect();
    crate::lean::order::sort(&mut ordered);
    for (id, n) in ordered {
        let target = if n > 0 { &mut added } else { &mut removed };
        target.extend(std::iter::repeat_n(id.clone(), n.unsigned_abs() as usize));
    }
    (added, removed)
}

/// A gold row: one day's totals derived from silver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DailyTotal {
    pub rows: usize,
    /// Sum of the converted amounts, in pence.
    pub gbp: i64,
    /// Rows left out of the sum because they had no converted amount.
    pub unconverted: usize,
}

impl DailyTotal {
    pub fn of(rows: &[Row]) -> Self {
        rows.iter().fold(Self::default(), |mut total, row| {
            total.rows += 1;
            match row.gbp {
                Some(gbp) => total.gbp += gbp.minor,
                None => total.unconverted += 1,
            }
            total
        })
    }
}

/// Gold: daily aggregates, one per silver partition.
pub type Gold = SortedMap<Day, DailyTotal>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::at;
    use crate::money::Currency;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    fn row(rng: &mut ChaCha8Rng, step: i64) -> Row {
        let day = |d: u32| Day::from_ymd_opt(2026, 6, d).unwrap_or_default();
        let key: Id = Arc::from(format!("k{}", rng.random_range(0..12)));
        let dt = day(rng.random_range(1..=4));
        Row {
            id: Arc::from(format!("{key}-v{step}")),
            key,
            dt,
            event_time: at(dt, 0, 0),
            updated_at: at(day(1), 0, 0) + chrono::Duration::minutes(rng.random_range(0..40)),
            arrived_at: at(dt, 1, 0),
            raw: Money::new(100, Currency::Gbp),
            gbp: Some(Money::gbp(100)),
            status: None,
            logic: LogicVersion::Fixed,
            written_by: step as usize,
        }
    }

    /// A run of merges with the kept index ends where merges that each
    /// scan a fresh copy of the table end, whatever other writes interleave.
    #[test]
    fn the_kept_merge_index_changes_no_result() {
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut kept = Table::default();
            let mut fresh = Table::default();
            for step in 0..30 {
                let rows: Vec<Row> = (0..rng.random_range(0..6))
                    .map(|_| row(&mut rng, step))
                    .collect();
                let mode = match rng.random_range(0..10) {
                    0 => WriteMode::Append,
                    1 => WriteMode::OverwritePartition,
                    2 => WriteMode::Merge {
                        key: MergeKey::RowId,
                    },
                    _ => WriteMode::Merge { key: MergeKey::Key },
                };
                let overwrite: SortedSet<Day> = rows.iter().map(|r| r.dt).collect();
                let final_day = const { crate::calendar::date(2026, 6, 1) };
                let is_final = |dt: Day| step > 20 && dt == final_day;
                let batch = |rows: Vec<Row>| Batch {
                    rows,
                    overwrite: overwrite.clone(),
                };
                let a = write(&mut kept, mode, batch(rows.clone()), &is_final, true);
                fresh.merge_index = None;
                let b = write(&mut fresh, mode, batch(rows), &is_final, true);
                assert_eq!(a, b, "seed {seed}, step {step}");
                assert_eq!(
                    kept.partitions, fresh.partitions,
                    "seed {seed}, step {step}"
                );
            }
        }
    }

    /// The two overwrites agree on every partition a batch has rows for;
    /// on a targeted partition with none, the targeted one empties it and
    /// the dynamic one leaves it as it was (SPEC 11's empty day).
    #[test]
    fn the_overwrites_differ_only_on_a_targeted_day_with_no_rows() {
        let mut differed = 0;
        for seed in 0..60 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut start = Table::default();
            for step in 0..4 {
                for _ in 0..rng.random_range(0..6) {
                    let r = row(&mut rng, step);
                    start.partitions.entry(r.dt).or_default().push(r);
                }
            }
            let rows: Vec<Row> = (0..rng.random_range(0..5))
                .map(|_| row(&mut rng, 9))
                .collect();
            let day = |d: u32| Day::from_ymd_opt(2026, 6, d).unwrap_or_default();
            let overwrite: SortedSet<Day> = (1..=4)
                .map(day)
                .filter(|_| rng.random_range(0..2) == 0)
                .chain(rows.iter().map(|r| r.dt))
                .collect();
            let batch = || Batch {
                rows: rows.clone(),
                overwrite: overwrite.clone(),
            };
            let (mut targeted, mut present) = (start.clone(), start.clone());
            write(
                &mut targeted,
                WriteMode::OverwritePartition,
                batch(),
                &|_| false,
                false,
            );
            write(
                &mut present,
                WriteMode::OverwritePresent,
                batch(),
                &|_| false,
                false,
            );
            for dt in (1..=4).map(day) {
                let written = rows.iter().any(|r| r.dt == dt);
                if written || !overwrite.contains(&dt) {
                    assert_eq!(
                        targeted.partition(dt),
                        present.partition(dt),
                        "seed {seed}, {dt}"
                    );
                } else {
                    assert!(targeted.partition(dt).is_empty(), "seed {seed}, {dt}");
                    assert_eq!(
                        present.partition(dt),
                        start.partition(dt),
                        "seed {seed}, {dt}"
                    );
                    differed += usize::from(!start.partition(dt).is_empty());
                }
            }
        }
        assert!(
            differed > 10,
            "the case that matters came up {differed} times"
        );
    }
}
