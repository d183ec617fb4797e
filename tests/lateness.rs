//! The allowed-lateness sweep against full simulations of the same month,
//! and the properties the lab relies on.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::{Datelike, NaiveDate};
use proptest::prelude::*;

use partition_lab::engine::generate::{daily_runs, orders, CurrencyMix, DelayProfile, OrderSpec};
use partition_lab::engine::lateness::{Lateness, LatenessStudy};
use partition_lab::engine::{
    simulate_with, AfterFinal, Detail, Finaliser, PipelineConfig, ProcessingState, Script,
    WriteMode,
};

fn d(m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, m, day).expect("valid date")
}

fn month(seed: u64, profile: DelayProfile, per_day: u32) -> Script {
    let spec = OrderSpec {
        seed,
        first: d(8, 1),
        last: d(8, 31),
        per_day,
        mix: CurrencyMix::GBP_ONLY,
        delays: profile,
        min_minor: 99,
        max_minor: 4_999,
    };
    Script::new(d(8, 1), orders(&spec), daily_runs(d(8, 1), d(9, 24), 2, 0))
}

fn pipeline(l: u32, after_final: AfterFinal) -> PipelineConfig {
    PipelineConfig::new(
        ProcessingState::partition_list(l),
        WriteMode::OverwritePartition,
    )
    .with_finaliser(Finaliser {
        allowed_lateness_days: l,
        after_final,
    })
}

#[test]
fn the_sweep_agrees_with_simulating_each_lateness() {
    for profile in DelayProfile::ALL {
        let script = month(9, profile, 40);
        let study = LatenessStudy::new(&script.events, d(8, 1), d(8, 31));
        for l in [0, 1, 2, 3, 6] {
            let figures = study.figures(Lateness::Days(l));
            let outcome = simulate_with(
                &pipeline(l, AfterFinal::Adjustments),
                &script,
                Detail::Summary,
            );
            let in_partitions: Vec<_> = outcome
                .silver
                .rows()
                .filter(|r| r.dt.month() == 8)
                .collect();
            assert_eq!(
                in_partitions.len() as u64,
                figures.complete.count,
                "{profile:?} L={l}"
            );
            assert_eq!(
                in_partitions.iter().map(|r| r.raw.minor).sum::<i64>(),
                figures.complete.value
            );
            assert_eq!(
                outcome.adjustments.len() as u64,
                figures.after_final.count,
                "{profile:?} L={l}"
            );
            for ((year, month), tally) in &figures.adjustments_by_month {
                let booked: Vec<_> = outcome
                    .adjustments
                    .iter()
                    .filter(|a| a.booked_at.year() == *year && a.booked_at.month() == *month)
                    .collect();
                assert_eq!(
                    booked.len() as u64,
                    tally.count,
                    "{profile:?} L={l} {year}-{month}"
                );
            }
            assert!(outcome.runs.iter().all(|r| r.final_written.is_empty()));
        }
    }
}

#[test]
fn dropping_or_booking_late_rows_conserves_value() {
    let script = month(4, DelayProfile::MobileOffline, 60);
    let all: i64 = script.events.iter().map(|e| e.amount.minor).sum();
    for policy in [AfterFinal::Drop, AfterFinal::Adjustments] {
        let outcome = simulate_with(&pipeline(1, policy), &script, Detail::Summary);
        let finals: i64 = outcome.silver.rows().map(|r| r.raw.minor).sum();
        let adjusted: i64 = outcome
            .adjustments
            .iter()
            .filter_map(|a| a.gbp)
            .map(|m| m.minor)
            .sum();
        let dropped: i64 = script
            .events
            .iter()
            .filter(|e| outcome.dropped.contains(&e.id))
            .map(|e| e.amount.minor)
            .sum();
        assert_eq!(finals + adjusted + dropped, all, "{policy:?}");
        let study = LatenessStudy::new(&script.events, d(8, 1), d(8, 31));
        let figures = study.figures(Lateness::Days(1));
        assert_eq!(figures.complete.value + figures.after_final.value, all);
    }
}

#[test]
fn never_finalising_is_complete_and_never_closes() {
    let script = month(2, DelayProfile::PartnerBatch, 30);
    let study = LatenessStudy::new(&script.events, d(8, 1), d(8, 31));
    let never = study.figures(Lateness::Never);
    assert_eq!(never.complete_count_bp, 10_000);
    assert_eq!(never.close_on, None);
    assert!(!never.on_time());
    assert_eq!(never.open_partitions, None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn completeness_never_falls_and_reaches_all_at_the_largest_delay(seed in any::<u64>(), profile in 0usize..3) {
        let script = month(seed, DelayProfile::ALL[profile], 25);
        let study = LatenessStudy::new(&script.events, d(8, 1), d(8, 31));
        let curve = study.curve(30);
        for pair in curve.windows(2) {
            prop_assert!(pair[1].1 >= pair[0].1 && pair[1].2 >= pair[0].2);
        }
        let max = study.max_needed();
        let at_max = study.figures(Lateness::Days(max));
        prop_assert_eq!(at_max.complete_count_bp, 10_000);
        prop_assert_eq!(at_max.after_final.count, 0);
        if max > 0 {
            prop_assert!(study.figures(Lateness::Days(max - 1)).complete_count_bp < 10_000);
        }
        for l in 0..15 {
            prop_assert_eq!(study.figures(Lateness::Days(l)).open_partitions, Some(l + 1));
        }
    }
}

/// Figures pinned as text, the same strings the browser suite reads off
/// the page (tests/e2e/lateness.test.mjs): native and wasm builds must
/// give the same numbers for the same seed.
#[test]
fn mobile_completeness_at_one_to_three_days_is_pinned() {
    use partition_lab::engine::lateness::{percent, Lateness};
    use partition_lab::labs::lateness::model::{study, Profile};
    let study = study(Profile::Mobile);
    let shown: Vec<String> = (1..=3)
        .map(|l| percent(study.figures(Lateness::Days(l)).complete_value_bp))
        .collect();
    assert_eq!(shown, PINNED_MOBILE_COMPLETENESS);
}

const PINNED_MOBILE_COMPLETENESS: [&str; 3] = ["98.14 %", "99.24 %", "99.61 %"];
