//! The State x Write lab's view models for all 240 control combinations,
//! checked against the engine's own trace and invariants.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::engine::{CheckKind, CommitOrder, Verdict};
use partition_lab::labs::state_write::explain::{verdict, VerdictKind};
use partition_lab::labs::state_write::view::{cell_view, ChipMark};
use partition_lab::labs::state_write::{run, run_count, script, Cell, Controls, Down, LateOrder};

#[test]
fn every_cell_view_matches_the_engine_for_every_combination_and_run() {
    for controls in Controls::all() {
        let script = script(&controls);
        for (cell, outcome) in run(&controls) {
            assert_eq!(outcome.runs.len(), run_count(&controls));
            let down = script.outages.first();
            assert!(outcome
                .runs
                .iter()
                .all(|r| down.is_none_or(|o| !o.covers(r.at))));
            for (index, trace) in outcome.runs.iter().enumerate() {
                let view = cell_view(cell, &outcome, index).expect("a view for every run");
                let snapshot = trace
                    .snapshot
                    .as_ref()
                    .expect("full detail keeps snapshots");
                assert_eq!(view.partitions.len(), 7);
                for p in &view.partitions {
                    let rows = snapshot.silver.partition(p.day);
                    assert_eq!(
                        p.chips.len(),
                        rows.len(),
                        "{controls:?} {cell:?} run {index} {}",
                        p.day
                    );
                    let diff = snapshot.diffs.iter().find(|d| d.dt == p.day);
                    let dups = diff.map_or(0, |d| d.duplicates.len());
                    assert_eq!(p.duplicates, dups);
                    let lost: Vec<String> = diff
                        .map(|d| d.lost.iter().map(|id| id.to_string()).collect())
                        .unwrap_or_default();
                    assert_eq!(p.missing, lost);
                    assert!(p.accessible_name.starts_with(&format!(
                        "{}: {} row",
                        p.day.format("%a %Y-%m-%d"),
                        rows.len()
                    )));
                    assert_eq!(
                        p.chips
                            .iter()
                            .filter(|c| c.mark == ChipMark::WrongDay)
                            .count(),
                        0,
                        "the lab files by event date"
                    );
                    assert_eq!(p.written, trace.writes.iter().any(|w| w.dt == p.day));
                }
                assert_eq!(view.rows_read, trace.rows_read);
                assert_eq!(view.read_ids.len(), trace.rows_read);
                assert_eq!(view.deleted.len(), trace.rows_deleted());
                assert_eq!(view.incident.is_some(), trace.crashed);
                assert_eq!(view.checks.len(), 5);
                assert_eq!(view.checks.iter().filter(|c| !c.usual).count(), 1);
                assert_eq!(
                    view.rows_read_so_far,
                    outcome.runs[..=index]
                        .iter()
                        .map(|r| r.rows_read)
                        .sum::<usize>()
                );
            }
            assert!(cell_view(cell, &outcome, outcome.runs.len()).is_none());

            let v = verdict(&outcome, &cell.config(&controls), &script);
            assert_eq!(v.rows_read_total, outcome.rows_read_total());
            match outcome.verdict() {
                Verdict::Correct => assert_eq!(v.kind, VerdictKind::Correct),
                Verdict::Loud { failing } => {
                    assert_eq!(v.kind, VerdictKind::Loud);
                    for kind in failing {
                        assert!(v.headline.contains(kind.name()), "{}", v.headline);
                    }
                    let text = v.details.join(" ");
                    for id in outcome.lost() {
                        assert!(
                            text.contains(&*id),
                            "{cell:?} {controls:?}: {id} not explained in {text}"
                        );
                    }
                }
                Verdict::Silent => {
                    assert_eq!(v.kind, VerdictKind::Silent);
                    let text = format!("{} {}", v.headline, v.details.join(" "));
                    for id in outcome.lost() {
                        assert!(
                            text.contains(&*id),
                            "{cell:?} {controls:?}: {id} not explained in {text}"
                        );
                    }
                    assert!(
                        !outcome.checks.passed(CheckKind::ReconcileVsBronze),
                        "reconcile sees every silent loss here"
                    );
                }
            }
        }
    }
}

#[test]
fn full_refresh_is_correct_whatever_the_controls() {
    for controls in Controls::all() {
        let (_, outcome) = run(&controls)
            .into_iter()
            .find(|(c, _)| *c == Cell::FullRefresh)
            .expect("full refresh cell");
        assert_eq!(outcome.verdict(), Verdict::Correct, "{controls:?}");
    }
}

#[test]
fn list_with_overwrite_is_correct_exactly_when_the_lookback_reaches_the_late_order() {
    for controls in Controls::all()
        .into_iter()
        .filter(|c| c.commit == CommitOrder::StateAfterWrite && c.down == Down::Off)
    {
        let (_, outcome) = run(&controls)
            .into_iter()
            .find(|(c, _)| *c == Cell::ListOverwrite)
            .expect("list cell");
        // o-105 arrives on Tue (1 day late), Wed (2) or Fri (4); the run for that day must still reach Monday.
        let reaches = match controls.late {
            LateOrder::Off => true,
            LateOrder::Tue => controls.lookback >= 1,
            LateOrder::Wed => controls.lookback >= 2,
            LateOrder::Fri => false,
        };
        assert_eq!(
            outcome.verdict() == Verdict::Correct,
            reaches,
            "{controls:?}"
        );
    }
}

#[test]
fn the_silent_cell_explains_which_run_deleted_mondays_orders_and_why_none_returns() {
    let controls = Controls::default();
    let script = script(&controls);
    let (cell, outcome) = run(&controls)
        .into_iter()
        .find(|(c, _)| *c == Cell::WatermarkOverwrite)
        .expect("cell");
    let v = verdict(&outcome, &cell.config(&controls), &script);
    assert_eq!(v.kind, VerdictKind::Silent);
    assert!(
        v.headline.contains("o-101, o-102, o-103 and o-104"),
        "{}",
        v.headline
    );
    assert!(
        v.details[0].contains("run 2 (for Tue 06-02) overwrote Mon with only the 1 row"),
        "{}",
        v.details[0]
    );
    assert!(
        v.details[0].contains("watermark now stands at"),
        "{}",
        v.details[0]
    );
}

#[test]
fn saving_state_first_is_explained_as_a_crash_before_the_write() {
    let controls = Controls {
        commit: CommitOrder::StateBeforeWrite,
        ..Controls::default()
    };
    let script = script(&controls);
    let (cell, outcome) = run(&controls)
        .into_iter()
        .find(|(c, _)| *c == Cell::WatermarkOverwrite)
        .expect("cell");
    let v = verdict(&outcome, &cell.config(&controls), &script);
    let text = v.details.join(" ");
    assert!(
        text.contains("saved its state and then crashed before writing"),
        "{text}"
    );
}

/// SPEC 11 in the lab: after the scheduler's outage without catch-up, the
/// trailing window never builds the missed days its first run back cannot
/// reach, and says so with their ids, the run that was due and the window;
/// with catch-up every day is built.
#[test]
fn the_trailing_window_loses_the_days_an_outage_passed_and_says_why() {
    for down in [Down::WedToFri, Down::TueToSat] {
        for lookback in 0..=2 {
            for catch_up in [false, true] {
                let controls = Controls {
                    late: LateOrder::Off,
                    crash: false,
                    lookback,
                    down,
                    catch_up,
                    ..Controls::default()
                };
                let script = script(&controls);
                let (_, outcome) = run(&controls)
                    .into_iter()
                    .find(|(c, _)| *c == Cell::WindowOverwrite)
                    .expect("the window cell");
                let outage = script.outages[0];
                // The missed days, and the first run back's day.
                let missed: Vec<_> = script
                    .runs
                    .iter()
                    .filter(|r| outage.covers(r.at))
                    .map(|r| r.day)
                    .collect();
                let back = script
                    .runs
                    .iter()
                    .find(|r| r.at >= outage.until)
                    .expect("a run back")
                    .day;
                let passed: Vec<_> = missed
                    .iter()
                    .copied()
                    .filter(|d| {
                        *d < partition_lab::engine::calendar::shift(back, -i64::from(lookback))
                    })
                    .collect();
                let empty: Vec<_> = missed
                    .iter()
                    .copied()
                    .filter(|d| outcome.silver.partition(*d).is_empty())
                    .collect();
                let v = verdict(&outcome, &Cell::WindowOverwrite.config(&controls), &script);
                if catch_up {
                    assert!(empty.is_empty(), "{controls:?}");
                    assert_eq!(v.kind, VerdictKind::Correct, "{controls:?}");
                    continue;
                }
                assert_eq!(empty, passed, "{controls:?}");
                assert!(
                    !passed.is_empty(),
                    "every outage here outlasts a 2-day window"
                );
                // Loud: the empty partitions check sees the hole.
                assert_eq!(v.kind, VerdictKind::Loud, "{controls:?}");
                assert!(
                    v.headline.contains("non-empty partitions")
                        || v.headline.contains("partitions"),
                    "{}",
                    v.headline
                );
                let text = v.details.join(" ");
                assert!(text.contains("while the scheduler was down"), "{text}");
                // From the trace: the first run back and what it rebuilt.
                let first_back = outcome
                    .runs
                    .iter()
                    .find(|r| r.at >= outage.until)
                    .expect("a run back");
                assert_eq!(first_back.partitions_read.len(), lookback as usize + 1);
                assert!(passed
                    .iter()
                    .all(|d| !first_back.partitions_read.contains(d)));
                assert!(
                    text.contains(&format!(
                        "The first run back ({} {}",
                        partition_lab::engine::calendar::weekday_short(first_back.at.date()),
                        partition_lab::engine::calendar::hh_mm(first_back.at)
                    )),
                    "{text}"
                );
                assert!(text.contains("remembers nothing never builds it"), "{text}");
                // The partition list with the same lookback builds every day.
                let (_, list) = run(&controls)
                    .into_iter()
                    .find(|(c, _)| *c == Cell::ListOverwrite)
                    .expect("the list cell");
                assert!(
                    missed.iter().all(|d| !list.silver.partition(*d).is_empty()),
                    "{controls:?}"
                );
            }
        }
    }
}

/// Thursday's crash falls inside both outages: the run never starts, the
/// trace has no crash, and the week says so rather than promise one.
#[test]
fn a_crash_the_outage_swallows_is_said_and_does_not_happen() {
    use partition_lab::labs::state_write::view::outage_sentence;
    for down in [Down::WedToFri, Down::TueToSat] {
        for catch_up in [false, true] {
            let controls = Controls {
                down,
                catch_up,
                ..Controls::default()
            };
            assert!(controls.crash);
            let script = script(&controls);
            for (_, outcome) in run(&controls) {
                assert!(outcome.runs.iter().all(|r| !r.crashed), "{controls:?}");
            }
            let said = outage_sentence(&script, catch_up).expect("an outage");
            assert!(
                said.contains("The run that would crash (Thu 00:15, for Wed 06-03) falls while it is down: it never starts, so it cannot crash"),
                "{said}"
            );
            assert_eq!(
                said.contains("its catch-up runs cleanly"),
                catch_up,
                "{said}"
            );
        }
    }
    assert!(outage_sentence(&script(&Controls::default()), false).is_none());
}
