//! What the dates page draws, decided here (and tested natively): the
//! calendar grid, a mark per tool on the day it happens, and a card per
//! tool with its terms, its setting, its backfill command and its traps.
//! Every date in a sentence comes from the [`Calendar`].

use crate::engine::calendar::{day_month, hh_mm, shift, weekday_day_month_time, Day, Instant};
use crate::export::{
    AIRFLOW_VERSIONS, BEAM_VERSIONS, DAGSTER_VERSIONS, DBT_VERSIONS, SQLMESH_VERSIONS,
};

use super::{iso, Backfill, Calendar, Span, Timetable};

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
    "Airflow 3, default timetable",
    "Airflow, data intervals",
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

fn plural(n: usize, one: &str) -> String {
    match (n, one) {
        (1, _) => format!("1 {one}"),
        (_, "batch") => format!("{n} batches"),
        _ => format!("{n} {one}s"),
    }
}

/// "3 Aug to 13 Aug", or the one day.
fn day_range(first: Day, last: Day) -> String {
    if first == last {
        day_month(first)
    } else {
        format!("{} to {}", day_month(first), day_month(last))
    }
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
                    plural(l as usize, "day")
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
                        plural(
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
                    plural(l as usize, "day")
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
        let p = self.pipeline;
        let d = day_month(p.day);
        let l = p.lateness;
        let range = day_range(p.first, p.last);
        let n = plural(self.dagster.keys.len(), "day");
        let mut cards = vec![Card {
            tool: TOOLS[0],
            id: "lab",
            version: "Partition Lab",
            setting: format!(
                "a run every day at {} UTC; allowed lateness {}",
                hh_mm(self.built),
                plural(l as usize, "day")
            ),
            terms: vec![
                Term {
                    term: "partition",
                    value: format!("{} (dt = {})", d, p.day),
                },
                Term {
                    term: "built by",
                    value: format!("the run at {}", weekday_day_month_time(self.built)),
                },
                Term {
                    term: "final after",
                    value: format!("the run at {}", weekday_day_month_time(self.last_change)),
                },
            ],
            command: None,
            covers: format!("the backfill rebuilds the dates {range}: {n}"),
            traps: vec![],
        }];
        for a in &self.airflow {
            let (tool, id) = match a.timetable {
                Timetable::Trigger => (TOOLS[1], "airflow-trigger"),
                Timetable::Interval => (TOOLS[2], "airflow-interval"),
            };
            let rebuilt: Vec<Day> = a
                .bare
                .runs
                .iter()
                .map(|r| a.timetable.partition_of(*r))
                .collect();
            let typed = format!(
                "Typed as the backfill's own dates, --from-date {} --to-date {} are midnights: {}",
                p.first,
                p.last,
                if rebuilt.is_empty() {
                    "Airflow runs nothing at all".to_string()
                } else {
                    format!(
                        "Airflow runs the logical dates {}, which rebuild the partitions {}",
                        first_last(&a.bare.runs, |t| short(*t)),
                        first_last(&rebuilt, |x| day_month(*x))
                    )
                },
            );
            let wrong: Vec<Day> = rebuilt.iter().copied().filter(|x| *x < p.first).collect();
            let missed = crate::engine::calendar::days(p.first, p.last)
                .filter(|x| !rebuilt.contains(x))
                .count();
            let typed = if wrong.is_empty() {
                format!(
                    "{typed}: {} of the range not rebuilt.",
                    plural(missed, "day")
                )
            } else {
                format!(
                    "{typed}: a good day ({}) rebuilt, and {} of the range not.",
                    first_last(&wrong, |x| day_month(*x)),
                    plural(missed, "day")
                )
            };
            let mut traps = vec![
                typed,
                "Without --reprocess-behavior completed (the default is none) Airflow skips every date that already has a run: a correction of dates that ran would rebuild nothing. Only one backfill per DAG runs at a time, and the DAG must be unpaused for it to run.".to_string(),
            ];
            match a.timetable {
                Timetable::Trigger => traps.insert(0, format!(
                    "The logical date of the run that builds {d} is {}: the day after the partition. A task that reads the partition from the logical date must take a day off; and the data interval is empty, so data_interval_start is no help.",
                    day_month(a.logical_date.date())
                )),
                Timetable::Interval => traps.push(format!(
                    "The chapter's airflow dags backfill --start-date {} --end-date {} --reset-dagruns is Airflow 2's, and Airflow 3 has no such command: backfill create takes logical dates (--from-date, --to-date) and --reprocess-behavior completed in place of --reset-dagruns.",
                    p.first, p.last
                )),
            }
            cards.push(Card {
                tool,
                id,
                version: AIRFLOW_VERSIONS,
                setting: match a.timetable.imports() {
                    "" => format!("schedule={}", a.timetable.schedule()),
                    imports => format!("{imports}\n\nschedule={}", a.timetable.schedule()),
                },
                terms: vec![
                    Term {
                        term: "the run that builds it fires",
                        value: weekday_day_month_time(a.run_after),
                    },
                    Term {
                        term: "logical date",
                        value: iso(a.logical_date),
                    },
                    Term {
                        term: "data interval",
                        value: if a.interval.start == a.interval.end {
                            format!("empty: {}", span(a.interval))
                        } else {
                            span(a.interval)
                        },
                    },
                ],
                command: Some(format!(
                    "airflow backfill create --dag-id marlow_orders_daily {}",
                    a.backfill.args.join(" ")
                )),
                covers: format!(
                    "the logical dates {}, both ends included: {}, one per partition of {range}",
                    first_last(&a.backfill.runs, |t| short(*t)),
                    plural(a.backfill.runs.len(), "run")
                ),
                traps,
            });
        }
        let g = &self.dagster;
        cards.push(Card {
            tool: TOOLS[3],
            id: "dagster",
            version: DAGSTER_VERSIONS,
            setting: format!("{}\n# its schedule: build_schedule_from_partitioned_job, cron {}", g.partitions, g.cron),
            terms: vec![
                Term { term: "partition key", value: g.key.to_string() },
                Term { term: "its time window", value: span(g.window) },
                Term { term: "available, and requested by the schedule", value: weekday_day_month_time(g.tick) },
            ],
            command: Some(format!(
                "dg launch -f definitions.py --assets silver_orders,gold_daily_totals --partition-range {}",
                g.range
            )),
            covers: format!("the partition keys {}, both ends included: {n}", first_last(&g.keys, Day::to_string)),
            traps: vec![
                format!(
                    "Dagster has no allowed-lateness setting: the schedule's tick at {tick} builds {key} and no later tick requests it again, so {} rows for {key} that arrive after that reach it only when it is materialized again ({}). After the scheduler was down, Dagster launches only the latest missed tick: the days it missed need a backfill.",
                    if l == 0 { "as the lab's lateness of 0 days says," } else { "unlike the lab's allowed lateness," },
                    match l {
                        0 => "a backfill of it".to_string(),
                        1 => "a backfill of it, or a schedule of your own that also requests the day before".to_string(),
                        n => format!("a backfill of it, or a schedule of your own that also requests the {n} days before"),
                    },
                    tick = weekday_day_month_time(g.tick),
                    key = g.key,
                ),
                format!("hour_offset=2 moves the partition's time window ({}), which says when it is built, not what it holds: an asset that filters on context.partition_time_window reads 02:00 to 02:00; filter on the partition key (dt = '{}'), as the lab's definitions do.", span(g.window), g.key),
                "A range in one launch needs BackfillPolicy.single_run(); a multi-run backfill needs the daemon.".to_string(),
            ],
        });
        let s = &self.sqlmesh;
        cards.push(Card {
            tool: TOOLS[4],
            id: "sqlmesh",
            version: SQLMESH_VERSIONS,
            setting: format!("MODEL (\n  name shop.orders,\n  kind {},\n  start '{}',\n  cron '{}'\n);", s.kind, s.start, s.cron),
            terms: vec![
                Term { term: "interval", value: span(s.interval) },
                Term { term: "first processed by", value: s.runs.first().map_or_else(|| "no run".to_string(), |t| format!("sqlmesh run at {}", weekday_day_month_time(*t))) },
                Term {
                    term: "processed again (lookback)",
                    value: match s.runs.get(1..) {
                        Some(again) if !again.is_empty() => format!("by the runs {}", first_last(again, |t| short(*t))),
                        _ => "never: no lookback".to_string(),
                    },
                },
            ],
            command: Some(format!("sqlmesh plan {}", s.restate.args.join(" "))),
            covers: format!("the intervals {}: {}, the end date included", first_last(&s.restate.runs, |x| day_month(x.start.date())), plural(s.restate.runs.len(), "day")),
            traps: {
                let mut traps = vec!["On DuckDB a restated interval is deleted, then inserted: between the two, a reader sees the day empty.".to_string()];
                if l == 0 {
                    traps.insert(0, "SQLMesh refuses lookback 0: no allowed lateness is written by leaving lookback out.".to_string());
                }
                traps
            },
        });
        let b = &self.dbt;
        let short_last = b.short_runs.last().map_or_else(String::new, |t| short(*t));
        cards.push(Card {
            tool: TOOLS[5],
            id: "dbt",
            version: DBT_VERSIONS,
            setting: format!(
                "{{{{ config(materialized='incremental', incremental_strategy='microbatch',\n    event_time='{}', batch_size='{}', begin='{}', lookback={}) }}}}",
                b.event_time, b.batch_size, b.begin, b.lookback
            ),
            terms: vec![
                Term { term: "batch", value: format!("{} (UTC, end excluded)", span(b.batch)) },
                Term { term: "processed by the plain runs", value: first_last(&b.runs, |t| short(*t)) },
            ],
            command: Some(format!("dbt run --select silver_orders {}", b.backfill.args.join(" "))),
            covers: format!("the batches {}: {}", first_last(&b.backfill.runs, |x| day_month(x.start.date())), plural(b.backfill.runs.len(), "batch")),
            traps: vec![
                if b.bare_refused {
                    format!(
                        "The end is excluded: --event-time-end {} with the same start is refused (dbt needs the start before the end); a one-day backfill ends the day after.",
                        p.last
                    )
                } else {
                    bare_dates(&b.bare, &b.backfill, "--event-time-end", "batch", "the end is excluded")
                },
                if b.short_runs.iter().all(|r| r.date() == p.day) {
                    format!(
                        "lookback counts batches back from the current one, which a 02:00 run has only just started: lookback {} makes the run at {} the last to rebuild {d}; with lookback {} only the run at {short_last} builds it, two hours into the day, and it is never built whole.",
                        b.lookback, short(self.last_change), b.short_lookback
                    )
                } else {
                    format!(
                        "lookback counts batches back from the current one, which a 02:00 run has only just started: lookback {} makes the run at {} the last to rebuild {d}; lookback {} would stop at {short_last}.",
                        b.lookback, short(self.last_change), b.short_lookback
                    )
                },
                format!(
                    "A plain run only reaches back from its own time: with every run between {} and {} missed, batch {d} is {}.",
                    short(b.gap.before),
                    short(b.gap.after),
                    if b.gap.processes_day { "still processed" } else { "never processed, and nothing says so" }
                ),
            ],
        });
        let e = &self.beam;
        let last_accepting = e.runs.iter().rev().find(|r| r.accepts);
        cards.push(Card {
            tool: TOOLS[6],
            id: "beam",
            version: BEAM_VERSIONS,
            setting: format!(
                "beam.WindowInto(FixedWindows(DAY), allowed_lateness=Duration(seconds={} * DAY))",
                e.lateness_days
            ),
            terms: vec![
                Term { term: "window", value: span(e.window) },
                Term { term: "watermark at each run", value: "midnight of the run's own day".to_string() },
                Term {
                    term: "last run that accepts its late events",
                    value: last_accepting.map_or_else(|| "none".to_string(), |r| format!("{} (watermark {})", short(r.run), short(r.watermark))),
                },
            ],
            command: None,
            covers: "no backfill command: a streaming job is re-run over the range's input as a bounded pipeline".to_string(),
            traps: vec![format!(
                "A watermark at the run time itself ({}) drops events of {d} a run sooner: it needs the allowed lateness plus two hours to match. Flink's default allowed lateness is 0.",
                e.at_run_time.first().map_or_else(String::new, |r| hh_mm(r.watermark))
            )],
        });
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
        plural(bare.runs.len(), noun),
        full.runs.len(),
        plural(lost, "day"),
        if lost == 1 { "is" } else { "are" }
    )
}
