//! The simulation engine: pure Rust, no web crates.
//!
//! A pipeline configuration plus a script (events, rates, runs, faults) go
//! in; a trace of every run attempt, the final tables, checks and diffs
//! against the truth come out. Every view of the app renders these outcomes.

pub mod arrivals;
pub mod backfill_run;
pub mod bronze;
pub mod calendar;
pub mod checks;
pub mod clock;
pub mod config;
pub mod drift;
pub mod event;
pub mod generate;
pub mod lateness;
pub mod money;
pub mod rebuild;
pub mod report;
pub mod script;
pub mod simulate;
pub mod state;
pub mod stepwise;
pub mod table;
pub mod trace;
pub mod truth;
pub mod zone;

// The bundle's own tools, under the name the modules use.
use partition_lab_lean as lean;

pub use calendar::{Day, Instant};
pub use checks::{CheckKind, Checks};
pub use config::{
    AfterFinal, CommitOrder, Finaliser, ListDate, MergeKey, PartitionKey, PipelineConfig,
    ProcessingState, WatermarkColumn, WriteMode,
};
pub use event::{Event, Id};
pub use money::{Currency, FxRates, LogicVersion, Money};
pub use script::{Outage, RunKind, RunSpec, Script};
pub use simulate::{simulate, simulate_with, Detail};
pub use state::StateValue;
pub use stepwise::Stepwise;
pub use trace::{Outcome, RunTrace, Verdict};
