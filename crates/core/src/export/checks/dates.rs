use serde_json::{json, Value};

use super::*;
use crate::engine::calendar::{aug, Instant};
use crate::labs::dates::{iso, Backfill, BeamRun, Calendar, Pipeline, Span};

/// The pipelines whose dates `scripts/real/dates_*.py` ask each tool about:
/// the page's default, a day at the month's end with no lateness and a
/// one-day backfill, and a week of lateness over the whole month.
const DATE_CASES: [(u32, u32, u32, u32); 3] = [(5, 2, 3, 13), (31, 0, 31, 31), (13, 7, 1, 31)];

/// The dates page's values for each case, as the checks read them.
pub(super) fn dates_files() -> Result<Vec<File>, Refusal> {
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
            json!({
                "day": p.day.to_string(),
                "lateness": p.lateness,
                "first": p.first.to_string(),
                "last": p.last.to_string(),
                "airflow": airflow(&c),
                "dagster": dagster(&c),
                "sqlmesh": sqlmesh(&c),
                "dbt": dbt(&c),
                "beam": beam(&c),
            })
        })
        .collect();
    Ok(vec![File::new(
        "expected.json",
        serde_json::to_string_pretty(&cases).unwrap_or_default(),
    )])
}

fn instants(ts: &[Instant]) -> Value {
    ts.iter().map(|t| iso(*t)).collect()
}

fn span(s: &Span) -> Value {
    json!([iso(s.start), iso(s.end)])
}

fn spans(ss: &[Span]) -> Value {
    ss.iter().map(span).collect()
}

fn logical(b: &Backfill<Instant>) -> Value {
    json!({"args": b.args, "logical_dates": instants(&b.runs)})
}

fn batches(b: &Backfill<Span>) -> Value {
    json!({"args": b.args, "batches": spans(&b.runs)})
}

/// Each Airflow timetable's run, interval and backfills.
fn airflow(c: &Calendar) -> Vec<Value> {
    c.airflow
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
        .collect()
}

fn dagster(c: &Calendar) -> Value {
    let g = &c.dagster;
    json!({
        "partitions": g.partitions,
        "key": g.key.to_string(),
        "window": span(&g.window),
        "tick": iso(g.tick),
        "cron": g.cron,
        "range": g.range,
        "keys": g.keys.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
    })
}

fn sqlmesh(c: &Calendar) -> Value {
    let s = &c.sqlmesh;
    json!({
        "kind": s.kind,
        "cron": s.cron,
        "start": s.start.to_string(),
        "interval": span(&s.interval),
        "probe": instants(&s.probe),
        "runs": instants(&s.runs),
        "restate": {"args": s.restate.args, "intervals": spans(&s.restate.runs)},
    })
}

fn dbt(c: &Calendar) -> Value {
    let b = &c.dbt;
    json!({
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
    })
}

fn beam(c: &Calendar) -> Value {
    let e = &c.beam;
    let runs = |runs: &[BeamRun]| -> Value {
        runs.iter()
            .map(
                |r| json!({"run": iso(r.run), "watermark": iso(r.watermark), "accepts": r.accepts}),
            )
            .collect()
    };
    json!({
        "window": span(&e.window),
        "allowed_lateness_days": e.lateness_days,
        "runs": runs(&e.runs),
        "at_run_time": runs(&e.at_run_time),
    })
}
