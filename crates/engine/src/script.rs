//! A script: the events, the rates and the schedule a simulation replays.

use super::calendar::{Day, Instant};
use super::event::Event;
use super::money::{FxRates, LogicVersion};

/// Why a run happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// The scheduler's daily run.
    Scheduled,
    /// The scheduler retrying a run that crashed.
    Retry,
    /// An operator re-running a past day by hand.
    Manual,
    /// A scheduled run the scheduler missed while it was down, run when it
    /// came back (Airflow's `catchup`, Dagster's and SQLMesh's missing
    /// intervals).
    CatchUp,
}

impl RunKind {
    pub fn label(self) -> &'static str {
        match self {
            RunKind::Scheduled => "scheduled",
            RunKind::Retry => "retry",
            RunKind::Manual => "manual re-run",
            RunKind::CatchUp => "catch-up",
        }
    }
}

/// A run the script asks for: at instant `at`, for logical day `day`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    pub at: Instant,
    pub day: Day,
    pub kind: RunKind,
    /// Crash between the write and the state save, retried at this instant.
    pub crash_then_retry_at: Option<Instant>,
}

impl RunSpec {
    pub fn scheduled(at: Instant, day: Day) -> Self {
        Self {
            at,
            day,
            kind: RunKind::Scheduled,
            crash_then_retry_at: None,
        }
    }

    pub fn manual(at: Instant, day: Day) -> Self {
        Self {
            at,
            day,
            kind: RunKind::Manual,
            crash_then_retry_at: None,
        }
    }

    pub fn crashing(mut self, retry_at: Instant) -> Self {
        self.crash_then_retry_at = Some(retry_at);
        self
    }
}

/// A new version of the transform goes live at `at` (the currency bug ships,
/// the fix is deployed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deploy {
    pub at: Instant,
    pub logic: LogicVersion,
}

/// A backfill killed at `at` (a source failover) and launched again at
/// `rerun_at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interruption {
    pub at: Instant,
    pub rerun_at: Instant,
}

/// The scheduler is down from `from` until `until`: no run starts in
/// between. When it returns, a pipeline that catches up
/// (`PipelineConfig::catch_up`) first runs each missed scheduled run in
/// order; one that does not goes on with the next scheduled run, and the
/// missed ones never happen. A retry that fell due while it was down runs
/// when it returns, either way: the scheduler still owes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    pub from: Instant,
    pub until: Instant,
}

impl Outage {
    pub fn covers(&self, at: Instant) -> bool {
        self.from <= at && at < self.until
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The first partition the pipeline owns.
    pub start: Day,
    pub events: Vec<Event>,
    pub fx: FxRates,
    /// Runs in any order; the simulation orders them by instant.
    pub runs: Vec<RunSpec>,
    pub deploys: Vec<Deploy>,
    /// Faults of a backfill launched beside the runs.
    pub interruptions: Vec<Interruption>,
    /// Times the scheduler was down.
    pub outages: Vec<Outage>,
}

impl Script {
    pub fn new(start: Day, events: Vec<Event>, runs: Vec<RunSpec>) -> Self {
        Self {
            start,
            events,
            fx: FxRates::default(),
            runs,
            deploys: Vec::new(),
            interruptions: Vec::new(),
            outages: Vec::new(),
        }
    }

    /// The outage `at` falls in, if any.
    pub fn outage_at(&self, at: Instant) -> Option<&Outage> {
        self.outages.iter().find(|o| o.covers(at))
    }

    /// The logic live at `at`: the last deploy at or before it, else `initial`.
    pub fn logic_at(&self, at: Instant, initial: LogicVersion) -> LogicVersion {
        self.deploys
            .iter()
            .filter(|d| d.at <= at)
            .max_by_key(|d| d.at)
            .map_or(initial, |d| d.logic)
    }
}
