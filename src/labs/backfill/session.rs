//! The rules of running the backfill in the lab, apart from the timer
//! that animates them: when a re-run starts, where an interruption cuts,
//! how far the clock moves per tick, and which wave is under way.

use chrono::Duration;

use crate::engine::calendar::Instant;
use crate::engine::clock::StepKind;

use super::case::backfill_start;
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
    exec.started + Duration::minutes(minute) + Duration::seconds(30)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::{Case, Choices};

    #[test]
    fn a_run_ticks_to_its_end_and_a_re_run_waits_half_an_hour() {
        let case = Case::new();
        let choices = Choices::default();
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
