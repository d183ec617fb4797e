//! The note finance receives when the backfill restates August: which
//! daily totals changed, by how much, and why, read off the tables before
//! and after the run (never typed in). Each day's change is split into
//! what the currency fix changed on rows silver had, and the rows silver
//! never had that the rebuild from bronze brought in: the drift query sees
//! only the first, the row counts against bronze the second.

use crate::engine::calendar::{day_month, Day};
use crate::engine::money::Money;
use crate::engine::table::{Gold, Table};

use super::case::{aug, last_existing, Case};

/// One daily total that changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub dt: Day,
    /// Pence.
    pub old: i64,
    pub new: i64,
    /// The change on rows silver held before and after: the fix.
    pub fix: i64,
    /// Rows the rebuild brought in that silver lacked, and their value.
    pub found: usize,
    pub found_value: i64,
    /// Rows silver had that the rebuild from bronze no longer has (the
    /// source withdrew them), and their value before.
    pub removed: usize,
    pub removed_value: i64,
}

impl Change {
    pub fn by(&self) -> i64 {
        self.new.saturating_sub(self.old)
    }

    /// What neither the fix nor the found rows explain (rows removed, or
    /// gold not summing its silver): zero on every day the lab rebuilds.
    pub fn other(&self) -> i64 {
        self.by()
            .saturating_sub(self.fix)
            .saturating_sub(self.found_value)
            .saturating_add(self.removed_value)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restatement {
    pub changes: Vec<Change>,
    /// The finance total for 1..13 August, in pence.
    pub old_total: i64,
    pub new_total: i64,
}

/// The tables a restatement compares: silver and the gold read from it.
pub type Tables<'a> = (&'a Table, &'a Gold);

/// What changed in gold between `before` and `after`, 1..13 August, and
/// how much of each day came from the fix and from rows silver lacked.
pub fn restatement(before: Tables, after: Tables) -> Restatement {
    let total = |gold: &Gold, dt: Day| gold.get(&dt).map_or(0, |t| t.gbp);
    let gbp = |r: &crate::engine::table::Row| r.gbp.map_or(0, |m| m.minor);
    let changes = crate::engine::calendar::days(aug(1), last_existing())
        .map(|dt| {
            let (was, now) = (before.0.partition(dt), after.0.partition(dt));
            let mut change = Change {
                dt,
                old: total(before.1, dt),
                new: total(after.1, dt),
                fix: 0,
                found: 0,
                found_value: 0,
                removed: 0,
                removed_value: 0,
            };
            for old in was.iter().filter(|w| !now.iter().any(|r| r.id == w.id)) {
                change.removed += 1;
                change.removed_value = change.removed_value.saturating_add(gbp(old));
            }
            for row in now {
                match was.iter().find(|w| w.id == row.id) {
                    Some(old) => change.fix = change.fix.saturating_add(gbp(row) - gbp(old)),
                    None => {
                        change.found += 1;
                        change.found_value = change.found_value.saturating_add(gbp(row));
                    }
                }
            }
            change
        })
        .filter(|c| c.old != c.new)
        .collect();
    Restatement {
        changes,
        old_total: Case::finance_total(before.1),
        new_total: Case::finance_total(after.1),
    }
}

/// A signed amount: "+£1,234.56", "-£0.05".
fn signed(pence: i64) -> String {
    let sign = if pence > 0 { "+" } else { "" };
    format!("{sign}{}", Money::gbp(pence).grouped())
}

fn orders(n: usize) -> String {
    crate::counted::counted(n, "order")
}

impl Restatement {
    pub fn fix(&self) -> i64 {
        self.changes.iter().map(|c| c.fix).sum()
    }

    pub fn found(&self) -> (usize, i64) {
        self.changes
            .iter()
            .fold((0, 0), |(n, v), c| (n + c.found, v + c.found_value))
    }

    pub fn removed(&self) -> (usize, i64) {
        self.changes
            .iter()
            .fold((0, 0), |(n, v), c| (n + c.removed, v + c.removed_value))
    }

    /// The note as finance would read it, line by line.
    pub fn note(&self) -> Vec<String> {
        if self.changes.is_empty() {
            return vec![
                "No daily total in 1–13 August changed: there is nothing to restate.".to_string(),
            ];
        }
        let days = self.changes.len();
        let (found, found_value) = self.found();
        let mut why = vec![format!(
            "{} from the currency-conversion fix",
            signed(self.fix())
        )];
        if found > 0 {
            why.push(format!(
                "{} from {} the daily runs had missed (in bronze, never in silver)",
                signed(found_value),
                orders(found)
            ));
        }
        let (removed, removed_value) = self.removed();
        if removed > 0 {
            why.push(format!(
                "{} from {} bronze no longer holds (withdrawn by the source)",
                signed(-removed_value),
                orders(removed)
            ));
        }
        let mut lines = vec![format!(
            "Restatement of August 2026 (1–13 Aug): {} corrected: {}.",
            crate::counted::counted(days, "daily total"),
            match why.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => why.join(""),
            }
        )];
        for c in &self.changes {
            let mut parts = vec![format!("{} currency fix", signed(c.fix))];
            if c.found > 0 {
                parts.push(format!(
                    "{} from {} missing",
                    signed(c.found_value),
                    orders(c.found)
                ));
            }
            if c.removed > 0 {
                parts.push(format!(
                    "{} from {} withdrawn",
                    signed(-c.removed_value),
                    orders(c.removed)
                ));
            }
            if c.other() != 0 {
                parts.push(format!("{} other", signed(c.other())));
            }
            lines.push(format!(
                "{}: {} → {} ({}: {})",
                day_month(c.dt),
                Money::gbp(c.old).grouped(),
                Money::gbp(c.new).grouped(),
                signed(c.by()),
                parts.join(", ")
            ));
        }
        lines.push(format!(
            "Total 1–13 Aug: {} → {} ({}).",
            Money::gbp(self.old_total).grouped(),
            Money::gbp(self.new_total).grouped(),
            signed(self.new_total.saturating_sub(self.old_total))
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::drift::{row_counts, silver_drift};
    use crate::labs::backfill::case::backfill_start;
    use crate::labs::backfill::{Choices, Concurrency};

    /// The note against the two queries the page shows: its currency fix
    /// is exactly the drift query's total, its missing orders exactly the
    /// rows the count against bronze finds, and the two add up to the
    /// restated month.
    #[test]
    fn the_note_reconciles_with_the_drift_query_and_the_row_counts() {
        let case = Case::new();
        let choices = Choices {
            from: case.august.ship,
            concurrency: Concurrency::ALL[0],
            markers: true,
            ..Choices::default()
        };
        let exec = case.execute(&choices, &[], backfill_start(), None);
        let (silver, gold) = case.after(std::slice::from_ref(&exec));
        let r = restatement((&case.silver, &case.gold), (&silver, &gold));
        let drift: i64 = silver_drift(&case.silver, &case.script.fx, aug(1))
            .iter()
            .filter(|d| d.drifts())
            .map(|d| d.recomputed - d.stored)
            .sum();
        assert_eq!(r.fix(), drift, "the fix is what the drift query found");
        let missing: Vec<_> = row_counts(&case.silver, &case.truth, aug(1))
            .into_iter()
            .flat_map(|c| c.missing)
            .collect();
        assert!(!missing.is_empty(), "the daily runs missed some orders");
        let missing_value: i64 = missing.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
        assert_eq!(r.found(), (missing.len(), missing_value));
        assert!(r.changes.iter().all(|c| c.other() == 0));
        assert_eq!(r.fix() + missing_value, r.new_total - r.old_total);
        let sum: i64 = r.changes.iter().map(Change::by).sum();
        assert_eq!(sum, r.new_total - r.old_total);
        let days: Vec<Day> = r.changes.iter().map(|c| c.dt).collect();
        assert_eq!(days, case.blast_radius());
        let note = r.note();
        assert_eq!(note.len(), days.len() + 2);
        assert!(note[0].contains("11 daily totals corrected"), "{}", note[0]);
        assert!(
            note[0].contains(&format!(
                "{} from the currency-conversion fix",
                signed(drift)
            )),
            "{}",
            note[0]
        );
        assert!(note[0].contains(&format!(
            "from {} the daily runs had missed",
            orders(missing.len())
        )));
    }

    #[test]
    fn nothing_changed_says_so() {
        let case = Case::new();
        let r = restatement((&case.silver, &case.gold), (&case.silver, &case.gold));
        assert!(r.changes.is_empty());
        assert_eq!(r.note().len(), 1);
    }
}
