#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

use std::collections::BTreeMap;

use super::*;

/// Scenarios 1 to 3 (clicks forward, orders that change, late mobile
/// events): passing designs and mistakes, each built on the canvas's model
/// edit by edit and compiled as a student's design is, graded first (a
/// passing design must pass, a mistake must fail the rule named), then
/// replayed over the scenario's own runs (retries and the manual re-run
/// included). Scenario 2's append mistake is there for Spark, which cannot
/// merge.
pub(super) fn scenario_files() -> Result<Vec<File>, Refusal> {
    use crate::design::compile::compile;
    let designs = catalogue::DAILY
        .iter()
        .map(|d| Ok((d.name, d.scenario, d.graph()?, d.fails)))
        .collect::<Result<Vec<_>, Refusal>>()?;
    let scheduled = scheduler_files(&designs)?;
    let mut compiled = Vec::new();
    for (name, n, graph, fails) in designs {
        let config = match compile(&graph) {
            Ok(c) => c.pipeline,
            Err(problems) => {
                return Err(format!("{name} does not compile: {problems:?}"));
            }
        };
        graded_as_labelled(name, n, &graph, fails)?;
        compiled.push((name, n, config));
    }
    let mut scripts: Vec<(String, Script)> = [1u8, 2, 3, 6]
        .iter()
        .map(|n| Ok((format!("scenario{n}"), scenario(*n)?.script().clone())))
        .collect::<Result<_, Refusal>>()?;
    let mut replays: Vec<(String, PipelineConfig, String)> = compiled
        .iter()
        .map(|(name, n, config)| ((*name).to_string(), *config, format!("scenario{n}")))
        .collect();
    let (variant_scripts, variant_replays) = on_a_students_data(&compiled)?;
    scripts.extend(variant_scripts);
    replays.extend(variant_replays);
    let replays: Vec<Replay> = replays
        .into_iter()
        .filter_map(|(name, config, id)| {
            scripts.iter().find(|(k, _)| *k == id).map(|(_, s)| Replay {
                name,
                config,
                script_id: id,
                script: s,
            })
        })
        .collect();
    let all: Vec<(&str, &Script)> = scripts.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut files = with_answers(
        replay_project("partition_lab_scenarios", &replays, &all, &runner_files()),
        &replays,
    );
    files.extend(scheduled);
    Ok(files)
}

/// Scripts by id, and replays (name, pipeline, script id) over them.
type Replays = (Vec<(String, Script)>, Vec<(String, PipelineConfig, String)>);

/// The daily designs of the scenarios a variant moves (1 to 3 and 6)
/// replayed a second time on one student's data (SPEC 14: class MATH-7,
/// Ada Lovelace; her volumes, crashes, re-run and outage are not the
/// chapter's), so the tools find a variant's numbers as the page gives
/// them too. Each is graded on that data first, as labelled.
fn on_a_students_data(compiled: &[(&str, u8, PipelineConfig)]) -> Result<Replays, Refusal> {
    let variant = crate::variant::Variant::of_student("MATH-7", "Ada Lovelace");
    let mut scripts = Vec::new();
    let mut replays = Vec::new();
    for n in [1u8, 2, 3, 6] {
        let s = scenario(n)?;
        let id = format!("scenario{n}_ada");
        let script = s.script_in(variant).into_owned();
        for (name, _, config) in compiled.iter().filter(|(_, m, _)| *m == n) {
            let Some(d) = catalogue::DAILY.iter().find(|d| d.name == *name) else {
                continue;
            };
            let failed =
                crate::scenarios::grading::grade::grade_on(s, &d.graph()?, &script).failed();
            let as_labelled = match d.fails {
                None => failed.is_empty(),
                Some(rule) => failed.contains(&rule),
            };
            if !as_labelled {
                return Err(format!(
                    "{name} on Ada's data failed {failed:?}, labelled {:?}",
                    d.fails
                ));
            }
            replays.push((format!("{name}_ada"), *config, id.clone()));
        }
        scripts.push((id, script));
    }
    Ok((scripts, replays))
}

/// Each design SQLMesh or Dagster can express, as the page shows it: the
/// model scenario_sqlmesh.py and the definitions scenario_dagster.py
/// replay over the same runs, with what each replay must find.
fn scheduler_files(
    designs: &[(&str, u8, crate::design::Graph, Option<&str>)],
) -> Result<Vec<File>, Refusal> {
    use crate::tool::Tool;
    let mut files = Vec::new();
    let mut sqlmesh_designs = serde_json::Map::new();
    let mut dagster_designs = serde_json::Map::new();
    for (name, n, graph, _) in designs {
        let codes = crate::export::scenario::code(scenario(*n)?, graph).unwrap_or_default();
        let shown = |tool: Tool| crate::export::canvas::block(&codes, tool);
        let model = shown(Tool::SqlMesh);
        let definitions = shown(Tool::Dagster);
        let in_sqlmesh = model.contains("MODEL (");
        let in_dagster = definitions.contains("@schedule(");
        if !in_sqlmesh && !in_dagster {
            continue;
        }
        let entry = replayed_design(name, *n, graph)?;
        if in_sqlmesh {
            sqlmesh_designs.insert((*name).to_string(), entry.clone());
            files.push(File::new(format!("sqlmesh/{name}.sql"), model));
        }
        if in_dagster {
            dagster_designs.insert((*name).to_string(), entry);
            files.push(File::new(format!("dagster/{name}.py"), definitions));
        }
    }
    let mut config = crate::export::sqlmesh::config();
    config.path = "sqlmesh/config.yaml".into();
    files.push(config);
    files.push(File::new(
        "sqlmesh/designs.json",
        serde_json::to_string_pretty(&sqlmesh_designs).unwrap_or_default(),
    ));
    files.push(File::new(
        "dagster/designs.json",
        serde_json::to_string_pretty(&dagster_designs).unwrap_or_default(),
    ));
    Ok(files)
}

/// What a scheduler's replay of a design needs: its scenario, tables, the
/// days before d the lab's run for d rebuilds (which an operator's re-run
/// of d rebuilds again; none for a full refresh: all), and silver after
/// each of the engine's attempts, day by day, in the attempts' order (what
/// the tool's silver must be after each moment its scheduler ran).
fn replayed_design(
    name: &str,
    n: u8,
    graph: &crate::design::Graph,
) -> Result<serde_json::Value, Refusal> {
    use crate::design::compile::compile;
    use crate::design::NodeKind;
    use crate::engine::ProcessingState;
    let Ok(design) = compile(graph) else {
        return Err(format!("{name} does not compile"));
    };
    let table = |kind| {
        graph.of_kind(kind).find_map(|node| match &node.config {
            crate::design::NodeConfig::Source { table }
            | crate::design::NodeConfig::Write { table, .. } => Some(table.clone()),
            _ => None,
        })
    };
    let before = match design.pipeline.state {
        ProcessingState::PartitionList { lookback, .. } => Some(lookback),
        ProcessingState::TrailingWindow { days } => Some(days),
        _ => None,
    };
    let outcome = crate::engine::simulate(&design.pipeline, scenario(n)?.script());
    let after: Vec<BTreeMap<String, Vec<String>>> = outcome
        .runs
        .iter()
        .map(|run| {
            let mut days: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for row in run.snapshot.iter().flat_map(|s| s.silver.rows()) {
                days.entry(row.dt.to_string())
                    .or_default()
                    .push(row.id.to_string());
            }
            for ids in days.values_mut() {
                crate::lean::order::sort(ids);
            }
            days
        })
        .collect();
    Ok(serde_json::json!({
        "scenario": n,
        "model": table(NodeKind::Write),
        "source": table(NodeKind::Source),
        "rerun_days_before": before,
        "silver_after_each_attempt": after,
    }))
}
