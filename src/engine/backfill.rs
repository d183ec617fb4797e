//! The backfill clock (SPEC 2): a date range rebuilt with at most k dates in
//! flight, each date holding one slot of a shared source pool while its
//! steps run (silver, then gold, then its completion marker), steps reading
//! at their start and writing at their end. An interruption at an instant
//! cancels every step that would finish at or after it; a re-run skips the
//! dates whose completion marker exists.

use std::collections::BTreeSet;

use chrono::Duration;

use super::calendar::{days, Day, Instant};

/// What a backfill is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackfillPlan {
    pub first: Day,
    pub last: Day,
    /// Dates allowed in flight at once (`--max-active-runs`).
    pub concurrency: u32,
    /// Source connections shared by backfill tasks.
    pub pool: u32,
    pub silver_minutes: i64,
    pub gold_minutes: i64,
    pub markers: bool,
}

impl BackfillPlan {
    pub fn dates(&self) -> Vec<Day> {
        days(self.first, self.last).collect()
    }

    /// Dates that really run at once: asking for more than the pool only queues.
    pub fn slots(&self) -> u32 {
        self.concurrency.min(self.pool).max(1)
    }

    pub fn waves(&self) -> u32 {
        let n = self.dates().len() as u32;
        n.div_ceil(self.slots())
    }

    /// The stated cost model: waves x (silver + gold) minutes.
    pub fn minutes(&self) -> i64 {
        i64::from(self.waves()) * (self.silver_minutes + self.gold_minutes)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepKind {
    Silver,
    Gold,
    Marker,
}

/// One step of one date, on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub dt: Day,
    pub kind: StepKind,
    pub start: Instant,
    pub end: Instant,
    /// Which pool slot the date held.
    pub slot: u32,
    /// 0-based wave: which round of slots the date ran in.
    pub wave: u32,
}

/// What a (possibly interrupted) backfill run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub started: Instant,
    /// Steps that finished, in the order they finished.
    pub done: Vec<Step>,
    /// Steps that were under way or queued when the run was interrupted.
    pub cancelled: Vec<Step>,
    pub interrupted_at: Option<Instant>,
    /// Dates skipped because their completion marker already existed.
    pub skipped: Vec<Day>,
}

impl Execution {
    /// When the last finished step finished.
    pub fn finished_at(&self) -> Option<Instant> {
        self.done.iter().map(|s| s.end).max()
    }

    /// Dates whose completion marker this run wrote.
    pub fn markers(&self) -> BTreeSet<Day> {
        self.done
            .iter()
            .filter(|s| s.kind == StepKind::Marker)
            .map(|s| s.dt)
            .collect()
    }

    /// Dates whose silver this run rewrote.
    pub fn silver_rebuilt(&self) -> Vec<Day> {
        self.done
            .iter()
            .filter(|s| s.kind == StepKind::Silver)
            .map(|s| s.dt)
            .collect()
    }

    /// Dates whose gold this run rewrote.
    pub fn gold_rebuilt(&self) -> Vec<Day> {
        self.done
            .iter()
            .filter(|s| s.kind == StepKind::Gold)
            .map(|s| s.dt)
            .collect()
    }
}

/// Runs `plan` from `start`, skipping dates in `marked` when markers are on,
/// stopping at `interrupt` if given.
pub fn run(
    plan: &BackfillPlan,
    start: Instant,
    marked: &BTreeSet<Day>,
    interrupt: Option<Instant>,
) -> Execution {
    let (todo, skipped): (Vec<Day>, Vec<Day>) = plan
        .dates()
        .into_iter()
        .partition(|dt| !(plan.markers && marked.contains(dt)));
    let slots = plan.slots() as usize;
    let mut free_at = vec![start; slots];
    let mut steps = Vec::new();
    for (n, dt) in todo.into_iter().enumerate() {
        // The date takes the slot that frees first (the lowest on a tie).
        let (slot, at) = free_at
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|(i, t)| (*t, *i))
            .unwrap_or((0, start));
        let silver_end = at + Duration::minutes(plan.silver_minutes);
        let gold_end = silver_end + Duration::minutes(plan.gold_minutes);
        let wave = (n / slots) as u32;
        let slot_no = slot as u32;
        steps.push(Step {
            dt,
            kind: StepKind::Silver,
            start: at,
            end: silver_end,
            slot: slot_no,
            wave,
        });
        steps.push(Step {
            dt,
            kind: StepKind::Gold,
            start: silver_end,
            end: gold_end,
            slot: slot_no,
            wave,
        });
        if plan.markers {
            steps.push(Step {
                dt,
                kind: StepKind::Marker,
                start: gold_end,
                end: gold_end,
                slot: slot_no,
                wave,
            });
        }
        if let Some(free) = free_at.get_mut(slot) {
            *free = gold_end;
        }
    }
    let (mut done, cancelled): (Vec<Step>, Vec<Step>) = steps
        .into_iter()
        .partition(|s| interrupt.is_none_or(|cut| s.end < cut));
    crate::order::sort_by_key(&mut done, |s| (s.end, s.kind, s.dt));
    Execution {
        started: start,
        done,
        cancelled,
        interrupted_at: interrupt,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::at;

    use crate::engine::calendar::aug;

    fn plan(first: u32, concurrency: u32, markers: bool) -> BackfillPlan {
        BackfillPlan {
            first: aug(first),
            last: aug(13),
            concurrency,
            pool: 4,
            silver_minutes: 4,
            gold_minutes: 2,
            markers,
        }
    }

    #[test]
    fn waves_follow_the_pool_not_the_request() {
        assert_eq!(plan(3, 4, true).waves(), 3);
        assert_eq!(plan(3, 4, true).minutes(), 18);
        assert_eq!(
            plan(3, 12, true).waves(),
            3,
            "asking for 12 only queues behind 4 connections"
        );
        assert_eq!(plan(3, 1, true).waves(), 11);
        assert_eq!(plan(12, 4, true).waves(), 1);
    }

    #[test]
    fn the_clock_matches_the_cost_model_and_never_exceeds_the_pool() {
        for concurrency in [1, 2, 3, 4, 12] {
            let p = plan(3, concurrency, true);
            let start = at(aug(14), 10, 0);
            let exec = run(&p, start, &BTreeSet::new(), None);
            assert_eq!(
                exec.finished_at(),
                Some(start + Duration::minutes(p.minutes()))
            );
            assert_eq!(exec.silver_rebuilt().len(), 11);
            for probe in 0..p.minutes() {
                let t = start + Duration::minutes(probe);
                let busy = exec
                    .done
                    .iter()
                    .filter(|s| {
                        s.kind == StepKind::Silver
                            && s.start <= t
                            && t < s.end + Duration::minutes(2)
                    })
                    .count();
                assert!(
                    busy as u32 <= p.slots(),
                    "{busy} dates in flight at minute {probe}"
                );
            }
            // Gold for a date only after its silver.
            for gold in exec.done.iter().filter(|s| s.kind == StepKind::Gold) {
                let silver = exec
                    .done
                    .iter()
                    .find(|s| s.kind == StepKind::Silver && s.dt == gold.dt)
                    .expect("silver first");
                assert!(silver.end <= gold.start);
            }
        }
    }

    #[test]
    fn an_interrupted_run_resumes_with_markers_and_restarts_without() {
        let start = at(aug(14), 10, 0);
        let cut = start + Duration::minutes(7); // first wave done, second wave's silver under way
        for markers in [true, false] {
            let p = plan(3, 4, markers);
            let first = run(&p, start, &BTreeSet::new(), Some(cut));
            assert_eq!(first.gold_rebuilt(), vec![aug(3), aug(4), aug(5), aug(6)]);
            assert!(first.cancelled.iter().any(|s| s.dt == aug(7)));
            let again = run(&p, cut + Duration::minutes(30), &first.markers(), None);
            if markers {
                assert_eq!(again.skipped, vec![aug(3), aug(4), aug(5), aug(6)]);
                assert_eq!(again.silver_rebuilt().len(), 7);
            } else {
                assert!(again.skipped.is_empty());
                assert_eq!(
                    again.silver_rebuilt().len(),
                    11,
                    "without markers finished dates are rebuilt"
                );
            }
        }
    }
}
