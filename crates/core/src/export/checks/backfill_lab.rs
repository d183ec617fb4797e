use super::*;
use crate::tool::Tool;

/// The backfill lab's rebuild as a dbt microbatch project: bronze and the
/// rates as seeds, silver as the microbatch model, and each plan's command.
/// With the Sunday withdrawn the seeds lack its orders and
/// `withdrawn_orders.csv` holds what silver still has of them.
pub(super) fn microbatch_files(sunday: Sunday) -> Vec<File> {
    use crate::export::backfill_lab::dbt_rebuild;
    let case = Case::of(sunday);
    let mut files = crate::export::backfill_lab::microbatch_project(&case);
    let mut plans = serde_json::Map::new();
    for from in case.august.starts() {
        let plan = Choices {
            august: case.august,
            from,
            ..Choices::default()
        }
        .plan();
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
    use crate::labs::backfill::case::{aug, last_existing};
    let truth: serde_json::Map<String, serde_json::Value> =
        crate::engine::calendar::days(aug(1), last_existing())
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
pub(super) fn backfill_spark_files(sunday: Sunday) -> Vec<File> {
    use crate::labs::backfill::case::Writer;
    let case = Case::of(sunday);
    let mut files = crate::export::backfill_lab::drift_project(&case);
    let mut plans = serde_json::Map::new();
    let writers: &[Writer] = match sunday {
        Sunday::Delivered => &[Writer::Targeted],
        Sunday::Withdrawn => &[Writer::Targeted, Writer::Dynamic],
    };
    for from in case.august.starts() {
        for markers in [true, false] {
            for &writer in writers {
                let choices = Choices {
                    august: case.august,
                    from,
                    concurrency: Concurrency::Four,
                    markers,
                    sunday,
                    writer,
                };
                let plan = choices.plan();
                let name = format!(
                    "from{}_{}_{}",
                    from.name(),
                    if markers { "markers" } else { "nomarkers" },
                    crate::vocabulary::Choice::name(writer)
                );
                files.push(File::new(
                    format!("jobs/{name}.py"),
                    crate::export::backfill_lab::spark(&plan),
                ));
                files.push(File::new(
                    format!("loops/{name}.py"),
                    crate::export::backfill_lab::plain_loop(&plan),
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
pub(super) fn sqlmesh_files() -> Result<Vec<File>, Refusal> {
    let case = Case::of(Sunday::Delivered);
    let mut files = crate::export::backfill_lab::sqlmesh_project(&case);
    let plans = shown_plans(&case, Sunday::Delivered, Tool::SqlMesh, "sqlmesh plan")?;
    files.push(plans_and_truth(&case, plans));
    Ok(files)
}

/// The backfill lab's pipeline as a Dagster project, each plan start's
/// launch as the page shows it (and one partition's), the days each
/// rebuilds, every day's fixed total; with the Sunday withdrawn, its orders
/// as they were, for a rebuild to remove.
pub(super) fn dagster_files(sunday: Sunday) -> Result<Vec<File>, Refusal> {
    use crate::labs::backfill::case::last_existing;
    let case = Case::of(sunday);
    let mut files = crate::export::backfill_lab::dagster_project(&case);
    let mut plans = shown_plans(&case, sunday, Tool::Dagster, "dg launch")?;
    // One partition, as the page's launch reads when a plan is one day.
    let day = last_existing();
    plans.insert(
        crate::export::dagster::launch(day, day),
        serde_json::json!([day.to_string()]),
    );
    files.push(plans_and_truth(&case, plans));
    Ok(files)
}

/// For each plan start (four at once, markers on), the command the page's
/// `tool` block ends with, from its last `starts` on, and the plan's days.
fn shown_plans(
    case: &Case,
    sunday: Sunday,
    tool: Tool,
    starts: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, Refusal> {
    use crate::export::backfill_lab::{commands, Form};
    let mut plans = serde_json::Map::new();
    for from in case.august.starts() {
        let plan = Choices {
            august: case.august,
            from,
            concurrency: Concurrency::Four,
            markers: true,
            sunday,
            writer: Default::default(),
        }
        .plan();
        let shown = commands(&plan)
            .into_iter()
            .find(|c| c.form == Form::Tool(tool))
            .map(|c| c.code)
            .unwrap_or_default();
        let Some(command) = shown.rfind(starts).and_then(|at| shown.get(at..)) else {
            return Err(format!(
                "no {tool} command for the plan from {}",
                plan.first
            ));
        };
        let dates: Vec<String> = plan.dates().iter().map(ToString::to_string).collect();
        plans.insert(command.to_string(), serde_json::json!(dates));
    }
    Ok(plans)
}

pub(super) fn drift_files() -> Vec<File> {
    let case = Case::new();
    let mut files = crate::export::backfill_lab::drift_project(&case);
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

pub(super) fn airflow_files() -> Result<Vec<File>, Refusal> {
    let mut files = Vec::new();
    let mut expected = serde_json::Map::new();
    lab_plans(&mut files, &mut expected);
    scenario_backfills(&mut files, &mut expected)?;
    files.push(catching_up_dag()?);
    // The DAG starts where the pipeline does, as the downloaded project's.
    files.push(crate::export::backfill_lab::dag_file(
        crate::labs::backfill::case::aug(1),
    ));
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    Ok(files)
}

type Expected = serde_json::Map<String, serde_json::Value>;

/// Every plan the backfill lab offers: its Airflow commands, and the
/// logical dates each must create.
fn lab_plans(files: &mut Vec<File>, expected: &mut Expected) {
    let case = Case::new();
    for from in case.august.starts() {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                let choices = Choices {
                    august: case.august,
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                };
                let plan = choices.plan();
                let b = crate::export::backfill_lab::airflow_backfill(&plan);
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
}

/// Scenarios 4 and 5: backfill designs as the canvas builds them, their
/// DAGs and commands exactly as "Export as code" shows them.
fn scenario_backfills(files: &mut Vec<File>, expected: &mut Expected) -> Result<(), Refusal> {
    use crate::design::graph::WriteChoice;
    use crate::export::airflow::Dates;
    use crate::export::canvas::airflow_parts;
    use crate::scenarios::sample::sample;
    for (name, n, dates, yields) in [
        ("s4_from3_c3", 4u8, Dates::AlreadyRun, false),
        ("s5_history_c4_yields", 5, Dates::NeverRun, true),
    ] {
        let mut graph = sample(scenario(n)?, WriteChoice::OverwritePartition);
        let mut range = None;
        for node in graph.nodes.values_mut() {
            if let crate::design::NodeConfig::Backfill {
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
            return Err(format!(
                "scenario {n}'s backfill design has no Airflow form"
            ));
        };
        files.push(File::new(format!("dags/{}.py", parts.dag_id), parts.dag));
        files.push(File::new(format!("commands/{name}.sh"), parts.commands));
        let dates: Vec<String> = crate::engine::calendar::days(first, last)
            .map(airflow::logical_date)
            .collect();
        expected.insert(name.to_string(), serde_json::json!(dates));
    }
    Ok(())
}

/// Scenario 6: a daily design that catches up after the scheduler was
/// down, its DAG (catchup=True) exactly as "Export as code" shows it.
fn catching_up_dag() -> Result<File, Refusal> {
    use crate::export::airflow::Dates;
    use crate::export::canvas::airflow_parts;
    let design = catalogue::DAILY
        .iter()
        .find(|d| d.scenario == 6 && d.catching_up && d.state == catalogue::WINDOW_1)
        .ok_or("the catalogue has no catching-up window for scenario 6")?;
    let Ok(parts) = airflow_parts(&design.graph()?, Dates::AlreadyRun) else {
        return Err("scenario 6's design has no Airflow form".to_string());
    };
    if !parts.dag.contains("catchup=True") {
        return Err(
            "scenario 6's catching-up design exports a DAG that does not catch up".to_string(),
        );
    }
    Ok(File::new(format!("dags/{}.py", parts.dag_id), parts.dag))
}

/// The backfill lab's runnable project for the plan from the ship date (four at
/// once, markers on) exactly as the page offers it, as a tar, and the days
/// its dbt, SQLMesh and Dagster parts must leave fixed.
pub(super) fn backfill_project_files() -> Result<Vec<File>, Refusal> {
    use crate::export::backfill_lab::runnable;
    let case = Case::of(Sunday::Delivered);
    let plan = Choices {
        august: case.august,
        from: case.august.ship,
        concurrency: Concurrency::Four,
        markers: true,
        sunday: Sunday::Delivered,
        writer: Default::default(),
    }
    .plan();
    let Some((name, bytes)) = runnable(&case, &plan) else {
        return Err(format!(
            "the backfill lab offers no project for the plan from {}",
            plan.first
        ));
    };
    // A tar of text files is text: its headers are ASCII and NULs.
    let Ok(tar) = String::from_utf8(bytes) else {
        return Err(format!("{name} is not text"));
    };
    let days: Vec<String> = crate::engine::calendar::days(plan.first, plan.last)
        .map(|d| d.to_string())
        .collect();
    let mut plans = serde_json::Map::new();
    plans.insert(name.clone(), serde_json::json!(days));
    // The day the bug's code first built: before it, history is the fix's.
    let mut expected = plans_and_truth(&case, plans);
    if let Ok(serde_json::Value::Object(mut all)) = serde_json::from_str(&expected.text) {
        all.insert(
            "shipped".to_string(),
            serde_json::json!(case.august.ship.day().to_string()),
        );
        expected.text =
            serde_json::to_string_pretty(&serde_json::Value::Object(all)).unwrap_or_default();
    }
    Ok(vec![File::new(name, tar), expected])
}
