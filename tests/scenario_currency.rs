//! Scenario 4 graded by the engine: SPEC 7's passing backfills pass every
//! rule; each listed mistake fails exactly the rules SPEC 7 names.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::graph::{BackfillShape, Layer, Restate};
use partition_lab::engine::LogicVersion;
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::stories::currency::aug;

fn currency(plan: Plan) -> partition_lab::design::Graph {
    backfill_design("bronze.orders", plan)
}

/// 3..13 August, `at_once` dates at a time, overwrite from bronze.
fn plan(at_once: u32) -> Plan {
    Plan::new(aug(3), aug(13), at_once)
}

#[test]
fn the_listed_passing_designs_pass_every_rule() {
    for (name, p) in [
        ("03..13, 3 at a time, overwrite from bronze", plan(3)),
        (
            "two phases, 2 at a time, merge",
            Plan {
                shape: BackfillShape::TwoPhases,
                mode: MERGE,
                ..plan(2)
            },
        ),
        ("a plain loop, 1 at a time", plan(1)),
        (
            "4 at a time, yielding a slot to tonight's run",
            Plan {
                yields: true,
                ..plan(4)
            },
        ),
    ] {
        let report = grade(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &currency(p),
        );
        assert!(report.passed(), "{name}: {report:#?}");
    }
}

#[test]
fn each_listed_mistake_fails_exactly_its_rules() {
    for (name, p, rules) in [
        (
            "start at the 8th",
            Plan::new(aug(8), aug(13), 3),
            vec!["R1"],
        ),
        (
            "start at the 1st",
            Plan::new(aug(1), aug(13), 3),
            vec!["R2"],
        ),
        ("end at the 14th", Plan::new(aug(3), aug(14), 3), vec!["R2"]),
        (
            "read silver",
            Plan {
                reads: Layer::Silver,
                ..plan(3)
            },
            vec!["R1", "R3"],
        ),
        (
            "gold in parallel with silver",
            Plan {
                shape: BackfillShape::Together,
                ..plan(3)
            },
            vec!["R1", "R4"],
        ),
        (
            "report first",
            Plan {
                restate: Some(Restate::AtOnce),
                ..plan(3)
            },
            vec!["R4"],
        ),
        ("4 at a time", plan(4), vec!["R5"]),
        ("12 at a time", plan(12), vec!["R5"]),
        (
            "old logic",
            Plan {
                logic: LogicVersion::Broken,
                ..plan(3)
            },
            vec!["R1", "R6"],
        ),
        (
            "append",
            Plan {
                mode: APPEND,
                ..plan(3)
            },
            vec!["R1"],
        ),
    ] {
        let report = grade(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &currency(p),
        );
        assert_eq!(report.failed(), rules, "{name}: {report:#?}");
    }
}

#[test]
fn grading_is_deterministic() {
    let graph = currency(plan(4));
    assert_eq!(
        grade(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph
        ),
        grade(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph
        )
    );
}

/// The shrunk case still fails the same rule and is no larger than the
/// scenario's own.
#[test]
fn the_smallest_case_still_fails_and_is_no_larger() {
    use partition_lab::scenarios::grading::grade::grade_on;
    use partition_lab::scenarios::grading::shrink::{replay, shrink};
    let original = partition_lab::scenarios::stories::currency::SCENARIO
        .script()
        .clone();
    for (p, rule, most_events) in [
        (plan(4), "R5", 0),
        (Plan::new(aug(8), aug(13), 3), "R1", 1),
        (
            Plan {
                mode: APPEND,
                ..plan(3)
            },
            "R1",
            1,
        ),
    ] {
        let graph = currency(p);
        let shrunk = shrink(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph,
            &original,
            rule,
            400,
        )
        .expect("the rule fails");
        let report = grade_on(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph,
            &shrunk.script,
        );
        assert!(report.failed().contains(&rule), "{rule}: {report:?}");
        assert!(shrunk.script.events.len() <= most_events, "{rule}");
        assert!(shrunk.faults() <= shrunk.original_faults);
        assert!(shrunk.simulations <= 400);
        assert!(!replay(
            &partition_lab::scenarios::stories::currency::SCENARIO,
            &graph,
            &shrunk.script
        )
        .is_empty());
    }
    // A rule that passes has no counterexample.
    assert!(shrink(
        &partition_lab::scenarios::stories::currency::SCENARIO,
        &currency(plan(3)),
        &original,
        "R5",
        50
    )
    .is_none());
}

/// A ten-year backfill typed into the inspector fails R2 on thousands of
/// dates; the report shows a capped page of evidence, not one line each.
#[test]
fn evidence_is_capped_for_the_largest_backfill_the_inspector_allows() {
    use partition_lab::scenarios::grading::report::{Report, MOST_EVIDENCE};
    let first = chrono::NaiveDate::from_ymd_opt(2016, 8, 6).expect("date");
    let graph = currency(Plan::new(first, aug(13), 64));
    let Report::Graded(rules) = grade(
        &partition_lab::scenarios::stories::currency::SCENARIO,
        &graph,
    ) else {
        panic!("a 3,660-date backfill is graded");
    };
    let r2 = rules.iter().find(|r| r.rule.id == "R2").expect("R2");
    assert!(!r2.passed);
    assert!(r2.evidence.len() <= MOST_EVIDENCE, "{}", r2.evidence.len());
    for rule in &rules {
        assert!(rule.evidence.len() <= MOST_EVIDENCE, "{}", rule.rule.id);
        let bytes: usize = rule.evidence.iter().map(|e| e.text.len()).sum();
        assert!(bytes < 8 * 1024, "{}: {bytes} bytes", rule.rule.id);
    }
}

/// Evidence is data: a backfill that starts on the 8th leaves the 3rd to
/// the 7th drifting, and R1's findings name exactly those partitions (in
/// silver, then in gold), while R1 is failed by the judge's own verdict.
#[test]
fn r1_names_the_partitions_left_drifting() {
    use partition_lab::engine::calendar::days;
    use partition_lab::scenarios::grading::report::Report;
    let Report::Graded(rules) = grade(
        &partition_lab::scenarios::stories::currency::SCENARIO,
        &currency(Plan::new(aug(8), aug(13), 3)),
    ) else {
        panic!("graded");
    };
    let r1 = rules.iter().find(|r| r.rule.id == "R1").expect("R1");
    assert!(!r1.passed);
    let named: Vec<_> = r1.evidence.iter().filter_map(|e| e.partition).collect();
    let left: Vec<_> = days(aug(3), aug(7)).collect();
    let shown = left
        .len()
        .min(partition_lab::scenarios::grading::report::SHOWN);
    assert_eq!(
        named[..shown],
        left[..shown],
        "silver first: {:?}",
        r1.evidence
    );
    assert!(named.iter().all(|d| left.contains(d)), "{named:?}");
    let passed = rules.iter().find(|r| r.rule.id == "R6").expect("R6");
    assert!(passed.passed && passed.evidence.is_empty());
}

#[test]
fn the_page_s_evidence_is_the_blast_radius_the_grader_uses() {
    // The story no longer states the range: the drift query's rows must
    // name exactly the dates a passing plan rebuilds, each short of the truth.
    let scenario = &partition_lab::scenarios::stories::currency::SCENARIO;
    let rows = partition_lab::scenarios::stories::currency::drift_query(scenario.script());
    let dates: Vec<_> = rows.iter().map(|r| r.dt).collect();
    let expected: Vec<_> = partition_lab::engine::calendar::days(aug(3), aug(13)).collect();
    assert_eq!(dates, expected);
    assert!(rows.iter().all(|r| r.recomputed > r.stored));
    let story = partition_lab::scenarios::stories::currency::SCENARIO
        .story_in(partition_lab::variant::Variant::CHAPTER)
        .join(" ");
    assert!(!story.contains("3 to 13"), "{story}");
}

#[test]
fn a_drift_query_from_too_late_a_date_hides_the_first_bad_days() {
    use partition_lab::scenarios::stories::currency::drift_query_from;
    // The student picks the look-back date: the query scans silver from
    // it and sees nothing before it, as a warehouse query would.
    let script = partition_lab::scenarios::stories::currency::SCENARIO.script();
    let (first, last) = partition_lab::scenarios::stories::currency::drift_window();
    assert_eq!((first, last), (aug(1), aug(13)), "Friday's silver");
    for from in partition_lab::engine::calendar::days(first, last) {
        let scanned = drift_query_from(script, from);
        let days: Vec<_> = scanned.iter().map(|r| r.dt).collect();
        let expected: Vec<_> = partition_lab::engine::calendar::days(from, last).collect();
        assert_eq!(days, expected, "from {from}");
        let bad: Vec<_> = scanned
            .iter()
            .filter(|r| r.drifts())
            .map(|r| r.dt)
            .collect();
        let truth: Vec<_> =
            partition_lab::engine::calendar::days(from.max(aug(3)), aug(13)).collect();
        assert_eq!(bad, truth, "from {from}");
    }
    // From the 8th, the 3rd to the 7th are wrong but invisible.
    assert!(!drift_query_from(script, aug(8))
        .iter()
        .any(|r| r.dt < aug(8)));
}

/// The check panel's picture of the source pool over the run the grader
/// judged (the grader hands back the trace; the picture is the view's).
fn pool(plan: Plan) -> partition_lab::labs::pool::PoolPicture {
    let scenario = &partition_lab::scenarios::stories::currency::SCENARIO;
    let trace = partition_lab::scenarios::grading::grade::graded(
        scenario,
        &currency(plan),
        scenario.script(),
    )
    .1
    .unwrap();
    partition_lab::labs::pool::from_timeline(
        &trace.timeline,
        &trace.scheduled,
        trace.pool,
        trace.launch,
    )
}

#[test]
fn the_pool_picture_shows_tonight_s_run_waiting_for_a_connection() {
    use partition_lab::labs::pool::Holder;
    let starved = pool(plan(4));
    assert_eq!(starved.lanes, 4);
    let wait = starved.waits.first().expect("tonight's run waits");
    assert_eq!((wait.day, wait.got - wait.asked), (aug(14), 5));
    let tonight = starved
        .bars
        .iter()
        .find(|b| b.holder == Holder::Scheduled(aug(14)))
        .expect("tonight's run holds a connection");
    assert_eq!((tonight.lane, tonight.from), (wait.lane, wait.got));
    assert_eq!(tonight.to - tonight.from, 15);
    for lane in 0..4 {
        let mut on: Vec<_> = starved.bars.iter().filter(|b| b.lane == lane).collect();
        on.sort_by_key(|b| b.from);
        assert!(
            on.windows(2).all(|w| w[0].to <= w[1].from),
            "one holder at a time on lane {lane}"
        );
    }
    let fine = pool(plan(3));
    assert!(
        fine.waits.is_empty(),
        "three at a time leaves tonight's connection free"
    );
    assert!(fine
        .bars
        .iter()
        .any(|b| b.holder == Holder::Scheduled(aug(14))));
}
