//! Engine throughput: a two-year, 730-partition workload under every
//! state x write combination. Prints figures; asserts nothing about speed.
//!
//! Run with `cargo bench --bench engine` (or `scripts/bench`, which adds the
//! wasm bundle size).

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
            let outcome = black_box(simulate_with(&config, &script, Detail::Summary));
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

/// The lateness lab: preparing a profile's month once, then one slider step.
fn lateness() {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::labs::lateness::{study, Profile, MAX_DAYS};

    println!();
    println!(
        "lateness lab: a month of {} purchases a day per profile",
        partition_lab::labs::lateness::model::PER_DAY
    );
    println!(
        "{:<28} {:>16} {:>22}",
        "profile", "prepare (once)", "one slider step (mean)"
    );
    for profile in Profile::ALL {
        let started = Instant::now();
        let study = black_box(study(profile));
        let prepare = started.elapsed();
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
            "{:<28} {:>13.1} ms {:>19.2} µs",
            profile.name(),
            prepare.as_secs_f64() * 1e3,
            per_step.as_secs_f64() * 1e6
        );
    }
}
