//! Writes the lab's exports to a folder, with the engine's own answers
//! beside them, for `scripts/check-real` to run on the real tools:
//!
//! - `state-write/`: a dbt-duckdb project and a PySpark runner replaying
//!   every State x Write cell under every control combination the lab
//!   offers (combinations that give a pipeline the same inputs are run
//!   once), and `expected.json`, the engine's silver for each;
//! - `scenarios/`: the same for scenarios 1 to 3, passing designs and
//!   mistakes built and compiled as the canvas does, over the scenario's
//!   own runs;
//! - `microbatch/`: the backfill lab's rebuild as a dbt microbatch model,
//!   each plan's `dbt run` range, and the lab's fixed totals per day;
//! - `drift/`: the backfill lab's drift query for DuckDB, its tables as
//!   CSV, and `expected.json`, the lab's drift table;
//! - `backfill-spark/`: the backfill lab's Spark job for each plan over
//!   those tables, and the days each rebuilds with the lab's fixed totals;
//! - `scenario-backfills/`: passing and failing backfill designs of
//!   scenarios 4 and 5, each design's Spark job as the page shows it, the
//!   scenario's tables at the launch, and the engine's answers;
//! - `airflow/`: the daily DAG and the backfill commands for every plan
//!   the backfill lab offers, and `expected.json`, each plan's dates;
//! - `lateness/`: the lateness lab's "your data" query for DuckDB, for each
//!   test log in `tests/data/arrivals` and a few run times, and
//!   `expected.json`, the lab's completeness for each;
//! - `dagster/`, `dagster-withdrawn/`: the backfill lab's pipeline as
//!   Dagster partitioned assets, each plan start's launch as the page
//!   shows it and the days it rebuilds, with every day's fixed total.
//! - `sqlmesh/`: the backfill lab's pipeline as a SQLMesh project, each
//!   plan's restatement command, and the days it rebuilds with the lab's
//!   fixed totals;
//! - `lateness-beam/`: the lateness lab's Beam pipeline for each built-in
//!   profile (its month as a CSV) and each of those logs, zones and run
//!   times, and `expected.json`, the rows the lab says arrive after their
//!   day is final at each allowed lateness.
//! - `scenario-beam/`: scenario 3's bronze as the runnable project's
//!   `bronze.csv`, the Beam block the page shows for designs with a
//!   finaliser (each allowed lateness, adjustments or drop), and the rows
//!   the engine keeps out of each design's final partitions.
//!
//! Usage: partition-lab-export <folder>

// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use partition_lab::engine::{CommitOrder, Script};
use partition_lab::export::project::replay_project;
use partition_lab::export::replay::{expected_json, runner_files, Replay};
use partition_lab::export::{airflow, File};
use partition_lab::labs::backfill::case::{backfill_start, Sunday};
use partition_lab::labs::backfill::{Case, Choices, Concurrency, PlanStart};
use partition_lab::labs::state_write::{script, Cell, Controls, Down, LateOrder};
use partition_lab::vocabulary::Choice;

fn write(root: &Path, files: &[File]) -> std::io::Result<()> {
    for f in files {
        let path = root.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, &f.text)?;
    }
    Ok(())
}

fn late_name(late: LateOrder) -> &'static str {
    match late {
        LateOrder::Off => "off",
        LateOrder::Tue => "tue",
        LateOrder::Wed => "wed",
        LateOrder::Fri => "fri",
    }
}

/// Which of the week's scripts `controls` give: the late order, the crash
/// and the scheduler's outage.
fn script_id(controls: &Controls) -> String {
    let down = match (controls.down, controls.catch_up) {
        (Down::Off, _) => String::new(),
        (down, catch_up) => format!(
            "_down_{}{}",
            down.name().replace('-', "_"),
            if catch_up { "_catchup" } else { "" }
        ),
    };
    format!(
        "{}_{}{down}",
        late_name(controls.late),
        if controls.crash { "crash" } else { "clean" }
    )
}

/// The combinations the real tools replay: every one with the scheduler
/// up, and each outage (with and without catch-up) under the default late
/// order and crash, state saved after the write, which is where an outage
/// tells the pipelines apart; all of them would be five times the run.
fn replayed(controls: &Controls) -> bool {
    controls.down == Down::Off
        || (controls.late == LateOrder::Tue
            && controls.crash
            && controls.commit == CommitOrder::StateAfterWrite)
}

/// Every cell under every control combination, once per distinct input.
fn state_write() -> Vec<File> {
    let mut scripts: BTreeMap<String, Script> = BTreeMap::new();
    let mut chosen: Vec<(String, Cell, Controls)> = Vec::new();
    let mut seen = BTreeSet::new();
    for controls in Controls::all().into_iter().filter(replayed) {
        let id = script_id(&controls);
        scripts
            .entry(id.clone())
            .or_insert_with(|| script(&controls));
        for cell in Cell::ALL {
            if !seen.insert((id.clone(), format!("{:?}", cell.config(&controls)))) {
                continue;
            }
            let commit = match controls.commit {
                CommitOrder::StateBeforeWrite => "before",
                CommitOrder::StateAfterWrite => "after",
            };
            let name = format!("{}_{id}_lb{}_{commit}", cell.slug(), controls.lookback);
            chosen.push((name, cell, controls));
        }
    }
    let replays: Vec<Replay> = chosen
        .iter()
        .filter_map(|(name, cell, controls)| {
            let id = script_id(controls);
            scripts.get(&id).map(|s| Replay {
                name: name.clone(),
                config: cell.config(controls),
                script_id: id,
                script: s,
            })
        })
        .collect();
    let all: Vec<(&str, &Script)> = scripts.iter().map(|(k, v)| (k.as_str(), v)).collect();
    with_answers(
        replay_project("partition_lab_week", &replays, &all, &runner_files()),
        &replays,
    )
}

/// A replay project with the engine's silver beside it, for the comparison.
fn with_answers(mut files: Vec<File>, replays: &[Replay]) -> Vec<File> {
    files.push(File::new("expected.json", expected_json(replays)));
    files
}

/// Scenario `n`, which the export's own tables name: an unknown number
/// stops the export.
fn scenario(n: u8) -> &'static partition_lab::scenarios::Scenario {
    partition_lab::scenarios::numbered(n).unwrap_or_else(|| {
        eprintln!("no scenario {n}");
        std::process::exit(1)
    })
}

/// Stops the export unless the grader judges `graph` as its label says:
/// `None` passes, `Some(rule)` fails that rule.
fn graded_as_labelled(
    name: &str,
    n: u8,
    graph: &partition_lab::design::Graph,
    fails: Option<&str>,
) {
    let failed = partition_lab::scenarios::grade::grade(scenario(n), graph).failed();
    let as_labelled = match fails {
        None => failed.is_empty(),
        Some(rule) => failed.contains(&rule),
    };
    if !as_labelled {
        eprintln!("{name}: the grader fails {failed:?}, the label says {fails:?}");
        std::process::exit(1);
    }
}

/// Scenarios 1 to 3 (clicks forward, orders that change, late mobile
/// events): passing designs and mistakes, each built on the canvas's model
/// edit by edit and compiled as a student's design is, graded first (a
/// passing design must pass, a mistake must fail the rule named), then
/// replayed over the scenario's own runs (retries and the manual re-run
/// included). Scenario 2's append mistake is there for Spark, which cannot
/// merge.
fn scenario_files() -> Vec<File> {
    use partition_lab::design::compile::compile;
    use partition_lab::design::graph::{StateChoice as S, WriteChoice as M};
    use partition_lab::engine::{AfterFinal, ListDate, MergeKey, WatermarkColumn as W};
    use partition_lab::scenarios::sample::daily;
    let merge = M::Merge {
        key: Some(MergeKey::Key),
    };
    let list = |lookback, over| S::PartitionList { lookback, over };
    let watermark = |column, overlap_minutes| S::Watermark {
        column,
        overlap_minutes,
    };
    let after = CommitOrder::StateAfterWrite;
    let l2 = |after_final| Some((2, after_final));
    // (name, scenario, design, the rule a mistake fails; None: passes)
    let designs = [
        (
            "s1_list1_overwrite",
            1,
            daily(
                &partition_lab::scenarios::clicks::SCENARIO,
                list(1, ListDate::EventDate),
                after,
                M::OverwritePartition,
                None,
            ),
            None,
        ),
        (
            "s1_window1_overwrite",
            1,
            daily(
                &partition_lab::scenarios::clicks::SCENARIO,
                S::TrailingWindow { days: 1 },
                after,
                M::OverwritePartition,
                None,
            ),
            None,
        ),
        (
            "s6_window1_overwrite_catching_up",
            6,
            partition_lab::scenarios::sample::catching_up(daily(
                &partition_lab::scenarios::outage::SCENARIO,
                S::TrailingWindow { days: 1 },
                after,
                M::OverwritePartition,
                None,
            )),
            None,
        ),
        (
            "s6_list5_overwrite",
            6,
            daily(
                &partition_lab::scenarios::outage::SCENARIO,
                list(5, ListDate::EventDate),
                after,
                M::OverwritePartition,
                None,
            ),
            None,
        ),
        (
            "s6_list5_overwrite_catching_up",
            6,
            partition_lab::scenarios::sample::catching_up(daily(
                &partition_lab::scenarios::outage::SCENARIO,
                list(5, ListDate::EventDate),
                after,
                M::OverwritePartition,
                None,
            )),
            None,
        ),
        (
            "s6_mistake_window1_no_catch_up",
            6,
            daily(
                &partition_lab::scenarios::outage::SCENARIO,
                S::TrailingWindow { days: 1 },
                after,
                M::OverwritePartition,
                None,
            ),
            Some("R1"),
        ),
        (
            "s1_watermark_merge",
            1,
            daily(
                &partition_lab::scenarios::clicks::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                merge,
                None,
            ),
            None,
        ),
        (
            "s1_mistake_list1_append",
            1,
            daily(
                &partition_lab::scenarios::clicks::SCENARIO,
                list(1, ListDate::EventDate),
                after,
                M::Append,
                None,
            ),
            Some("R2"),
        ),
        (
            "s2_watermark_arrival_merge",
            2,
            daily(
                &partition_lab::scenarios::orders::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                merge,
                None,
            ),
            None,
        ),
        (
            "s2_list1_change_date_merge",
            2,
            daily(
                &partition_lab::scenarios::orders::SCENARIO,
                list(1, ListDate::ChangeDate),
                after,
                merge,
                None,
            ),
            None,
        ),
        (
            "s2_updated_at_3h_overlap_merge",
            2,
            daily(
                &partition_lab::scenarios::orders::SCENARIO,
                watermark(W::UpdatedAt, 180),
                after,
                merge,
                None,
            ),
            None,
        ),
        (
            "s2_mistake_merge_on_change_id",
            2,
            daily(
                &partition_lab::scenarios::orders::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                M::Merge {
                    key: Some(MergeKey::RowId),
                },
                None,
            ),
            Some("R2"),
        ),
        (
            "s2_mistake_watermark_append",
            2,
            daily(
                &partition_lab::scenarios::orders::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                M::Append,
                None,
            ),
            Some("R2"),
        ),
        (
            "s3_list2_overwrite_l2",
            3,
            daily(
                &partition_lab::scenarios::mobile::SCENARIO,
                list(2, ListDate::EventDate),
                after,
                M::OverwritePartition,
                l2(AfterFinal::Adjustments),
            ),
            None,
        ),
        (
            "s3_watermark_merge_l2",
            3,
            daily(
                &partition_lab::scenarios::mobile::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                merge,
                l2(AfterFinal::Adjustments),
            ),
            None,
        ),
        (
            "s3_list4_merge_l2",
            3,
            daily(
                &partition_lab::scenarios::mobile::SCENARIO,
                list(4, ListDate::EventDate),
                after,
                merge,
                l2(AfterFinal::Adjustments),
            ),
            None,
        ),
        (
            "s3_mistake_reopen",
            3,
            daily(
                &partition_lab::scenarios::mobile::SCENARIO,
                watermark(W::ArrivedAt, 0),
                after,
                merge,
                l2(AfterFinal::Reopen),
            ),
            Some("R3"),
        ),
    ];
    let mut compiled = Vec::new();
    // Each design SQLMesh or Dagster can express, as the page shows it: the
    // model scenario_sqlmesh.py and the definitions scenario_dagster.py
    // replay over the same runs.
    let mut files_for = Vec::new();
    let mut sqlmesh_designs = serde_json::Map::new();
    let mut dagster_designs = serde_json::Map::new();
    for (name, n, graph, _) in &designs {
        let shown = |tool: &str| {
            partition_lab::scenarios::export::code(scenario(*n), graph)
                .ok()
                .and_then(|codes| codes.into_iter().find(|c| c.tool == tool))
                .map(|c| c.text)
                .unwrap_or_default()
        };
        let model = shown("SQLMesh");
        let definitions = shown("Dagster");
        let in_sqlmesh = model.contains("MODEL (");
        let in_dagster = definitions.contains("@schedule(");
        if !in_sqlmesh && !in_dagster {
            continue;
        }
        let entry = replayed_design(name, *n, graph);
        if in_sqlmesh {
            sqlmesh_designs.insert((*name).to_string(), entry.clone());
            files_for.push(File::new(format!("sqlmesh/{name}.sql"), model));
        }
        if in_dagster {
            dagster_designs.insert((*name).to_string(), entry);
            files_for.push(File::new(format!("dagster/{name}.py"), definitions));
        }
    }
    let mut config = partition_lab::export::sqlmesh::config();
    config.path = "sqlmesh/config.yaml".into();
    files_for.push(config);
    files_for.push(File::new(
        "sqlmesh/designs.json",
        serde_json::to_string_pretty(&sqlmesh_designs).unwrap_or_default(),
    ));
    files_for.push(File::new(
        "dagster/designs.json",
        serde_json::to_string_pretty(&dagster_designs).unwrap_or_default(),
    ));
    for (name, n, graph, fails) in designs {
        let config = match compile(&graph) {
            Ok(c) => c.pipeline,
            Err(problems) => {
                eprintln!("{name} does not compile: {problems:?}");
                std::process::exit(1);
            }
        };
        graded_as_labelled(name, n, &graph, fails);
        compiled.push((name, n, config));
    }
    let scripts: Vec<(String, Script)> = [1u8, 2, 3, 6]
        .iter()
        .map(|n| (format!("scenario{n}"), scenario(*n).script().clone()))
        .collect();
    let replays: Vec<Replay> = compiled
        .iter()
        .filter_map(|(name, n, config)| {
            let id = format!("scenario{n}");
            scripts.iter().find(|(k, _)| *k == id).map(|(_, s)| Replay {
                name: (*name).to_string(),
                config: *config,
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
    files.extend(files_for);
    files
}

/// What a scheduler's replay of a design needs: its scenario, tables, the
/// days before d the lab's run for d rebuilds (which an operator's re-run
/// of d rebuilds again; none for a full refresh: all), and silver after
/// each of the engine's attempts, day by day, in the attempts' order (what
/// the tool's silver must be after each moment its scheduler ran).
fn replayed_design(name: &str, n: u8, graph: &partition_lab::design::Graph) -> serde_json::Value {
    use partition_lab::design::compile::compile;
    use partition_lab::design::NodeKind;
    use partition_lab::engine::ProcessingState;
    let Ok(design) = compile(graph) else {
        eprintln!("{name} does not compile");
        std::process::exit(1);
    };
    let table = |kind| {
        graph.of_kind(kind).find_map(|node| match &node.config {
            partition_lab::design::NodeConfig::Source { table }
            | partition_lab::design::NodeConfig::Write { table, .. } => Some(table.clone()),
            _ => None,
        })
    };
    let before = match design.pipeline.state {
        ProcessingState::PartitionList { lookback, .. } => Some(lookback),
        ProcessingState::TrailingWindow { days } => Some(days),
        _ => None,
    };
    let outcome = partition_lab::engine::simulate(&design.pipeline, scenario(n).script());
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
                partition_lab::lean::order::sort(ids);
            }
            days
        })
        .collect();
    serde_json::json!({
        "scenario": n,
        "model": table(NodeKind::Write),
        "source": table(NodeKind::Source),
        "rerun_days_before": before,
        "silver_after_each_attempt": after,
    })
}

/// The backfill lab's rebuild as a dbt microbatch project: bronze and the
/// rates as seeds, silver as the microbatch model, and each plan's command.
/// With the Sunday withdrawn the seeds lack its orders and
/// `withdrawn_orders.csv` holds what silver still has of them.
fn microbatch_files(sunday: Sunday) -> Vec<File> {
    use partition_lab::labs::backfill::commands::dbt_rebuild;
    let case = Case::of(sunday);
    let mut files = partition_lab::labs::backfill::commands::microbatch_project(&case);
    let mut plans = serde_json::Map::new();
    for from in PlanStart::ALL {
        let plan = case.plan(&Choices {
            from,
            ..Choices::default()
        });
        let dates: Vec<String> = plan.dates().iter().map(ToString::to_string).collect();
        plans.insert(dbt_rebuild(&plan), serde_json::json!(dates));
    }
    files.push(plans_and_truth(&case, plans));
    files
}

/// `expected.json` of a backfill check: each plan's answer, and the lab's
/// own rebuild of every partition 1..13 (from bronze, fixed logic; a day
/// with no rows in bronze has none), which is what the real tool's rebuild
/// must give for the days a plan covers.
fn plans_and_truth(case: &Case, plans: serde_json::Map<String, serde_json::Value>) -> File {
    use partition_lab::labs::backfill::case::{aug, last_existing};
    let truth: serde_json::Map<String, serde_json::Value> =
        partition_lab::engine::calendar::days(aug(1), last_existing())
            .map(|dt| {
                let rows = case.truth.partition(dt);
                let pence: i64 = rows.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
                (
                    dt.to_string(),
                    serde_json::json!({"rows": rows.len(), "pence": pence}),
                )
            })
            .collect();
    File::new(
        "expected.json",
        serde_json::to_string_pretty(&serde_json::json!({"plans": plans, "truth": truth}))
            .unwrap_or_default(),
    )
}

/// The backfill lab's Spark job for every plan start, with markers and
/// without (and, with the Sunday withdrawn, with each writer), over the
/// drift project's tables, and the lab's answer: the days each rebuilds,
/// the days it leaves holding their old rows, and every day's fixed total.
fn backfill_spark_files(sunday: Sunday) -> Vec<File> {
    use partition_lab::labs::backfill::case::Writer;
    let case = Case::of(sunday);
    let mut files = partition_lab::labs::backfill::commands::drift_project(&case);
    let mut plans = serde_json::Map::new();
    let writers: &[Writer] = match sunday {
        Sunday::Delivered => &[Writer::Targeted],
        Sunday::Withdrawn => &[Writer::Targeted, Writer::Dynamic],
    };
    for from in PlanStart::ALL {
        for markers in [true, false] {
            for &writer in writers {
                let choices = Choices {
                    from,
                    concurrency: Concurrency::Four,
                    markers,
                    sunday,
                    writer,
                };
                let plan = case.plan(&choices);
                let name = format!(
                    "from{}_{}_{}",
                    partition_lab::vocabulary::Choice::name(from),
                    if markers { "markers" } else { "nomarkers" },
                    partition_lab::vocabulary::Choice::name(writer)
                );
                files.push(File::new(
                    format!("jobs/{name}.py"),
                    partition_lab::labs::backfill::commands::spark(&plan),
                ));
                files.push(File::new(
                    format!("loops/{name}.py"),
                    partition_lab::labs::backfill::commands::plain_loop(&plan),
                ));
                // What the engine's run leaves: dates rebuilt from no rows
                // that still hold their old ones.
                let exec = case.execute(&choices, &[], backfill_start(), None);
                let kept: Vec<String> = case
                    .kept_stale(std::slice::from_ref(&exec))
                    .iter()
                    .map(|(dt, _, _)| dt.to_string())
                    .collect();
                let dates: Vec<String> = plan.dates().iter().map(ToString::to_string).collect();
                plans.insert(
                    name,
                    serde_json::json!({"dates": dates, "markers": markers, "slots": plan.slots(), "kept": kept}),
                );
            }
        }
    }
    files.push(plans_and_truth(&case, plans));
    files
}

/// The backfill lab's pipeline as a SQLMesh project over the drift
/// project's bronze and rates, each plan start's restatement command as the
/// page shows it, and the days it rebuilds with every day's fixed total.
fn sqlmesh_files() -> Vec<File> {
    let case = Case::of(Sunday::Delivered);
    let mut files = partition_lab::labs::backfill::commands::sqlmesh_project(&case);
    let plans = shown_plans(&case, Sunday::Delivered, "SQLMesh", "sqlmesh plan");
    files.push(plans_and_truth(&case, plans));
    files
}

/// The backfill lab's pipeline as a Dagster project, each plan start's
/// launch as the page shows it (and one partition's), the days each
/// rebuilds, every day's fixed total; with the Sunday withdrawn, its orders
/// as they were, for a rebuild to remove.
fn dagster_files(sunday: Sunday) -> Vec<File> {
    use partition_lab::labs::backfill::case::last_existing;
    let case = Case::of(sunday);
    let mut files = partition_lab::labs::backfill::commands::dagster_project(&case);
    let mut plans = shown_plans(&case, sunday, "Dagster", "dg launch");
    // One partition, as the page's launch reads when a plan is one day.
    let day = last_existing();
    plans.insert(
        partition_lab::export::dagster::launch(day, day),
        serde_json::json!([day.to_string()]),
    );
    files.push(plans_and_truth(&case, plans));
    files
}

/// For each plan start (four at once, markers on), the command the page's
/// `title` block ends with, from its last `starts` on, and the plan's days.
fn shown_plans(
    case: &Case,
    sunday: Sunday,
    title: &str,
    starts: &str,
) -> serde_json::Map<String, serde_json::Value> {
    use partition_lab::labs::backfill::commands::commands;
    let mut plans = serde_json::Map::new();
    for from in PlanStart::ALL {
        let plan = case.plan(&Choices {
            from,
            concurrency: Concurrency::Four,
            markers: true,
            sunday,
            writer: Default::default(),
        });
        let shown = commands(&plan)
            .into_iter()
            .find(|c| c.title == title)
            .map(|c| c.code)
            .unwrap_or_default();
        let Some(command) = shown.rfind(starts).and_then(|at| shown.get(at..)) else {
            eprintln!("no {title} command for the plan from {}", plan.first);
            std::process::exit(1);
        };
        let dates: Vec<String> = plan.dates().iter().map(ToString::to_string).collect();
        plans.insert(command.to_string(), serde_json::json!(dates));
    }
    plans
}

/// Scenarios 4 and 5: passing and failing backfill designs built as the
/// canvas builds them, each design's Spark job exactly as "Export as code"
/// shows it, the scenario's tables at the launch as CSV, and the engine's
/// answers: for a first launch run to its end, every plan date's silver and
/// gold and the markers; for a re-run after the failover (scenario 5), the
/// markers the first launch left and the dates the re-run rebuilds.
fn scenario_backfill_files() -> Vec<File> {
    use partition_lab::design::compile::compile;
    use partition_lab::design::graph::{BackfillShape, Markers, WriteChoice};
    use partition_lab::design::{Graph, NodeConfig};
    use partition_lab::engine::clock::StepKind;
    use partition_lab::engine::LogicVersion;
    use partition_lab::export::drift::pounds;
    use partition_lab::scenarios::backfilled::{run, uninterrupted};
    use partition_lab::scenarios::export::backfill_job;
    use partition_lab::scenarios::sample::sample;
    let with = |n: u8, change: &dyn Fn(&mut NodeConfig)| -> Graph {
        let mut g = sample(scenario(n), WriteChoice::OverwritePartition);
        for node in g.nodes.values_mut() {
            change(&mut node.config);
        }
        g
    };
    let backfill = |n: u8, f: &dyn Fn(&mut BackfillShape, &mut Markers, &mut chrono::NaiveDate)| {
        with(n, &|c: &mut NodeConfig| {
            if let NodeConfig::Backfill {
                shape,
                markers,
                first,
                ..
            } = c
            {
                f(shape, markers, first);
            }
        })
    };
    let old_logic = |c: &mut NodeConfig| {
        if let NodeConfig::Transform { logic, .. } = c {
            *logic = LogicVersion::Broken;
        }
    };
    // (name, scenario, design, the rule a mistake fails, run the first launch?)
    let designs: Vec<(&str, u8, Graph, Option<&str>, bool)> = vec![
        ("s4_per_date_markers", 4, with(4, &|_| {}), None, true),
        (
            "s4_mistake_together",
            4,
            backfill(4, &|s, _, _| *s = BackfillShape::Together),
            Some("R4"),
            true,
        ),
        (
            "s4_mistake_from_the_1st",
            4,
            backfill(4, &|_, _, f| *f = partition_lab::engine::calendar::aug(1)),
            Some("R2"),
            true,
        ),
        (
            "s4_mistake_old_logic",
            4,
            with(4, &old_logic),
            Some("R1"),
            true,
        ),
        ("s5_per_date_markers", 5, with(5, &|_| {}), None, false),
        (
            "s5_mistake_markers_before",
            5,
            backfill(5, &|_, m, _| *m = Markers::BeforePartition),
            Some("R1"),
            false,
        ),
    ];
    let mut files = Vec::new();
    let mut expected = serde_json::Map::new();
    for n in [4u8, 5] {
        let (s, Some(set)) = (scenario(n).script(), scenario(n).setting()) else {
            eprintln!("scenario {n} has no backfill to export");
            std::process::exit(1);
        };
        let (silver, gold) = partition_lab::engine::backfill_run::history(s, set.launch);
        let arrived = s.events.iter().filter(|e| e.arrived_at <= set.launch);
        files.push(File::new(
            format!("scenario{n}/bronze.csv"),
            partition_lab::export::drift::bronze_csv(arrived),
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
            partition_lab::export::drift::fx_csv(&s.fx, &days),
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
        graded_as_labelled(name, n, &graph, fails);
        let job = match backfill_job(scenario(n), &graph) {
            Ok(job) => job,
            Err(why) => {
                eprintln!("{name}: no Spark job ({why})");
                std::process::exit(1);
            }
        };
        files.push(File::new(format!("jobs/{name}.py"), job));
        let (Ok(design), s, Some(set)) =
            (compile(&graph), scenario(n).script(), scenario(n).setting())
        else {
            eprintln!("{name} does not compile");
            std::process::exit(1);
        };
        let layer = |k: StepKind| match k {
            StepKind::Silver => "silver",
            _ => "gold",
        };
        let markers_of = |done: &partition_lab::scenarios::backfilled::Backfilled,
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
        let table_of = |want: partition_lab::design::NodeKind| {
            graph.of_kind(want).find_map(|node| match &node.config {
                NodeConfig::Source { table } | NodeConfig::Write { table, .. } => {
                    Some(table.clone())
                }
                _ => None,
            })
        };
        let mut entry = serde_json::json!({
            "scenario": n,
            "bronze": table_of(partition_lab::design::NodeKind::Source),
            "silver": table_of(partition_lab::design::NodeKind::Write),
        });
        if first_run {
            let Some(once) = uninterrupted(&set, &design, s) else {
                eprintln!("{name}: no backfill");
                std::process::exit(1);
            };
            let b = once.design;
            let dates: Vec<chrono::NaiveDate> =
                partition_lab::engine::calendar::days(b.first, b.last).collect();
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
            eprintln!("{name}: no backfill");
            std::process::exit(1);
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
    files
}

fn drift_files() -> Vec<File> {
    let case = Case::new();
    let mut files = partition_lab::labs::backfill::commands::drift_project(&case);
    let expected: Vec<serde_json::Value> = case
        .drift()
        .into_iter()
        .filter(|r| r.drifts())
        .map(|r| serde_json::json!({"dt": r.dt.to_string(), "stored": r.stored, "recomputed": r.recomputed, "drift": r.drift()}))
        .collect();
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

fn airflow_files() -> Vec<File> {
    let case = Case::new();
    let mut files = Vec::new();
    let mut expected = serde_json::Map::new();
    for from in PlanStart::ALL {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                let choices = Choices {
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                };
                let plan = case.plan(&choices);
                let b = partition_lab::labs::backfill::commands::airflow_backfill(&plan);
                let name = format!(
                    "from{}_c{}_{}",
                    from.day(),
                    concurrency.value(),
                    if markers { "markers" } else { "nomarkers" }
                );
                files.push(File::new(
                    format!("commands/{name}.sh"),
                    airflow::commands(&b),
                ));
                let dates: Vec<String> = plan
                    .dates()
                    .iter()
                    .map(|d| airflow::logical_date(*d))
                    .collect();
                expected.insert(name, serde_json::json!(dates));
            }
        }
    }
    // Scenarios 4 and 5: backfill designs as the canvas builds them, their
    // DAGs and commands exactly as "Export as code" shows them.
    {
        use partition_lab::design::code::airflow_parts;
        use partition_lab::design::graph::WriteChoice;
        use partition_lab::export::airflow::Dates;
        use partition_lab::scenarios::sample::sample;
        for (name, n, dates, yields) in [
            ("s4_from3_c3", 4u8, Dates::AlreadyRun, false),
            ("s5_history_c4_yields", 5, Dates::NeverRun, true),
        ] {
            let mut graph = sample(scenario(n), WriteChoice::OverwritePartition);
            let mut range = None;
            for node in graph.nodes.values_mut() {
                if let partition_lab::design::NodeConfig::Backfill {
                    first,
                    last,
                    max_concurrency,
                    yield_to_scheduled,
                    ..
                } = &mut node.config
                {
                    if yields {
                        *max_concurrency = 4;
                        *yield_to_scheduled = true;
                    }
                    range = Some((*first, *last));
                }
            }
            let (Ok(parts), Some((first, last))) = (airflow_parts(&graph, dates), range) else {
                eprintln!("scenario {n}'s backfill design has no Airflow form");
                std::process::exit(1);
            };
            files.push(File::new(format!("dags/{}.py", parts.dag_id), parts.dag));
            files.push(File::new(format!("commands/{name}.sh"), parts.commands));
            let dates: Vec<String> = partition_lab::engine::calendar::days(first, last)
                .map(airflow::logical_date)
                .collect();
            expected.insert(name.to_string(), serde_json::json!(dates));
        }
    }
    // Scenario 6: a daily design that catches up after the scheduler was
    // down, its DAG (catchup=True) exactly as "Export as code" shows it.
    {
        use partition_lab::design::code::airflow_parts;
        use partition_lab::design::graph::{StateChoice, WriteChoice};
        use partition_lab::export::airflow::Dates;
        use partition_lab::scenarios::sample::{catching_up, daily};
        let graph = catching_up(daily(
            &partition_lab::scenarios::outage::SCENARIO,
            StateChoice::TrailingWindow { days: 1 },
            CommitOrder::StateAfterWrite,
            WriteChoice::OverwritePartition,
            None,
        ));
        let Ok(parts) = airflow_parts(&graph, Dates::AlreadyRun) else {
            eprintln!("scenario 6's design has no Airflow form");
            std::process::exit(1);
        };
        if !parts.dag.contains("catchup=True") {
            eprintln!("scenario 6's catching-up design exports a DAG that does not catch up");
            std::process::exit(1);
        }
        files.push(File::new(format!("dags/{}.py", parts.dag_id), parts.dag));
    }
    // The DAG starts where the pipeline does, as the downloaded project's.
    files.push(partition_lab::labs::backfill::commands::dag_file(
        partition_lab::labs::backfill::case::aug(1),
    ));
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

/// A test arrival log, its columns, the zones its partitions are dated in
/// and the run times to query it at.
struct TestLog {
    file: &'static str,
    event: &'static str,
    arrival: &'static str,
    value: Option<&'static str>,
    zones: &'static [&'static str],
    runs: &'static [(u32, u32)],
}

const LOGS: [TestLog; 4] = [
    TestLog {
        file: "edges.csv",
        event: "event_time",
        arrival: "arrival_time",
        value: Some("value"),
        zones: &["UTC", "Asia/Tokyo"],
        runs: &[(2, 0), (3, 0), (1, 0)],
    },
    TestLog {
        file: "messy.csv",
        event: "Event_Time",
        arrival: "Arrival_Time",
        value: None,
        zones: &["UTC"],
        runs: &[(2, 0), (6, 30)],
    },
    // Nothing of value: 100 % by value at every lateness, as the lab says.
    TestLog {
        file: "zeros.csv",
        event: "event_time",
        arrival: "arrival_time",
        value: Some("value"),
        zones: &["UTC"],
        runs: &[(2, 0)],
    },
    // Arrivals around the six clock changes of 2026 in London, New York
    // and Sydney, at run times the clocks skip (02:00 and 02:30 in New
    // York's and Sydney's spring, 01:30 in London's), repeat (01:30 in the
    // northern autumns, 02:30 in Sydney's) or keep.
    TestLog {
        file: "clock_changes.csv",
        event: "ordered_at",
        arrival: "received_at",
        value: Some("amount"),
        zones: &[
            "Europe/London",
            "America/New_York",
            "Australia/Sydney",
            "UTC",
        ],
        runs: &[(1, 30), (2, 0), (2, 30), (0, 0)],
    },
];

/// One test log read in one zone for one run time, as each proof of the
/// lateness lab's exports runs it.
struct LogCase {
    file: &'static str,
    /// From the repository's root.
    path: String,
    mapping: partition_lab::labs::lateness::arrival_csv::Mapping,
    zone: partition_lab::engine::zone::Zone,
    run: chrono::NaiveTime,
    /// `<log>[_<zone>]_<hhmm>`.
    name: String,
    /// With the rows it counts kept.
    loaded: partition_lab::labs::lateness::arrival_csv::Loaded,
}

/// Every test log in every zone and run time of `LOGS`.
fn log_cases() -> Vec<LogCase> {
    use partition_lab::engine::zone::Zone;
    use partition_lab::labs::lateness::arrival_csv::{LogReader, Mapping};
    let mut cases = Vec::new();
    for TestLog {
        file,
        event,
        arrival,
        value,
        zones,
        runs,
    } in LOGS
    {
        let path = format!("tests/data/arrivals/{file}");
        let bytes = std::fs::read(&path).unwrap_or_default();
        // The columns the exports name are the ones the lab read.
        let mapping = Mapping {
            event: event.to_string(),
            arrival: arrival.to_string(),
            value: value.map(str::to_string),
        };
        for (zone, (hour, minute)) in zones
            .iter()
            .flat_map(|z| runs.iter().map(move |r| (*z, *r)))
        {
            let Ok(zone) = Zone::named(zone) else {
                eprintln!("{zone} is not a zone the lab holds");
                std::process::exit(1);
            };
            let mut reader = LogReader::with(Some(mapping.clone()), zone).keeping_rows();
            let loaded = match reader.feed(&bytes).and_then(|()| reader.finish()) {
                Ok(loaded) => loaded,
                Err(e) => {
                    eprintln!("could not read {path}: {e}");
                    std::process::exit(1);
                }
            };
            let place = if zone.is_utc() {
                String::new()
            } else {
                format!("_{}", zone.name().replace('/', "_").to_ascii_lowercase())
            };
            cases.push(LogCase {
                file,
                name: format!(
                    "{}{place}_{hour:02}{minute:02}",
                    file.trim_end_matches(".csv")
                ),
                path: path.clone(),
                mapping: mapping.clone(),
                zone,
                run: chrono::NaiveTime::from_hms_opt(hour, minute, 0).unwrap_or_default(),
                loaded,
            });
        }
    }
    cases
}

fn lateness_files() -> Vec<File> {
    use partition_lab::engine::arrivals::value_text;
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::export::drift::Dialect;
    use partition_lab::export::lateness_sql::{query, Source, MAX_DAYS};
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for LogCase {
        path,
        mapping,
        zone,
        run,
        name,
        loaded,
        ..
    } in log_cases()
    {
        let source = Source {
            table: "arrivals".to_string(),
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            run,
            zone,
        };
        let Ok(sql) = query(Dialect::DuckDb, &source) else {
            eprintln!("no query for {name}");
            std::process::exit(1);
        };
        files.push(File::new(format!("{name}.sql"), sql));
        let Ok(spark) = query(Dialect::SparkSql, &source) else {
            eprintln!("no Spark query for {name}");
            std::process::exit(1);
        };
        files.push(File::new(format!("{name}.spark.sql"), spark));
        let completeness = loaded.log.at_run_time(run);
        let rows: Vec<serde_json::Value> = (0..=MAX_DAYS)
            .map(|l| {
                let f = completeness.figures(Lateness::Days(l), Default::default());
                serde_json::json!({
                    "allowed_lateness_days": l,
                    "events_complete": f.complete.count,
                    "events_total": f.total.count,
                    "value_complete": value_text(f.complete.value),
                    "value_total": value_text(f.total.value),
                    "events_complete_pct": format!("{}.{:02}", f.count_bp / 100, f.count_bp % 100),
                    "value_complete_pct": format!("{}.{:02}", f.value_bp / 100, f.value_bp % 100),
                })
            })
            .collect();
        expected.push(serde_json::json!({"name": name, "csv": path, "rows": rows}));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

/// The allowed lateness each Beam case is checked at (each one a branch of
/// the pipeline, and the DirectRunner's time grows with them): for a
/// profile's month (37,200 events, about 8 s a branch) none, one and a
/// week; for the test logs, whose rows are at most 4 days late but one, 0
/// to 4 and the slider's last.
const BEAM_PROFILE_DAYS: [u32; 3] = [0, 1, 7];
const BEAM_LOG_DAYS: [u32; 6] = [0, 1, 2, 3, 4, 14];

/// The ids of the rows that miss their day at lateness `l`, by the
/// engine's rule row by row; `after` is the count the page shows (the
/// study's or the log's figures): they must be one number.
fn late_ids(name: &str, l: u32, ids: Vec<String>, after: u64) -> serde_json::Value {
    if u64::try_from(ids.len()).ok() != Some(after) {
        eprintln!(
            "{name}: {} rows miss their day at {l}, the page says {after}",
            ids.len()
        );
        std::process::exit(1);
    }
    serde_json::json!(ids)
}

/// The ids of a profile's August orders that miss their day at lateness
/// `l`, checked against the count the page shows.
fn profile_late_ids(
    profile: partition_lab::labs::lateness::model::Profile,
    month: &[partition_lab::engine::generate::OrderDraw],
    l: u32,
) -> serde_json::Value {
    use partition_lab::engine::lateness::{days_needed, Lateness};
    use partition_lab::labs::lateness::model::{august, study};
    use partition_lab::vocabulary::Choice;
    let ids: Vec<String> = month
        .iter()
        .filter(|d| (august(1)..=august(31)).contains(&d.event_time.date()))
        .filter(|d| days_needed(d.event_time.date(), d.arrived_at) > l)
        .map(|d| d.id())
        .collect();
    let after = study(profile).figures(Lateness::Days(l)).after_final.count;
    late_ids(profile.file(), l, ids, after)
}

/// The allowed lateness each SQLMesh lookback is checked at (`None`: never
/// final, a FULL model): one model each, all run together over a month.
const LOOKBACK_DAYS: [Option<u32>; 4] = [Some(0), Some(2), Some(7), None];

/// A lookback case's name in the check: its model is `shop.orders_<key>`.
fn lookback_key(l: Option<u32>) -> String {
    l.map_or_else(|| "never".to_string(), |l| format!("l{l}"))
}

/// The lateness lab's lookback as SQLMesh models over every built-in
/// profile's month (the CSVs the Beam check replays), and the orders each
/// must never book.
fn lookback_files() -> Vec<File> {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::export::sqlmesh::{config, lookback_model};
    use partition_lab::labs::lateness::model::{august, draws, Profile};
    let mut files = vec![config()];
    for l in LOOKBACK_DAYS {
        let key = lookback_key(l);
        let lateness = l.map_or(Lateness::Never, Lateness::Days);
        files.push(File::new(
            format!("models/orders_{key}.sql"),
            lookback_model(&format!("shop.orders_{key}"), august(1), lateness),
        ));
    }
    let mut expected = Vec::new();
    for &profile in Profile::ALL.iter().filter(|p| **p != Profile::Yours) {
        let month = draws(profile);
        let mut dropped = serde_json::Map::new();
        for l in LOOKBACK_DAYS {
            let ids = match l {
                Some(l) => profile_late_ids(profile, &month, l),
                None => serde_json::json!([]),
            };
            dropped.insert(lookback_key(l), ids);
        }
        expected.push(serde_json::json!({
            "name": profile.file(),
            "csv": format!("../lateness-beam/{}.csv", profile.file()),
            "dropped": dropped,
        }));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

/// The lateness lab's Dagster definitions at each lookback case's
/// lateness, and the lookback check's profiles with the orders the lab
/// says arrive after their day is final.
fn lateness_dagster_files() -> Vec<File> {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::export::dagster::lateness_definitions;
    use partition_lab::labs::lateness::model::august;
    let mut files: Vec<File> = LOOKBACK_DAYS
        .iter()
        .map(|l| {
            let key = lookback_key(*l);
            let lateness = l.map_or(Lateness::Never, Lateness::Days);
            File::new(
                format!("orders_{key}.py"),
                lateness_definitions(&format!("shop.orders_{key}"), august(1), lateness),
            )
        })
        .collect();
    files.extend(
        lookback_files()
            .into_iter()
            .filter(|f| f.path == "expected.json"),
    );
    files
}

/// The lateness lab's Beam pipeline for every built-in profile (its month
/// written as a CSV) and every test log, zone and run time, and the rows
/// the lab says arrive after their day is final at each lateness.
fn beam_files() -> Vec<File> {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::export::beam::{month_csv, pipeline, Stream};
    use partition_lab::labs::lateness::model::{draws, Profile};
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let utc_run = chrono::NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default();
    for &profile in Profile::ALL.iter().filter(|p| **p != Profile::Yours) {
        let month = draws(profile);
        let name = profile.file();
        files.push(File::new(format!("{name}.csv"), month_csv(&month)));
        let stream = Stream::month(Lateness::Days(1));
        files.push(File::new(format!("{name}.py"), pipeline(&stream)));
        let mut dropped = serde_json::Map::new();
        for l in BEAM_PROFILE_DAYS {
            dropped.insert(l.to_string(), profile_late_ids(profile, &month, l));
        }
        expected.push(serde_json::json!({
            "name": name,
            "csv": format!("{name}.csv"),
            "script": format!("{name}.py"),
            "read": month.len(),
            "left_out": 0,
            "dropped": dropped,
        }));
    }
    for LogCase {
        file,
        path,
        mapping,
        zone,
        run,
        name,
        loaded,
    } in log_cases()
    {
        // In UTC no clock changes: one run time is enough of the long log.
        if zone.is_utc() && file == "clock_changes.csv" && run != utc_run {
            continue;
        }
        let stream = Stream {
            event_time: mapping.event.clone(),
            arrival_time: mapping.arrival.clone(),
            value: mapping.value.clone(),
            id: None,
            run,
            zone,
            lateness: Lateness::Days(1),
        };
        files.push(File::new(format!("{name}.py"), pipeline(&stream)));
        let completeness = loaded.log.at_run_time(run);
        let mut dropped = serde_json::Map::new();
        for l in BEAM_LOG_DAYS {
            let lines: Vec<String> = loaded
                .kept
                .iter()
                .filter(|row| loaded.log.needed(row, run) > l)
                .map(|row| row.line.to_string())
                .collect();
            let after = completeness
                .figures(Lateness::Days(l), Default::default())
                .after_final
                .count;
            dropped.insert(l.to_string(), late_ids(&name, l, lines, after));
        }
        expected.push(serde_json::json!({
            "name": name,
            "csv": path,
            "script": format!("{name}.py"),
            "read": loaded.kept.len(),
            "left_out": loaded.rows.saturating_sub(loaded.used()),
            "dropped": dropped,
        }));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

/// The allowed lateness of each scenario-3 design the Beam check runs:
/// one pipeline each over 12,400 purchases (the DirectRunner takes a few
/// seconds a branch).
const SCENARIO_BEAM: [(u32, partition_lab::engine::AfterFinal); 4] = [
    (1, partition_lab::engine::AfterFinal::Adjustments),
    (2, partition_lab::engine::AfterFinal::Adjustments),
    (2, partition_lab::engine::AfterFinal::Drop),
    (4, partition_lab::engine::AfterFinal::Adjustments),
];

/// Scenario 3's designs with a finaliser, each as the Beam block the page
/// shows, over the scenario's bronze as the runnable project writes it;
/// and the rows the engine keeps out of each design's final partitions
/// (booked as adjustments, or dropped), in the file's order, which Beam
/// must drop as late.
fn scenario_beam_files() -> Vec<File> {
    use partition_lab::engine::{simulate, AfterFinal};
    use partition_lab::export::replay::bronze_csv;
    let scenario = scenario(3);
    let script = scenario.script();
    let mut files = vec![File::new(
        "bronze.csv",
        bronze_csv(&[("scenario3", script)]),
    )];
    let mut expected = Vec::new();
    for (l, after) in SCENARIO_BEAM {
        let graph = partition_lab::scenarios::sample::finalising(scenario, l, after);
        let name = format!(
            "s3_l{l}_{}",
            if after == AfterFinal::Drop {
                "drop"
            } else {
                "adjust"
            }
        );
        let shown = partition_lab::scenarios::export::code(scenario, &graph)
            .ok()
            .and_then(|codes| codes.into_iter().find(|c| c.tool == "Beam"))
            .map(|c| c.text)
            .filter(|text| text.contains("import apache_beam"));
        let Some(shown) = shown else {
            eprintln!("{name}: the page shows no Beam pipeline");
            std::process::exit(1);
        };
        let Ok(compiled) = partition_lab::design::compile(&graph) else {
            eprintln!("{name} does not compile");
            std::process::exit(1);
        };
        let outcome = simulate(&compiled.pipeline, script);
        let kept_out: BTreeSet<String> = match after {
            AfterFinal::Drop => outcome.dropped.iter().map(|id| id.to_string()).collect(),
            _ => outcome
                .adjustments
                .iter()
                .map(|a| a.id.to_string())
                .collect(),
        };
        if kept_out.is_empty() {
            eprintln!("{name}: no row misses its day: nothing to compare");
            std::process::exit(1);
        }
        let ids: Vec<String> = script
            .events
            .iter()
            .map(|e| e.id.to_string())
            .filter(|id| kept_out.contains(id))
            .collect();
        files.push(File::new(format!("{name}.py"), shown));
        expected.push(serde_json::json!({
            "name": name,
            "csv": "bronze.csv",
            "script": format!("{name}.py"),
            "read": script.events.len(),
            "left_out": 0,
            "dropped": { l.to_string(): ids },
        }));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    files
}

/// The backfill lab's runnable project for the plan from the 3rd (four at
/// once, markers on) exactly as the page offers it, as a tar, and the days
/// its dbt, SQLMesh and Dagster parts must leave fixed.
fn backfill_project_files() -> Vec<File> {
    use partition_lab::labs::backfill::commands::runnable;
    let case = Case::of(Sunday::Delivered);
    let plan = case.plan(&Choices {
        from: PlanStart::Third,
        concurrency: Concurrency::Four,
        markers: true,
        sunday: Sunday::Delivered,
        writer: Default::default(),
    });
    let Some((name, bytes)) = runnable(&case, &plan) else {
        eprintln!(
            "the backfill lab offers no project for the plan from {}",
            plan.first
        );
        std::process::exit(1);
    };
    // A tar of text files is text: its headers are ASCII and NULs.
    let Ok(tar) = String::from_utf8(bytes) else {
        eprintln!("{name} is not text");
        std::process::exit(1);
    };
    let days: Vec<String> = partition_lab::engine::calendar::days(plan.first, plan.last)
        .map(|d| d.to_string())
        .collect();
    let mut plans = serde_json::Map::new();
    plans.insert(name.clone(), serde_json::json!(days));
    // The day the bug's code first built: before it, history is the fix's.
    let mut expected = plans_and_truth(&case, plans);
    if let Ok(serde_json::Value::Object(mut all)) = serde_json::from_str(&expected.text) {
        all.insert(
            "shipped".to_string(),
            serde_json::json!(partition_lab::labs::backfill::case::true_ship_date().to_string()),
        );
        expected.text =
            serde_json::to_string_pretty(&serde_json::Value::Object(all)).unwrap_or_default();
    }
    vec![File::new(name, tar), expected]
}

/// The pipelines whose dates `scripts/real/dates_*.py` ask each tool about:
/// the page's default, a day at the month's end with no lateness and a
/// one-day backfill, and a week of lateness over the whole month.
const DATE_CASES: [(u32, u32, u32, u32); 3] = [(5, 2, 3, 13), (31, 0, 31, 31), (13, 7, 1, 31)];

/// The dates page's values for each case, as the checks read them.
fn dates_files() -> Vec<File> {
    use partition_lab::engine::calendar::{aug, Instant};
    use partition_lab::labs::dates::{iso, Backfill, Calendar, Pipeline, Span};
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
            let beam_runs = |runs: &[partition_lab::labs::dates::BeamRun]| -> Value {
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
    vec![File::new(
        "expected.json",
        serde_json::to_string_pretty(&cases).unwrap_or_default(),
    )]
}

fn main() {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: partition-lab-export <folder> | --pins");
        std::process::exit(2);
    };
    // The pins scripts/check-real installs, from the versions every label names.
    if out == "--pins" {
        print!("{}", partition_lab::export::pins());
        return;
    }
    let root = Path::new(&out);
    for (dir, files) in [
        ("state-write", state_write()),
        ("scenarios", scenario_files()),
        ("microbatch", microbatch_files(Sunday::Delivered)),
        ("microbatch-withdrawn", microbatch_files(Sunday::Withdrawn)),
        ("drift", drift_files()),
        ("backfill-spark", backfill_spark_files(Sunday::Delivered)),
        (
            "backfill-spark-withdrawn",
            backfill_spark_files(Sunday::Withdrawn),
        ),
        ("scenario-backfills", scenario_backfill_files()),
        ("airflow", airflow_files()),
        ("lateness", lateness_files()),
        ("lateness-beam", beam_files()),
        ("scenario-beam", scenario_beam_files()),
        ("lateness-sqlmesh", lookback_files()),
        ("lateness-dagster", lateness_dagster_files()),
        ("sqlmesh", sqlmesh_files()),
        ("dagster", dagster_files(Sunday::Delivered)),
        ("dagster-withdrawn", dagster_files(Sunday::Withdrawn)),
        ("dates", dates_files()),
        ("backfill-project", backfill_project_files()),
    ] {
        if let Err(e) = write(&root.join(dir), &files) {
            eprintln!("could not write {dir}: {e}");
            std::process::exit(1);
        }
        println!(
            "wrote {} to {}",
            partition_lab_core::counted::counted(files.len(), "file"),
            root.join(dir).display()
        );
    }
}
