//! The rules of running the backfill in the lab, apart from the timer
//! that animates them: when a re-run starts, where an interruption cuts,
//! how far the clock moves per tick, which wave is under way, and what the
//! run's controls say while it waits or runs.

use chrono::Duration;

use crate::engine::calendar::{weekday_day_month_time, Instant};
use crate::engine::clock::StepKind;

use super::case::backfill_start;
use super::query::{Moment, Ran, MAX_RUNS};
use super::run::Execution;

/// A re-run starts half an hour after the previous run stopped (its
/// interruption, or its last step); the first starts Friday at 10:00.
pub fn next_start(finished: &[Execution]) -> Instant {
    finished.last().map_or(backfill_start(), |e| {
        e.interrupted_at.or(e.finished_at()).unwrap_or(e.started) + Duration::minutes(30)
    })
}

/// An interruption while minute `minute` of `exec` is showing cuts in the
/// middle of it: steps that end by the shown minute have happened, later
/// ones have not.
pub fn cut(exec: &Execution, minute: i64) -> Instant {
    cut_at(exec.started, minute)
}

/// `cut` for a run started at `started`: the moment is known before the
/// run is, so replaying an interrupted run runs it once.
fn cut_at(started: Instant, minute: i64) -> Instant {
    started + Duration::minutes(minute) + Duration::seconds(30)
}

/// The minute after `minute`, or `None` once the run has finished by then.
pub fn tick(exec: &Execution, minute: i64) -> Option<i64> {
    let next = minute.saturating_add(1);
    let end = exec.finished_at().unwrap_or(exec.started);
    (exec.started + Duration::minutes(next) < end).then_some(next)
}

/// (wave under way, waves in all), both from 1, at `now`.
pub fn wave_at(exec: &Execution, now: Instant) -> (u32, u32) {
    let silver = || exec.done.iter().filter(|s| s.kind == StepKind::Silver);
    let current = silver()
        .filter(|s| s.start <= now)
        .map(|s| s.wave + 1)
        .max()
        .unwrap_or(1);
    let all = silver().map(|s| s.wave + 1).max().unwrap_or(1);
    (current, all)
}

/// What the clock line says at minute `minute` of `exec`: when, which
/// wave, and that finance still sees the old figures.
pub fn clock_line(exec: &Execution, minute: i64) -> String {
    let now = exec.started + Duration::minutes(minute);
    let (wave, waves) = wave_at(exec, now);
    format!(
        "Backfill running: {} · wave {wave} of {waves} · the finance report still shows the old total",
        weekday_day_month_time(now)
    )
}

/// Why a run cannot start at `moment`, or `None` when it can: it waits
/// for the prediction, and stops at the runs the address keeps.
pub fn run_gate(moment: &Moment) -> Option<&'static str> {
    if moment.guess.is_none() {
        Some("Predict the ship date in step 1 first (or skip it): a run shows which days were wrong.")
    } else if moment.ran.len() >= MAX_RUNS {
        Some("That is as many runs as the lab keeps: reset August to start again.")
    } else {
        None
    }
}

/// The run button's words after `runs` runs.
pub fn run_label(runs: usize) -> &'static str {
    if runs == 0 {
        "Run the backfill"
    } else {
        "Run it again"
    }
}

/// The runs `ran` describes, replayed as the page runs them: each starts
/// half an hour after the one before, and an interruption cuts where the
/// page does. A link to a moment after a run reopens exactly that run.
pub fn replay(
    case: &super::case::Case,
    choices: &super::case::Choices,
    ran: &[Ran],
) -> Vec<Execution> {
    let mut finished: Vec<Execution> = Vec::new();
    for r in ran {
        let start = next_start(&finished);
        let run = match r {
            Ran::ToTheEnd => case.execute(choices, &finished, start, None),
            Ran::InterruptedAt(m) => case.execute_until(
                choices,
                &finished,
                start,
                Some(cut_at(start, i64::from(*m))),
            ),
        };
        finished.push(run);
    }
    finished
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::{August, Case, Choices};

    #[test]
    fn a_run_ticks_to_its_end_and_a_re_run_waits_half_an_hour() {
        let case = Case::new();
        let choices = Choices {
            from: August::CHAPTER.ship,
            ..Choices::default()
        };
        let first = case.execute(&choices, &[], next_start(&[]), None);
        assert_eq!(first.started, backfill_start());
        // 18 minutes: minutes 1..17 are shown, the 18th finishes it.
        let shown: Vec<i64> = std::iter::successors(Some(0), |m| tick(&first, *m)).collect();
        assert_eq!(shown.last(), Some(&17));
        assert_eq!(wave_at(&first, first.started), (1, 3));
        assert_eq!(
            wave_at(&first, first.started + Duration::minutes(13)),
            (3, 3)
        );
        let cut_at = cut(&first, 7);
        let killed = case.execute_until(&choices, &[], first.started, Some(cut_at));
        assert_eq!(
            next_start(std::slice::from_ref(&killed)),
            cut_at + Duration::minutes(30)
        );
        // The step ending at minute 6 happened; the one ending at 10 did not.
        assert!(killed
            .done
            .iter()
            .any(|s| s.end == first.started + Duration::minutes(6)));
        assert!(killed.cancelled.iter().all(|s| s.end > cut_at));
        let earlier = std::slice::from_ref(&killed);
        let again = case.execute(&choices, earlier, next_start(earlier), None);
        assert_eq!(
            again.skipped.len(),
            4,
            "the first wave's markers are honoured"
        );
    }
}

#[cfg(test)]
mod replay_tests {
    use super::*;
    use crate::labs::backfill::case::{August, Case, Choices};

    /// What the page does, by hand: run, interrupt at minute 7, run again.
    #[test]
    fn a_replayed_moment_is_the_runs_the_page_made() {
        let case = Case::new();
        let choices = Choices {
            markers: false,
            from: August::CHAPTER.ship,
            ..Choices::default()
        };
        let first = case.execute(&choices, &[], backfill_start(), None);
        let cut_at = backfill_start() + Duration::minutes(7) + Duration::seconds(30);
        let interrupted = case.execute_until(&choices, &[], backfill_start(), Some(cut_at));
        assert!(interrupted.interrupted_at.is_some() && first.interrupted_at.is_none());
        let again_start = next_start(std::slice::from_ref(&interrupted));
        let again = case.execute(
            &choices,
            std::slice::from_ref(&interrupted),
            again_start,
            None,
        );
        assert_eq!(
            replay(&case, &choices, &[Ran::InterruptedAt(7), Ran::ToTheEnd]),
            vec![interrupted, again]
        );
        assert_eq!(replay(&case, &choices, &[Ran::ToTheEnd]), vec![first]);
        assert!(replay(&case, &choices, &[]).is_empty());
    }

    #[test]
    fn a_run_waits_for_the_prediction_and_stops_at_the_runs_the_address_keeps() {
        let mut moment = Moment::default();
        assert!(run_gate(&moment).is_some_and(|why| why.starts_with("Predict the ship date")));
        moment.guess = Some(None);
        assert_eq!(run_gate(&moment), None);
        moment.ran = vec![Ran::ToTheEnd; MAX_RUNS - 1];
        assert_eq!(run_gate(&moment), None);
        moment.ran.push(Ran::InterruptedAt(3));
        assert!(run_gate(&moment).is_some_and(|why| why.contains("as many runs as the lab keeps")));
        assert_eq!(run_label(0), "Run the backfill");
        assert_eq!(run_label(1), "Run it again");
    }

    #[test]
    fn the_clock_line_names_the_minute_and_the_wave_under_way() {
        let case = Case::new();
        let choices = Choices {
            from: August::CHAPTER.ship,
            ..Choices::default()
        };
        let run = case.execute(&choices, &[], next_start(&[]), None);
        assert_eq!(
            clock_line(&run, 0),
            "Backfill running: Fri 14 Aug 10:00 · wave 1 of 3 · the finance report still shows the old total"
        );
        assert!(clock_line(&run, 13).contains("10:13 · wave 3 of 3"));
    }
}
