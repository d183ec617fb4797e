//! The State x Write lab's view models for all 48 control combinations,
//! checked against the engine's own trace and invariants.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::engine::{CheckKind, CommitOrder, Verdict};
use partition_lab::labs::state_write::explain::{verdict, VerdictKind};
use partition_lab::labs::state_write::view::{cell_view, ChipMark};
use partition_lab::labs::state_write::{run, script, Cell, Controls, LateOrder};

#[test]
fn every_cell_view_matches_the_engine_for_every_combination_and_run() {
    for controls in Controls::all() {
        let script = script(&controls);
        for (cell, outcome) in run(&controls) {
            let expected_runs = if controls.crash { 8 } else { 7 };
            assert_eq!(outcome.runs.len(), expected_runs);
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
        .filter(|c| c.commit == CommitOrder::StateAfterWrite)
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
