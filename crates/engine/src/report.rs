//! The monthly finance report, read from gold and the adjustments table.

use crate::lean::sorted::SortedMap;

use chrono::Datelike;

use super::table::Gold;
use super::trace::Adjustment;

/// One month as finance sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MonthReport {
    pub year: i32,
    pub month: u32,
    /// Sum of the month's gold partitions, in pence.
    pub from_gold: i64,
    /// Late rows booked in this month for earlier, final partitions, in pence.
    pub adjustments: i64,
}

impl MonthReport {
    pub fn total(&self) -> i64 {
        self.from_gold + self.adjustments
    }
}

pub fn monthly(gold: &Gold, adjustments: &[Adjustment]) -> Vec<MonthReport> {
    let mut out: SortedMap<(i32, u32), MonthReport> = SortedMap::new();
    for (dt, total) in gold {
        let entry = out.entry((dt.year(), dt.month())).or_insert(MonthReport {
            year: dt.year(),
            month: dt.month(),
            ..MonthReport::default()
        });
        entry.from_gold += total.gbp;
    }
    for adj in adjustments {
        let booked = adj.booked_at.date();
        let entry = out
            .entry((booked.year(), booked.month()))
            .or_insert(MonthReport {
                year: booked.year(),
                month: booked.month(),
                ..MonthReport::default()
            });
        entry.adjustments += adj.gbp.map_or(0, |m| m.minor);
    }
    out.into_values().collect()
}
