//! What the dates page draws, decided here (and tested natively): the
//! calendar grid, a mark per tool on the day it happens, and a card per
//! tool with its terms, its setting, its backfill command and its traps.
//! Every date in a sentence comes from the [`Calendar`].

use crate::counted::counted;
use crate::engine::calendar::{day_month, hh_mm, shift, weekday_day_month_time, Day, Instant};
use crate::tool::{
    AIRFLOW_VERSIONS, BEAM_VERSIONS, DAGSTER_VERSIONS, DBT_VERSIONS, SQLMESH_VERSIONS,
};

use super::{iso, Backfill, Calendar, Span, Timetable};
use crate::engine::lateness::RUN_HOUR;

mod cards;

/// Something that happens on a day of the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub time: String,
    pub text: String,
    /// Where a student trips: the page flags it in words, not colour only.
    pub trap: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridRow {
    pub tool: &'static str,
    /// One list of marks per day of [`Grid::days`].
    pub cells: Vec<Vec<Mark>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub days: Vec<Day>,
    pub rows: Vec<GridRow>,
}

/// One term of a tool and its value for partition d.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub term: &'static str,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// The heading, and the id its section is linked by.
    pub tool: &'static str,
    pub id: &'static str,
    pub version: &'static str,
    /// The setting as the tool's file writes it.
    pub setting: String,
    pub terms: Vec<Term>,
    /// The backfill of the page's dates, as a command, and what it runs.
    pub command: Option<String>,
    pub covers: String,
    pub traps: Vec<String>,
}

/// The rows of the grid, in the order of the cards.
pub const TOOLS: [&str; 7] = [
    "The lab",
    "Airflow 3 default (CronTriggerTimetable)",
    "Airflow data intervals (CronDataIntervalTimetable)",
    "Dagster",
    "SQLMesh",
    "dbt microbatch",
    "Beam / Flink",
];

fn mark(time: Instant, text: String, trap: bool) -> (Instant, Mark) {
    (
        time,
        Mark {
            time: hh_mm(time),
            text,
            trap,
        },
    )
}

/// "3 Aug to 13 Aug", or the one day.
fn day_range(first: Day, last: Day) -> String {
    if first == last {
        day_month(first)
    } else {
        format!("{} to {}", day_month(first), day_month(last))
    }
}

/// The daily run's time of day ("02:00"), as every sentence names it.
fn run_time() -> String {
    format!("{RUN_HOUR:02}:00")
}

/// "5 Aug 02:00 to 6 Aug 02:00".
fn span(s: Span) -> String {
    format!("{} to {}", short(s.start), short(s.end))
}

/// "5 Aug 02:00".
fn short(t: Instant) -> String {
    format!("{} {}", day_month(t.date()), hh_mm(t))
}

/// "3 Aug 02:00 to 13 Aug 02:00", or the one, or none.
fn first_last<T>(runs: &[T], show: impl Fn(&T) -> String) -> String {
    match (runs.first(), runs.last()) {
        (Some(a), Some(b)) if runs.len() > 1 => format!("{} to {}", show(a), show(b)),
        (Some(a), _) => show(a),
        _ => "nothing".to_string(),
    }
}

impl Calendar {
    /// The grid's days: from d to the day after the last that may change it.
    pub fn grid(&self) -> Grid {
        let d = self.pipeline.day;
        let last = shift(self.last_change.date(), 1);
        let days: Vec<Day> = crate::engine::calendar::days(d, last).collect();
        let marks = self.marks();
        let rows = TOOLS
            .iter()
            .zip(marks)
            .map(|(&tool, marks)| GridRow {
                tool,
                cells: days
                    .iter()
                    .map(|day| {
                        marks
                            .iter()
                            .filter(|(t, _)| t.date() == *day)
                            .map(|(_, m)| m.clone())
                            .collect()
                    })
                    .collect(),
            })
            .collect();
        Grid { days, rows }
    }

    /// Each tool's marks, in [`TOOLS`]' order.
    fn marks(&self) -> Vec<Vec<(Instant, Mark)>> {
        let d = day_month(self.pipeline.day);
        let l = self.pipeline.lateness;
        let mut lab = vec![mark(
            crate::engine::calendar::at(self.pipeline.day, 0, 0),
            format!("partition {d}: the events of this day"),
            false,
        )];
        if self.built == self.last_change {
            lab.push(mark(
                self.built,
                format!("the run builds {d}, and is the last that may change it"),
                false,
            ));
        } else {
            lab.push(mark(self.built, format!("the run builds {d}"), false));
            lab.push(mark(
                self.last_change,
                format!(
                    "the last run that may change {d} ({})",
                    counted(l as usize, "day")
                ),
                false,
            ));
        }
        let airflow: Vec<Vec<(Instant, Mark)>> = self
            .airflow
            .iter()
            .map(|a| match a.timetable {
                Timetable::Trigger => vec![mark(
                    a.run_after,
                    format!(
                        "the run for {d} fires: logical date {}, the day after its partition; data interval empty",
                        short(a.logical_date)
                    ),
                    true,
                )],
                Timetable::Interval => vec![
                    mark(
                        a.interval.start,
                        format!("logical date {}: the data interval starts", short(a.logical_date)),
                        false,
                    ),
                    mark(
                        a.run_after,
                        "the data interval ends and its run fires".to_string(),
                        false,
                    ),
                ],
            })
            .collect();
        let g = &self.dagster;
        let dagster = vec![
            mark(
                g.window.start,
                format!(
                    "partition {}'s window starts (the asset still reads the whole of {d})",
                    g.key
                ),
                true,
            ),
            mark(
                g.tick,
                format!(
                    "the window ends; the schedule's tick requests partition {}",
                    g.key
                ),
                false,
            ),
        ];
        let s = &self.sqlmesh;
        let mut sqlmesh = vec![
            mark(s.interval.start, format!("interval {d} starts"), false),
            mark(
                s.interval.end,
                format!("interval {d} is complete (cron {})", s.cron),
                false,
            ),
        ];
        for (i, &run) in s.runs.iter().enumerate() {
            let text = if i == 0 {
                format!("sqlmesh run processes {d}")
            } else {
                format!("sqlmesh run processes {d} again (lookback {l})")
            };
            sqlmesh.push(mark(run, text, false));
        }
        let b = &self.dbt;
        let mut dbt = vec![mark(b.batch.start, format!("batch {d} starts"), false)];
        let last_short = b.short_runs.last().copied();
        for &run in &b.runs {
            let (text, trap) = if run.date() == self.pipeline.day {
                (
                    format!(
                        "a plain dbt run already processes batch {d}, {} into it",
                        counted(
                            usize::try_from(chrono::Timelike::hour(&run)).unwrap_or(0),
                            "hour"
                        )
                    ),
                    true,
                )
            } else if Some(run) == b.runs.last().copied() {
                (
                    format!(
                        "the last run to rebuild batch {d}, with lookback {} (lookback {} stops the day before)",
                        b.lookback, b.short_lookback
                    ),
                    true,
                )
            } else if Some(run) == last_short {
                (
                    format!(
                        "a plain run re-runs batch {d} (the last with lookback {})",
                        b.short_lookback
                    ),
                    false,
                )
            } else {
                (
                    format!("a plain run re-runs batch {d} (lookback {})", b.lookback),
                    false,
                )
            };
            dbt.push(mark(run, text, trap));
        }
        let e = &self.beam;
        let mut beam = vec![mark(
            e.window.start,
            format!("the window for {d} opens"),
            false,
        )];
        let first_refusal = e.runs.iter().find(|r| !r.accepts);
        let last_accepting = e.runs.iter().rev().find(|r| r.accepts);
        for r in &e.runs {
            let moves = format!("the run moves the watermark to {}", short(r.watermark));
            let text = if r.watermark == e.window.end && Some(r) == last_accepting {
                format!("{moves}, the window's end: its result is on time, and this is the last run that takes events of {d}")
            } else if r.watermark == e.window.end {
                format!("{moves}, the window's end: its result is on time; late events of {d} still count")
            } else if Some(r) == last_accepting {
                format!("{moves}: the last run that takes late events of {d}")
            } else if r.accepts {
                format!("{moves}: late events of {d} still accepted")
            } else if Some(r) == first_refusal {
                format!(
                    "{moves}, past the window's end plus {}: later events of {d} are dropped",
                    counted(l as usize, "day")
                )
            } else {
                continue;
            };
            beam.push(mark(r.run, text, false));
        }
        if let Some(r) = e.at_run_time.iter().find(|r| !r.accepts) {
            beam.push(mark(
                r.run,
                format!(
                    "a watermark moved to the run time ({}) instead drops them from this run",
                    hh_mm(r.watermark)
                ),
                true,
            ));
        }
        let mut all = vec![lab];
        all.extend(airflow);
        all.extend([dagster, sqlmesh, dbt, beam]);
        for tool in &mut all {
            crate::lean::order::sort_by_key(tool, |(t, _)| *t);
        }
        all
    }

    /// A card per tool, in [`TOOLS`]' order.
    pub fn cards(&self) -> Vec<Card> {
        let mut cards = vec![self.lab_card()];
        cards.extend(self.airflow_cards());
        cards.extend([
            self.dagster_card(),
            self.sqlmesh_card(),
            self.dbt_card(),
            self.beam_card(),
        ]);
        cards
    }
}

/// The trap of giving a tool's end bound as the last date itself.
fn bare_dates<T>(
    bare: &Backfill<T>,
    full: &Backfill<T>,
    flag: &str,
    noun: &str,
    why: &str,
) -> String {
    let to = bare
        .args
        .iter()
        .skip_while(|a| *a != flag)
        .nth(1)
        .cloned()
        .unwrap_or_default();
    let lost = full.runs.len().saturating_sub(bare.runs.len());
    format!(
        "{flag} {to} runs {} instead of {}: {why}, so {} of the range {} not rebuilt.",
        counted(bare.runs.len(), noun),
        full.runs.len(),
        counted(lost, "day"),
        if lost == 1 { "is" } else { "are" }
    )
}
