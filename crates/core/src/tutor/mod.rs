//! The tutor: what a check's verdict teaches. For a failed rule, the cause
//! in the student's own design (a catalogue of named causes, each a
//! detector over the design and the run the grader judged, which names its
//! cause only when the design has the choice and the run shows the
//! mechanism for a row, a partition or a run the rule failed on); after a
//! pass, the debrief. The grader never asks the tutor: it judges, the tutor
//! explains what was judged.

pub mod backfill;
pub mod daily;
pub mod debrief;
pub mod held;

use crate::design::inspector::form::said;
use crate::design::{Graph, Node, NodeId, NodeKind};
use crate::engine::script::Script;
use crate::scenarios::grading::grade::Judged;
use crate::scenarios::grading::report::{Report, RuleResult};
use crate::scenarios::Scenario;

/// A choice a design can make, and how it breaks a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// A watermark on a column a row can be older in than its arrival.
    WatermarkPassedArrival,
    /// State saved before the write, and a run crashed between the two.
    StateSavedFirst,
    /// A whole partition overwritten with only the rows one run read.
    OverwriteWithPart,
    /// Append, and a run read rows a run before it had written.
    AppendReadAgain,
    /// Append over a source whose rows change: one row per change.
    AppendKeepsEveryChange,
    /// A merge on the change id: each change of an order a row of its own.
    MergeOnChangeId,
    /// A lookback (or window) that ends before late rows arrive.
    LookbackTooShort,
    /// A lookback (or window) shorter than the allowed lateness.
    LookbackUnderLateness,
    /// Nothing remembered: every run reads all of history.
    FullRefresh,
    /// A lookback wider than the rule lets a run read.
    LookbackTooLong,
    /// Partitions by the day the run ran, not the day the event happened.
    ProcessingDate,
    /// A trailing window with the scheduler not catching up.
    WindowWithoutCatchUp,
    /// Partitions final before enough of their value has arrived.
    FinalTooSoon,
    /// Partitions final only after the close.
    FinalTooLate,
    /// No finaliser: no partition ever becomes final.
    NeverFinal,
    /// A finaliser that drops late rows.
    FinaliserDrops,
    /// A finaliser that reopens final partitions.
    FinaliserReopens,
    /// A backfill that starts after the first day the drift query found.
    StartsAfterTheDrift,
    /// A backfill range over days the drift query did not find.
    RangeBeyondTheDrift,
    /// A rebuild that reads the silver the broken code wrote.
    RebuildReadsSilver,
    /// Gold started with its silver, not after it.
    GoldWithItsSilver,
    /// The report restated before the last gold.
    ReportFirst,
    /// Nothing restates the report.
    NoReport,
    /// The backfill holds every connection of the pool.
    TakesThePool,
    /// The backfill runs the broken logic.
    OldLogic,
    /// A backfill that appends beside the rows already there.
    BackfillAppends,
    /// No completion markers: a re-run redoes finished work.
    NoMarkers,
    /// Markers written before their work: a killed date counts as done.
    MarkersFirst,
    /// Too few dates at once to finish in time.
    TooFewAtOnce,
}

impl Cause {
    /// The choice and what it did, in a line: how the class page names a
    /// cause common to many designs (the tutor's own diagnosis names the
    /// student's node and row instead).
    pub fn summary(self) -> &'static str {
        use Cause::*;
        match self {
            WatermarkPassedArrival => {
                "a watermark on a column a row can be older in than its arrival"
            }
            StateSavedFirst => "state saved before the write, and a run crashed between the two",
            OverwriteWithPart => "a whole partition overwritten with only the rows one run read",
            AppendReadAgain => "append, with a run reading rows a run before it had written",
            AppendKeepsEveryChange => "append over a source whose rows change: a row per change",
            MergeOnChangeId => "a merge on the change id: each change of an order a row of its own",
            LookbackTooShort => "a lookback that ends before late rows arrive",
            LookbackUnderLateness => "a lookback shorter than the allowed lateness",
            FullRefresh => "nothing remembered: every run reads all of history",
            LookbackTooLong => "a lookback wider than a run may read",
            ProcessingDate => "partitions by the day the run ran, not the day the event happened",
            WindowWithoutCatchUp => "a trailing window with the scheduler not catching up",
            FinalTooSoon => "partitions final before enough of their value has arrived",
            FinalTooLate => "partitions final only after the close",
            NeverFinal => "no finaliser: no partition ever becomes final",
            FinaliserDrops => "a finaliser that drops late rows",
            FinaliserReopens => "a finaliser that reopens final partitions",
            StartsAfterTheDrift => {
                "a backfill that starts after the first day the drift query found"
            }
            RangeBeyondTheDrift => "a backfill range over days the drift query did not find",
            RebuildReadsSilver => "a rebuild that reads the silver the broken code wrote",
            GoldWithItsSilver => "gold rebuilt with its silver, not after it",
            ReportFirst => "the report restated before the last gold",
            NoReport => "nothing restates the report",
            TakesThePool => "a backfill that holds every connection of the pool",
            OldLogic => "a backfill that runs the broken logic",
            BackfillAppends => "a backfill that appends beside the rows already there",
            NoMarkers => "no completion markers: a re-run redoes finished work",
            MarkersFirst => "markers written before their work: a killed date counts as done",
            TooFewAtOnce => "too few dates at once to finish in time",
        }
    }

    /// The idea to revisit: a term of the glossary, which the design
    /// does not yet use as this scenario needs.
    pub fn revisit(self) -> &'static str {
        use Cause::*;
        match self {
            WatermarkPassedArrival => "event time vs processing time",
            StateSavedFirst => "commit order",
            OverwriteWithPart | AppendKeepsEveryChange => "merge",
            AppendReadAgain | BackfillAppends => "idempotent",
            MergeOnChangeId => "merge key",
            LookbackTooShort => "lookback",
            LookbackUnderLateness => "lateness window",
            FullRefresh | LookbackTooLong => "incremental processing",
            ProcessingDate => "partition key",
            WindowWithoutCatchUp => "catch-up",
            FinalTooSoon | FinalTooLate => "allowed lateness",
            NeverFinal => "finalisation",
            FinaliserDrops | FinaliserReopens => "adjustments table",
            StartsAfterTheDrift => "blast radius",
            RangeBeyondTheDrift => "backfill range",
            RebuildReadsSilver | OldLogic => "historical correctness",
            GoldWithItsSilver => "layer order",
            ReportFirst | NoReport => "restatement",
            TakesThePool => "source pool",
            NoMarkers | MarkersFirst => "completion marker",
            TooFewAtOnce => "backfill concurrency",
        }
    }
}

/// What a failed rule's cause was, in this design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    pub cause: Cause,
    /// The node whose choice it is, and its name: "processing state 2".
    pub node: NodeId,
    pub node_name: String,
    /// The choice, in the inspector's words: "Watermark column: updated_at".
    pub choice: String,
    /// How that choice broke the rule, with one row, run or date from the
    /// run the grader judged.
    pub mechanism: String,
}

impl Diagnosis {
    pub fn revisit(&self) -> &'static str {
        self.cause.revisit()
    }
}

/// What the detectors read: the design, its scenario and the run judged.
pub struct Case<'a> {
    pub scenario: &'a Scenario,
    pub graph: &'a Graph,
    pub script: &'a Script,
    pub judged: &'a Judged,
}

impl<'a> Case<'a> {
    /// The design's first node of `kind` (the one a compiled design runs:
    /// compile refuses two of a kind where it matters).
    pub fn node(&self, kind: NodeKind) -> Option<&'a Node> {
        self.graph.nodes.values().find(|n| n.kind() == kind)
    }

    /// A diagnosis pointing at the `kind` node's field `key`.
    pub fn at(
        &self,
        cause: Cause,
        kind: NodeKind,
        keys: &[&str],
        mechanism: String,
    ) -> Option<Diagnosis> {
        let node = self.node(kind)?;
        let choice: Vec<String> = keys
            .iter()
            .filter_map(|key| said(&node.config, key))
            .collect();
        Some(Diagnosis {
            cause,
            node: node.id,
            node_name: crate::design::inspector::describe::name(node),
            choice: if choice.is_empty() {
                kind.name().to_string()
            } else {
                choice.join(", ")
            },
            mechanism,
        })
    }
}

/// The cause of `failed` in this design, if a detector sees it.
pub fn diagnose(case: &Case, failed: &RuleResult) -> Option<Diagnosis> {
    if failed.passed {
        return None;
    }
    match case.judged {
        Judged::Daily(daily) => daily::diagnose(case, daily, failed),
        Judged::Backfill(done, setting) => backfill::diagnose(case, done, setting, failed),
    }
}

/// Each failed rule of `report` with its cause, if one is seen.
pub fn diagnoses(case: &Case, report: &Report) -> Vec<(&'static str, Option<Diagnosis>)> {
    match report {
        Report::Structural(_) => Vec::new(),
        Report::Graded(rules) => rules
            .iter()
            .filter(|r| !r.passed)
            .map(|r| (r.rule.id, diagnose(case, r)))
            .collect(),
    }
}

/// What the report says where no detector sees the cause: it does not
/// guess.
pub const CANNOT_TELL: &str =
    "The lab cannot tell which of your choices caused this: the evidence below is what happened.";

#[cfg(test)]
mod tests;
