#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

use std::collections::BTreeSet;

use super::*;
use crate::design::NodeConfig;
use crate::engine::clock::StepKind;
use crate::export::drift::pounds;
use crate::scenarios::grading::backfilled::Backfilled;

/// Scenarios 4 and 5: passing and failing backfill designs built as the
/// canvas builds them, each design's Spark job exactly as "Export as code"
/// shows it, the scenario's tables at the launch as CSV, and the engine's
/// answers: for a first launch run to its end, every plan date's silver and
/// gold and the markers; for a re-run after the failover (scenario 5), the
/// markers the first launch left and the dates the re-run rebuilds.
pub(super) fn scenario_backfill_files() -> Result<Vec<File>, Refusal> {
    let mut files = Vec::new();
    for n in [4u8, 5] {
        files.extend(tables_at_launch(n)?);
    }
    let mut expected = serde_json::Map::new();
    for b in &catalogue::BACKFILLS {
        let graph = b.graph()?;
        graded_as_labelled(b.name, b.scenario, &graph, b.fails)?;
        let job = crate::export::scenario::backfill_job(scenario(b.scenario)?, &graph)
            .map_err(|why| format!("{}: no Spark job ({why})", b.name))?;
        files.push(File::new(format!("jobs/{}.py", b.name), job));
        expected.insert(b.name.to_string(), answers(b, &graph)?);
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&serde_json::Value::Object(expected)).unwrap_or_default(),
    ));
    Ok(files)
}

/// Scenario `n`'s tables at its launch: bronze as it had arrived, the
/// rates, and silver and gold as the scheduler built them.
fn tables_at_launch(n: u8) -> Result<Vec<File>, Refusal> {
    let (s, Some(set)) = (scenario(n)?.script(), scenario(n)?.setting()) else {
        return Err(format!("scenario {n} has no backfill to export"));
    };
    let (silver, gold) = crate::engine::backfill_run::history(s, set.launch);
    let arrived = s.events.iter().filter(|e| e.arrived_at <= set.launch);
    let days: Vec<chrono::NaiveDate> = s
        .events
        .iter()
        .map(|e| e.event_date())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut sv = String::from("order_id,currency,amount,amount_gbp,dt\n");
    for (dt, rows) in silver.partitions() {
        for r in rows {
            sv.push_str(&format!(
                "{},{},{},{},{dt}\n",
                r.id,
                r.raw.currency.code(),
                pounds(r.raw.minor),
                r.gbp.map(|m| pounds(m.minor)).unwrap_or_default()
            ));
        }
    }
    let mut gv = String::from("total_gbp,dt\n");
    for (dt, t) in gold.iter() {
        gv.push_str(&format!("{},{dt}\n", pounds(t.gbp)));
    }
    Ok(vec![
        File::new(
            format!("scenario{n}/bronze.csv"),
            crate::export::drift::bronze_csv(arrived),
        ),
        File::new(
            format!("scenario{n}/fx_rates.csv"),
            crate::export::drift::fx_csv(&s.fx, &days),
        ),
        File::new(format!("scenario{n}/silver_before.csv"), sv),
        File::new(format!("scenario{n}/gold_before.csv"), gv),
    ])
}

/// The engine's answers for design `b`: its tables; for scenario 4 (whose
/// story is the first launch) every plan date's silver, gold and markers
/// after a launch run to its end; for a re-run after a failover, the
/// markers left before it and the dates it rebuilds.
fn answers(
    b: &catalogue::Backfill,
    graph: &crate::design::Graph,
) -> Result<serde_json::Value, Refusal> {
    use crate::scenarios::grading::backfilled::{run, uninterrupted};
    let name = b.name;
    let (Ok(design), s, Some(set)) = (
        crate::design::compile::compile(graph),
        scenario(b.scenario)?.script(),
        scenario(b.scenario)?.setting(),
    ) else {
        return Err(format!("{name} does not compile"));
    };
    let table_of = |want: crate::design::NodeKind| {
        graph.of_kind(want).find_map(|node| match &node.config {
            NodeConfig::Source { table } | NodeConfig::Write { table, .. } => Some(table.clone()),
            _ => None,
        })
    };
    let mut entry = serde_json::json!({
        "scenario": b.scenario,
        "bronze": table_of(crate::design::NodeKind::Source),
        "silver": table_of(crate::design::NodeKind::Write),
    });
    if b.scenario == 4 {
        let once = uninterrupted(&set, &design, s).ok_or_else(|| format!("{name}: no backfill"))?;
        entry["first"] = first_launch(&once);
    }
    let done = run(&set, &design, s).ok_or_else(|| format!("{name}: no backfill"))?;
    let last = done.attempts.len().saturating_sub(1);
    if last > 0 {
        let rebuilt = |k: StepKind| -> Vec<String> {
            done.timeline
                .done
                .iter()
                .filter(|st| st.attempt == last && st.kind == k)
                .map(|st| st.dt.to_string())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        entry["rerun"] = serde_json::json!({
            "seed_markers": markers_of(&done, last),
            "silver": rebuilt(StepKind::Silver),
            "gold": rebuilt(StepKind::Gold),
        });
    }
    Ok(entry)
}

/// A launch run to its end: every plan date's silver (rows and pence),
/// gold and the markers it wrote.
fn first_launch(once: &Backfilled) -> serde_json::Value {
    let b = once.design;
    let dates: Vec<chrono::NaiveDate> = crate::engine::calendar::days(b.first, b.last).collect();
    let silver: serde_json::Map<String, serde_json::Value> = dates
        .iter()
        .map(|dt| {
            let rows = once.after.silver.partition(*dt);
            let pence: i64 = rows.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            (
                dt.to_string(),
                serde_json::json!({"rows": rows.len(), "pence": pence}),
            )
        })
        .collect();
    let gold: serde_json::Map<String, serde_json::Value> = dates
        .iter()
        .map(|dt| {
            (
                dt.to_string(),
                serde_json::json!(once.after.gold.get(dt).map(|t| t.gbp)),
            )
        })
        .collect();
    serde_json::json!({
        "dates": dates.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "silver": silver,
        "gold": gold,
        "markers": markers_of(once, 1),
    })
}

/// The markers the attempts before `before` wrote: (date, layer).
fn markers_of(done: &Backfilled, before: usize) -> Vec<(String, &'static str)> {
    let layer = |k: StepKind| match k {
        StepKind::Silver => "silver",
        _ => "gold",
    };
    done.timeline
        .done
        .iter()
        .filter(|st| st.kind == StepKind::Marker && st.attempt < before)
        .map(|st| (st.dt.to_string(), layer(st.unit)))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}
