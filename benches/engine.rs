//! Engine throughput: a two-year, 730-partition workload under every
//! state x write combination. Prints figures; asserts nothing about speed.
//!
//! Run with `cargo bench --bench engine` (or `scripts/bench`, which adds the
//! wasm bundle size).

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::vocabulary::Choice;
use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::NaiveDate;

use partition_lab::engine::generate::{workload, DelayProfile};
use partition_lab::engine::{simulate_with, Detail, PipelineConfig, ProcessingState, WriteMode};

const PARTITIONS: u32 = 730;
const PER_DAY: u32 = 48;
const REPEATS: usize = 3;

fn main() {
    let first = NaiveDate::from_ymd_opt(2024, 6, 1).unwrap_or_default();
    let script = workload(
        2026,
        first,
        PARTITIONS,
        PER_DAY,
        DelayProfile::MobileOffline,
    );
    let events = script.events.len();
    println!("engine throughput: {PARTITIONS} partitions, {events} events, {} runs (+ retries), best of {REPEATS}", script.runs.len());
    println!(
        "{:<34} {:>12} {:>14} {:>14}",
        "pipeline", "time", "events/s", "rows read"
    );
    let combos = [
        (
            "watermark + append",
            PipelineConfig::new(ProcessingState::watermark(), WriteMode::Append),
        ),
        (
            "watermark + overwrite partition",
            PipelineConfig::new(ProcessingState::watermark(), WriteMode::OverwritePartition),
        ),
        (
            "partition list(1) + append",
            PipelineConfig::new(ProcessingState::partition_list(1), WriteMode::Append),
        ),
        (
            "partition list(1) + overwrite",
            PipelineConfig::new(
                ProcessingState::partition_list(1),
                WriteMode::OverwritePartition,
            ),
        ),
        (
            "full refresh (replace table)",
            PipelineConfig::full_refresh(),
        ),
    ];
    for (name, config) in combos {
        let mut best = Duration::MAX;
        let mut rows_read = 0;
        for _ in 0..REPEATS {
            let started = Instant::now();
            let outcome = black_box(simulate_with(&config, &script, Detail::TABLES));
            best = best.min(started.elapsed());
            rows_read = outcome.rows_read_total();
        }
        let per_second = events as f64 / best.as_secs_f64();
        println!(
            "{name:<34} {:>9.1} ms {per_second:>14.0} {rows_read:>14}",
            best.as_secs_f64() * 1e3
        );
    }
    lateness();
}

/// The lateness lab: a profile's month drawn and studied (what the page
/// once did before its first screen), read back baked (what it does now),
/// then one slider step.
fn lateness() {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::labs::lateness::model::study_of_draws;
    use partition_lab::labs::lateness::{study, Profile, MAX_DAYS};

    println!();
    println!(
        "lateness lab: a month of {} purchases a day per profile",
        partition_lab::labs::lateness::model::PER_DAY
    );
    println!(
        "{:<28} {:>16} {:>16} {:>22}",
        "profile", "draw and study", "read baked", "one slider step (mean)"
    );
    for profile in Profile::ALL.iter().copied() {
        let started = Instant::now();
        black_box(study_of_draws(profile));
        let drawn = started.elapsed();
        let started = Instant::now();
        let study = black_box(study(profile));
        let read = started.elapsed();
        let steps = 10_000u32;
        let started = Instant::now();
        for i in 0..steps {
            let lateness = match i % (MAX_DAYS + 2) {
                n if n > MAX_DAYS => Lateness::Never,
                n => Lateness::Days(n),
            };
            black_box(study.figures(lateness));
        }
        let per_step = started.elapsed() / steps;
        println!(
            "{:<28} {:>13.1} ms {:>13.3} ms {:>19.2} µs",
            profile.label(),
            drawn.as_secs_f64() * 1e3,
            read.as_secs_f64() * 1e3,
            per_step.as_secs_f64() * 1e6
        );
    }
    grading();
}

/// Grading each scenario with its benchmark design, and one shrink each
/// for a classic mistake.
fn grading() {
    use partition_lab::design::graph::WriteChoice;
    use partition_lab::engine::MergeKey;
    use partition_lab::scenarios::grading::grade::grade;
    use partition_lab::scenarios::grading::shrink::shrink;
    use partition_lab::scenarios::sample::{failing, sample};
    use partition_lab::scenarios::SCENARIOS;

    println!();
    println!("grading (native, best of {REPEATS}): one design per scenario, full script");
    let merge = WriteChoice::Merge {
        key: Some(MergeKey::Key),
    };
    for info in SCENARIOS {
        let graph = sample(info, merge);
        let best = (0..REPEATS)
            .map(|_| {
                let started = Instant::now();
                black_box(grade(info, &graph));
                started.elapsed()
            })
            .min()
            .unwrap_or(Duration::ZERO);
        println!(
            "  scenario {}: {:>8.1} ms",
            info.number,
            best.as_secs_f64() * 1e3
        );
    }
    for scenario in SCENARIOS {
        let number = scenario.number;
        let Some((graph, rule, what)) = failing(scenario) else {
            continue;
        };
        let started = Instant::now();
        let shrunk = shrink(scenario, &graph, scenario.script(), rule, 400);
        println!(
            "  shrinking scenario {number} {rule} ({what}): {:.1} ms, {} simulations, {} event(s) and {} fault(s) left",
            started.elapsed().as_secs_f64() * 1e3,
            shrunk.as_ref().map_or(0, |x| x.simulations),
            shrunk.as_ref().map_or(0, |x| x.script.events.len()),
            shrunk.as_ref().map_or(0, |x| x.faults()),
        );
    }
}
