//! Where two parts of the app compute the same fact of the chapter's
//! story, they must agree: a lab and a scenario may not teach different
//! answers to one question.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use partition_lab::design::compile;
use partition_lab::design::graph::WriteChoice;
use partition_lab::engine::calendar::days;
use partition_lab::engine::clock::run_clock;
use partition_lab::labs::backfill::case::{backfill_start, last_existing};
use partition_lab::labs::backfill::{Case, Choices, Concurrency};
use partition_lab::scenarios::grading::backfilled;
use partition_lab::scenarios::sample::sample;
use partition_lab::scenarios::stories::currency;

/// The currency bug is one story told twice: the backfill lab's August
/// and scenario 4's. Both drift queries return the same blast radius: the
/// 3rd (the run that first used the broken code) to the 13th.
#[test]
fn the_lab_and_scenario_4_find_the_same_blast_radius() {
    let lab: BTreeSet<_> = Case::new().blast_radius().into_iter().collect();
    let script = currency::script();
    let design = compile(&sample(
        &partition_lab::scenarios::stories::currency::SCENARIO,
        WriteChoice::OverwritePartition,
    ))
    .expect("compiles");
    let done = backfilled::run(&currency::setting(), &design, &script).expect("runs");
    let scenario = currency::blast_radius(&script, &done);
    let expected: BTreeSet<_> = days(
        partition_lab::labs::backfill::August::CHAPTER.ship.day(),
        last_existing(),
    )
    .collect();
    assert_eq!(lab, expected);
    assert_eq!(scenario.into_iter().collect::<BTreeSet<_>>(), expected);
}

/// The lab's runs are the clock's trace, not a second simulation: for
/// every plan, a run and its re-run finish when the clock says, with the
/// steps the clock took.
#[test]
fn the_lab_s_runs_are_the_clock_s_own_trace() {
    let case = Case::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                let choices = Choices {
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                };
                let plan = choices.plan();
                let first = case.execute(&choices, &[], backfill_start(), Some(7));
                let again = case.execute(
                    &choices,
                    std::slice::from_ref(&first),
                    backfill_start() + chrono::Duration::minutes(60),
                    None,
                );
                let timeline = run_clock(&plan.job(), &[first.attempt(), again.attempt()], &[]);
                // A re-run with nothing left to do finishes nothing itself.
                assert_eq!(
                    timeline.finished_at(),
                    again.finished_at().or(first.finished_at()),
                    "{choices:?}"
                );
                let clock: Vec<_> = timeline
                    .done
                    .iter()
                    .map(|s| (s.attempt, s.dt, s.kind, s.start, s.end))
                    .collect();
                let lab: Vec<_> = [(0, &first), (1, &again)]
                    .into_iter()
                    .flat_map(|(n, e)| {
                        e.done
                            .iter()
                            .map(move |s| (n, s.dt, s.kind, s.start, s.end))
                    })
                    .collect();
                let sorted = |mut v: Vec<_>| {
                    v.sort();
                    v
                };
                assert_eq!(sorted(clock), sorted(lab), "{choices:?}");
            }
        }
    }
}
