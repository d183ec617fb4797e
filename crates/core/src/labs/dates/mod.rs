//! One pipeline's dates in every tool's terms: the daily 02:00 UTC run
//! that builds partition d on d+1, an allowed lateness of L days, and a
//! backfill of the dates `first..=last`, as Airflow 3, Dagster, SQLMesh,
//! dbt microbatch and Beam name them.
//!
//! Each value here is the lab's claim about a tool, worked out by the
//! tool's own rule (dbt's batch arithmetic, Beam's droppability test,
//! Airflow's timetables); `scripts/check-real` asks each tool and compares
//! (`scripts/real/dates_*.py`), and the page draws only what is here.

// The page's query reaches these numbers: no unchecked arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub mod query;
pub mod view;

use chrono::Duration;

use crate::engine::calendar::{at, aug, days, shift, Day, Instant};
use crate::engine::lateness::{finalising_run, RUN_HOUR};

/// The pipeline the page is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pipeline {
    /// The partition d the calendar follows.
    pub day: Day,
    /// Allowed lateness in days.
    pub lateness: u32,
    /// The backfill's dates, both included.
    pub first: Day,
    pub last: Day,
}

impl Default for Pipeline {
    /// The chapter's backfill (3 to 13 August) and the lateness lab's two
    /// days, following 5 August, a day inside the backfill.
    fn default() -> Self {
        Pipeline {
            day: aug(5),
            lateness: 2,
            first: aug(3),
            last: aug(13),
        }
    }
}

/// What the lateness lab says of Dagster beside its link here: Dagster has
/// no allowed-lateness setting (the dates card says it for the page's day,
/// and `scripts/real/dates_dagster.py` checks both halves).
pub const DAGSTER_HAS_NO_LATENESS: &str = "Dagster has no allowed-lateness setting: its daily schedule requests each day's partition once, the morning after, so an order that arrives later reaches it only when that partition is materialized again (and a day missed while the scheduler was down, only by a backfill).";

/// The largest allowed lateness the page offers, as the lateness lab.
pub const MAX_LATENESS: u32 = crate::labs::lateness::model::MAX_DAYS;

/// `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: Instant,
    pub end: Instant,
}

/// A tool's command for the backfill, and what it runs: logical dates,
/// partition keys or batches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backfill<T> {
    pub args: Vec<String>,
    pub runs: Vec<T>,
}

/// Airflow 3's two readings of `0 2 * * *`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timetable {
    /// A bare cron, Airflow 3's default: `CronTriggerTimetable`.
    Trigger,
    /// Airflow 2's meaning: `CronDataIntervalTimetable`.
    Interval,
}

impl Timetable {
    pub const ALL: [Timetable; 2] = [Timetable::Trigger, Timetable::Interval];

    pub fn key(self) -> &'static str {
        match self {
            Timetable::Trigger => "trigger",
            Timetable::Interval => "interval",
        }
    }

    /// The DAG's `schedule=` as Python.
    pub fn schedule(self) -> &'static str {
        match self {
            Timetable::Trigger => "\"0 2 * * *\"",
            Timetable::Interval => "CronDataIntervalTimetable(\"0 2 * * *\", timezone=\"UTC\")",
        }
    }

    pub fn imports(self) -> &'static str {
        match self {
            Timetable::Trigger => "",
            Timetable::Interval => {
                "from airflow.timetables.interval import CronDataIntervalTimetable"
            }
        }
    }

    /// The partition the run stamped `logical` builds.
    pub fn partition_of(self, logical: Instant) -> Day {
        match self {
            Timetable::Trigger => shift(logical.date(), -1),
            Timetable::Interval => logical.date(),
        }
    }

    /// The logical date of the run that builds partition `dt`.
    pub fn logical_date(self, dt: Day) -> Instant {
        match self {
            // The run is stamped with the moment it fires.
            Timetable::Trigger => run_at(shift(dt, 1)),
            // The run is stamped with the start of the interval it covers.
            Timetable::Interval => run_at(dt),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Airflow {
    pub timetable: Timetable,
    /// When the run that builds d fires.
    pub run_after: Instant,
    pub logical_date: Instant,
    pub interval: Span,
    /// `--from-date/--to-date` as full logical datetimes.
    pub backfill: Backfill<Instant>,
    /// The backfill's own dates typed bare (midnights), as a student
    /// copying them would: what those run.
    pub bare: Backfill<Instant>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dagster {
    /// The partitions definition as Python.
    pub partitions: String,
    pub key: Day,
    pub window: Span,
    /// The schedule tick that requests partition d.
    pub tick: Instant,
    pub cron: &'static str,
    /// `--partition-range`'s value.
    pub range: String,
    pub keys: Vec<Day>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlMesh {
    /// The model's `kind`.
    pub kind: String,
    pub cron: &'static str,
    pub start: Day,
    pub interval: Span,
    /// The daily runs tried, from d's own day to the one after d is done.
    pub probe: Vec<Instant>,
    /// Those that process d's interval.
    pub runs: Vec<Instant>,
    pub restate: Backfill<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dbt {
    pub event_time: &'static str,
    pub batch_size: &'static str,
    pub begin: Day,
    /// The lookback that makes the run on d+1+L the last to rebuild d.
    pub lookback: u32,
    pub batch: Span,
    pub probe: Vec<Instant>,
    /// The plain runs that process batch d at `lookback`.
    pub runs: Vec<Instant>,
    /// The lookback a student would first try (L), and its runs.
    pub short_lookback: u32,
    pub short_runs: Vec<Instant>,
    pub backfill: Backfill<Span>,
    /// `--event-time-end` given the last day itself.
    pub bare: Backfill<Span>,
    /// dbt refuses `bare` outright when it starts where it ends (a one-day
    /// backfill): "--event-time-start must be less than --event-time-end".
    pub bare_refused: bool,
    pub gap: Gap,
}

/// Two plain runs with every run between them missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    pub before: Instant,
    pub after: Instant,
    /// Whether either processes batch d.
    pub processes_day: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beam {
    pub window: Span,
    pub lateness_days: u32,
    /// Each run moves the watermark to midnight of its own day.
    pub runs: Vec<BeamRun>,
    /// The same runs with the watermark at the run time itself.
    pub at_run_time: Vec<BeamRun>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeamRun {
    pub run: Instant,
    pub watermark: Instant,
    /// Whether an event of day d that arrived since the run before is kept.
    pub accepts: bool,
}

/// Everything the page shows, for one pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    pub pipeline: Pipeline,
    /// The lab's run that builds d, and the last that may change it.
    pub built: Instant,
    pub last_change: Instant,
    pub airflow: Vec<Airflow>,
    pub dagster: Dagster,
    pub sqlmesh: SqlMesh,
    pub dbt: Dbt,
    pub beam: Beam,
}

/// The daily run on `day`.
fn run_at(day: Day) -> Instant {
    at(day, RUN_HOUR, 0)
}

fn midnight(day: Day) -> Instant {
    at(day, 0, 0)
}

/// Day `dt` as an interval of the calendar, midnight to midnight.
fn whole_day(dt: Day) -> Span {
    Span {
        start: midnight(dt),
        end: midnight(shift(dt, 1)),
    }
}

/// `n` days after `day` (saturating: the page's days are in 2026).
fn after(day: Day, n: u32) -> Day {
    shift(day, i64::from(n))
}

/// `t` as Airflow, Dagster and the check scripts write an instant.
pub use crate::engine::calendar::iso_utc as iso;

/// The batches of a plain microbatch run invoked at `now`, by dbt's rule
/// (`MicrobatchBuilder`): the end is `now` rounded up to the next day (dbt
/// 1.11 compares its naive clock with an aware midnight, so even a run at
/// midnight rounds up); the start is the end less `lookback` days, and one
/// more because that end is on a day's boundary.
pub fn dbt_batches(now: Instant, lookback: u32) -> Vec<Span> {
    let end = shift(now.date(), 1);
    let start = shift(end, (-1_i64).saturating_sub(i64::from(lookback)));
    days(start, shift(end, -1)).map(whole_day).collect()
}

/// Whether a daily `sqlmesh run` at `run`, after the one the day before,
/// processes day `dt`'s interval: the interval that completed since, and
/// the `lookback` before it.
fn sqlmesh_processes(run: Instant, dt: Day, lookback: u32) -> bool {
    let newest = shift(run.date(), -1);
    dt <= newest && after(dt, lookback) >= newest
}

/// Beam keeps an element while the watermark is not past its window's end
/// plus the allowed lateness.
fn beam_accepts(watermark: Instant, window: Span, lateness_days: u32) -> bool {
    Duration::try_days(i64::from(lateness_days))
        .and_then(|l| window.end.checked_add_signed(l))
        .is_none_or(|limit| watermark <= limit)
}

impl Calendar {
    pub fn of(p: Pipeline) -> Calendar {
        let d = p.day;
        let l = p.lateness;
        let range: Vec<Day> = days(p.first, p.last).collect();
        // From d's own day (dbt touches it then) to the day after it is done.
        let probe: Vec<Instant> = days(d, after(d, l.saturating_add(3))).map(run_at).collect();
        let airflow = Timetable::ALL
            .iter()
            .map(|&t| {
                let dates: Vec<Instant> = range.iter().map(|&x| t.logical_date(x)).collect();
                let (from, to) = (t.logical_date(p.first), t.logical_date(p.last));
                // The backfill's own dates, typed bare, are midnights: the
                // dry-run keeps the 02:00 runs between them.
                let bare_runs = days(p.first, shift(p.last, -1)).map(run_at).collect();
                let logical_date = t.logical_date(d);
                Airflow {
                    timetable: t,
                    run_after: run_at(shift(d, 1)),
                    logical_date,
                    interval: match t {
                        Timetable::Trigger => Span {
                            start: logical_date,
                            end: logical_date,
                        },
                        Timetable::Interval => Span {
                            start: run_at(d),
                            end: run_at(shift(d, 1)),
                        },
                    },
                    backfill: Backfill {
                        args: date_args(&iso(from), &iso(to)),
                        runs: dates,
                    },
                    bare: Backfill {
                        args: date_args(&p.first.to_string(), &p.last.to_string()),
                        runs: bare_runs,
                    },
                }
            })
            .collect();
        let dagster = Dagster {
            partitions: crate::tool::dagster_daily_partitions(aug(1)),
            key: d,
            window: Span {
                start: run_at(d),
                end: run_at(shift(d, 1)),
            },
            tick: run_at(shift(d, 1)),
            cron: "0 2 * * *",
            range: format!("{}...{}", p.first, p.last),
            keys: range.clone(),
        };
        let sqlmesh = SqlMesh {
            kind: if l == 0 {
                // SQLMesh refuses `lookback 0`: none is its default.
                "INCREMENTAL_BY_TIME_RANGE (time_column dt)".to_string()
            } else {
                format!("INCREMENTAL_BY_TIME_RANGE (time_column dt, lookback {l})")
            },
            cron: "@daily",
            start: aug(1),
            interval: whole_day(d),
            runs: probe
                .iter()
                .copied()
                .filter(|r| sqlmesh_processes(*r, d, l))
                .collect(),
            probe: probe.clone(),
            restate: Backfill {
                args: vec![
                    "--restate-model".to_string(),
                    "shop.orders".to_string(),
                    "--start".to_string(),
                    p.first.to_string(),
                    "--end".to_string(),
                    p.last.to_string(),
                ],
                runs: range.iter().map(|&x| whole_day(x)).collect(),
            },
        };
        let batch = whole_day(d);
        let touching = |lookback: u32| -> Vec<Instant> {
            probe
                .iter()
                .copied()
                .filter(|r| dbt_batches(*r, lookback).contains(&batch))
                .collect()
        };
        let lookback = l.saturating_add(1);
        let (before, after_gap) = (run_at(shift(d, -1)), run_at(after(d, l.saturating_add(2))));
        let gap = Gap {
            before,
            after: after_gap,
            processes_day: [before, after_gap]
                .iter()
                .any(|r| dbt_batches(*r, lookback).contains(&batch)),
        };
        let event_range = |end: Day| Backfill {
            args: vec![
                "--event-time-start".to_string(),
                p.first.to_string(),
                "--event-time-end".to_string(),
                end.to_string(),
            ],
            runs: days(p.first, shift(end, -1)).map(whole_day).collect(),
        };
        let dbt = Dbt {
            event_time: "event_time",
            batch_size: "day",
            begin: aug(1),
            lookback,
            batch,
            runs: touching(lookback),
            short_lookback: l,
            short_runs: touching(l),
            probe: probe.clone(),
            backfill: event_range(shift(p.last, 1)),
            bare: event_range(p.last),
            bare_refused: p.first >= p.last,
            gap,
        };
        let window = whole_day(d);
        let beam_runs = |hour: u32| -> Vec<BeamRun> {
            probe
                .iter()
                .filter(|r| r.date() > d)
                .map(|&run| {
                    let watermark = at(run.date(), hour, 0);
                    BeamRun {
                        run,
                        watermark,
                        accepts: beam_accepts(watermark, window, l),
                    }
                })
                .collect()
        };
        let beam = Beam {
            window,
            lateness_days: l,
            runs: beam_runs(0),
            at_run_time: beam_runs(RUN_HOUR),
        };
        Calendar {
            pipeline: p,
            built: finalising_run(d, 0),
            last_change: finalising_run(d, l),
            airflow,
            dagster,
            sqlmesh,
            dbt,
            beam,
        }
    }
}

/// A correction re-runs dates that already ran: Airflow's default
/// (`none`) would skip them all.
fn date_args(from: &str, to: &str) -> Vec<String> {
    vec![
        "--from-date".to_string(),
        from.to_string(),
        "--to-date".to_string(),
        to.to_string(),
        "--reprocess-behavior".to_string(),
        "completed".to_string(),
    ]
}

#[cfg(test)]
mod tests;
