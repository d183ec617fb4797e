//! Finalisation: partitions close after the allowed lateness, and late rows
//! go where the after-final policy sends them.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::NaiveDate;

use partition_lab::engine::calendar::{at, shift};
use partition_lab::engine::generate::daily_runs;
use partition_lab::engine::{
    simulate, AfterFinal, Event, Finaliser, Money, PipelineConfig, ProcessingState, Script,
    WriteMode,
};

fn aug(day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 8, day).expect("valid date")
}

/// Two on-time purchases on the 1st, one arriving within the window (the
/// 2nd) and one arriving after the 1st is final (the 5th).
fn script() -> Script {
    let events = vec![
        Event::immutable("p-1", at(aug(1), 10, 0), at(aug(1), 10, 1), Money::gbp(499)),
        Event::immutable("p-2", at(aug(1), 11, 0), at(aug(1), 11, 1), Money::gbp(999)),
        Event::immutable("p-3", at(aug(1), 23, 0), at(aug(2), 9, 0), Money::gbp(199)),
        Event::immutable(
            "p-4",
            at(aug(1), 23, 30),
            at(aug(5), 9, 0),
            Money::gbp(4_999),
        ),
    ];
    Script::new(aug(1), events, daily_runs(aug(1), aug(7), 2, 0))
}

fn pipeline(after_final: AfterFinal) -> PipelineConfig {
    PipelineConfig::new(
        ProcessingState::partition_list(2),
        WriteMode::OverwritePartition,
    )
    .with_finaliser(Finaliser {
        allowed_lateness_days: 2,
        after_final,
    })
}

#[test]
fn a_partition_becomes_final_at_the_end_of_the_run_for_d_plus_l() {
    let outcome = simulate(&pipeline(AfterFinal::Adjustments), &script());
    // The run for the 3rd happens at 02:00 on the 4th.
    assert_eq!(outcome.finalised.get(&aug(1)), Some(&at(aug(4), 2, 0)));
    let closing = outcome
        .runs
        .iter()
        .find(|r| r.day == aug(3))
        .expect("run for the 3rd");
    assert_eq!(closing.finalised, vec![aug(1)]);
}

#[test]
fn late_event_within_lateness_lands_in_its_day_and_a_later_one_is_booked_once() {
    let outcome = simulate(&pipeline(AfterFinal::Adjustments), &script());
    let first: Vec<&str> = outcome
        .silver
        .partition(aug(1))
        .iter()
        .map(|r| &*r.id)
        .collect();
    assert_eq!(first.len(), 3);
    assert!(first.contains(&"p-3"));
    assert_eq!(outcome.adjustments.len(), 1);
    assert_eq!(&*outcome.adjustments[0].id, "p-4");
    assert_eq!(outcome.adjustments[0].booked_at, at(aug(6), 2, 0));
    assert!(outcome.runs.iter().all(|r| r.final_written.is_empty()));
}

#[test]
fn the_drop_policy_loses_the_late_event_and_says_so() {
    let outcome = simulate(&pipeline(AfterFinal::Drop), &script());
    assert!(outcome.adjustments.is_empty());
    assert_eq!(
        outcome
            .dropped
            .iter()
            .map(|id| id.to_string())
            .collect::<Vec<_>>(),
        ["p-4"]
    );
    assert_eq!(
        outcome
            .lost()
            .iter()
            .map(|id| id.to_string())
            .collect::<Vec<_>>(),
        ["p-4"]
    );
}

#[test]
fn reopening_writes_into_a_final_partition() {
    let config = PipelineConfig::new(
        ProcessingState::partition_list(4),
        WriteMode::OverwritePartition,
    )
    .with_finaliser(Finaliser {
        allowed_lateness_days: 2,
        after_final: AfterFinal::Reopen,
    });
    let outcome = simulate(&config, &script());
    assert_eq!(outcome.silver.partition(aug(1)).len(), 4);
    assert!(outcome
        .runs
        .iter()
        .any(|r| r.final_written.contains(&aug(1))));
}

#[test]
fn value_is_conserved_between_final_partitions_adjustments_and_drops() {
    for policy in [AfterFinal::Adjustments, AfterFinal::Drop] {
        let outcome = simulate(&pipeline(policy), &script());
        let in_gold: i64 = outcome.gold.values().map(|t| t.gbp).sum();
        let adjusted: i64 = outcome
            .adjustments
            .iter()
            .filter_map(|a| a.gbp)
            .map(|m| m.minor)
            .sum();
        let dropped: i64 = script()
            .events
            .iter()
            .filter(|e| outcome.dropped.contains(&e.id))
            .map(|e| e.amount.minor)
            .sum();
        let all: i64 = script().events.iter().map(|e| e.amount.minor).sum();
        assert_eq!(in_gold + adjusted + dropped, all, "{policy:?}");
    }
}

#[test]
fn a_full_refresh_rewrites_final_partitions() {
    let config = PipelineConfig::full_refresh().with_finaliser(Finaliser {
        allowed_lateness_days: 1,
        after_final: AfterFinal::Adjustments,
    });
    let outcome = simulate(&config, &script());
    let last = outcome.runs.last().expect("runs happened");
    assert!(last.final_written.contains(&aug(1)));
    assert_eq!(shift(last.day, 1), aug(8));
}
