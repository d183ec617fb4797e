//! The tutor against the engine's runs: every classic mistake of every
//! scenario is explained by the cause it should be, pointing at the node
//! whose choice it is; no hint names an idea the design already applies as
//! a passing design does; each detector fires only with its mechanism in
//! the run (take the mechanism out of the trace and the cause goes); and a
//! pass is debriefed from its own run and a passing design run beside it.

use super::*;
use crate::design::graph::{NodeConfig, StateChoice, WriteChoice};
use crate::engine::{AfterFinal, CommitOrder, MergeKey, PartitionKey, WatermarkColumn};
use crate::scenarios::catalogue::{designs, Known};
use crate::scenarios::grading::grade::at_once;
use crate::scenarios::{numbered, SCENARIOS};
use Cause::*;

/// A scenario's known design and the cause each of its failed rules gets.
type Expected = (u8, &'static str, &'static [(&'static str, Cause)]);

/// The cause each failed rule of each classic mistake must get.
const EXPECTED: &[Expected] = &[
    (
        1,
        "a watermark, overwriting each partition",
        &[("R1", OverwriteWithPart), ("R2", OverwriteWithPart)],
    ),
    (1, "a partition list, appending", &[("R2", AppendReadAgain)]),
    (
        1,
        "a partition list with no lookback",
        &[("R1", LookbackTooShort)],
    ),
    (
        1,
        "a watermark saved before the write",
        &[("R1", StateSavedFirst)],
    ),
    (1, "a full refresh", &[("R3", FullRefresh)]),
    (
        1,
        "a partition list with 3 days of lookback",
        &[("R3", LookbackTooLong)],
    ),
    (
        2,
        "a watermark on updated_at with no overlap",
        &[("R1", WatermarkPassedArrival)],
    ),
    (2, "a merge on the change id", &[("R2", MergeOnChangeId)]),
    (
        2,
        "a watermark, appending",
        &[("R2", AppendKeepsEveryChange)],
    ),
    (
        2,
        "a watermark, overwriting each partition",
        &[("R1", OverwriteWithPart)],
    ),
    (
        2,
        "a watermark saved before the write",
        &[("R1", StateSavedFirst), ("R4", StateSavedFirst)],
    ),
    (2, "a full refresh", &[("R3", FullRefresh)]),
    (
        2,
        "a partition list over change dates with 35 days of lookback",
        &[("R3", LookbackTooLong)],
    ),
    (3, "final after 1 day", &[("R1", FinalTooSoon)]),
    (3, "final after 3 days", &[("R2", FinalTooLate)]),
    (3, "no finaliser", &[("R2", NeverFinal)]),
    (
        3,
        "a finaliser that drops late purchases",
        &[("R3", FinaliserDrops)],
    ),
    (
        3,
        "a lookback of 1 day under 2 days of lateness",
        &[("R1", LookbackUnderLateness)],
    ),
    (
        3,
        "late purchases reopening final partitions (a list)",
        &[("R3", FinaliserReopens)],
    ),
    (
        3,
        "late purchases reopening final partitions (a watermark)",
        &[("R3", FinaliserReopens), ("R4", FinaliserReopens)],
    ),
    (
        3,
        "a full refresh",
        &[("R3", FullRefresh), ("R4", FullRefresh)],
    ),
    (
        3,
        "a watermark, overwriting each partition",
        &[("R1", OverwriteWithPart)],
    ),
    (3, "a watermark, appending", &[("R1", AppendReadAgain)]),
    (4, "a backfill from the 8th", &[("R1", StartsAfterTheDrift)]),
    (4, "a backfill from the 1st", &[("R2", RangeBeyondTheDrift)]),
    (4, "a backfill to the 14th", &[("R2", RangeBeyondTheDrift)]),
    (
        4,
        "a rebuild that reads silver",
        &[("R1", RebuildReadsSilver), ("R3", RebuildReadsSilver)],
    ),
    (
        4,
        "gold started with its silver",
        &[("R1", GoldWithItsSilver), ("R4", GoldWithItsSilver)],
    ),
    (4, "the report restated first", &[("R4", ReportFirst)]),
    (4, "4 at a time", &[("R5", TakesThePool)]),
    (4, "12 at a time", &[("R5", TakesThePool)]),
    (4, "the old logic", &[("R1", OldLogic), ("R6", OldLogic)]),
    (4, "an appending backfill", &[("R1", BackfillAppends)]),
    (5, "no completion markers", &[("R2", NoMarkers)]),
    (5, "4 at a time without yielding", &[("R3", TakesThePool)]),
    (5, "12 at a time without yielding", &[("R3", TakesThePool)]),
    (5, "2 at a time", &[("R4", TooFewAtOnce)]),
    (
        5,
        "an appending backfill with markers",
        &[("R1", BackfillAppends)],
    ),
    (
        5,
        "a marker written before its partition",
        &[("R1", MarkersFirst)],
    ),
    (
        6,
        "a window of 1 day, not catching up",
        &[("R1", WindowWithoutCatchUp)],
    ),
    (
        6,
        "a window of 3 days, not catching up",
        &[("R1", WindowWithoutCatchUp)],
    ),
    (
        6,
        "a partition list, appending, catching up",
        &[("R2", AppendReadAgain)],
    ),
    (6, "a full refresh", &[("R3", FullRefresh)]),
    (
        6,
        "a window of the run's day alone, catching up",
        &[("R1", LookbackTooShort)],
    ),
];

/// The node a cause's choice lives on.
fn node_kind(cause: Cause) -> NodeKind {
    match cause {
        StateSavedFirst
        | WatermarkPassedArrival
        | LookbackTooShort
        | LookbackUnderLateness
        | FullRefresh
        | LookbackTooLong
        | WindowWithoutCatchUp => NodeKind::State,
        OverwriteWithPart
        | AppendReadAgain
        | AppendKeepsEveryChange
        | MergeOnChangeId
        | BackfillAppends
        | NeverFinal
        | NoReport => NodeKind::Write,
        ProcessingDate | RebuildReadsSilver | OldLogic => NodeKind::Transform,
        FinalTooSoon | FinalTooLate | FinaliserDrops | FinaliserReopens => NodeKind::Finaliser,
        ReportFirst => NodeKind::Report,
        StartsAfterTheDrift | RangeBeyondTheDrift | GoldWithItsSilver | TakesThePool
        | NoMarkers | MarkersFirst | TooFewAtOnce => NodeKind::Backfill,
    }
}

fn known(scenario: &Scenario, name: &str) -> Known {
    designs(scenario)
        .into_iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("{scenario:?} knows “{name}”"))
}

/// The report, the run it judged and each failed rule's diagnosis.
fn diagnosed(
    scenario: &Scenario,
    graph: &Graph,
) -> (Report, Judged, Vec<(&'static str, Option<Diagnosis>)>) {
    let (report, judged) = at_once(scenario, graph, scenario.script());
    let judged = judged.expect("a design that ran");
    let case = Case {
        scenario,
        graph,
        script: scenario.script(),
        judged: &judged,
    };
    let found = diagnoses(&case, &report);
    (report, judged, found)
}

#[test]
fn every_classic_mistake_gets_the_cause_it_should_on_its_node() {
    for (number, name, want) in EXPECTED {
        let scenario = numbered(*number).expect("a scenario");
        let k = known(scenario, name);
        let (report, _, found) = diagnosed(scenario, &k.graph);
        assert_eq!(report.failed(), k.fails, "{number} {name}");
        for (rule, cause) in *want {
            let got = found
                .iter()
                .find(|(id, _)| id == rule)
                .and_then(|(_, d)| d.as_ref())
                .unwrap_or_else(|| panic!("{number} {name} {rule}: no cause in {found:#?}"));
            assert_eq!(got.cause, *cause, "{number} {name} {rule}: {got:#?}");
            let node = k.graph.node(got.node).expect("a node of the design");
            assert_eq!(
                node.kind(),
                node_kind(*cause),
                "{number} {name} {rule}: {got:#?}"
            );
            assert!(!got.mechanism.is_empty() && !got.choice.is_empty());
        }
        // Every failed rule of a classic mistake is listed above.
        assert_eq!(want.len(), found.len(), "{number} {name}: {found:#?}");
    }
}

#[test]
fn every_classic_mistake_of_every_scenario_is_in_the_table() {
    for s in SCENARIOS {
        for k in designs(s).into_iter().filter(|k| !k.passes()) {
            assert!(
                EXPECTED
                    .iter()
                    .any(|(n, name, _)| *n == s.number && *name == k.name),
                "{s:?}: “{}” has no expected cause",
                k.name
            );
        }
    }
}

#[test]
fn no_passing_design_gets_a_cause() {
    for s in SCENARIOS {
        for k in designs(s).into_iter().filter(Known::passes) {
            let (report, _, found) = diagnosed(s, &k.graph);
            assert!(report.passed(), "{s:?} {}", k.name);
            assert!(found.is_empty(), "{s:?} {}: {found:#?}", k.name);
        }
    }
}

/// The failing sample designs (the benchmarks' and the smallest case's)
/// get their causes too.
#[test]
fn the_failing_samples_get_their_causes() {
    for (number, rule, cause) in [
        (1, "R2", AppendReadAgain),
        (4, "R4", GoldWithItsSilver),
        (5, "R1", BackfillAppends),
    ] {
        let s = numbered(number).expect("a scenario");
        let (graph, failing, _) = crate::scenarios::sample::failing(s).expect("a failing sample");
        assert_eq!(failing, rule);
        let (_, _, found) = diagnosed(s, &graph);
        let got = found
            .iter()
            .find(|(id, _)| *id == rule)
            .and_then(|(_, d)| d.clone());
        assert_eq!(got.map(|d| d.cause), Some(cause), "{s:?}: {found:#?}");
    }
}

/// A mistake the catalogue does not list, made on the canvas as a student
/// would: each is told by its own cause.
#[test]
fn mistakes_beyond_the_catalogue_are_told_too() {
    let clicks = numbered(1).expect("scenario 1");
    let mut by_run_day = known(
        clicks,
        "a partition list with a day of lookback, overwriting each partition",
    )
    .graph;
    for node in by_run_day.nodes.values_mut() {
        if let NodeConfig::Transform { partition_key, .. } = &mut node.config {
            *partition_key = PartitionKey::ProcessingDate;
        }
    }
    let (_, _, found) = diagnosed(clicks, &by_run_day);
    let r1 = found
        .iter()
        .find(|(id, _)| *id == "R1")
        .and_then(|(_, d)| d.clone());
    assert_eq!(r1.map(|d| d.cause), Some(ProcessingDate), "{found:#?}");

    let currency = numbered(4).expect("scenario 4");
    let plan = crate::scenarios::catalogue::Plan {
        restate: None,
        ..crate::scenarios::catalogue::Plan::new(
            crate::scenarios::stories::currency::aug(3),
            crate::scenarios::stories::currency::aug(13),
            3,
        )
    };
    let (_, _, found) = diagnosed(
        currency,
        &crate::scenarios::catalogue::backfill(currency, plan),
    );
    let r4 = found
        .iter()
        .find(|(id, _)| *id == "R4")
        .and_then(|(_, d)| d.clone());
    assert_eq!(r4.map(|d| d.cause), Some(NoReport), "{found:#?}");
}

/// Whether `graph` applies the idea `term`: the choice the term names,
/// as the oracle for "the hint never names an idea the design applies".
fn applies(term: &str, graph: &Graph) -> bool {
    let configs: Vec<&NodeConfig> = graph.nodes.values().map(|n| &n.config).collect();
    let any = |f: &dyn Fn(&NodeConfig) -> bool| configs.iter().any(|c| f(c));
    match term {
        "merge" | "merge key" => any(&|c| {
            matches!(
                c,
                NodeConfig::Write {
                    mode: WriteChoice::Merge {
                        key: Some(MergeKey::Key)
                    },
                    ..
                }
            )
        }),
        "idempotent" => any(&|c| {
            matches!(
                c,
                NodeConfig::Write {
                    mode: WriteChoice::OverwritePartition
                        | WriteChoice::ReplaceTable
                        | WriteChoice::Merge {
                            key: Some(MergeKey::Key)
                        },
                    ..
                }
            )
        }),
        "commit order" => any(&|c| {
            matches!(
                c,
                NodeConfig::State {
                    commit: CommitOrder::StateAfterWrite,
                    ..
                }
            )
        }),
        "event time vs processing time" => any(&|c| {
            matches!(
                c,
                NodeConfig::State {
                    state: StateChoice::Watermark {
                        column: WatermarkColumn::ArrivedAt,
                        ..
                    },
                    ..
                }
            ) || matches!(
                c,
                NodeConfig::State {
                    state: StateChoice::Watermark {
                        overlap_minutes: 1..,
                        ..
                    },
                    ..
                }
            )
        }),
        "lookback" => any(&|c| {
            matches!(
                c,
                NodeConfig::State {
                    state: StateChoice::PartitionList { lookback: 1.., .. }
                        | StateChoice::TrailingWindow { days: 1.. },
                    ..
                }
            )
        }),
        "lateness window" => {
            let lateness = configs.iter().find_map(|c| match c {
                NodeConfig::Finaliser {
                    allowed_lateness_days,
                    ..
                } => Some(*allowed_lateness_days),
                _ => None,
            });
            any(&|c| match c {
                NodeConfig::State {
                    state: StateChoice::PartitionList { lookback, .. },
                    ..
                } => lateness.is_some_and(|l| *lookback >= l),
                _ => false,
            })
        }
        "incremental processing" => any(&|c| match c {
            NodeConfig::State {
                state: StateChoice::Watermark { .. },
                ..
            } => true,
            NodeConfig::State {
                state: StateChoice::PartitionList { lookback, .. },
                ..
            } => *lookback <= 2,
            _ => false,
        }),
        "partition key" => any(&|c| {
            matches!(
                c,
                NodeConfig::Transform {
                    partition_key: PartitionKey::EventDate,
                    ..
                }
            )
        }),
        "catch-up" => any(&|c| {
            matches!(c, NodeConfig::State { catch_up: true, .. })
                || matches!(
                    c,
                    NodeConfig::State {
                        state: StateChoice::PartitionList { .. } | StateChoice::Watermark { .. },
                        ..
                    }
                )
        }),
        "allowed lateness" => any(&|c| {
            matches!(
                c,
                NodeConfig::Finaliser {
                    allowed_lateness_days: 2,
                    ..
                }
            )
        }),
        "finalisation" => any(&|c| matches!(c, NodeConfig::Finaliser { .. })),
        "adjustments table" => any(&|c| {
            matches!(
                c,
                NodeConfig::Finaliser {
                    after_final: AfterFinal::Adjustments,
                    ..
                }
            )
        }),
        "blast radius" | "backfill range" => any(&|c| {
            matches!(c, NodeConfig::Backfill { first, last, .. }
                if *first == crate::scenarios::stories::currency::aug(3) && *last == crate::scenarios::stories::currency::aug(13))
        }),
        "historical correctness" => any(&|c| {
            matches!(
                c,
                NodeConfig::Transform {
                    logic: crate::engine::LogicVersion::Fixed,
                    reads: crate::design::graph::Layer::Bronze,
                    ..
                }
            )
        }),
        "layer order" => any(
            &|c| matches!(c, NodeConfig::Backfill { shape, .. } if *shape != crate::design::graph::BackfillShape::Together),
        ),
        "restatement" => any(&|c| {
            matches!(
                c,
                NodeConfig::Report {
                    restate: crate::design::graph::Restate::AfterAllGold
                }
            )
        }),
        "source pool" => any(
            &|c| matches!(c, NodeConfig::Backfill { max_concurrency, yield_to_scheduled, .. } if *max_concurrency < 4 || *yield_to_scheduled),
        ),
        "completion marker" => any(&|c| {
            matches!(
                c,
                NodeConfig::Backfill {
                    markers: crate::design::graph::Markers::AfterPartition,
                    ..
                }
            )
        }),
        "backfill concurrency" => any(&|c| {
            matches!(
                c,
                NodeConfig::Backfill {
                    max_concurrency: 3..,
                    ..
                }
            )
        }),
        other => panic!("no oracle for the idea “{other}”"),
    }
}

#[test]
fn a_hint_never_names_an_idea_the_design_already_applies() {
    for (number, name, want) in EXPECTED {
        let scenario = numbered(*number).expect("a scenario");
        let k = known(scenario, name);
        for (_, cause) in *want {
            let term = cause.revisit();
            assert!(
                !applies(term, &k.graph),
                "{number} {name}: the hint “{term}” names what the design already does"
            );
            assert!(
                crate::content::glossary::GLOSSARY
                    .iter()
                    .any(|t| t.term == term),
                "“{term}” is not in the glossary"
            );
        }
    }
    // The oracle is not blind: each idea a hint names is applied by a
    // passing design of the same scenario.
    for (number, name, want) in EXPECTED {
        let scenario = numbered(*number).expect("a scenario");
        for (_, cause) in *want {
            assert!(
                designs(scenario)
                    .iter()
                    .filter(|k| k.passes())
                    .any(|k| applies(cause.revisit(), &k.graph)),
                "{number} {name}: no passing design applies “{}”",
                cause.revisit()
            );
        }
    }
}

/// A detector's verdict on `judged`, the run changed by `surgery`, for
/// the rule `rule` as it failed in the unchanged run.
fn after_surgery(
    number: u8,
    name: &str,
    rule: &str,
    surgery: impl Fn(&mut Judged),
) -> (Option<Cause>, Option<Cause>) {
    let scenario = numbered(number).expect("a scenario");
    let k = known(scenario, name);
    let (report, mut judged, _) = diagnosed(scenario, &k.graph);
    let Report::Graded(rules) = &report else {
        panic!("graded")
    };
    let failed = rules.iter().find(|r| r.rule.id == rule).expect("the rule");
    let case = |judged: &Judged| {
        diagnose(
            &Case {
                scenario,
                graph: &k.graph,
                script: scenario.script(),
                judged,
            },
            failed,
        )
        .map(|d| d.cause)
    };
    let before = case(&judged);
    surgery(&mut judged);
    (before, case(&judged))
}

fn daily_outcome(judged: &mut Judged) -> &mut crate::engine::trace::Outcome {
    match judged {
        Judged::Daily(daily) => &mut daily.outcome,
        Judged::Backfill(..) => panic!("a daily run"),
    }
}

fn backfilled(judged: &mut Judged) -> &mut crate::scenarios::grading::backfilled::Backfilled {
    match judged {
        Judged::Backfill(done, _) => done,
        Judged::Daily(_) => panic!("a backfill"),
    }
}

/// Each detector, with its mechanism taken out of the trace (the design
/// and the failed rule unchanged): the cause goes.
#[test]
fn each_detector_fires_only_with_its_mechanism_in_the_run() {
    type Surgery = Box<dyn Fn(&mut Judged)>;
    let cases: Vec<(u8, &str, &str, Cause, Surgery)> = vec![
        (
            1,
            "a watermark saved before the write",
            "R1",
            StateSavedFirst,
            Box::new(|j| {
                daily_outcome(j)
                    .runs
                    .iter_mut()
                    .for_each(|r| r.crashed = false)
            }),
        ),
        (
            1,
            "a watermark, overwriting each partition",
            "R1",
            OverwriteWithPart,
            Box::new(|j| {
                daily_outcome(j)
                    .runs
                    .iter_mut()
                    .flat_map(|r| r.writes.iter_mut())
                    .for_each(|w| w.removed.clear())
            }),
        ),
        (
            2,
            "a watermark on updated_at with no overlap",
            "R1",
            WatermarkPassedArrival,
            Box::new(|j| {
                for r in daily_outcome(j).runs.iter_mut() {
                    r.state_after = crate::engine::state::StateValue::Watermark(None);
                }
            }),
        ),
        (
            1,
            "a partition list with no lookback",
            "R1",
            LookbackTooShort,
            Box::new(|j| {
                // Every row read by the last run: none arrived after it.
                let o = daily_outcome(j);
                let ids: Vec<_> = crate::scenarios::stories::clicks::SCENARIO
                    .script()
                    .events
                    .iter()
                    .map(|e| e.id.clone())
                    .collect();
                if let Some(last) = o.runs.last_mut() {
                    last.read_ids.extend(ids);
                }
            }),
        ),
        (
            1,
            "a partition list, appending",
            "R2",
            AppendReadAgain,
            Box::new(|j| {
                // No run after the first to write a row read it.
                let o = daily_outcome(j);
                let mut seen = rustc_hash::FxHashSet::default();
                for r in o.runs.iter_mut() {
                    let added: Vec<_> = r
                        .writes
                        .iter()
                        .flat_map(|w| w.added.iter().cloned())
                        .collect();
                    r.read_ids.retain(|id| !seen.contains(id));
                    seen.extend(added);
                }
            }),
        ),
        (
            2,
            "a watermark, appending",
            "R2",
            AppendKeepsEveryChange,
            Box::new(|j| dedupe_by_key(daily_outcome(j))),
        ),
        (
            2,
            "a merge on the change id",
            "R2",
            MergeOnChangeId,
            Box::new(|j| dedupe_by_key(daily_outcome(j))),
        ),
        (
            1,
            "a full refresh",
            "R3",
            FullRefresh,
            Box::new(|j| narrow(daily_outcome(j))),
        ),
        (
            1,
            "a partition list with 3 days of lookback",
            "R3",
            LookbackTooLong,
            Box::new(|j| narrow(daily_outcome(j))),
        ),
        (
            6,
            "a window of 1 day, not catching up",
            "R1",
            WindowWithoutCatchUp,
            Box::new(|j| {
                let days: Vec<_> = crate::engine::calendar::days(
                    crate::scenarios::stories::outage::first(),
                    crate::scenarios::stories::outage::last(),
                )
                .collect();
                if let Some(last) = daily_outcome(j).runs.last_mut() {
                    last.partitions_read.extend(days);
                }
            }),
        ),
        (
            3,
            "final after 1 day",
            "R1",
            FinalTooSoon,
            Box::new(|j| daily_outcome(j).finalised.clear()),
        ),
        (
            3,
            "final after 3 days",
            "R2",
            FinalTooLate,
            Box::new(|j| {
                let close = crate::scenarios::stories::mobile::close();
                for at in daily_outcome(j).finalised.values_mut() {
                    *at = (*at).min(close);
                }
            }),
        ),
        (
            3,
            "no finaliser",
            "R2",
            NeverFinal,
            Box::new(|j| {
                let close = crate::scenarios::stories::mobile::close();
                daily_outcome(j)
                    .finalised
                    .insert(crate::scenarios::stories::mobile::first(), close);
            }),
        ),
        (
            3,
            "a finaliser that drops late purchases",
            "R3",
            FinaliserDrops,
            Box::new(|j| daily_outcome(j).dropped.clear()),
        ),
        (
            3,
            "late purchases reopening final partitions (a watermark)",
            "R4",
            FinaliserReopens,
            Box::new(|j| {
                let outcome = daily_outcome(j);
                outcome.finalised.clear();
                outcome
                    .runs
                    .iter_mut()
                    .for_each(|r| r.final_written.clear());
            }),
        ),
        (
            4,
            "the old logic",
            "R6",
            OldLogic,
            Box::new(|j| {
                backfilled(j)
                    .after
                    .applied
                    .iter_mut()
                    .for_each(|a| a.work.logic = crate::engine::LogicVersion::Fixed)
            }),
        ),
        (
            4,
            "a rebuild that reads silver",
            "R3",
            RebuildReadsSilver,
            Box::new(|j| {
                backfilled(j)
                    .after
                    .applied
                    .iter_mut()
                    .for_each(|a| a.work.reads = crate::engine::rebuild::Reads::Bronze)
            }),
        ),
        (
            4,
            "gold started with its silver",
            "R4",
            GoldWithItsSilver,
            Box::new(|j| {
                let steps = &mut backfilled(j).timeline.done;
                let ends: Vec<_> = steps
                    .iter()
                    .filter(|s| s.kind == crate::engine::clock::StepKind::Silver)
                    .map(|s| (s.dt, s.end))
                    .collect();
                for g in steps
                    .iter_mut()
                    .filter(|s| s.kind == crate::engine::clock::StepKind::Gold)
                {
                    if let Some((_, end)) = ends.iter().find(|(dt, _)| *dt == g.dt) {
                        g.start = g.start.max(*end);
                    }
                }
            }),
        ),
        (
            4,
            "an appending backfill",
            "R1",
            BackfillAppends,
            Box::new(|j| {
                let done = backfilled(j);
                let dates: Vec<_> = done.after.silver.partitions().map(|(dt, _)| dt).collect();
                for dt in dates {
                    let mut rows = done.after.silver.partition(dt).to_vec();
                    let mut seen = rustc_hash::FxHashSet::default();
                    rows.retain(|r| seen.insert(r.id.clone()));
                    done.after.silver.replace_partition(dt, rows);
                }
            }),
        ),
        (
            4,
            "a backfill from the 8th",
            "R1",
            StartsAfterTheDrift,
            Box::new(|j| {
                // Every date of the blast radius rebuilt after all.
                let done = backfilled(j);
                let radius = crate::scenarios::stories::currency::blast_radius(
                    numbered(4).expect("4").script(),
                    done,
                );
                let like = *done.silver_rebuilds().next().expect("a rebuild");
                for dt in radius {
                    let mut step = like;
                    step.work.dt = dt;
                    done.after.applied.push(step);
                }
            }),
        ),
        (
            4,
            "a backfill from the 1st",
            "R2",
            RangeBeyondTheDrift,
            Box::new(|j| {
                let radius = crate::scenarios::stories::currency::blast_radius(
                    numbered(4).expect("4").script(),
                    backfilled(j),
                );
                backfilled(j)
                    .timeline
                    .done
                    .retain(|s| radius.contains(&s.dt));
            }),
        ),
        (
            4,
            "the report restated first",
            "R4",
            ReportFirst,
            Box::new(|j| {
                let done = backfilled(j);
                done.report_at = done.timeline.done.iter().map(|s| s.end).max();
            }),
        ),
        (
            4,
            "4 at a time",
            "R5",
            TakesThePool,
            Box::new(|j| {
                backfilled(j)
                    .timeline
                    .grants
                    .iter_mut()
                    .for_each(|g| g.got = g.asked)
            }),
        ),
        (
            5,
            "no completion markers",
            "R2",
            NoMarkers,
            Box::new(|j| backfilled(j).timeline.done.retain(|s| s.attempt == 0)),
        ),
        (
            5,
            "a marker written before its partition",
            "R1",
            MarkersFirst,
            Box::new(|j| backfilled(j).timeline.skipped.clear()),
        ),
        (
            5,
            "2 at a time",
            "R4",
            TooFewAtOnce,
            Box::new(|j| {
                let budget = crate::scenarios::stories::history::budget();
                backfilled(j).timeline.done.retain(|s| s.end <= budget)
            }),
        ),
    ];
    for (number, name, rule, cause, surgery) in cases {
        let (before, after) = after_surgery(number, name, rule, surgery);
        assert_eq!(before, Some(cause), "{number} {name} {rule} before");
        assert_ne!(
            after,
            Some(cause),
            "{number} {name} {rule}: the cause outlived its mechanism"
        );
    }
}

/// Silver as if each order had one row.
fn dedupe_by_key(outcome: &mut crate::engine::trace::Outcome) {
    let dates: Vec<_> = outcome.silver.partitions().map(|(dt, _)| dt).collect();
    let mut seen = rustc_hash::FxHashSet::default();
    for dt in dates {
        let mut rows = outcome.silver.partition(dt).to_vec();
        rows.retain(|r| seen.insert(r.key.clone()));
        outcome.silver.replace_partition(dt, rows);
    }
}

/// Every run reading one partition, none writing a final one.
fn narrow(outcome: &mut crate::engine::trace::Outcome) {
    for r in outcome.runs.iter_mut() {
        r.partitions_read.truncate(1);
        r.final_written.clear();
    }
}

/// A mechanism names a row, a run or a date of the run: for the rules
/// about rows, one of the rows the rule failed on.
#[test]
fn a_cause_about_rows_names_one_the_rule_failed_on() {
    for (number, name, want) in EXPECTED.iter().filter(|(n, ..)| [1, 2, 6].contains(n)) {
        let scenario = numbered(*number).expect("a scenario");
        let k = known(scenario, name);
        let (report, _, found) = diagnosed(scenario, &k.graph);
        let Report::Graded(rules) = &report else {
            panic!("graded")
        };
        for (rule, _) in *want {
            let failed = rules.iter().find(|r| r.rule.id == *rule).expect("the rule");
            let Some((_, Some(d))) = found.iter().find(|(id, _)| id == rule) else {
                panic!("a cause")
            };
            if failed.rows.is_empty() {
                continue;
            }
            let events = scenario.script();
            let named = failed.rows.iter().any(|id| {
                d.mechanism.contains(id.as_ref())
                    || events
                        .events
                        .iter()
                        .find(|e| e.id == *id)
                        .is_some_and(|e| d.mechanism.contains(e.key.as_ref()))
            });
            assert!(named, "{number} {name} {rule}: {}", d.mechanism);
        }
    }
}

#[test]
fn a_pass_is_debriefed_from_its_run_and_another_passing_design_run_beside_it() {
    for s in SCENARIOS {
        let passing: Vec<Known> = designs(s).into_iter().filter(Known::passes).collect();
        let mine = &passing[0];
        let (report, judged, _) = diagnosed(s, &mine.graph);
        let case = Case {
            scenario: s,
            graph: &mine.graph,
            script: s.script(),
            judged: &judged,
        };
        let held = debrief::held(&case, &report);
        assert_eq!(
            held.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
            s.rules().iter().map(|r| r.id).collect::<Vec<_>>(),
            "{s:?}: a sentence for each rule: {held:#?}"
        );
        let other = debrief::other_design(s, &mine.graph).expect("another passing design");
        assert_ne!(other.name, mine.name);
        let (theirs_report, theirs, _) = diagnosed(s, &other.graph);
        assert!(theirs_report.passed(), "{s:?} {}", other.name);
        let said = debrief::compare(&other, &theirs, &judged).expect("a comparison");
        assert!(said.contains(other.name), "{said}");
        // Its figures are the two runs' own.
        if let (Judged::Daily(a), Judged::Daily(b)) = (&theirs, &judged) {
            let read = |d: &crate::scenarios::grading::grade::Daily| {
                d.outcome.runs.iter().map(|r| r.rows_read).sum::<usize>()
            };
            assert!(said.contains(&crate::counted::grouped(read(a))), "{said}");
            assert!(said.contains(&crate::counted::grouped(read(b))), "{said}");
        }
        let next = debrief::next(s);
        assert_eq!(
            next.map(|n| n.number),
            (s.number < 6).then_some(s.number + 1)
        );
    }
}

/// Sentences as the browser's reading test splits them
/// (tests/e2e/reading.mjs): after a stop followed by a space and a
/// capital, a digit or an opening quote or bracket.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        current.push(*c);
        let ends = matches!(c, '.' | '!' | '?')
            && chars.get(i + 1).is_some_and(|n| n.is_whitespace())
            && chars
                .get(i + 2)
                .is_some_and(|n| n.is_uppercase() || n.is_ascii_digit() || "“\"‘(".contains(*n));
        if ends {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn word_count(sentence: &str) -> usize {
    sentence
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

#[test]
fn every_sentence_the_tutor_says_is_at_most_35_words() {
    let mut long = Vec::new();
    for s in crate::scenarios::SCENARIOS.iter().copied() {
        for k in designs(s) {
            let (report, judged, found) = diagnosed(s, &k.graph);
            let case = Case {
                scenario: s,
                graph: &k.graph,
                script: s.script(),
                judged: &judged,
            };
            let mut said: Vec<String> = found
                .into_iter()
                .filter_map(|(_, d)| d.map(|d| d.mechanism))
                .collect();
            if report.passed() {
                said.extend(debrief::held(&case, &report).into_iter().map(|(_, w)| w));
            }
            for text in said {
                for sentence in sentences(&text) {
                    if word_count(&sentence) > 35 {
                        long.push(format!(
                            "S{} {}: {} words: {sentence}",
                            s.number,
                            k.name,
                            word_count(&sentence)
                        ));
                    }
                }
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}
