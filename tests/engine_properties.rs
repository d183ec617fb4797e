//! Properties of the engine over generated scripts: what idempotency buys,
//! what a lookback guarantees, and what a misplaced state save costs.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Duration, NaiveDate};
use proptest::prelude::*;

use partition_lab::engine::calendar::{at, shift};
use partition_lab::engine::generate::{workload, DelayProfile};
use partition_lab::engine::table::Table;
use partition_lab::engine::{
    simulate, simulate_with, CommitOrder, Detail, Event, MergeKey, Money, Outcome, PipelineConfig,
    ProcessingState, RunSpec, Script, WriteMode,
};

fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 6, 1).expect("valid date")
}

/// One generated order: its day, time of day, and how many days late it arrives.
#[derive(Clone, Debug)]
struct GenOrder {
    day: u32,
    hour: u32,
    minute: u32,
    delay_minutes: i64,
    days_late: i64,
}

#[derive(Clone, Debug)]
struct GenScript {
    days: u32,
    orders: Vec<GenOrder>,
    crashes: Vec<bool>,
}

impl GenScript {
    /// Runs at 00:15 for the day before, retries at 00:20; every arrival is
    /// between 01:00 and midnight, so a retry sees exactly what its crashed
    /// attempt saw and the comparison with a crash-free week is fair.
    fn script(&self, with_crashes: bool) -> Script {
        let events = self
            .orders
            .iter()
            .enumerate()
            .map(|(n, o)| {
                let day = shift(start(), i64::from(o.day));
                let happened = at(day, o.hour, o.minute);
                let arrived =
                    happened + Duration::minutes(o.delay_minutes) + Duration::days(o.days_late);
                Event::immutable(
                    &format!("o-{n}"),
                    happened,
                    arrived,
                    Money::gbp(100 + n as i64),
                )
            })
            .collect();
        let runs = (0..self.days)
            .map(|d| {
                let day = shift(start(), i64::from(d));
                let run = RunSpec::scheduled(at(shift(day, 1), 0, 15), day);
                if with_crashes && self.crashes.get(d as usize).copied().unwrap_or(false) {
                    run.crashing(at(shift(day, 1), 0, 20))
                } else {
                    run
                }
            })
            .collect();
        Script::new(start(), events, runs)
    }

    fn max_days_late(&self) -> u32 {
        self.orders
            .iter()
            .map(|o| o.days_late as u32)
            .max()
            .unwrap_or(0)
    }
}

fn gen_script() -> impl Strategy<Value = GenScript> {
    (2u32..9).prop_flat_map(|days| {
        let order = (0..days, 1u32..22, 0u32..60, 1i64..=120, 0i64..=3).prop_map(
            |(day, hour, minute, delay_minutes, days_late)| GenOrder {
                day,
                hour,
                minute,
                delay_minutes,
                days_late,
            },
        );
        (
            Just(days),
            prop::collection::vec(order, 0..30),
            prop::collection::vec(any::<bool>(), days as usize),
        )
            .prop_map(|(days, orders, crashes)| GenScript {
                days,
                orders,
                crashes,
            })
    })
}

fn gen_state() -> impl Strategy<Value = ProcessingState> {
    prop_oneof![
        Just(ProcessingState::watermark()),
        (0u32..4).prop_map(ProcessingState::partition_list)
    ]
}

/// Each partition's rows as (id, version), order ignored.
fn content(table: &Table) -> BTreeMap<NaiveDate, Vec<(String, chrono::NaiveDateTime)>> {
    table
        .partitions()
        .map(|(dt, rows)| {
            let mut rows: Vec<_> = rows
                .iter()
                .map(|r| (r.id.to_string(), r.updated_at))
                .collect();
            rows.sort();
            (dt, rows)
        })
        .collect()
}

fn keys(outcome: &Outcome) -> BTreeSet<String> {
    outcome.silver.rows().map(|r| r.key.to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn overwrite_and_merge_are_idempotent_under_any_retry_pattern(
        script in gen_script(),
        state in gen_state(),
        merge in any::<bool>(),
    ) {
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::OverwritePartition };
        let config = PipelineConfig::new(state, write);
        let retried = simulate(&config, &script.script(true));
        let clean = simulate(&config, &script.script(false));
        prop_assert_eq!(content(&retried.silver), content(&clean.silver));
    }

    #[test]
    fn partition_list_overwrite_with_lookback_covering_lateness_ends_equal_to_truth(
        script in gen_script(),
        extra in 0u32..3,
    ) {
        let lookback = script.max_days_late() + extra;
        let config = PipelineConfig::new(ProcessingState::partition_list(lookback), WriteMode::OverwritePartition);
        let outcome = simulate(&config, &script.script(true));
        let dirty: Vec<_> = outcome.diffs.iter().filter(|d| !d.is_clean()).collect();
        prop_assert!(dirty.is_empty(), "{:?}", dirty);
    }

    #[test]
    fn append_with_retries_never_loses_a_row(script in gen_script(), state in gen_state()) {
        let config = PipelineConfig::new(state, WriteMode::Append);
        let retried = simulate(&config, &script.script(true));
        let clean = simulate(&config, &script.script(false));
        prop_assert!(keys(&retried).is_superset(&keys(&clean)));
        if state == ProcessingState::watermark() {
            prop_assert!(retried.lost().is_empty(), "lost {:?}", retried.lost());
        }
    }

    #[test]
    fn watermark_with_partition_overwrite_never_duplicates(script in gen_script(), before in any::<bool>()) {
        let commit = if before { CommitOrder::StateBeforeWrite } else { CommitOrder::StateAfterWrite };
        let config = PipelineConfig::new(ProcessingState::watermark(), WriteMode::OverwritePartition).with_commit(commit);
        let outcome = simulate(&config, &script.script(true));
        prop_assert!(outcome.duplicates().is_empty(), "duplicates {:?}", outcome.duplicates());
    }

    #[test]
    fn watermark_saved_before_the_write_loses_exactly_the_crashed_runs_rows(
        script in gen_script(),
        merge in any::<bool>(),
    ) {
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::Append };
        let config = PipelineConfig::new(ProcessingState::watermark(), write).with_commit(CommitOrder::StateBeforeWrite);
        let outcome = simulate(&config, &script.script(true));
        let read_by_crashed: BTreeSet<String> = outcome
            .runs
            .iter()
            .filter(|r| r.crashed)
            .flat_map(|r| r.read_ids.iter().map(|id| id.to_string()))
            .collect();
        let lost: BTreeSet<String> = outcome.lost().iter().map(|id| id.to_string()).collect();
        prop_assert_eq!(lost, read_by_crashed);
    }
}

#[test]
fn the_same_seed_gives_the_same_trace_every_time() {
    let config = PipelineConfig::new(
        ProcessingState::partition_list(2),
        WriteMode::OverwritePartition,
    );
    let a = simulate_with(
        &config,
        &workload(42, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::Full,
    );
    let b = simulate_with(
        &config,
        &workload(42, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::Full,
    );
    assert_eq!(a, b);
    let other = simulate_with(
        &config,
        &workload(43, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::Full,
    );
    assert_ne!(
        a.silver, other.silver,
        "a different seed should give different data"
    );
}

#[test]
fn summary_detail_reaches_the_same_tables_as_full_detail() {
    let script = workload(7, start(), 60, 20, DelayProfile::PartnerBatch);
    for write in [
        WriteMode::Append,
        WriteMode::OverwritePartition,
        WriteMode::Merge { key: MergeKey::Key },
    ] {
        let config = PipelineConfig::new(ProcessingState::partition_list(1), write);
        let full = simulate_with(&config, &script, Detail::Full);
        let summary = simulate_with(&config, &script, Detail::Summary);
        assert_eq!(full.silver, summary.silver);
        assert_eq!(full.checks, summary.checks);
        assert!(summary
            .runs
            .iter()
            .all(|r| r.snapshot.is_none() && r.read_ids.is_empty()));
    }
}
