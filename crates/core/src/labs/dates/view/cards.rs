//! Each tool's card on the dates page: one method per tool, each reading
//! the calendar the tools' answers were computed into.

use super::*;

impl Calendar {
    /// The lab's own terms: the partition, the run that builds it, the last
    /// that may change it.
    pub(super) fn lab_card(&self) -> Card {
        let p = self.pipeline;
        let d = day_month(p.day);
        let l = p.lateness;
        let range = day_range(p.first, p.last);
        let n = counted(self.dagster.keys.len(), "day");
        Card {
            tool: TOOLS[0],
            id: "lab",
            version: "Partition Lab",
            setting: format!(
                "a run every day at {} UTC; allowed lateness {}",
                hh_mm(self.built),
                counted(l as usize, "day")
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
        }
    }

    /// Airflow under each timetable: the run that builds the day, its logical
    /// date, and the backfill's dates.
    pub(super) fn airflow_cards(&self) -> Vec<Card> {
        let p = self.pipeline;
        let d = day_month(p.day);
        let range = day_range(p.first, p.last);
        let mut cards = Vec::new();
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
                    counted(missed, "day")
                )
            } else {
                format!(
                    "{typed}: a good day ({}) rebuilt, and {} of the range not.",
                    first_last(&wrong, |x| day_month(*x)),
                    counted(missed, "day")
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
                    counted(a.backfill.runs.len(), "run")
                ),
                traps,
            });
        }
        cards
    }

    /// Dagster: the partition key, its window with the hour offset, and the
    /// range launch.
    pub(super) fn dagster_card(&self) -> Card {
        let l = self.pipeline.lateness;
        let n = counted(self.dagster.keys.len(), "day");
        let g = &self.dagster;
        Card {
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
                format!("hour_offset={RUN_HOUR} moves the partition's time window ({}), which says when it is built, not what it holds: an asset that filters on context.partition_time_window reads {run} to {run}; filter on the partition key (dt = '{}'), as the lab's definitions do.", span(g.window), g.key, run = run_time()),
                "A range in one launch needs BackfillPolicy.single_run(); a multi-run backfill needs the daemon.".to_string(),
            ],
        }
    }

    /// SQLMesh: the interval, the cron, and what a restatement covers.
    pub(super) fn sqlmesh_card(&self) -> Card {
        let l = self.pipeline.lateness;
        let s = &self.sqlmesh;
        Card {
            tool: TOOLS[4],
            id: "sqlmesh",
            version: SQLMESH_VERSIONS,
            setting: format!(
                "MODEL (\n  name shop.orders,\n  kind {},\n  start '{}',\n  cron '{}'\n);",
                s.kind, s.start, s.cron
            ),
            terms: vec![
                Term {
                    term: "interval",
                    value: span(s.interval),
                },
                Term {
                    term: "first processed by",
                    value: s.runs.first().map_or_else(
                        || "no run".to_string(),
                        |t| format!("sqlmesh run at {}", weekday_day_month_time(*t)),
                    ),
                },
                Term {
                    term: "processed again (lookback)",
                    value: match s.runs.get(1..) {
                        Some(again) if !again.is_empty() => {
                            format!("by the runs {}", first_last(again, |t| short(*t)))
                        }
                        _ => "never: no lookback".to_string(),
                    },
                },
            ],
            command: Some(format!("sqlmesh plan {}", s.restate.args.join(" "))),
            covers: format!(
                "the intervals {}: {}, the end date included",
                first_last(&s.restate.runs, |x| day_month(x.start.date())),
                counted(s.restate.runs.len(), "day")
            ),
            traps: {
                let mut traps = vec!["On DuckDB a restated interval is deleted, then inserted: between the two, a reader sees the day empty.".to_string()];
                if l == 0 {
                    traps.insert(0, "SQLMesh refuses lookback 0: no allowed lateness is written by leaving lookback out.".to_string());
                }
                traps
            },
        }
    }

    /// dbt microbatch: the batch window, the backfill's event-time bounds, and
    /// what lookback re-runs.
    pub(super) fn dbt_card(&self) -> Card {
        let p = self.pipeline;
        let d = day_month(p.day);
        let b = &self.dbt;
        let short_last = b.short_runs.last().map_or_else(String::new, |t| short(*t));
        Card {
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
            covers: format!("the batches {}: {}", first_last(&b.backfill.runs, |x| day_month(x.start.date())), counted(b.backfill.runs.len(), "batch")),
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
                        "lookback counts batches back from the current one, which a {run} run has only just started: lookback {} makes the run at {} the last to rebuild {d}; with lookback {} only the run at {short_last} builds it, {} into the day, and it is never built whole.",
                        b.lookback, short(self.last_change), b.short_lookback, counted(RUN_HOUR as usize, "hour"), run = run_time()
                    )
                } else {
                    format!(
                        "lookback counts batches back from the current one, which a {run} run has only just started: lookback {} makes the run at {} the last to rebuild {d}; lookback {} would stop at {short_last}.",
                        b.lookback, short(self.last_change), b.short_lookback, run = run_time()
                    )
                },
                format!(
                    "A plain run only reaches back from its own time: with every run between {} and {} missed, batch {d} is {}.",
                    short(b.gap.before),
                    short(b.gap.after),
                    if b.gap.processes_day { "still processed" } else { "never processed, and nothing says so" }
                ),
            ],
        }
    }

    /// Beam: the window, the watermark at each run, and the last run that
    /// accepts the day's late events.
    pub(super) fn beam_card(&self) -> Card {
        let d = day_month(self.pipeline.day);
        let e = &self.beam;
        let last_accepting = e.runs.iter().rev().find(|r| r.accepts);
        Card {
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
                "A watermark at the run time itself ({}) drops events of {d} a run sooner: it needs the allowed lateness plus {} to match. Flink's default allowed lateness is 0.",
                e.at_run_time.first().map_or_else(String::new, |r| hh_mm(r.watermark)),
                counted(RUN_HOUR as usize, "hour")
            )],
        }
    }
}
