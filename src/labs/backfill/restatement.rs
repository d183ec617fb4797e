//! The note finance receives when the backfill restates August: which
//! daily totals changed, by how much, and the month's old and new total,
//! read off gold before and after the run (never typed in).

use crate::engine::calendar::{day_month, Day};
use crate::engine::money::Money;
use crate::engine::table::Gold;

use super::case::{aug, last_existing, Case};

/// One daily total that changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub dt: Day,
    /// Pence.
    pub old: i64,
    pub new: i64,
}

impl Change {
    pub fn by(&self) -> i64 {
        self.new.saturating_sub(self.old)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restatement {
    pub changes: Vec<Change>,
    /// The finance total for 1..13 August, in pence.
    pub old_total: i64,
    pub new_total: i64,
}

/// What changed in gold between `before` and `after`, 1..13 August.
pub fn restatement(before: &Gold, after: &Gold) -> Restatement {
    let total = |gold: &Gold, dt: Day| gold.get(&dt).map_or(0, |t| t.gbp);
    let changes = crate::engine::calendar::days(aug(1), last_existing())
        .map(|dt| Change {
            dt,
            old: total(before, dt),
            new: total(after, dt),
        })
        .filter(|c| c.old != c.new)
        .collect();
    Restatement {
        changes,
        old_total: Case::finance_total(before),
        new_total: Case::finance_total(after),
    }
}

/// A signed amount: "+£1,234.56", "-£0.05".
fn signed(pence: i64) -> String {
    let sign = if pence > 0 { "+" } else { "" };
    format!("{sign}{}", Money::gbp(pence).grouped())
}

impl Restatement {
    /// The note as finance would read it, line by line.
    pub fn note(&self) -> Vec<String> {
        if self.changes.is_empty() {
            return vec![
                "No daily total in 1–13 August changed: there is nothing to restate.".to_string(),
            ];
        }
        let mut lines = vec![format!(
            "Restatement of August 2026 (1–13 Aug): {} daily total(s) corrected after the currency-conversion fix.",
            self.changes.len()
        )];
        for c in &self.changes {
            lines.push(format!(
                "{}: {} → {} ({})",
                day_month(c.dt),
                Money::gbp(c.old).grouped(),
                Money::gbp(c.new).grouped(),
                signed(c.by())
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
    use crate::labs::backfill::case::{backfill_start, true_ship_date};
    use crate::labs::backfill::{Choices, Concurrency, PlanStart};

    #[test]
    fn a_full_backfill_restates_exactly_the_broken_days_and_the_changes_add_up() {
        let case = Case::new();
        let choices = Choices {
            from: PlanStart::ALL
                .into_iter()
                .find(|s| s.day() == true_ship_date())
                .expect("the true ship date is on offer"),
            concurrency: Concurrency::ALL[0],
            markers: true,
        };
        let exec = case.execute(&choices, &[], backfill_start(), None);
        let (_, gold) = case.after(std::slice::from_ref(&exec));
        let r = restatement(&case.gold, &gold);
        let days: Vec<Day> = r.changes.iter().map(|c| c.dt).collect();
        assert_eq!(days, case.blast_radius());
        let sum: i64 = r.changes.iter().map(Change::by).sum();
        assert_eq!(sum, r.new_total - r.old_total);
        assert!(r.new_total > r.old_total, "the bug wrote short totals");
        let note = r.note();
        assert_eq!(note.len(), days.len() + 2);
        assert!(note[0].contains("11 daily total(s)"), "{}", note[0]);
    }

    #[test]
    fn nothing_changed_says_so() {
        let case = Case::new();
        let r = restatement(&case.gold, &case.gold);
        assert!(r.changes.is_empty());
        assert_eq!(r.note().len(), 1);
    }
}
