//! The designs the lab knows for each scenario: SPEC 7's passing designs
//! and its classic mistakes, each built edit by edit as the canvas builds
//! it, with the rules it fails (none for a passing one). Data that the
//! scenario tests, the tutor's diagnosis tests and its debrief's other
//! designs share: a new known design is one line here.

use chrono::NaiveDate;

use crate::design::graph::{BackfillShape, Layer, Markers, Restate, StateChoice, WriteChoice};
use crate::design::{Edit, Graph, History, NodeConfig, NodeId};
use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};

use super::sample::{catching_up, daily};
use super::Scenario;
use crate::variant::Variant;

/// A design the lab knows, and what grading it must say.
#[derive(Clone, Debug)]
pub struct Known {
    /// In the student's words: "watermark + merge on click id".
    pub name: &'static str,
    pub graph: Graph,
    /// The rules it fails, in order; empty for a design that passes.
    pub fails: &'static [&'static str],
}

impl Known {
    pub fn passes(&self) -> bool {
        self.fails.is_empty()
    }
}

const AFTER: CommitOrder = CommitOrder::StateAfterWrite;
const BEFORE: CommitOrder = CommitOrder::StateBeforeWrite;
const MERGE: WriteChoice = WriteChoice::Merge {
    key: Some(MergeKey::Key),
};
const OVERWRITE: WriteChoice = WriteChoice::OverwritePartition;
const APPEND: WriteChoice = WriteChoice::Append;

fn list(lookback: u32) -> StateChoice {
    StateChoice::PartitionList {
        lookback,
        over: ListDate::EventDate,
    }
}

fn by_change(lookback: u32) -> StateChoice {
    StateChoice::PartitionList {
        lookback,
        over: ListDate::ChangeDate,
    }
}

fn watermark(column: WatermarkColumn, overlap_minutes: u32) -> StateChoice {
    StateChoice::Watermark {
        column,
        overlap_minutes,
    }
}

fn window(days: u32) -> StateChoice {
    StateChoice::TrailingWindow { days }
}

fn on_arrival() -> StateChoice {
    watermark(WatermarkColumn::ArrivedAt, 0)
}

/// A known design and the rules it fails.
fn known(name: &'static str, graph: Graph, fails: &'static [&'static str]) -> Known {
    Known { name, graph, fails }
}

/// A backfill as the canvas builds it: its range and choices.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub at_once: u32,
    pub shape: BackfillShape,
    pub markers: Markers,
    pub yields: bool,
    pub mode: WriteChoice,
    pub logic: LogicVersion,
    pub reads: Layer,
    pub restate: Option<Restate>,
}

impl Plan {
    /// `first` to `last`, `at_once` dates at a time, per date with markers
    /// after each, overwriting from bronze with the fixed logic, the report
    /// restated after all gold.
    pub fn new(first: NaiveDate, last: NaiveDate, at_once: u32) -> Self {
        Plan {
            first,
            last,
            at_once,
            shape: BackfillShape::PerDate,
            markers: Markers::AfterPartition,
            yields: false,
            mode: OVERWRITE,
            logic: LogicVersion::Fixed,
            reads: Layer::Bronze,
            restate: Some(Restate::AfterAllGold),
        }
    }
}

/// source -> backfill -> transform -> write [-> report], edit by edit.
pub fn backfill(scenario: &Scenario, plan: Plan) -> Graph {
    let mut h = History::new(Graph::with_source(scenario.source));
    let add = |h: &mut History, config: NodeConfig| {
        let _ = h.edit(&Edit::Add { config, x: 0, y: 0 });
        NodeId(h.current.next_id.saturating_sub(1))
    };
    let b = add(
        &mut h,
        NodeConfig::Backfill {
            first: plan.first,
            last: plan.last,
            max_concurrency: plan.at_once,
            shape: plan.shape,
            markers: plan.markers,
            yield_to_scheduled: plan.yields,
        },
    );
    let t = add(
        &mut h,
        NodeConfig::Transform {
            logic: plan.logic,
            reads: plan.reads,
            partition_key: PartitionKey::EventDate,
        },
    );
    let w = add(
        &mut h,
        NodeConfig::Write {
            table: scenario.palette.table.to_string(),
            mode: plan.mode,
        },
    );
    let mut edges = vec![(NodeId(0), b), (b, t), (t, w)];
    if let Some(restate) = plan.restate {
        let r = add(&mut h, NodeConfig::Report { restate });
        edges.push((w, r));
    }
    for (from, to) in edges {
        let _ = h.edit(&Edit::Connect { from, to });
    }
    h.current
}

/// Every design the lab knows for `scenario`, the passing ones first.
pub fn designs(scenario: &Scenario) -> Vec<Known> {
    match scenario.number {
        1 => clicks(scenario),
        2 => orders(scenario),
        3 => mobile(scenario),
        4 => currency(scenario),
        5 => history(scenario),
        6 => outage(scenario),
        _ => Vec::new(),
    }
}

/// The designs the lab knows for `scenario` in `variant`'s numbers: the
/// chapter's, each made for the variant (`Scenario::design_in`).
pub fn designs_in(scenario: &Scenario, variant: Variant) -> Vec<Known> {
    designs(scenario)
        .into_iter()
        .map(|k| Known {
            graph: scenario.design_in(&k.graph, variant),
            ..k
        })
        .collect()
}

/// The passing designs the lab knows for `scenario` in `variant`.
pub fn passing_in(scenario: &Scenario, variant: Variant) -> Vec<Known> {
    designs_in(scenario, variant)
        .into_iter()
        .filter(Known::passes)
        .collect()
}

/// The passing designs the lab knows for `scenario`.
pub fn passing(scenario: &Scenario) -> Vec<Known> {
    designs(scenario)
        .into_iter()
        .filter(Known::passes)
        .collect()
}

fn clicks(s: &Scenario) -> Vec<Known> {
    let d = |state, commit, mode| daily(s, state, commit, mode, None);
    vec![
        known(
            "a partition list with a day of lookback, overwriting each partition",
            d(list(1), AFTER, OVERWRITE),
            &[],
        ),
        known(
            "a watermark on arrival, merging on the click id",
            d(on_arrival(), AFTER, MERGE),
            &[],
        ),
        known(
            "a partition list with a day of lookback, merging on the click id",
            d(list(1), AFTER, MERGE),
            &[],
        ),
        known(
            "a watermark, overwriting each partition",
            d(on_arrival(), AFTER, OVERWRITE),
            &["R1", "R2"],
        ),
        known(
            "a partition list, appending",
            d(list(1), AFTER, APPEND),
            &["R2"],
        ),
        known(
            "a partition list with no lookback",
            d(list(0), AFTER, OVERWRITE),
            &["R1"],
        ),
        known(
            "a watermark saved before the write",
            d(on_arrival(), BEFORE, MERGE),
            &["R1"],
        ),
        known(
            "a full refresh",
            d(StateChoice::None, AFTER, WriteChoice::ReplaceTable),
            &["R3"],
        ),
        known(
            "a partition list with 3 days of lookback",
            d(list(3), AFTER, OVERWRITE),
            &["R3"],
        ),
    ]
}

fn orders(s: &Scenario) -> Vec<Known> {
    let d = |state, commit, mode| daily(s, state, commit, mode, None);
    let updated = |overlap| watermark(WatermarkColumn::UpdatedAt, overlap);
    let on_row = WriteChoice::Merge {
        key: Some(MergeKey::RowId),
    };
    vec![
        known(
            "a watermark on arrival, merging on the order id",
            d(on_arrival(), AFTER, MERGE),
            &[],
        ),
        known(
            "a partition list over change dates with a day of lookback, merging on the order id",
            d(by_change(1), AFTER, MERGE),
            &[],
        ),
        known(
            "a watermark on updated_at with a 3-hour overlap, merging on the order id",
            d(updated(180), AFTER, MERGE),
            &[],
        ),
        known(
            "a watermark on updated_at with no overlap",
            d(updated(0), AFTER, MERGE),
            &["R1"],
        ),
        known(
            "a merge on the change id",
            d(on_arrival(), AFTER, on_row),
            &["R2"],
        ),
        known(
            "a watermark, appending",
            d(on_arrival(), AFTER, APPEND),
            &["R2"],
        ),
        known(
            "a watermark, overwriting each partition",
            d(on_arrival(), AFTER, OVERWRITE),
            &["R1"],
        ),
        known(
            "a watermark saved before the write",
            d(on_arrival(), BEFORE, MERGE),
            &["R1", "R4"],
        ),
        known(
            "a full refresh",
            d(StateChoice::None, AFTER, WriteChoice::ReplaceTable),
            &["R3"],
        ),
        known(
            "a partition list over change dates with 35 days of lookback",
            d(by_change(35), AFTER, MERGE),
            &["R3"],
        ),
    ]
}

fn mobile(s: &Scenario) -> Vec<Known> {
    use AfterFinal::{Adjustments, Drop, Reopen};
    let d = |state, mode, finaliser| daily(s, state, AFTER, mode, finaliser);
    let l2 = Some((2, Adjustments));
    vec![
        known(
            "a partition list of 2 days, overwriting, final after 2 days",
            d(list(2), OVERWRITE, l2),
            &[],
        ),
        known(
            "a watermark on arrival, merging, final after 2 days",
            d(on_arrival(), MERGE, l2),
            &[],
        ),
        known(
            "a partition list of 4 days, merging, final after 2 days",
            d(list(4), MERGE, l2),
            &[],
        ),
        known(
            "final after 1 day",
            d(list(2), OVERWRITE, Some((1, Adjustments))),
            &["R1"],
        ),
        known(
            "final after 3 days",
            d(list(3), OVERWRITE, Some((3, Adjustments))),
            &["R2"],
        ),
        known("no finaliser", d(list(2), OVERWRITE, None), &["R2"]),
        known(
            "a finaliser that drops late purchases",
            d(list(2), OVERWRITE, Some((2, Drop))),
            &["R3"],
        ),
        known(
            "a lookback of 1 day under 2 days of lateness",
            d(list(1), OVERWRITE, l2),
            &["R1"],
        ),
        known(
            "late purchases reopening final partitions (a list)",
            d(list(2), OVERWRITE, Some((2, Reopen))),
            &["R3"],
        ),
        known(
            "late purchases reopening final partitions (a watermark)",
            d(on_arrival(), MERGE, Some((2, Reopen))),
            &["R3", "R4"],
        ),
        known(
            "a full refresh",
            d(StateChoice::None, WriteChoice::ReplaceTable, l2),
            &["R3", "R4"],
        ),
        known(
            "a watermark, overwriting each partition",
            d(on_arrival(), OVERWRITE, l2),
            &["R1"],
        ),
        known(
            "a watermark, appending",
            d(on_arrival(), APPEND, l2),
            &["R1"],
        ),
    ]
}

fn currency(s: &Scenario) -> Vec<Known> {
    use crate::scenarios::stories::currency::aug;
    let plan = |at_once| Plan::new(aug(3), aug(13), at_once);
    let b = |plan| backfill(s, plan);
    vec![
        known(
            "the drift query's days, 3 at a time, overwriting from bronze",
            b(plan(3)),
            &[],
        ),
        known(
            "two phases, 2 at a time, merging",
            b(Plan {
                shape: BackfillShape::TwoPhases,
                mode: MERGE,
                ..plan(2)
            }),
            &[],
        ),
        known("a plain loop, 1 at a time", b(plan(1)), &[]),
        known(
            "4 at a time, yielding a slot to tonight's run",
            b(Plan {
                yields: true,
                ..plan(4)
            }),
            &[],
        ),
        known(
            "a backfill from the 8th",
            b(Plan::new(aug(8), aug(13), 3)),
            &["R1"],
        ),
        known(
            "a backfill from the 1st",
            b(Plan::new(aug(1), aug(13), 3)),
            &["R2"],
        ),
        known(
            "a backfill to the 14th",
            b(Plan::new(aug(3), aug(14), 3)),
            &["R2"],
        ),
        known(
            "a rebuild that reads silver",
            b(Plan {
                reads: Layer::Silver,
                ..plan(3)
            }),
            &["R1", "R3"],
        ),
        known(
            "gold started with its silver",
            b(Plan {
                shape: BackfillShape::Together,
                ..plan(3)
            }),
            &["R1", "R4"],
        ),
        known(
            "the report restated first",
            b(Plan {
                restate: Some(Restate::AtOnce),
                ..plan(3)
            }),
            &["R4"],
        ),
        known("4 at a time", b(plan(4)), &["R5"]),
        known("12 at a time", b(plan(12)), &["R5"]),
        known(
            "the old logic",
            b(Plan {
                logic: LogicVersion::Broken,
                ..plan(3)
            }),
            &["R1", "R6"],
        ),
        known(
            "an appending backfill",
            b(Plan {
                mode: APPEND,
                ..plan(3)
            }),
            &["R1"],
        ),
    ]
}

fn history(s: &Scenario) -> Vec<Known> {
    use crate::scenarios::stories::history::{first, last};
    let plan = |at_once| Plan {
        restate: None,
        ..Plan::new(first(), last(), at_once)
    };
    let b = |plan| backfill(s, plan);
    vec![
        known("3 at a time with completion markers", b(plan(3)), &[]),
        known(
            "4 at a time, yielding a slot to the nightly run",
            b(Plan {
                yields: true,
                ..plan(4)
            }),
            &[],
        ),
        known(
            "two phases, 3 at a time, with markers",
            b(Plan {
                shape: BackfillShape::TwoPhases,
                ..plan(3)
            }),
            &[],
        ),
        known(
            "no completion markers",
            b(Plan {
                markers: Markers::Off,
                ..plan(3)
            }),
            &["R2"],
        ),
        known("4 at a time without yielding", b(plan(4)), &["R3"]),
        known("12 at a time without yielding", b(plan(12)), &["R3"]),
        known("2 at a time", b(plan(2)), &["R4"]),
        known(
            "an appending backfill with markers",
            b(Plan {
                mode: APPEND,
                ..plan(3)
            }),
            &["R1"],
        ),
        known(
            "a marker written before its partition",
            b(Plan {
                markers: Markers::BeforePartition,
                ..plan(3)
            }),
            &["R1"],
        ),
    ]
}

fn outage(s: &Scenario) -> Vec<Known> {
    let d = |state, mode| daily(s, state, AFTER, mode, None);
    vec![
        known(
            "a partition list of 5 days, not catching up",
            d(list(5), OVERWRITE),
            &[],
        ),
        known(
            "a partition list of 1 day, catching up",
            catching_up(d(list(1), OVERWRITE)),
            &[],
        ),
        known(
            "a watermark on arrival, merging",
            d(on_arrival(), MERGE),
            &[],
        ),
        known(
            "a window of 1 day, catching up",
            catching_up(d(window(1), OVERWRITE)),
            &[],
        ),
        known(
            "a window of 1 day, not catching up",
            d(window(1), OVERWRITE),
            &["R1"],
        ),
        known(
            "a window of 3 days, not catching up",
            d(window(3), OVERWRITE),
            &["R1"],
        ),
        known(
            "a partition list, appending, catching up",
            catching_up(d(list(1), APPEND)),
            &["R2"],
        ),
        known(
            "a full refresh",
            d(StateChoice::None, WriteChoice::ReplaceTable),
            &["R3"],
        ),
        known(
            "a window of the run's day alone, catching up",
            catching_up(d(window(0), OVERWRITE)),
            &["R1"],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::grading::grade::grade;
    use crate::scenarios::grading::report::Report;
    use crate::scenarios::SCENARIOS;

    /// What the catalogue says of each design is what grading says: a
    /// passing design passes, a mistake fails exactly its rules.
    #[test]
    fn each_known_design_is_graded_as_the_catalogue_says() {
        for s in SCENARIOS {
            let known = designs(s);
            assert!(passing(s).len() >= 2, "{s:?}: two passing designs at least");
            assert!(
                known.iter().any(|k| !k.passes()),
                "{s:?}: a mistake at least"
            );
            for k in known {
                let report = grade(s, &k.graph);
                assert!(
                    matches!(report, Report::Graded(_)),
                    "{s:?} {}: {report:?}",
                    k.name
                );
                assert_eq!(report.failed(), k.fails, "{s:?} {}", k.name);
            }
        }
    }
}
