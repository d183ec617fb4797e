//! The drift query: which partitions disagree with their source once the
//! rows are recomputed with the fixed logic. Its first row is the true start
//! of a bug's blast radius, whatever anyone believes about the deploy date.

use crate::lean::sorted::SortedMap;

use rust_decimal::Decimal;

use super::calendar::Day;
use super::money::{to_gbp, FxRates, LogicVersion};
use super::table::{Gold, Row, Table};

/// One partition's totals, in pence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriftRow {
    pub dt: Day,
    /// What the table holds.
    pub stored: i64,
    /// The same rows recomputed with the fixed logic, rounded per row.
    pub recomputed: i64,
}

impl DriftRow {
    pub fn drift(&self) -> i64 {
        (self.stored - self.recomputed).abs()
    }

    /// The query's HAVING clause: more than a penny apart.
    pub fn drifts(&self) -> bool {
        self.drift() > 1
    }
}

/// Every silver partition from `from` on, stored against recomputed.
pub fn silver_drift(silver: &Table, fx: &FxRates, from: Day) -> Vec<DriftRow> {
    silver
        .partitions()
        .filter(|(dt, _)| *dt >= from)
        .map(|(dt, rows)| {
            let stored = rows.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            let recomputed = rows
                .iter()
                .filter_map(|r| {
                    fx.rate(r.event_time.date(), r.raw.currency)
                        .and_then(|rate| to_gbp(r.raw, rate, LogicVersion::Fixed))
                })
                .map(|m| m.minor)
                .sum();
            DriftRow {
                dt,
                stored,
                recomputed,
            }
        })
        .collect()
}

/// Gold against the silver rows recomputed with the fixed logic: what the
/// drift query says about the daily totals consumers read.
pub fn gold_drift(gold: &Gold, silver: &Table, fx: &FxRates, from: Day) -> Vec<DriftRow> {
    let recomputed: SortedMap<Day, i64> = silver_drift(silver, fx, from)
        .into_iter()
        .map(|r| (r.dt, r.recomputed))
        .collect();
    gold.iter()
        .filter(|(dt, _)| **dt >= from)
        .map(|(dt, total)| DriftRow {
            dt: *dt,
            stored: total.gbp,
            recomputed: recomputed.get(dt).copied().unwrap_or(0),
        })
        .collect()
}

/// The partitions a careless drift query flags: `SUM(raw * rate)` with no
/// per-row rounding differs from correctly rounded totals by fractions of a
/// penny per row, which add up past a penny on perfectly good days.
pub fn naive_flags(silver: &Table, fx: &FxRates, from: Day) -> Vec<Day> {
    silver
        .partitions()
        .filter(|(dt, _)| *dt >= from)
        .filter(|(_, rows)| {
            let stored: i64 = rows.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            let unrounded: Decimal = rows
                .iter()
                .filter_map(|r| {
                    fx.rate(r.event_time.date(), r.raw.currency)
                        .map(|rate| Decimal::from(r.raw.minor) * rate)
                })
                .sum();
            (Decimal::from(stored) - unrounded).abs() > Decimal::ONE
        })
        .map(|(dt, _)| dt)
        .collect()
}

/// One day's rows in silver against the rows bronze has for it: what the
/// drift query cannot see. It compares the totals of the rows silver
/// holds; an order silver never got is in neither of its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountRow {
    pub dt: Day,
    pub bronze: usize,
    pub silver: usize,
    /// The bronze rows silver lacks, as `expected` holds them.
    pub missing: Vec<Row>,
    /// Silver's rows that bronze no longer has (the source withdrew them).
    pub extra: Vec<Row>,
}

/// Per day from `from` on, silver's row count against `expected` (silver
/// rebuilt from every bronze row, the reconcile's side of the truth).
pub fn row_counts(silver: &Table, expected: &Table, from: Day) -> Vec<CountRow> {
    let days: crate::lean::sorted::SortedSet<Day> = expected
        .partitions()
        .chain(silver.partitions())
        .map(|(dt, _)| dt)
        .filter(|dt| *dt >= from)
        .collect();
    days.into_iter()
        .map(|dt| {
            let (want, have) = (expected.partition(dt), silver.partition(dt));
            let lacking = |of: &[Row], other: &[Row]| -> Vec<Row> {
                of.iter()
                    .filter(|r| !other.iter().any(|o| o.id == r.id))
                    .cloned()
                    .collect()
            };
            CountRow {
                dt,
                bronze: want.len(),
                silver: have.len(),
                missing: lacking(want, have),
                extra: lacking(have, want),
            }
        })
        .collect()
}
