//! Silver and gold: date-partitioned tables and how each write mode changes them.

use std::collections::{BTreeMap, BTreeSet};

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    partitions: BTreeMap<Day, Vec<Row>>,
}

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
    pub overwrite: BTreeSet<Day>,
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
    let mut before: BTreeMap<Day, (usize, Vec<Id>)> = BTreeMap::new();
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
        }
        WriteMode::OverwritePartition => {
            let mut grouped: BTreeMap<Day, Vec<Row>> =
                batch.overwrite.iter().map(|dt| (*dt, Vec::new())).collect();
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
            // batch row finds its match without scanning partitions.
            // Only the batch's keys can match, so only their rows are indexed.
            let wanted: HashSet<&Id> = batch.rows.iter().map(|r| r.merge_key(key)).collect();
            let mut index: HashMap<Id, (Day, Instant)> = table
                .rows()
                .filter(|r| wanted.contains(r.merge_key(key)))
                .map(|r| (r.merge_key(key).clone(), (r.dt, r.updated_at)))
                .collect();
            drop(wanted);
            // Rows replaced, per partition (removed in one pass at the end),
            // and rows added by this batch.
            let mut replaced: BTreeMap<Day, HashSet<Id>> = BTreeMap::new();
            let mut added: BTreeMap<Day, Vec<Row>> = BTreeMap::new();
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
    ordered.sort();
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
pub type Gold = BTreeMap<Day, DailyTotal>;
