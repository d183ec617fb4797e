//! The allowed-lateness sweep against full simulations of the same month,
//! and the properties the lab relies on.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;
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
                Detail::TABLES,
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
        let outcome = simulate_with(&pipeline(1, policy), &script, Detail::TABLES);
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
    #![proptest_config(cases::cases(24))]

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

/// The mobile profile's completeness by value at one to three days, as the
/// lab shows it, against a count made here from the month's events alone:
/// an event is complete when it arrived by the 02:00 run on day d + 1 + L,
/// the last run that may change its partition d. The strings are pinned
/// because the browser suite reads the same figures off the page
/// (tests/e2e/lateness.test.mjs): this test is their oracle, and native and
/// wasm builds must give the same numbers for the same seed.
#[test]
fn mobile_completeness_at_one_to_three_days_is_the_share_arrived_by_the_close() {
    use chrono::Duration;
    use partition_lab::engine::calendar::at;
    use partition_lab::engine::lateness::{percent, Lateness};
    use partition_lab::labs::lateness::model::{study, Profile, PER_DAY};
    // The lab's month for the mobile profile (labs::lateness::model::study).
    let events = orders(&OrderSpec {
        seed: 20_260_801 + Profile::Mobile as u64,
        first: d(8, 1),
        last: d(8, 31),
        per_day: PER_DAY,
        mix: CurrencyMix::GBP_ONLY,
        delays: DelayProfile::MobileOffline,
        min_minor: 99,
        max_minor: 4_999,
    });
    let total: i64 = events.iter().map(|e| e.amount.minor).sum();
    assert!(total > 0 && events.len() == 31 * PER_DAY as usize);
    let lab = study(Profile::Mobile);
    let mut counted = Vec::new();
    for l in 1..=3i64 {
        let complete: i64 = events
            .iter()
            .filter(|e| e.arrived_at <= at(e.event_date() + Duration::days(1 + l), 2, 0))
            .map(|e| e.amount.minor)
            .sum();
        // Basis points, rounded down, as integers.
        let bp = u32::try_from(complete * 10_000 / total).unwrap();
        let shown = percent(lab.figures(Lateness::Days(l as u32)).complete_value_bp);
        assert_eq!(shown, percent(bp), "L = {l}");
        counted.push(percent(bp));
    }
    // Not every event is in by three days, or the figures would say nothing.
    assert!(counted.iter().all(|c| c != "100.00 %"));
    assert_eq!(counted, PINNED_MOBILE_COMPLETENESS);
}

const PINNED_MOBILE_COMPLETENESS: [&str; 3] = ["98.14 %", "99.24 %", "99.61 %"];
