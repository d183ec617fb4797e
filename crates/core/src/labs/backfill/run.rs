//! The lab's backfill runs, on the engine's one backfill simulation
//! (`engine::backfill_run`, which also runs scenarios 4 and 5's designs).
//!
//! The lab's plan is a per-date job (silver, then its gold, on one slot),
//! markers written after each date or not at all, and no scheduled runs
//! competing. Each run is an attempt on the clock, after the ones before
//! it; what the animation shows (which wave a date ran in, the dates an
//! interruption left unstarted) is read off the clock's trace.

use crate::lean::sorted::SortedSet;

use crate::engine::backfill_run::{timeline, Plan};
use crate::engine::calendar::{days, Day, Instant};
use crate::engine::clock::{Attempt, ClockStep, Job, Marking, Shape, StepKind};
use crate::engine::rebuild::Reads;
use crate::engine::{LogicVersion, WriteMode};

/// What a backfill is asked to do (the lab's three choices, made concrete).
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
    /// Which partitions a rebuild's overwrite replaces.
    pub write: WriteMode,
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
        let n = u32::try_from(self.dates().len()).unwrap_or(u32::MAX);
        n.div_ceil(self.slots())
    }

    /// The stated cost model: waves x (silver + gold) minutes.
    pub fn minutes(&self) -> i64 {
        i64::from(self.waves()) * (self.silver_minutes + self.gold_minutes)
    }

    /// The plan as the engine runs it, launched as `attempts`: the one
    /// place the lab's choices become the engine's plan, which the lab's
    /// run and every tool's code for it take.
    pub fn engine(&self, attempts: Vec<Attempt>) -> Plan {
        Plan {
            job: self.job(),
            attempts,
            scheduled: Vec::new(),
            logic: LogicVersion::Fixed,
            reads: Reads::Bronze,
            write: self.write,
            restate: None,
        }
    }

    /// The plan as the clock's job.
    pub fn job(&self) -> Job {
        Job {
            first: self.first,
            last: self.last,
            concurrency: self.concurrency,
            pool: self.pool,
            silver_minutes: self.silver_minutes,
            gold_minutes: self.gold_minutes,
            shape: Shape::PerDate,
            markers: if self.markers {
                Marking::After
            } else {
                Marking::Off
            },
            yield_to_scheduled: false,
        }
    }
}

/// One step of one date, as the lab draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub dt: Day,
    pub kind: StepKind,
    pub start: Instant,
    pub end: Instant,
    /// Which pool slot the date held.
    pub slot: u32,
    /// 0-based wave: which round of starts the date ran in.
    pub wave: u32,
}

/// What one (possibly interrupted) backfill run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    pub started: Instant,
    /// Steps that finished, in the order they finished.
    pub done: Vec<Step>,
    /// Steps that had started and were killed by the interruption.
    pub cancelled: Vec<Step>,
    pub interrupted_at: Option<Instant>,
    /// Dates skipped because their completion marker already existed.
    pub skipped: Vec<Day>,
    /// Dates the run was to rebuild but never started before it was killed.
    pub never_started: Vec<Day>,
    /// Dates under way that waited for a connection: (date, asked, until
    /// they got one or the run died).
    pub queued: Vec<(Day, Instant, Instant)>,
    /// The plan's writer: which partitions its overwrites replaced.
    pub write: WriteMode,
}

impl Execution {
    pub fn attempt(&self) -> Attempt {
        Attempt {
            start: self.started,
            interrupt: self.interrupted_at,
        }
    }

    /// When the last finished step finished.
    pub fn finished_at(&self) -> Option<Instant> {
        self.done.iter().map(|s| s.end).max()
    }

    /// Dates whose completion marker this run wrote.
    pub fn markers(&self) -> SortedSet<Day> {
        self.done
            .iter()
            .filter(|s| s.kind == StepKind::Marker)
            .map(|s| s.dt)
            .collect()
    }

    /// Dates whose silver this run rewrote.
    pub fn silver_rebuilt(&self) -> Vec<Day> {
        self.of_kind(StepKind::Silver)
    }

    /// Dates whose gold this run rewrote.
    pub fn gold_rebuilt(&self) -> Vec<Day> {
        self.of_kind(StepKind::Gold)
    }

    fn of_kind(&self, kind: StepKind) -> Vec<Day> {
        self.done
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.dt)
            .collect()
    }
}

/// Runs `plan` as a new attempt after the `earlier` runs (whose markers it
/// honours), killed at `attempt.interrupt` if given.
pub fn run(plan: &BackfillPlan, earlier: &[Execution], attempt: Attempt) -> Execution {
    let mut attempts: Vec<Attempt> = earlier.iter().map(Execution::attempt).collect();
    attempts.push(attempt);
    let n = earlier.len();
    let timeline = timeline(&plan.engine(attempts));
    let mine = |steps: &[ClockStep]| -> Vec<ClockStep> {
        steps.iter().filter(|s| s.attempt == n).copied().collect()
    };
    let (done, cancelled) = (mine(&timeline.done), mine(&timeline.cancelled));
    // A wave is a round of starts: every date that started at the same
    // instant as the k-th distinct start ran in wave k.
    let mut starts: Vec<Instant> = done
        .iter()
        .chain(&cancelled)
        .filter(|s| s.kind == StepKind::Silver)
        .map(|s| s.start)
        .collect();
    crate::lean::order::sort(&mut starts);
    starts.dedup();
    let unit_start = |dt: Day| {
        done.iter()
            .chain(&cancelled)
            .find(|s| s.dt == dt && s.kind == StepKind::Silver)
            .map(|s| s.start)
    };
    let step = |s: &ClockStep| Step {
        dt: s.dt,
        kind: s.kind,
        start: s.start,
        end: s.end,
        slot: s.slot,
        wave: unit_start(s.dt)
            .map(|at| starts.partition_point(|s| *s < at))
            .and_then(|w| u32::try_from(w).ok())
            .unwrap_or(0),
    };
    let skipped: Vec<Day> = timeline
        .skipped
        .get(n)
        .map(|units| units.iter().map(|(dt, _)| *dt).collect())
        .unwrap_or_default();
    let never_started = plan
        .dates()
        .into_iter()
        .filter(|dt| !skipped.contains(dt) && unit_start(*dt).is_none())
        .collect();
    Execution {
        started: attempt.start,
        done: done.iter().map(step).collect(),
        cancelled: cancelled.iter().map(step).collect(),
        interrupted_at: attempt.interrupt,
        skipped,
        never_started,
        queued: timeline
            .queued
            .iter()
            .filter(|q| q.attempt == n)
            .map(|q| (q.dt, q.asked, q.got.unwrap_or(q.until)))
            .collect(),
        write: plan.write,
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::engine::calendar::{at, aug};

    fn plan(first: u32, concurrency: u32, markers: bool) -> BackfillPlan {
        BackfillPlan {
            first: aug(first),
            last: aug(13),
            concurrency,
            pool: 4,
            silver_minutes: 4,
            gold_minutes: 2,
            markers,
            write: WriteMode::OverwritePartition,
        }
    }

    fn from(start: Instant, interrupt: Option<Instant>) -> Attempt {
        Attempt { start, interrupt }
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

    /// The clock's trace and the stated cost model agree: the waves the
    /// animation reads off the trace are the plan's, date by date.
    #[test]
    fn the_clock_matches_the_cost_model_and_never_exceeds_the_pool() {
        for concurrency in [1, 2, 3, 4, 12] {
            let p = plan(3, concurrency, true);
            let start = at(aug(14), 10, 0);
            let exec = run(&p, &[], from(start, None));
            assert_eq!(
                exec.finished_at(),
                Some(start + Duration::minutes(p.minutes()))
            );
            assert_eq!(exec.silver_rebuilt().len(), 11);
            for (i, dt) in p.dates().into_iter().enumerate() {
                let silver = exec
                    .done
                    .iter()
                    .find(|s| s.kind == StepKind::Silver && s.dt == dt)
                    .expect("every date rebuilt");
                assert_eq!(silver.wave as usize, i / p.slots() as usize, "{dt}");
            }
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
            let first = run(&p, &[], from(start, Some(cut)));
            assert_eq!(first.gold_rebuilt(), vec![aug(3), aug(4), aug(5), aug(6)]);
            assert!(first.cancelled.iter().any(|s| s.dt == aug(7)));
            assert_eq!(first.never_started, vec![aug(11), aug(12), aug(13)]);
            let again = run(
                &p,
                std::slice::from_ref(&first),
                from(cut + Duration::minutes(30), None),
            );
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
            assert!(again.never_started.is_empty());
        }
    }
}
