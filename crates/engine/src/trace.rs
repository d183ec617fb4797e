//! What a simulation reports: one trace per run attempt, and the outcome.

use crate::lean::sorted::SortedMap;

use super::calendar::{Day, Instant};
use super::checks::{CheckKind, Checks};
use super::event::{Event, Id};
use super::money::{LogicVersion, Money};
use super::script::RunKind;
use super::state::StateValue;
use super::table::{Gold, PartitionWrite, Table};
use super::truth::PartitionDiff;

/// The tables and checks as they stood right after one attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub silver: Table,
    pub checks: Checks,
    /// Every partition due so far (up to the latest day run) against the
    /// truth as it had arrived by then.
    pub diffs: Vec<PartitionDiff>,
}

/// One run attempt, as an operator's log would tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTrace {
    /// Position among all attempts, from 0.
    pub attempt: usize,
    pub day: Day,
    pub at: Instant,
    pub kind: RunKind,
    pub logic: LogicVersion,
    pub state_before: StateValue,
    pub state_after: StateValue,
    /// Bronze rows scanned (before de-duplicating versions of one key).
    pub rows_read: usize,
    /// Their row ids, when the simulation keeps detail.
    pub read_ids: Vec<Id>,
    /// The bronze partitions read: a list's targets, or the distinct event
    /// dates of the rows a watermark or full refresh read.
    pub partitions_read: Vec<Day>,
    pub wrote: bool,
    pub state_saved: bool,
    pub crashed: bool,
    pub writes: Vec<PartitionWrite>,
    /// Rows kept out of final partitions.
    pub blocked: Vec<Id>,
    /// Final partitions this attempt changed anyway (reopen, full refresh).
    pub final_written: Vec<Day>,
    /// Partitions that became final at the end of this attempt.
    pub finalised: Vec<Day>,
    /// Late rows booked to the adjustments table by this attempt.
    pub booked: Vec<Id>,
    /// Late rows dropped by this attempt.
    pub dropped: Vec<Id>,
    pub snapshot: Option<Snapshot>,
}

impl RunTrace {
    pub fn succeeded(&self) -> bool {
        !self.crashed
    }

    /// Rows this attempt deleted from partitions, across all of them.
    pub fn rows_deleted(&self) -> usize {
        self.writes.iter().map(|w| w.removed.len()).sum()
    }
}

/// A late row booked to the next period instead of its final partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjustment {
    pub id: Id,
    pub key: Id,
    /// The partition it belonged to.
    pub dt: Day,
    pub arrived_at: Instant,
    pub booked_at: Instant,
    pub gbp: Option<Money>,
}

/// How the final table compares with the truth, in one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Correct,
    /// Wrong, and at least one usual check says so.
    Loud {
        failing: Vec<CheckKind>,
    },
    /// Wrong, and every usual check passes.
    Silent,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub runs: Vec<RunTrace>,
    pub silver: Table,
    pub gold: Gold,
    pub adjustments: Vec<Adjustment>,
    pub dropped: Vec<Id>,
    /// When each final partition became final.
    pub finalised: SortedMap<Day, Instant>,
    /// Checks after the last attempt (none unless `Detail::compared`).
    pub checks: Checks,
    /// Every partition against the truth as of the last attempt (none
    /// unless `Detail::compared`).
    pub diffs: Vec<PartitionDiff>,
    /// Whether `checks` and `diffs` were computed (`Detail::compared`):
    /// without them, their empty lists would read as a clean table.
    pub compared: bool,
}

impl Outcome {
    /// Read off the checks and diffs: only for an outcome that compared.
    pub fn verdict(&self) -> Verdict {
        debug_assert!(
            self.compared,
            "a verdict of a simulation that skipped the comparison"
        );
        if self.diffs.iter().all(PartitionDiff::is_clean) {
            return Verdict::Correct;
        }
        let failing = self.checks.failing_usual();
        if failing.is_empty() {
            Verdict::Silent
        } else {
            Verdict::Loud { failing }
        }
    }

    pub fn rows_read_total(&self) -> usize {
        self.runs.iter().map(|r| r.rows_read).sum()
    }

    /// Keys that belong in the table and are nowhere in it (from the
    /// diffs: only for an outcome that compared).
    pub fn lost(&self) -> Vec<Id> {
        debug_assert!(
            self.compared,
            "lost rows of a simulation that skipped the comparison"
        );
        self.diffs
            .iter()
            .flat_map(|d| d.lost.iter().cloned())
            .collect()
    }

    /// One entry per extra copy of a key (from the diffs: only for an
    /// outcome that compared).
    pub fn duplicates(&self) -> Vec<Id> {
        debug_assert!(
            self.compared,
            "duplicates of a simulation that skipped the comparison"
        );
        self.diffs
            .iter()
            .flat_map(|d| d.duplicates.iter().cloned())
            .collect()
    }

    /// Whether `e` reached bronze after its partition became final.
    pub fn arrived_after_final(&self, e: &Event) -> bool {
        self.finalised
            .get(&e.event_date())
            .is_some_and(|f| e.arrived_at > *f)
    }

    /// The last attempt that removed `id` from a partition, if any did.
    pub fn deleted_by(&self, id: &str) -> Option<&RunTrace> {
        self.runs.iter().rev().find(|run| {
            run.writes
                .iter()
                .any(|w| w.removed.iter().any(|r| &**r == id))
        })
    }
}
