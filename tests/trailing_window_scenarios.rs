//! SPEC 11 and SPEC 7: the trailing window is a choice of the processing
//! state node, and the daily scenarios' rules keep their meaning with it.
//! Their scripts run every day and have no outage, so a window of N days
//! must be graded exactly as a partition list with lookback N (scenario 1
//! with a 1-day window passes like lookback 1), rule by rule, with the same
//! evidence: a rule that judged the state's name rather than the trace
//! would tell them apart.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use partition_lab::design::graph::StateChoice;
use partition_lab::engine::AfterFinal;
use partition_lab::scenarios::grading::grade::grade;
use partition_lab::scenarios::grading::report::Report;

fn window(days: u32) -> StateChoice {
    StateChoice::TrailingWindow { days }
}

/// Each rule's id, verdict and evidence.
fn verdicts(report: Report) -> Vec<(&'static str, bool, Vec<String>)> {
    let Report::Graded(rules) = report else {
        panic!("graded: {report:?}");
    };
    rules
        .into_iter()
        .map(|r| {
            (
                r.rule.id,
                r.passed,
                r.evidence.into_iter().map(|e| e.text).collect(),
            )
        })
        .collect()
}

#[test]
fn a_window_of_n_days_is_graded_as_a_list_with_lookback_n_in_every_daily_scenario() {
    let finalisers = [None, Some((2, AfterFinal::Adjustments))];
    let mut passes = 0;
    for (scenario, source) in [
        (
            &partition_lab::scenarios::stories::clicks::SCENARIO,
            "bronze.clicks",
        ),
        (
            &partition_lab::scenarios::stories::orders::SCENARIO,
            "bronze.orders",
        ),
        (
            &partition_lab::scenarios::stories::mobile::SCENARIO,
            "bronze.purchases",
        ),
    ] {
        for days in 0..=3 {
            for mode in [OVERWRITE, MERGE, APPEND] {
                for finaliser in finalisers {
                    let as_list = verdicts(grade(
                        scenario,
                        &design(source, list(days), AFTER, mode, finaliser),
                    ));
                    let as_window = verdicts(grade(
                        scenario,
                        &design(source, window(days), AFTER, mode, finaliser),
                    ));
                    assert_eq!(
                        as_window, as_list,
                        "{scenario:?}, {days} day(s), {mode:?}, {finaliser:?}"
                    );
                    passes += usize::from(as_window.iter().all(|v| v.1));
                }
            }
        }
    }
    // Not vacuous: some windows pass, scenario 1's one-day window among them.
    assert!(passes > 0);
    let one_day = verdicts(grade(
        &partition_lab::scenarios::stories::clicks::SCENARIO,
        &design("bronze.clicks", window(1), AFTER, OVERWRITE, None),
    ));
    assert!(one_day.iter().all(|v| v.1), "{one_day:?}");
}
