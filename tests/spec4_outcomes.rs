//! SPEC 4's outcome table for the default week, checked cell by cell.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::engine::calendar::{days, shift};
use partition_lab::engine::{CheckKind, CommitOrder, Outcome, Verdict};
use partition_lab::labs::state_write::{monday, run, Cell, Controls, LateOrder};

fn rows_per_day(outcome: &Outcome) -> Vec<usize> {
    days(monday(), shift(monday(), 6))
        .map(|d| outcome.silver.partition(d).len())
        .collect()
}

fn outcome(controls: &Controls, cell: Cell) -> Outcome {
    run(controls)
        .into_iter()
        .find(|(c, _)| *c == cell)
        .map(|(_, o)| o)
        .expect("every cell runs")
}

fn default_outcome(cell: Cell) -> Outcome {
    outcome(&Controls::default(), cell)
}

fn ids(list: Vec<partition_lab::engine::Id>) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

#[test]
fn watermark_with_append_duplicates_the_retried_day_loudly() {
    let o = default_outcome(Cell::WatermarkAppend);
    assert_eq!(rows_per_day(&o), [5, 4, 8, 4, 4, 4, 4]);
    assert_eq!(ids(o.duplicates()), ["o-301", "o-302", "o-303", "o-304"]);
    assert!(o.lost().is_empty());
    assert!(!o.checks.passed(CheckKind::UniqueKey));
    assert_eq!(
        o.verdict(),
        Verdict::Loud {
            failing: vec![CheckKind::UniqueKey]
        }
    );
}

#[test]
fn watermark_with_partition_overwrite_loses_rows_silently() {
    let o = default_outcome(Cell::WatermarkOverwrite);
    assert_eq!(rows_per_day(&o), [1, 4, 4, 4, 4, 4, 4]);
    assert_eq!(ids(o.lost()), ["o-101", "o-102", "o-103", "o-104"]);
    assert!(o.duplicates().is_empty());
    for kind in CheckKind::ALL.into_iter().filter(|k| k.is_usual()) {
        assert!(o.checks.passed(kind), "{} should pass", kind.name());
    }
    assert!(
        !o.checks.passed(CheckKind::ReconcileVsBronze),
        "only reconcile sees it"
    );
    assert_eq!(o.verdict(), Verdict::Silent);
    // The run for Tuesday (the second attempt) replaced Monday with o-105 alone.
    let culprit = o.deleted_by("o-101").expect("some run deleted o-101");
    assert_eq!(culprit.day, shift(monday(), 1));
    assert_eq!(culprit.attempt, 1);
}

#[test]
fn partition_list_with_append_duplicates_every_lookback_day() {
    let o = default_outcome(Cell::ListAppend);
    assert_eq!(rows_per_day(&o), [9, 12, 12, 8, 8, 8, 4]);
    assert!(o.lost().is_empty());
    assert!(matches!(o.verdict(), Verdict::Loud { .. }));
}

#[test]
fn partition_list_with_overwrite_is_correct() {
    let o = default_outcome(Cell::ListOverwrite);
    assert_eq!(rows_per_day(&o), [5, 4, 4, 4, 4, 4, 4]);
    assert_eq!(o.verdict(), Verdict::Correct);
    assert!(o.checks.0.iter().all(|c| c.passed()));
}

#[test]
fn full_refresh_is_correct_and_reads_everything_every_run() {
    let o = default_outcome(Cell::FullRefresh);
    assert_eq!(rows_per_day(&o), [5, 4, 4, 4, 4, 4, 4]);
    assert_eq!(o.verdict(), Verdict::Correct);
    let reads: Vec<usize> = o.runs.iter().map(|r| r.rows_read).collect();
    assert_eq!(reads, [4, 9, 13, 13, 17, 21, 25, 29]);
}

#[test]
fn the_crashed_run_is_retried_five_minutes_later() {
    let o = default_outcome(Cell::ListOverwrite);
    assert_eq!(o.runs.len(), 8);
    let crashed: Vec<_> = o.runs.iter().filter(|r| r.crashed).collect();
    assert_eq!(crashed.len(), 1);
    assert_eq!(crashed[0].day, shift(monday(), 2));
    let retry = &o.runs[crashed[0].attempt + 1];
    assert_eq!(retry.day, crashed[0].day);
    assert_eq!((retry.at - crashed[0].at).num_minutes(), 5);
    assert!(crashed[0].wrote && !crashed[0].state_saved);
}

#[test]
fn lookback_zero_makes_the_list_with_overwrite_lose_the_late_order_silently() {
    let controls = Controls {
        lookback: 0,
        ..Controls::default()
    };
    let o = outcome(&controls, Cell::ListOverwrite);
    assert_eq!(rows_per_day(&o), [4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(ids(o.lost()), ["o-105"]);
    assert_eq!(o.verdict(), Verdict::Silent);
}

#[test]
fn late_order_beyond_the_lookback_is_lost_silently_too() {
    let controls = Controls {
        late: LateOrder::Wed,
        ..Controls::default()
    };
    let o = outcome(&controls, Cell::ListOverwrite);
    assert_eq!(ids(o.lost()), ["o-105"]);
    assert_eq!(o.verdict(), Verdict::Silent);
    let within = Controls {
        late: LateOrder::Wed,
        lookback: 2,
        ..Controls::default()
    };
    assert_eq!(
        outcome(&within, Cell::ListOverwrite).verdict(),
        Verdict::Correct
    );
}

#[test]
fn saving_the_watermark_before_the_write_loses_the_crashed_days_rows() {
    let controls = Controls {
        commit: CommitOrder::StateBeforeWrite,
        ..Controls::default()
    };
    let o = outcome(&controls, Cell::WatermarkAppend);
    assert_eq!(rows_per_day(&o), [5, 4, 0, 4, 4, 4, 4]);
    assert_eq!(ids(o.lost()), ["o-301", "o-302", "o-303", "o-304"]);
}

#[test]
fn without_late_order_or_crash_every_pipeline_is_correct() {
    let controls = Controls {
        late: LateOrder::Off,
        crash: false,
        ..Controls::default()
    };
    for (cell, o) in run(&controls) {
        if cell == Cell::ListAppend {
            // Lookback re-reads append again even on a quiet week.
            assert!(matches!(o.verdict(), Verdict::Loud { .. }));
        } else {
            assert_eq!(o.verdict(), Verdict::Correct, "{}", cell.name());
        }
    }
}
