//! One backfill, simulated: a plan goes in (its job on the clock, the
//! attempts, the scheduled runs that share its pool, the code and layer its
//! steps use, when the report is restated); the clock's per-step trace and
//! the tables after every step come out. The backfill lab and scenarios 4
//! and 5 run their backfills here, so they cannot teach different answers.

use chrono::Duration;

use super::calendar::{Day, Instant};
use super::clock::{run_clock, Attempt, Booking, Job, StepKind, Timeline};
use super::config::{PipelineConfig, ProcessingState, WriteMode};
use super::money::LogicVersion;
use super::rebuild::{apply, Origin, Reads, Rebuilt, Work};
use super::script::Script;
use super::simulate::{simulate_with, Detail};
use super::table::{Gold, Table};

/// A scheduled run beside the backfill: the day it builds and its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub day: Day,
    pub booking: Booking,
}

/// When the finance report is read from gold again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restatement {
    /// As soon as the backfill is launched (before it has fixed anything).
    AtLaunch,
    /// When the backfill's last gold step has finished.
    AfterLastGold,
}

/// Everything a backfill does, made concrete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub job: Job,
    /// The launch, then one re-run per interruption.
    pub attempts: Vec<Attempt>,
    pub scheduled: Vec<Scheduled>,
    /// The code the backfill's steps run.
    pub logic: LogicVersion,
    /// What its silver steps read.
    pub reads: Reads,
    pub write: WriteMode,
    pub restate: Option<Restatement>,
}

/// What a backfill did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub timeline: Timeline,
    /// When the finance report was restated, if it was.
    pub report_at: Option<Instant>,
    pub after: Rebuilt,
}

/// The tables the scheduler built before `launch`: every run before it,
/// one partition each, with whatever code was live.
pub fn history(script: &Script, launch: Instant) -> (Table, Gold) {
    let mut before = script.clone();
    before.runs.retain(|r| r.at < launch);
    if before.runs.is_empty() {
        return (Table::default(), Gold::default());
    }
    let config = PipelineConfig::new(
        ProcessingState::partition_list(0),
        WriteMode::OverwritePartition,
    );
    let built = simulate_with(&config, &before, Detail::TABLES);
    (built.silver, built.gold)
}

/// The launch at `launch`, then one re-run per interruption of the script
/// at or after it (an interruption before the current attempt began, or
/// while one is already cut, changes nothing).
pub fn attempts(script: &Script, launch: Instant) -> Vec<Attempt> {
    let mut cuts: Vec<_> = script
        .interruptions
        .iter()
        .filter(|i| i.at >= launch)
        .copied()
        .collect();
    crate::lean::order::sort_by_key(&mut cuts, |i| (i.at, i.rerun_at));
    let mut attempts = vec![Attempt {
        start: launch,
        interrupt: None,
    }];
    for cut in cuts {
        let Some(last) = attempts.last_mut() else {
            break;
        };
        if last.interrupt.is_some() || cut.at < last.start {
            continue;
        }
        last.interrupt = Some(cut.at);
        attempts.push(Attempt {
            start: cut.rerun_at.max(cut.at),
            interrupt: None,
        });
    }
    attempts
}

/// The script's scheduled runs at or after `launch`, each holding a slot
/// for `minutes`.
pub fn scheduled(script: &Script, launch: Instant, minutes: i64) -> Vec<Scheduled> {
    script
        .runs
        .iter()
        .filter(|r| r.at >= launch)
        .map(|r| Scheduled {
            day: r.day,
            booking: Booking { at: r.at, minutes },
        })
        .collect()
}

/// The plan's steps on the clock, without applying them to any table.
pub fn timeline(plan: &Plan) -> Timeline {
    let bookings: Vec<Booking> = plan.scheduled.iter().map(|s| s.booking).collect();
    run_clock(&plan.job, &plan.attempts, &bookings)
}

/// A backfill's finished steps (date, kind, start, end), in the order they
/// finished, as work on the tables (`Origin::Backfill(i)` is the i-th step
/// given); markers write no table and are left out.
pub fn backfill_work(
    steps: impl IntoIterator<Item = (Day, StepKind, Instant, Instant)>,
    logic: LogicVersion,
    reads: Reads,
    write: WriteMode,
) -> Vec<Work> {
    steps
        .into_iter()
        .enumerate()
        .filter(|(_, (_, kind, _, _))| *kind != StepKind::Marker)
        .map(|(i, (dt, kind, start, end))| Work {
            dt,
            kind,
            start,
            end,
            logic,
            reads,
            write,
            origin: Origin::Backfill(i),
        })
        .collect()
}

/// Runs `plan` on `script`, starting from the tables `silver` and `gold`.
pub fn simulate(plan: &Plan, silver: Table, gold: Gold, script: &Script) -> Outcome {
    rebuild(plan, timeline(plan), silver, gold, script)
}

/// The second half of `simulate`: the steps `timeline` put on the clock,
/// with the scheduled runs beside them, applied to `silver` and `gold`. Apart
/// so that a caller can let the browser breathe between the two halves.
pub fn rebuild(
    plan: &Plan,
    timeline: Timeline,
    silver: Table,
    gold: Gold,
    script: &Script,
) -> Outcome {
    let mut work = backfill_work(
        timeline.done.iter().map(|s| (s.dt, s.kind, s.start, s.end)),
        plan.logic,
        plan.reads,
        plan.write,
    );
    // A scheduled run builds its own day's silver in the first two thirds
    // of its slot, then its gold, from bronze, with the code live when it
    // got the slot.
    for (i, (run, grant)) in plan.scheduled.iter().zip(&timeline.grants).enumerate() {
        let minutes = run.booking.minutes;
        let silver_end = grant.got + Duration::minutes(minutes.saturating_mul(2) / 3);
        let end = grant.got + Duration::minutes(minutes);
        let logic = script.logic_at(grant.got, LogicVersion::Fixed);
        for (kind, start, end) in [
            (StepKind::Silver, grant.got, silver_end),
            (StepKind::Gold, silver_end, end),
        ] {
            work.push(Work {
                dt: run.day,
                kind,
                start,
                end,
                logic,
                reads: Reads::Bronze,
                write: WriteMode::OverwritePartition,
                origin: Origin::Scheduled(i),
            });
        }
    }
    let launch = plan.attempts.first().map(|a| a.start);
    let last_gold = timeline
        .done
        .iter()
        .filter(|s| s.kind == StepKind::Gold)
        .map(|s| s.end)
        .max();
    let report_at = plan.restate.and_then(|restate| match restate {
        Restatement::AtLaunch => launch,
        Restatement::AfterLastGold => last_gold.or(launch),
    });
    let after = apply(silver, gold, &script.events, &script.fx, &work, report_at);
    Outcome {
        timeline,
        report_at,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::{at, aug};
    use crate::clock::{Marking, Shape};
    use crate::generate::daily_runs;
    use crate::script::Interruption;

    fn script() -> Script {
        let mut script = Script::new(aug(1), Vec::new(), daily_runs(aug(1), aug(20), 2, 0));
        script.interruptions = vec![
            // Before the launch: not this backfill's.
            Interruption {
                at: at(aug(10), 9, 0),
                rerun_at: at(aug(10), 9, 30),
            },
            Interruption {
                at: at(aug(15), 10, 20),
                rerun_at: at(aug(15), 11, 0),
            },
            // While the re-run has not started yet: changes nothing.
            Interruption {
                at: at(aug(15), 10, 40),
                rerun_at: at(aug(15), 12, 0),
            },
            Interruption {
                at: at(aug(15), 11, 10),
                rerun_at: at(aug(15), 11, 30),
            },
        ];
        script
    }

    fn plan(script: &Script, launch: Instant, restate: Option<Restatement>) -> Plan {
        Plan {
            job: Job {
                first: aug(3),
                last: aug(13),
                concurrency: 4,
                pool: 4,
                silver_minutes: 20,
                gold_minutes: 10,
                shape: Shape::PerDate,
                markers: Marking::After,
                yield_to_scheduled: false,
            },
            attempts: attempts(script, launch),
            scheduled: scheduled(script, launch, 30),
            logic: LogicVersion::Fixed,
            reads: Reads::Bronze,
            write: WriteMode::OverwritePartition,
            restate,
        }
    }

    #[test]
    fn each_interruption_after_the_launch_cuts_an_attempt_and_starts_a_rerun() {
        let launch = at(aug(15), 10, 0);
        let got = attempts(&script(), launch);
        let want = vec![
            Attempt {
                start: launch,
                interrupt: Some(at(aug(15), 10, 20)),
            },
            Attempt {
                start: at(aug(15), 11, 0),
                interrupt: Some(at(aug(15), 11, 10)),
            },
            Attempt {
                start: at(aug(15), 11, 30),
                interrupt: None,
            },
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn scheduled_runs_from_the_launch_on_share_the_pool() {
        let launch = at(aug(15), 10, 0);
        let runs = scheduled(&script(), launch, 30);
        let days: Vec<Day> = runs.iter().map(|s| s.day).collect();
        // The run for the 15th is at 02:00 on the 16th, after the launch.
        assert_eq!(
            days,
            crate::calendar::days(aug(15), aug(20)).collect::<Vec<_>>()
        );
        assert!(runs.iter().all(|s| s.booking.minutes == 30));
    }

    #[test]
    fn a_scheduled_run_builds_silver_in_two_thirds_of_its_slot_then_gold() {
        let script = script();
        let launch = at(aug(15), 10, 0);
        let plan = plan(&script, launch, None);
        let outcome = simulate(&plan, Table::default(), Gold::default(), &script);
        let first = plan.scheduled.first().expect("a scheduled run");
        let grant = outcome.timeline.grants.first().expect("its grant");
        let mine: Vec<&Work> = outcome
            .after
            .applied
            .iter()
            .map(|a| &a.work)
            .filter(|w| w.origin == Origin::Scheduled(0))
            .collect();
        assert_eq!(mine.len(), 2);
        assert!(mine.iter().all(|w| w.dt == first.day));
        let silver = mine
            .iter()
            .find(|w| w.kind == StepKind::Silver)
            .expect("silver");
        let gold = mine
            .iter()
            .find(|w| w.kind == StepKind::Gold)
            .expect("gold");
        assert_eq!(
            (silver.start, silver.end),
            (grant.got, grant.got + Duration::minutes(20))
        );
        assert_eq!(
            (gold.start, gold.end),
            (silver.end, grant.got + Duration::minutes(30))
        );
    }

    #[test]
    fn the_report_is_restated_at_the_launch_or_after_the_last_gold_step() {
        let script = script();
        let launch = at(aug(15), 10, 0);
        let run = |restate| {
            let plan = plan(&script, launch, restate);
            simulate(&plan, Table::default(), Gold::default(), &script)
        };
        assert_eq!(run(None).report_at, None);
        assert_eq!(run(Some(Restatement::AtLaunch)).report_at, Some(launch));
        let after = run(Some(Restatement::AfterLastGold));
        let last_gold = after
            .timeline
            .done
            .iter()
            .filter(|s| s.kind == StepKind::Gold)
            .map(|s| s.end)
            .max();
        assert!(last_gold.is_some_and(|at| at > launch));
        assert_eq!(after.report_at, last_gold);
    }

    #[test]
    fn only_table_steps_become_work_numbered_by_their_place_in_the_trace() {
        let script = script();
        let plan = plan(&script, at(aug(15), 10, 0), None);
        let timeline = timeline(&plan);
        let work = backfill_work(
            timeline.done.iter().map(|s| (s.dt, s.kind, s.start, s.end)),
            LogicVersion::Fixed,
            Reads::Bronze,
            WriteMode::OverwritePartition,
        );
        let tables = timeline
            .done
            .iter()
            .filter(|s| s.kind != StepKind::Marker)
            .count();
        assert!(tables < timeline.done.len(), "markers were written");
        assert_eq!(work.len(), tables);
        for w in &work {
            let Origin::Backfill(i) = w.origin else {
                panic!("a backfill step");
            };
            let step = timeline.done.get(i).expect("in the trace");
            assert_eq!(
                (step.dt, step.kind, step.start, step.end),
                (w.dt, w.kind, w.start, w.end)
            );
        }
    }
}
