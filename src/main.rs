//! The home part of the site (see `partition_lab::bundles`): the overview,
//! the lesson plan and any address no other part serves.

fn main() {
    partition_lab::ui::start(partition_lab::ui::HomeApp);
}

/// Hooks for `tests/e2e/bench.mjs`: the engine's throughput measured inside
/// the browser's wasm, timed by the page with `performance.now()` (wasm has
/// no clock of its own here). Only `scripts/bench`'s build has them (feature
/// `bench`): the app itself never calls them, and they cost it bytes.
#[cfg(feature = "bench")]
mod bench_hooks {
    use std::cell::RefCell;

    use partition_lab::engine::generate::{workload, DelayProfile};
    use partition_lab::engine::{
        simulate_with, Detail, PipelineConfig, ProcessingState, Script, WriteMode,
    };
    use wasm_bindgen::prelude::wasm_bindgen;

    thread_local! {
        static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
    }

    /// Generates the benchmark workload; returns its number of events.
    #[wasm_bindgen]
    pub fn bench_prepare(partitions: u32, per_day: u32) -> u32 {
        let first = const { partition_lab::engine::calendar::date(2024, 6, 1) };
        let script = workload(
            2026,
            first,
            partitions.min(1_000),
            per_day.min(200),
            DelayProfile::MobileOffline,
        );
        let events = script.events.len() as u32;
        SCRIPT.with(|s| *s.borrow_mut() = Some(script));
        events
    }

    /// Simulates the prepared workload with pipeline `combo` (0..5, as in
    /// `benches/engine.rs`); returns the rows read, or 0 without a workload.
    #[wasm_bindgen]
    pub fn bench_simulate(combo: u32) -> u32 {
        let config = match combo {
            0 => PipelineConfig::new(ProcessingState::watermark(), WriteMode::Append),
            1 => PipelineConfig::new(ProcessingState::watermark(), WriteMode::OverwritePartition),
            2 => PipelineConfig::new(ProcessingState::partition_list(1), WriteMode::Append),
            3 => PipelineConfig::new(
                ProcessingState::partition_list(1),
                WriteMode::OverwritePartition,
            ),
            _ => PipelineConfig::full_refresh(),
        };
        SCRIPT.with(|s| {
            s.borrow().as_ref().map_or(0, |script| {
                simulate_with(&config, script, Detail::TABLES).rows_read_total() as u32
            })
        })
    }

    /// Grades a sample design (list(2) over change dates + merge on the
    /// key + finaliser(2, adjustments)) for scenario `number`; returns how
    /// many rules passed, or -1 when the design was refused unrun (so the
    /// benchmark never times a refusal as if it were a grading).
    #[wasm_bindgen]
    pub fn bench_grade(number: u8) -> i32 {
        use partition_lab::design::graph::WriteChoice;
        use partition_lab::engine::MergeKey;
        use partition_lab::scenarios::grading::grade::grade;
        use partition_lab::scenarios::grading::report::Report;
        use partition_lab::scenarios::sample::sample;

        let Some(scenario) = partition_lab::scenarios::numbered(number) else {
            return -1;
        };
        let graph = sample(
            scenario,
            WriteChoice::Merge {
                key: Some(MergeKey::Key),
            },
        );
        match grade(scenario, &graph) {
            Report::Graded(rules) => {
                i32::try_from(rules.iter().filter(|r| r.passed).count()).unwrap_or(i32::MAX)
            }
            Report::Structural(_) => -1,
        }
    }

    /// Shrinks scenario `number`'s failing benchmark design on its rule
    /// (budget 400); returns the simulations spent, 0 when there is none.
    #[wasm_bindgen]
    pub fn bench_shrink(number: u8) -> u32 {
        use partition_lab::scenarios::grading::shrink::shrink;
        use partition_lab::scenarios::sample::failing;

        let Some(scenario) = partition_lab::scenarios::numbered(number) else {
            return 0;
        };
        let Some((graph, rule, _)) = failing(scenario) else {
            return 0;
        };
        shrink(scenario, &graph, scenario.script(), rule, 400).map_or(0, |x| x.simulations as u32)
    }
}
