#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

#[allow(unused_imports)]
use std::collections::{BTreeMap, BTreeSet};

#[allow(unused_imports)]
use super::*;

/// The pipelines whose dates `scripts/real/dates_*.py` ask each tool about:
/// the page's default, a day at the month's end with no lateness and a
/// one-day backfill, and a week of lateness over the whole month.
const DATE_CASES: [(u32, u32, u32, u32); 3] = [(5, 2, 3, 13), (31, 0, 31, 31), (13, 7, 1, 31)];

/// The dates page's values for each case, as the checks read them.
pub(super) fn dates_files() -> Result<Vec<File>, Refusal> {
    use crate::engine::calendar::{aug, Instant};
    use crate::labs::dates::{iso, Backfill, Calendar, Pipeline, Span};
    use serde_json::{json, Value};
    let instants = |ts: &[Instant]| -> Value { ts.iter().map(|t| iso(*t)).collect() };
    let span = |s: &Span| json!([iso(s.start), iso(s.end)]);
    let spans = |ss: &[Span]| -> Value { ss.iter().map(span).collect() };
    let logical =
        |b: &Backfill<Instant>| json!({"args": b.args, "logical_dates": instants(&b.runs)});
    let batches = |b: &Backfill<Span>| json!({"args": b.args, "batches": spans(&b.runs)});
    let cases: Vec<Value> = DATE_CASES
        .iter()
        .map(|&(day, lateness, first, last)| {
            let c = Calendar::of(Pipeline {
                day: aug(day),
                lateness,
                first: aug(first),
                last: aug(last),
            });
            let p = c.pipeline;
            let airflow: Vec<Value> = c
                .airflow
                .iter()
                .map(|a| {
                    json!({
                        "timetable": a.timetable.key(),
                        "schedule": a.timetable.schedule(),
                        "imports": a.timetable.imports(),
                        "run_after": iso(a.run_after),
                        "logical_date": iso(a.logical_date),
                        "interval": span(&a.interval),
                        "backfill": logical(&a.backfill),
                        "bare": logical(&a.bare),
                    })
                })
                .collect();
            let (g, s, b, e) = (&c.dagster, &c.sqlmesh, &c.dbt, &c.beam);
            let beam_runs = |runs: &[crate::labs::dates::BeamRun]| -> Value {
                runs.iter()
                    .map(|r| json!({"run": iso(r.run), "watermark": iso(r.watermark), "accepts": r.accepts}))
                    .collect()
            };
            json!({
                "day": p.day.to_string(),
                "lateness": p.lateness,
                "first": p.first.to_string(),
                "last": p.last.to_string(),
                "airflow": airflow,
                "dagster": {
                    "partitions": g.partitions,
                    "key": g.key.to_string(),
                    "window": span(&g.window),
                    "tick": iso(g.tick),
                    "cron": g.cron,
                    "range": g.range,
                    "keys": g.keys.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
                },
                "sqlmesh": {
                    "kind": s.kind,
                    "cron": s.cron,
                    "start": s.start.to_string(),
                    "interval": span(&s.interval),
                    "probe": instants(&s.probe),
                    "runs": instants(&s.runs),
                    "restate": {"args": s.restate.args, "intervals": spans(&s.restate.runs)},
                },
                "dbt": {
                    "event_time": b.event_time,
                    "batch_size": b.batch_size,
                    "begin": b.begin.to_string(),
                    "lookback": b.lookback,
                    "batch": span(&b.batch),
                    "probe": instants(&b.probe),
                    "runs": instants(&b.runs),
                    "short": {"lookback": b.short_lookback, "runs": instants(&b.short_runs)},
                    "backfill": batches(&b.backfill),
                    "bare": if b.bare_refused {
                        json!({"args": b.bare.args, "batches": null})
                    } else {
                        batches(&b.bare)
                    },
                    "gap": {"before": iso(b.gap.before), "after": iso(b.gap.after), "processes_day": b.gap.processes_day},
                },
                "beam": {
                    "window": span(&e.window),
                    "allowed_lateness_days": e.lateness_days,
                    "runs": beam_runs(&e.runs),
                    "at_run_time": beam_runs(&e.at_run_time),
                },
            })
        })
        .collect();
    Ok(vec![File::new(
        "expected.json",
        serde_json::to_string_pretty(&cases).unwrap_or_default(),
    )])
}
