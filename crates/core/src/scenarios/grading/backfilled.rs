//! A designed backfill on a backward-looking scenario's script: the
//! design's choices and the scenario's numbers become an engine backfill
//! plan (`engine::backfill_run`, which the backfill lab runs too), and the
//! result is kept with what scenarios 4 and 5 judge it by. The moment by
//! moment replay the smallest case shows is written here.

use crate::counted::{counted, grouped};
use crate::lean::sorted::SortedSet;

use crate::design::compile::{BackfillDesign, CompiledDesign};
use crate::design::graph::{BackfillShape, Layer, Markers, Restate};
use crate::engine::backfill_run::{self, Plan, Restatement};
use crate::engine::calendar::{hh_mm, weekday_day_month_time, Day, Instant};
use crate::engine::clock::{Attempt, Grant, Job, Marking, Shape, StepKind, Timeline};
use crate::engine::rebuild::{Applied, Origin, Reads, Rebuilt};
use crate::engine::script::Script;
use crate::engine::table::{Gold, Table};
use crate::engine::LogicVersion;

pub use crate::engine::backfill_run::Scheduled;

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

/// A designed shape as the clock's.
fn shape(shape: BackfillShape) -> Shape {
    match shape {
        BackfillShape::PerDate => Shape::PerDate,
        BackfillShape::TwoPhases => Shape::TwoPhases,
        BackfillShape::Together => Shape::Together,
    }
}

/// Designed completion markers as the clock's.
fn marking(markers: Markers) -> Marking {
    match markers {
        Markers::Off => Marking::Off,
        Markers::AfterPartition => Marking::After,
        Markers::BeforePartition => Marking::Before,
    }
}

/// The design's backfill in the engine's terms: the one place a
/// scenario's design becomes the engine's plan, which the check runs and
/// the room writes for Spark.
pub fn plan(
    setting: &Setting,
    design: &CompiledDesign,
    b: &BackfillDesign,
    script: &Script,
) -> Plan {
    Plan {
        job: Job {
            first: b.first,
            last: b.last,
            concurrency: b.concurrency,
            pool: setting.pool,
            silver_minutes: setting.silver_minutes,
            gold_minutes: setting.gold_minutes,
            shape: shape(b.shape),
            markers: marking(b.markers),
            yield_to_scheduled: b.yield_to_scheduled,
        },
        attempts: backfill_run::attempts(script, setting.launch),
        scheduled: backfill_run::scheduled(script, setting.launch, setting.scheduled_minutes),
        logic: b.logic,
        reads: match b.reads {
            Layer::Bronze => Reads::Bronze,
            Layer::Silver => Reads::Silver,
        },
        write: b.write,
        restate: design.restate.map(|restate| match restate {
            Restate::AtOnce => Restatement::AtLaunch,
            Restate::AfterAllGold => Restatement::AfterLastGold,
        }),
    }
}

/// Runs `design`'s backfill on `script`; `None` when the design has none.
pub fn run(setting: &Setting, design: &CompiledDesign, script: &Script) -> Option<Backfilled> {
    Some(launch(setting, design, script)?.clock().rebuild(script))
}

/// `design`'s backfill as if nothing interrupted it: its first launch run
/// to the end (the scheduled runs still compete). What a job run once from
/// the launch must leave, for the real-tool checks.
pub fn uninterrupted(
    setting: &Setting,
    design: &CompiledDesign,
    script: &Script,
) -> Option<Backfilled> {
    let mut launched = launch(setting, design, script)?;
    launched.plan.attempts.truncate(1);
    for attempt in &mut launched.plan.attempts {
        attempt.interrupt = None;
    }
    Some(launched.clock().rebuild(script))
}

/// `run`'s first step: the tables the scheduler built before the launch,
/// and the plan; `None` when the design has no backfill. The grader takes
/// the three steps one at a time so that the page can paint between them.
pub fn launch(setting: &Setting, design: &CompiledDesign, script: &Script) -> Option<Launched> {
    let b = design.backfill?;
    let (silver_before, gold_before) = backfill_run::history(script, setting.launch);
    Some(Launched {
        plan: plan(setting, design, &b, script),
        design: b,
        silver_before,
        gold_before,
    })
}

/// A backfill launched on the tables as they stood.
pub struct Launched {
    design: BackfillDesign,
    plan: Plan,
    silver_before: Table,
    gold_before: Gold,
}

impl Launched {
    /// `run`'s second step: the plan's steps on the clock.
    pub fn clock(self) -> Clocked {
        Clocked {
            timeline: backfill_run::timeline(&self.plan),
            launched: self,
        }
    }
}

/// A backfill whose steps are on the clock but not yet on the tables.
pub struct Clocked {
    launched: Launched,
    timeline: Timeline,
}

impl Clocked {
    /// `run`'s last step: the steps and the scheduled runs applied to the
    /// tables.
    pub fn rebuild(self, script: &Script) -> Backfilled {
        let Launched {
            design,
            plan,
            silver_before,
            gold_before,
        } = self.launched;
        let outcome = backfill_run::rebuild(
            &plan,
            self.timeline,
            silver_before.clone(),
            gold_before.clone(),
            script,
        );
        Backfilled {
            design,
            silver_before,
            gold_before,
            attempts: plan.attempts,
            scheduled: plan.scheduled,
            timeline: outcome.timeline,
            report_at: outcome.report_at,
            after: outcome.after,
        }
    }
}

/// The backfill moment by moment, for the smallest case: launches and
/// interruptions, each layer step of a date that still holds events (every
/// step when none does), scheduled runs asking for and getting a slot, and
/// the report's restatement.
pub fn replay(done: &Backfilled, script: &Script) -> Vec<String> {
    replay_at(done, script)
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

/// `replay`'s lines with the moment each is about, for pictures that step
/// with them.
pub fn replay_at(done: &Backfilled, script: &Script) -> Vec<(Instant, String)> {
    let with_events: SortedSet<Day> = script.events.iter().map(|e| e.event_date()).collect();
    let mut lines: Vec<(Instant, u8, String)> = Vec::new();
    for (n, attempt) in done.attempts.iter().enumerate() {
        let what = if n == 0 { "launched" } else { "launched again" };
        lines.push((attempt.start, 0, format!("The backfill is {what}.")));
        if let Some(cut) = attempt.interrupt {
            let killed: SortedSet<Day> = done
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
                    "The source fails over: the backfill dies with {} in flight.",
                    counted(killed.len(), "date")
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
                "silver for {} rewritten by {who} from {} ({} logic): {} read, {} in the partition after",
                a.work.dt,
                match a.work.reads {
                    Reads::Bronze => "bronze",
                    Reads::Silver => "silver",
                },
                match a.work.logic {
                    LogicVersion::Fixed => "fixed",
                    LogicVersion::Broken => "broken",
                },
                counted(a.rows_read, "row"),
                grouped(a.rows_after),
            ),
            _ => format!(
                "gold for {} rewritten by {who}, summing the {} there at {}",
                a.work.dt,
                counted(a.rows_read, "silver row"),
                hh_mm(a.work.start),
            ),
        };
        lines.push((
            a.work.end,
            1,
            format!(
                "{} (started {}).",
                crate::scenarios::grading::report::capital(&what),
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
    crate::lean::order::sort(&mut lines);
    lines
        .into_iter()
        .map(|(at, _, line)| (at, format!("{}: {line}", weekday_day_month_time(at))))
        .collect()
}
