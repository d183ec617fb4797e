//! What the backfill lab says after its runs: the headline, the drift
//! left, the gold still old, the rebuilds that were not needed or were
//! done twice, the finance totals and what finance receives. Decided here
//! from the runs, once per change of runs; the page draws it.

use crate::engine::calendar::{day_month, Day};
use crate::engine::Money;
use crate::lean::sorted::{SortedMap, SortedSet};

use super::case::{Case, Choices};
use super::restatement::restatement;
use super::run::Execution;
use super::view::kept_words;

/// The lab's figures after `runs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    pub interrupted: bool,
    /// Silver partitions still wrong, with their drift in pence.
    pub silver_left: Vec<(Day, i64)>,
    pub gold_left: usize,
    pub needless: usize,
    pub rebuilt_twice: usize,
    /// The finance total of 1 to 13 August before, now and in truth (pence).
    pub before: i64,
    pub after: i64,
    pub truth: i64,
    /// Whether every planned gold date has landed, so the report is restated.
    pub restated: bool,
    /// What finance receives (see `restatement`).
    pub note: Vec<String>,
    /// Dates rebuilt from no rows that kept their old rows, in words.
    pub kept: Vec<String>,
}

/// The outcome of `runs` (oldest first) of the plan `choices` makes.
pub fn outcome(case: &Case, runs: &[Execution], choices: &Choices) -> RunOutcome {
    // One rebuild for every figure below.
    let rebuilt = case.rebuilt(runs);
    let (silver, gold) = (&rebuilt.silver, &rebuilt.gold);
    let (silver_left, gold_left) = case.drift_left(silver, gold);
    let plan = choices.plan();
    let gold_done: SortedSet<Day> = runs.iter().flat_map(|e| e.gold_rebuilt()).collect();
    let mut counts = SortedMap::<Day, usize>::new();
    for dt in runs.iter().flat_map(|e| e.silver_rebuilt()) {
        let n = counts.entry(dt).or_default();
        *n = n.saturating_add(1);
    }
    RunOutcome {
        interrupted: runs.last().is_some_and(|e| e.interrupted_at.is_some()),
        silver_left: silver_left.iter().map(|r| (r.dt, r.drift())).collect(),
        gold_left: gold_left.len(),
        needless: case.needless_rebuilds(runs).len(),
        rebuilt_twice: counts.values().filter(|n| **n > 1).count(),
        before: Case::finance_total(&case.gold),
        after: Case::finance_total(gold),
        truth: case.truth_total(),
        restated: plan.dates().iter().all(|d| gold_done.contains(d)),
        note: restatement((&case.silver, &case.gold), (silver, gold)).note(),
        kept: kept_words(&Case::kept_in(&rebuilt)),
    }
}

impl RunOutcome {
    /// The sentence above the figures.
    pub fn headline(&self) -> &'static str {
        if self.interrupted {
            "The backfill was interrupted. Run it again: with completion markers it resumes; without them it starts over."
        } else if self.silver_left.is_empty() && self.gold_left == 0 {
            "✓ Every partition matches its source again."
        } else {
            "✗ The backfill finished, but some partitions are still wrong."
        }
    }

    /// The drift left, in words: "none", or the total and each day's.
    pub fn remaining(&self) -> String {
        if self.silver_left.is_empty() {
            return "none".to_string();
        }
        let total = self
            .silver_left
            .iter()
            .fold(0i64, |sum, (_, d)| sum.saturating_add(*d));
        let days: Vec<String> = self
            .silver_left
            .iter()
            .map(|(dt, d)| format!("{} ({})", day_month(*dt), Money::gbp(*d).grouped()))
            .collect();
        format!(
            "{} in total: {}",
            Money::gbp(total).grouped(),
            days.join(", ")
        )
    }

    /// The finance total before, now and in truth.
    pub fn finance(&self) -> String {
        format!(
            "before {} · now {} · truth {}",
            Money::gbp(self.before).grouped(),
            Money::gbp(self.after).grouped(),
            Money::gbp(self.truth).grouped()
        )
    }

    /// Whether the finance report has been restated, in words.
    pub fn report(&self) -> &'static str {
        if self.restated {
            "restated: all gold has landed"
        } else {
            "not restated yet: consumers still read the old total"
        }
    }

    /// Whether the page shows what finance receives: once all gold has
    /// landed and the last run was not cut short.
    pub fn shows_note(&self) -> bool {
        self.restated && !self.interrupted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::{aug, backfill_start, August, Concurrency};
    use chrono::Datelike;

    fn plan_from(day: u32, markers: bool) -> Choices {
        Choices {
            from: August::CHAPTER
                .starts()
                .into_iter()
                .find(|s| s.day() == aug(day))
                .expect("a plan start on offer"),
            concurrency: Concurrency::ALL[0],
            markers,
            ..Choices::default()
        }
    }

    #[test]
    fn a_run_from_the_true_ship_date_leaves_nothing_wrong_and_restates_once() {
        let case = Case::new();
        let choices = plan_from(case.august.ship.day().day(), true);
        let exec = case.execute(&choices, &[], backfill_start(), None);
        let o = outcome(&case, std::slice::from_ref(&exec), &choices);
        assert_eq!(o.headline(), "✓ Every partition matches its source again.");
        assert_eq!(o.remaining(), "none");
        assert_eq!((o.gold_left, o.needless, o.rebuilt_twice), (0, 0, 0));
        assert_eq!(o.after, o.truth, "the finance total is the truth again");
        assert_ne!(o.before, o.truth);
        assert!(o.restated && o.shows_note() && !o.note.is_empty());
        assert_eq!(o.report(), "restated: all gold has landed");
    }

    #[test]
    fn a_late_start_leaves_drift_named_by_day_and_a_cut_run_says_so() {
        let case = Case::new();
        let late = plan_from(12, true);
        let exec = case.execute(&late, &[], backfill_start(), None);
        let o = outcome(&case, std::slice::from_ref(&exec), &late);
        assert_eq!(
            o.headline(),
            "✗ The backfill finished, but some partitions are still wrong."
        );
        assert!(!o.silver_left.is_empty());
        let words = o.remaining();
        assert!(
            words.contains(" in total: ") && words.contains(&day_month(o.silver_left[0].0)),
            "{words}"
        );
        let cut = case.execute_until(
            &late,
            &[],
            backfill_start(),
            Some(backfill_start() + chrono::Duration::minutes(5)),
        );
        let o = outcome(&case, std::slice::from_ref(&cut), &late);
        assert!(o.interrupted && !o.shows_note());
        assert!(o.headline().starts_with("The backfill was interrupted."));
    }
}
