//! A designed backfill run on a backward-looking scenario's script: the
//! tables as the scheduler left them before the launch, the backfill on
//! the clock beside the scheduled runs (which share its pool), and every
//! step applied to silver and gold. Scenarios 4 and 5 judge the result.

use std::collections::BTreeSet;

use chrono::Duration;

use crate::design::compile::{BackfillDesign, CompiledDesign};
use crate::design::graph::{BackfillShape, Layer, Markers, Restate};
use crate::engine::calendar::{hh_mm, weekday_day_month_time, Day, Instant};
use crate::engine::clock::StepKind;
use crate::engine::clock::{run_clock, Attempt, Booking, Grant, Job, Marking, Shape, Timeline};
use crate::engine::rebuild::{apply, Applied, Origin, Reads, Rebuilt, Work};
use crate::engine::script::Script;
use crate::engine::table::{Gold, Table};
use crate::engine::{
    simulate_with, Detail, LogicVersion, PipelineConfig, ProcessingState, WriteMode,
};

/// A scenario's fixed numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// When the backfill is launched.
    pub launch: Instant,
    pub pool: u32,
    pub silver_minutes: i64,
    pub gold_minutes: i64,
    /// How long each scheduled run at or after the launch holds a slot.
    pub scheduled_minutes: i64,
}

/// A scheduled run beside the backfill: the day it builds and its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub day: Day,
    pub booking: Booking,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Backfilled {
    pub design: BackfillDesign,
    /// Silver and gold as they stood at the launch.
    pub silver_before: Table,
    pub gold_before: Gold,
    pub attempts: Vec<Attempt>,
    pub scheduled: Vec<Scheduled>,
    pub timeline: Timeline,
    /// When the finance report was restated, if anything restates it.
    pub report_at: Option<Instant>,
    pub after: Rebuilt,
}

impl Backfilled {
    /// When the backfill's last step finished.
    pub fn finished_at(&self) -> Option<Instant> {
        self.timeline.finished_at()
    }

    /// The silver rebuilds the backfill itself did, as applied.
    pub fn silver_rebuilds(&self) -> impl Iterator<Item = &Applied> {
        self.after.applied.iter().filter(|a| {
            matches!(a.work.origin, Origin::Backfill(_)) && a.work.kind == StepKind::Silver
        })
    }

    /// Scheduled runs that waited for a slot, with their grants.
    pub fn late_runs(&self) -> impl Iterator<Item = (&Grant, &Scheduled)> {
        self.timeline
            .grants
            .iter()
            .zip(&self.scheduled)
            .filter(|(g, _)| g.waited().num_minutes() > 0)
    }
}

fn job(setting: &Setting, b: &BackfillDesign) -> Job {
    Job {
        first: b.first,
        last: b.last,
        concurrency: b.max_concurrency,
        pool: setting.pool,
        silver_minutes: setting.silver_minutes,
        gold_minutes: setting.gold_minutes,
        shape: match b.shape {
            BackfillShape::PerDate => Shape::PerDate,
            BackfillShape::TwoPhases => Shape::TwoPhases,
            BackfillShape::Together => Shape::Together,
        },
        markers: match b.markers {
            Markers::Off => Marking::Off,
            Markers::AfterPartition => Marking::After,
            Markers::BeforePartition => Marking::Before,
        },
        yield_to_scheduled: b.yield_to_scheduled,
    }
}

/// The tables the scheduler built before the launch: every run before it,
/// one partition each, with whatever logic was live.
fn history(setting: &Setting, script: &Script) -> (Table, Gold) {
    let mut before = script.clone();
    before.runs.retain(|r| r.at < setting.launch);
    if before.runs.is_empty() {
        return (Table::default(), Gold::default());
    }
    let config = PipelineConfig::new(
        ProcessingState::partition_list(0),
        WriteMode::OverwritePartition,
    );
    let built = simulate_with(&config, &before, Detail::Summary);
    (built.silver, built.gold)
}

/// The launch, then one re-run per interruption.
fn attempts(setting: &Setting, script: &Script) -> Vec<Attempt> {
    let mut cuts: Vec<_> = script
        .interruptions
        .iter()
        .filter(|i| i.at >= setting.launch)
        .copied()
        .collect();
    crate::order::sort_by_key(&mut cuts, |i| (i.at, i.rerun_at));
    let mut attempts = vec![Attempt {
        start: setting.launch,
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

/// Runs `design`'s backfill on `script`; `None` when the design has none.
pub fn run(setting: &Setting, design: &CompiledDesign, script: &Script) -> Option<Backfilled> {
    let b = design.backfill?;
    let (silver_before, gold_before) = history(setting, script);
    let scheduled: Vec<Scheduled> = script
        .runs
        .iter()
        .filter(|r| r.at >= setting.launch)
        .map(|r| Scheduled {
            day: r.day,
            booking: Booking {
                at: r.at,
                minutes: setting.scheduled_minutes,
            },
        })
        .collect();
    let bookings: Vec<Booking> = scheduled.iter().map(|s| s.booking).collect();
    let attempts = attempts(setting, script);
    let timeline = run_clock(&job(setting, &b), &attempts, &bookings);
    let reads = match b.reads {
        Layer::Bronze => Reads::Bronze,
        Layer::Silver => Reads::Silver,
    };
    let mut work: Vec<Work> = timeline
        .done
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind != StepKind::Marker)
        .map(|(i, s)| Work {
            dt: s.dt,
            kind: s.kind,
            start: s.start,
            end: s.end,
            logic: b.logic,
            reads,
            write: b.write,
            origin: Origin::Backfill(i),
        })
        .collect();
    // A scheduled run builds its own day's silver, then its gold, with the
    // code live when it starts.
    for (i, (run, grant)) in scheduled.iter().zip(&timeline.grants).enumerate() {
        let silver_end = grant.got + Duration::minutes(setting.scheduled_minutes * 2 / 3);
        let end = grant.got + Duration::minutes(setting.scheduled_minutes);
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
    let last_gold = timeline
        .done
        .iter()
        .filter(|s| s.kind == StepKind::Gold)
        .map(|s| s.end)
        .max();
    let report_at = design.restate.map(|restate| match restate {
        Restate::AtOnce => setting.launch,
        Restate::AfterAllGold => last_gold.unwrap_or(setting.launch),
    });
    let after = apply(
        silver_before.clone(),
        gold_before.clone(),
        &script.events,
        &script.fx,
        &work,
        report_at,
    );
    Some(Backfilled {
        design: b,
        silver_before,
        gold_before,
        attempts,
        scheduled,
        timeline,
        report_at,
        after,
    })
}

/// The backfill moment by moment, for the smallest case: launches and
/// interruptions, each layer step of a date that still holds events (every
/// step when none does), scheduled runs asking for and getting a slot, and
/// the report's restatement.
pub fn replay(done: &Backfilled, script: &Script) -> Vec<String> {
    let with_events: BTreeSet<Day> = script.events.iter().map(|e| e.event_date()).collect();
    let mut lines: Vec<(Instant, u8, String)> = Vec::new();
    for (n, attempt) in done.attempts.iter().enumerate() {
        let what = if n == 0 { "launched" } else { "launched again" };
        lines.push((attempt.start, 0, format!("The backfill is {what}.")));
        if let Some(cut) = attempt.interrupt {
            let killed: BTreeSet<Day> = done
                .timeline
                .cancelled
                .iter()
                .filter(|s| s.attempt == n)
                .map(|s| s.dt)
                .collect();
            lines.push((
                cut,
                0,
                format!(
                    "The source fails over: the backfill dies with {} date(s) in flight.",
                    killed.len()
                ),
            ));
        }
    }
    for a in &done.after.applied {
        if !with_events.is_empty() && !with_events.contains(&a.work.dt) {
            continue;
        }
        let who = match a.work.origin {
            Origin::Backfill(_) => "the backfill",
            Origin::Scheduled(_) => "the scheduled run",
        };
        let what = match a.work.kind {
            StepKind::Silver => format!(
                "silver for {} rewritten by {who} from {} ({} logic): {} row(s) read, {} in the partition after",
                a.work.dt,
                match a.work.reads {
                    Reads::Bronze => "bronze",
                    Reads::Silver => "silver",
                },
                match a.work.logic {
                    LogicVersion::Fixed => "fixed",
                    LogicVersion::Broken => "broken",
                },
                a.rows_read,
                a.rows_after,
            ),
            _ => format!(
                "gold for {} rewritten by {who}, summing the {} silver row(s) there at {}",
                a.work.dt,
                a.rows_read,
                hh_mm(a.work.start),
            ),
        };
        lines.push((
            a.work.end,
            1,
            format!(
                "{} (started {}).",
                super::report::capital(&what),
                hh_mm(a.work.start)
            ),
        ));
    }
    for (g, s) in done.timeline.grants.iter().zip(&done.scheduled) {
        let when = if g.waited().num_minutes() > 0 {
            format!("waits {} min for a slot", g.waited().num_minutes())
        } else {
            "gets a slot at once".to_string()
        };
        lines.push((
            g.asked,
            0,
            format!(
                "The scheduled run for {} asks for a slot and {when}.",
                s.day
            ),
        ));
    }
    if let Some(at) = done.report_at {
        lines.push((
            at,
            2,
            "The finance report is restated from gold.".to_string(),
        ));
    }
    crate::order::sort(&mut lines);
    lines
        .into_iter()
        .map(|(at, _, line)| format!("{}: {line}", weekday_day_month_time(at)))
        .collect()
}
