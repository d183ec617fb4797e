//! A pipeline and the script it runs, as data a real tool's runner reads:
//! the bronze rows as CSV, each pipeline's state, commit order, write mode
//! and attempts as JSON, and (for the checks) the engine's own answer.
//!
//! The runners (`python/replay_dbt.py`, `python/replay_spark.py`) keep the
//! pipeline's state the way SPEC 2 defines it and let the real tool do the
//! reading and the writing; a crash falls between the write and the state
//! save, in whichever order the pipeline commits.

use crate::lean::sorted::SortedMap;
use crate::vocabulary::Choice;

use serde_json::{json, Value};

use crate::engine::calendar::Instant;
use crate::engine::{
    script::RunKind, simulate_with, AfterFinal, CommitOrder, Detail, ListDate, PipelineConfig,
    ProcessingState, Script, WriteMode,
};

/// One pipeline run over one script, under a name safe as a table name.
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    pub name: String,
    pub config: PipelineConfig,
    /// Which script's rows (`script` column of the bronze CSV).
    pub script_id: String,
    pub script: &'a Script,
}

/// "2026-06-01 09:10:00", as DuckDB and Spark read a timestamp.
pub fn instant(at: Instant) -> String {
    use chrono::Timelike;
    format!(
        "{} {:02}:{:02}:{:02}",
        at.date(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// The bronze rows of every script, one CSV (`script` tells them apart).
pub fn bronze_csv(scripts: &[(&str, &Script)]) -> String {
    let mut out = String::from(
        "script,id,key,event_time,updated_at,arrived_at,amount_minor,currency,dt,change_date\n",
    );
    for (id, script) in scripts {
        for e in &script.events {
            out.push_str(&format!(
                "{id},{},{},{},{},{},{},{},{},{}\n",
                e.id,
                e.key,
                instant(e.event_time),
                instant(e.updated_at),
                instant(e.arrived_at),
                e.amount.minor,
                e.amount.currency.code(),
                e.event_date(),
                e.change_date()
            ));
        }
    }
    out
}

fn state(state: ProcessingState) -> Value {
    match state {
        ProcessingState::Watermark {
            column,
            overlap_minutes,
        } => {
            json!({"kind": "watermark", "column": column.name(), "overlap_minutes": overlap_minutes})
        }
        ProcessingState::PartitionList { lookback, over } => json!({
            "kind": "list",
            "lookback": lookback,
            "over": match over { ListDate::EventDate => "dt", ListDate::ChangeDate => "change_date" },
        }),
        ProcessingState::TrailingWindow { days } => json!({"kind": "window", "days": days}),
        ProcessingState::None => json!({"kind": "none"}),
    }
}

pub fn write_name(write: WriteMode) -> &'static str {
    match write {
        WriteMode::Append => "append",
        WriteMode::OverwritePartition => "overwrite",
        WriteMode::Merge { .. } => "merge",
        WriteMode::ReplaceTable => "replace",
        WriteMode::OverwritePresent => "dynamic",
    }
}

/// Each attempt in the order the engine's scheduler starts them (outages,
/// catch-ups and retries included).
fn attempts(script: &Script, catch_up: bool) -> Vec<Value> {
    crate::engine::simulate::planned(script, catch_up)
        .into_iter()
        .map(|a| {
            // Which kind tells a tool that keeps its own state (SQLMesh,
            // Dagster) an operator's re-run from the scheduler's runs.
            let kind = match a.kind {
                RunKind::Scheduled => "scheduled",
                RunKind::Retry => "retry",
                RunKind::Manual => "manual",
                RunKind::CatchUp => "catch-up",
            };
            json!({"at": instant(a.at), "day": a.day.to_string(), "crashes": a.crashes, "kind": kind})
        })
        .collect()
}

/// What the runners read: every pipeline's settings and attempts.
pub fn pipelines_json(replays: &[Replay]) -> String {
    let list: Vec<Value> = replays
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "script": r.script_id,
                "start": r.script.start.to_string(),
                "state": state(r.config.state),
                "commit": match r.config.commit {
                    CommitOrder::StateAfterWrite => "after",
                    CommitOrder::StateBeforeWrite => "before",
                },
                "write": write_name(r.config.write),
                "finaliser": r.config.finaliser.map(|f| json!({
                    "lateness": f.allowed_lateness_days,
                    "after": match f.after_final {
                        AfterFinal::Drop => "drop",
                        AfterFinal::Adjustments => "adjustments",
                        AfterFinal::Reopen => "reopen",
                    },
                })),
                "attempts": attempts(r.script, r.config.catch_up),
            })
        })
        .collect();
    serde_json::to_string_pretty(&list).unwrap_or_default()
}

/// The engine's silver for each pipeline: partition -> row ids, sorted,
/// duplicates kept (what a real table would hold).
pub fn expected_json(replays: &[Replay]) -> String {
    let all: SortedMap<&str, SortedMap<String, Vec<String>>> = replays
        .iter()
        .map(|r| {
            let outcome = simulate_with(&r.config, r.script, Detail::TABLES);
            let parts = outcome
                .silver
                .partitions()
                .filter(|(_, rows)| !rows.is_empty())
                .map(|(dt, rows)| {
                    let mut ids: Vec<String> = rows.iter().map(|row| row.id.to_string()).collect();
                    crate::lean::order::sort(&mut ids);
                    (dt.to_string(), ids)
                })
                .collect();
            (r.name.as_str(), parts)
        })
        .collect();
    serde_json::to_string_pretty(&all).unwrap_or_default()
}

/// The runners' file names: the state rules, and one driver per real tool.
pub const RUNNERS: [&str; 3] = ["state.py", "replay_dbt.py", "replay_spark.py"];

/// The runners, as files of a project, compiled in: the export binary and
/// the native tests use these. The browser bundle leaves their 15 KB of
/// Python out: the page loads them from `/runners/` (Trunk copies
/// `crates/core/src/export/python` there) and passes them, made with
/// `runners`, to whatever builds a project.
#[cfg(not(target_arch = "wasm32"))]
pub fn runner_files() -> Vec<super::File> {
    runners(
        [
            include_str!("python/state.py"),
            include_str!("python/replay_dbt.py"),
            include_str!("python/replay_spark.py"),
        ]
        .map(String::from)
        .into(),
    )
}

/// The runners' texts, in `RUNNERS` order, as files of a project.
pub fn runners(texts: Vec<String>) -> Vec<super::File> {
    RUNNERS
        .iter()
        .zip(texts)
        .map(|(name, text)| super::File::new(*name, text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::state_write::{script, Cell, Controls};

    #[test]
    fn a_crashing_run_becomes_two_attempts_in_time_order() {
        let s = script(&Controls::default());
        let a = attempts(&s, false);
        assert_eq!(a.len(), s.runs.len() + 1, "one retry");
        let crashed: Vec<&Value> = a.iter().filter(|v| v["crashes"] == true).collect();
        assert_eq!(crashed.len(), 1);
        let ats: Vec<&str> = a.iter().filter_map(|v| v["at"].as_str()).collect();
        let mut sorted = ats.clone();
        crate::lean::order::sort(&mut sorted);
        assert_eq!(ats, sorted);
    }

    #[test]
    fn the_expected_rows_are_the_engines() {
        let s = script(&Controls::default());
        let replay = Replay {
            name: "wm_append".into(),
            config: Cell::WatermarkAppend.config(&Controls::default()),
            script_id: "s".into(),
            script: &s,
        };
        let expected: Value = serde_json::from_str(&expected_json(&[replay])).expect("json");
        // SPEC 4: watermark + append holds 8 rows on Wednesday (the crashed run's rows twice).
        assert_eq!(
            expected["wm_append"]["2026-06-03"].as_array().map(Vec::len),
            Some(8)
        );
        let csv = bronze_csv(&[("s", &s)]);
        assert_eq!(csv.lines().count(), s.events.len() + 1);
    }
}
