#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

#[allow(unused_imports)]
use std::collections::{BTreeMap, BTreeSet};

#[allow(unused_imports)]
use super::*;

/// Scenarios 4 and 5: passing and failing backfill designs built as the
/// canvas builds them, each design's Spark job exactly as "Export as code"
/// shows it, the scenario's tables at the launch as CSV, and the engine's
/// answers: for a first launch run to its end, every plan date's silver and
/// gold and the markers; for a re-run after the failover (scenario 5), the
/// markers the first launch left and the dates the re-run rebuilds.
pub(super) fn scenario_backfill_files() -> Result<Vec<File>, Refusal> {
    use crate::design::compile::compile;
    use crate::design::NodeConfig;
    use crate::engine::clock::StepKind;
    use crate::export::drift::pounds;
    use crate::export::scenario::backfill_job;
    use crate::scenarios::backfilled::{run, uninterrupted};
    let designs = catalogue::BACKFILLS
        .iter()
        // The first launch is scenario 4's story; scenario 5's is the
        // re-run after its crash.
        .map(|b| Ok((b.name, b.scenario, b.graph()?, b.fails, b.scenario == 4)))
        .collect::<Result<Vec<_>, Refusal>>()?;
    let mut files = Vec::new();
    let mut expected = serde_json::Map::new();
    for n in [4u8, 5] {
        let (s, Some(set)) = (scenario(n)?.script(), scenario(n)?.setting()) else {
            return Err(format!("scenario {n} has no backfill to export"));
        };
        let (silver, gold) = crate::engine::backfill_run::history(s, set.launch);
        let arrived = s.events.iter().filter(|e| e.arrived_at <= set.launch);
        files.push(File::new(
            format!("scenario{n}/bronze.csv"),
            crate::export::drift::bronze_csv(arrived),
        ));
        let days: Vec<chrono::NaiveDate> = s
            .events
            .iter()
            .map(|e| e.event_date())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        files.push(File::new(
            format!("scenario{n}/fx_rates.csv"),
            crate::export::drift::fx_csv(&s.fx, &days),
        ));
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
        files.push(File::new(format!("scenario{n}/silver_before.csv"), sv));
        let mut gv = String::from("total_gbp,dt\n");
        for (dt, t) in gold.iter() {
            gv.push_str(&format!("{},{dt}\n", pounds(t.gbp)));
        }
        files.push(File::new(format!("scenario{n}/gold_before.csv"), gv));
    }
    for (name, n, graph, fails, first_run) in designs {
        graded_as_labelled(name, n, &graph, fails)?;
        let job = match backfill_job(scenario(n)?, &graph) {
            Ok(job) => job,
            Err(why) => {
                return Err(format!("{name}: no Spark job ({why})"));
            }
        };
        files.push(File::new(format!("jobs/{name}.py"), job));
        let (Ok(design), s, Some(set)) = (
            compile(&graph),
            scenario(n)?.script(),
            scenario(n)?.setting(),
        ) else {
            return Err(format!("{name} does not compile"));
        };
        let layer = |k: StepKind| match k {
            StepKind::Silver => "silver",
            _ => "gold",
        };
        let markers_of = |done: &crate::scenarios::backfilled::Backfilled,
                          before: usize|
         -> Vec<(String, &'static str)> {
            done.timeline
                .done
                .iter()
                .filter(|st| st.kind == StepKind::Marker && st.attempt < before)
                .map(|st| (st.dt.to_string(), layer(st.unit)))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let table_of = |want: crate::design::NodeKind| {
            graph.of_kind(want).find_map(|node| match &node.config {
                NodeConfig::Source { table } | NodeConfig::Write { table, .. } => {
                    Some(table.clone())
                }
                _ => None,
            })
        };
        let mut entry = serde_json::json!({
            "scenario": n,
            "bronze": table_of(crate::design::NodeKind::Source),
            "silver": table_of(crate::design::NodeKind::Write),
        });
        if first_run {
            let Some(once) = uninterrupted(&set, &design, s) else {
                return Err(format!("{name}: no backfill"));
            };
            let b = once.design;
            let dates: Vec<chrono::NaiveDate> =
                crate::engine::calendar::days(b.first, b.last).collect();
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
            entry["first"] = serde_json::json!({
                "dates": dates.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "silver": silver,
                "gold": gold,
                "markers": markers_of(&once, 1),
            });
        }
        let Some(done) = run(&set, &design, s) else {
            return Err(format!("{name}: no backfill"));
        };
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
        expected.insert(name.to_string(), entry);
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&serde_json::Value::Object(expected)).unwrap_or_default(),
    ));
    Ok(files)
}
