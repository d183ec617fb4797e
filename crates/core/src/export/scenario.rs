//! A scenario's design as a project to run on real tools: the pipeline it
//! compiles to, replayed over the scenario's own runs (faults included) on
//! dbt-duckdb and Spark, as a SQLMesh model and as Dagster definitions
//! where each can express it, as `scripts/check-real` does for the listed
//! designs; where a tool cannot, what it lacks.

use super::canvas::{block, export_code_with, Code};
use crate::design::compile::{compile, CompiledDesign};
use crate::design::graph::{Layer, NodeConfig};
use crate::design::validate::Problem;
use crate::design::Graph;
use crate::engine::{AfterFinal, LogicVersion, PartitionKey, Script};
use crate::export::airflow::Dates;
use crate::export::{
    beam, bundle::tar, dbt, project::replay_project, replay::Replay, spark, spark_backfill, sqlmesh,
};
use crate::tool::Tool;

use crate::scenarios::Scenario;

/// The tables a scenario's backfill job reads and writes: the scenario's
/// bronze source, the design's own silver table, gold's daily totals.
fn backfill_tables<'a>(source: &'a str, silver: &'a str) -> spark_backfill::Tables<'a> {
    spark_backfill::Tables {
        bronze: source,
        fx: "silver.fx_rates",
        silver,
        gold: "gold.daily_totals",
    }
}

/// The PySpark job of `graph`'s backfill in `scenario`, following
/// every choice of it (range, dates at once against the pool, shape,
/// markers, logic, write mode), or why the job cannot express the design.
/// It is what "Export as code" shows and what `scripts/check-real` runs.
pub fn backfill_job(scenario: &Scenario, graph: &Graph) -> Result<String, &'static str> {
    let design = compile(graph).map_err(|_| "the design does not compile yet")?;
    let b = design.backfill.ok_or("the design has no backfill job")?;
    if b.reads == Layer::Silver {
        return Err("a rebuild that reads silver starts from amounts already converted; the job rebuilds from bronze");
    }
    if design.pipeline.partition_key == PartitionKey::ProcessingDate {
        return Err("a backfill files each row under its event date; processing-date partitions have no date to rebuild");
    }
    if let Some(why) = spark_backfill::cannot(b.write) {
        return Err(why);
    }
    let setting = scenario.setting().ok_or("the scenario has no backfill")?;
    let (source, silver) = tables(graph);
    let plan =
        crate::scenarios::grading::backfilled::plan(&setting, &design, &b, scenario.script());
    Ok(spark_backfill::job(&plan, backfill_tables(source, silver)))
}

/// The design's source and write tables (the scenario's bronze and the
/// student's silver).
fn tables(graph: &Graph) -> (&str, &str) {
    let mut source = "bronze.events";
    let mut silver = "silver.events";
    for n in graph.nodes.values() {
        match &n.config {
            NodeConfig::Source { table } => source = table,
            NodeConfig::Write { table, .. } => silver = table,
            _ => {}
        }
    }
    (source, silver)
}

/// The design as SQLMesh, or what SQLMesh lacks to express it. A daily
/// design SQLMesh can express is the model `scripts/check-real` replays
/// over the scenario's runs on SQLMesh; a backfill design's SQLMesh form
/// is the backfill lab's restatement, which takes none of its choices.
fn sqlmesh_code(scenario: &Scenario, graph: &Graph, design: &CompiledDesign) -> String {
    let (source, silver) = tables(graph);
    if let Some(b) = &design.backfill {
        return format!(
            "-- No SQLMesh form of this backfill design. SQLMesh's backfill is a restatement\n\
             -- of its dates, which rebuilds each interval and everything downstream of it;\n\
             -- for the backfill lab's model (put this design's table in its place):\n\
             --   {}\n\
             -- It takes none of this design's choices: how many dates at once against the\n\
             -- source pool, their order, markers, yielding to tonight's run and the write\n\
             -- are SQLMesh's own. The backfill lab's restatement is the one the lab's checks run.\n",
            crate::export::sqlmesh::restate_line(b.first, b.last),
        );
    }
    let palette = scenario.palette;
    let model = sqlmesh::daily_model(
        &design.pipeline,
        source,
        silver,
        palette.first,
        palette.outage,
    );
    match model {
        Err(missing) => commented("--", &format!("No SQLMesh form of this design: {missing}.")),
        // A form SQLMesh has, but not one this export writes: the model
        // reads bronze with the fixed conversion.
        Ok(_) if design.reads == Layer::Silver => commented(
            "--",
            "Not exported for SQLMesh: the model this export writes reads bronze, as the lab's checks run it; this design's transform reads silver.",
        ),
        Ok(_) if design.pipeline.logic == LogicVersion::Broken => commented(
            "--",
            "Not exported for SQLMesh: the model this export writes keeps the fixed conversion; this design keeps the old one.",
        ),
        Ok(model) => model,
    }
}

/// The design in Dagster, or what Dagster lacks to express it. A daily
/// design Dagster can express is an asset partitioned by day with a
/// schedule whose code picks the run's days, which `scripts/check-real`
/// replays over the scenario's runs on Dagster; a backfill design's Dagster
/// form is the backfill lab's range launch, which takes none of its choices.
fn dagster_code(scenario: &Scenario, graph: &Graph, design: &CompiledDesign) -> String {
    let (source, silver) = tables(graph);
    if let Some(b) = &design.backfill {
        return format!(
            "# This backfill in Dagster: {silver} as daily-partitioned assets (the backfill\n\
             # lab's definitions.py), its dates launched as one range, in process:\n\
             {}\n\
             # The source pool is a Dagster pool (dagster instance concurrency set source N).\n\
             # Not in that launch: this design's dates at once (one run per date needs a\n\
             # backfill with the daemon, BackfillPolicy.multi_run), its order, its markers\n\
             # (Dagster records a run's partitions when the run succeeds) and yielding to\n\
             # tonight's run. The lab's checks run the backfill lab's launch, not this one.\n",
            crate::export::dagster::launch(b.first, b.last).replace("\\\n  ", ""),
        );
    }
    let palette = scenario.palette;
    let definitions = crate::export::dagster::daily_definitions(
        &design.pipeline,
        source,
        silver,
        palette.first,
        palette.outage,
    );
    match definitions {
        Err(missing) => commented("#", &format!("No Dagster form of this design: {missing}.")),
        // A form Dagster has, but not one this export writes: the asset
        // reads bronze with the fixed conversion.
        Ok(_) if design.reads == Layer::Silver => commented(
            "#",
            "Not exported for Dagster: the asset this export writes reads bronze, as the lab's checks run it; this design's transform reads silver.",
        ),
        Ok(_) if design.pipeline.logic == LogicVersion::Broken => commented(
            "#",
            "Not exported for Dagster: the asset this export writes keeps the fixed conversion; this design keeps the old one.",
        ),
        Ok(definitions) => definitions,
    }
}

/// The design in Apache Beam, or what Beam lacks to express it. Beam has
/// no runs and no partition list: its one setting here is how long a
/// day's event-time window takes late rows, which is the allowed lateness
/// of a design's finaliser. So a design with a finaliser is the lateness
/// lab's pipeline with that lateness, reading the scenario's bronze, and
/// what it drops as late is what the design does not let into a final
/// partition (`scripts/check-real` runs it on scenario 3's purchases).
fn beam_code(scenario: &Scenario, graph: &Graph, design: &CompiledDesign) -> String {
    let (source, silver) = tables(graph);
    if design.backfill.is_some() {
        return commented(
            "#",
            "No Beam form of this backfill design: a backfill in Beam is the same pipeline run again as a bounded job over the range's input, and none of this design's choices (dates at once against the pool, their order, markers, yielding to tonight's run) is a Beam setting.",
        );
    }
    if design.pipeline.partition_key == PartitionKey::ProcessingDate {
        return commented(
            "#",
            "No Beam form of this design: Beam's windows are event-time windows, and this design files rows under the date they were processed.",
        );
    }
    let Some(finaliser) = design.pipeline.finaliser else {
        return commented(
            "#",
            "No Beam form of this design: a Beam window takes late rows until the watermark passes its end plus its allowed lateness, and this design never makes a day final, so it has no allowed lateness to set.",
        );
    };
    let l = finaliser.allowed_lateness_days;
    let days = crate::counted::counted(l, "day");
    let fate = match finaliser.after_final {
        AfterFinal::Reopen => {
            return commented(
                "#",
                &format!("No Beam form of this design: after {days} it still writes a late row into its final partition, and Beam never lets a row into a window past its allowed lateness."),
            );
        }
        AfterFinal::Drop => "the rows this design drops, as Beam does".to_string(),
        AfterFinal::Adjustments => format!(
            "the rows this design books to its adjustments table instead. Beam's Python SDK keeps no side output of what it drops: an adjustments table needs Flink's sideOutputLateData or a second pipeline reading {source} with a longer lateness"
        ),
    };
    let run = format!("{:02}:00", crate::engine::lateness::RUN_HOUR);
    // Beam's watermark moves with the data, not with a scheduler: where
    // runs were missed, the design makes days final later than Beam.
    let faults = if scenario.palette.outage {
        "Beam's watermark does not wait for a scheduler: a day this design makes final only once the scheduler is back still takes rows Beam has already dropped, so here Beam can drop more than the design keeps out.".to_string()
    } else {
        format!("A run retried minutes after a crash is the batch's own: Beam's replay reads at {run} every day.")
    };
    let header = commented(
        "#",
        &format!(
            "{silver} in Apache Beam: daily event-time windows with this design's allowed lateness of {days}. Run it on the scenario's bronze, the bronze.csv of the runnable project this panel prepares: python lateness_beam.py bronze.csv. It replays each row's arrival through the daily {run} runs and prints what Beam drops as late: {fate}. {faults}"
        ),
    );
    let stream = beam::Stream::bronze(crate::engine::lateness::Lateness::Days(l));
    format!("{header}{}", beam::pipeline(&stream))
}

/// `text` as comment lines of at most 80 characters, each starting `mark`.
fn commented(mark: &str, text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(mark);
    for word in text.split_whitespace() {
        if line.len() > mark.len() && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line = String::from(mark);
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Why the replay cannot run `design`, if it cannot.
fn not_replayable(design: &CompiledDesign) -> Option<&'static str> {
    if design.backfill.is_some() {
        return Some("backfill designs export their Airflow and dbt commands; the runnable replay covers daily pipelines");
    }
    if design.reads == Layer::Silver
        || design.pipeline.partition_key == PartitionKey::ProcessingDate
        || design.pipeline.logic == LogicVersion::Broken
    {
        return Some("the runnable replay covers transforms that read bronze with the fixed logic into event-date partitions");
    }
    None
}

/// The design as the pipeline the runners replay over the scenario's runs.
fn replay<'a>(scenario: &Scenario, design: &CompiledDesign, script: &'a Script) -> Replay<'a> {
    let number = scenario.number;
    Replay {
        name: format!("silver_scenario{number}"),
        config: design.pipeline,
        script_id: format!("scenario{number}"),
        script,
    }
}

/// "Export as code" for `graph` in `scenario`, a block per [`Tool`]. A
/// design the runners can replay shows the dbt model and the PySpark
/// module of its runnable project, the code `scripts/check-real` runs; a
/// backfill design shows its Spark job; any other shows the readable
/// forms, each saying that the lab's checks do not run it and why.
pub fn code(scenario: &Scenario, graph: &Graph) -> Result<Vec<Code>, Vec<Problem>> {
    let dates = if scenario.history {
        Dates::NeverRun
    } else {
        Dates::AlreadyRun
    };
    let readable = export_code_with(graph, dates)?;
    let design = compile(graph)?;
    let form = Form::of(scenario, graph, &design);
    Ok(Tool::ALL
        .into_iter()
        .map(|tool| {
            let readable = || block(&readable, tool);
            let text = match tool {
                Tool::Dbt | Tool::Spark => run_or_readable(tool, &form, readable),
                Tool::Airflow => readable(),
                Tool::SqlMesh => sqlmesh_code(scenario, graph, &design),
                Tool::Dagster => dagster_code(scenario, graph, &design),
                Tool::Beam => beam_code(scenario, graph, &design),
            };
            Code { tool, text }
        })
        .collect())
}

/// What the lab's checks run of a design in dbt and Spark.
enum Form<'a> {
    /// A backfill design: its Spark job, or why the job cannot express it.
    Backfill(Result<String, &'static str>),
    /// A daily design the runners replay over the scenario's runs.
    Replayed(Replay<'a>),
    /// A daily design they cannot replay, and why.
    Readable(&'static str),
}

impl<'a> Form<'a> {
    fn of(scenario: &'a Scenario, graph: &Graph, design: &CompiledDesign) -> Self {
        if design.backfill.is_some() {
            return Form::Backfill(backfill_job(scenario, graph));
        }
        match not_replayable(design) {
            Some(why) => Form::Readable(why),
            None => Form::Replayed(replay(scenario, design, scenario.script())),
        }
    }
}

/// `tool`'s block (dbt or Spark) in `form`: the code the lab's checks run,
/// or the readable form under a first line saying why they do not run it.
fn run_or_readable(tool: Tool, form: &Form<'_>, readable: impl Fn() -> String) -> String {
    let why = match (tool, form) {
        (Tool::Spark, Form::Backfill(Ok(job))) => return job.clone(),
        (Tool::Dbt, Form::Replayed(r)) => return dbt::model(r),
        (Tool::Spark, Form::Replayed(r)) => return spark::module(r),
        (_, Form::Replayed(_)) => return readable(),
        (_, Form::Backfill(Ok(_))) => {
            "the lab's checks run the Spark job of a backfill design; this is its dbt form"
        }
        (_, Form::Backfill(Err(why)) | Form::Readable(why)) => why,
    };
    format!(
        "{} A readable form, not run by the lab's checks: {why}.\n{}",
        tool.comment(),
        readable()
    )
}

/// The project for `graph` in `scenario` on `script` (the page's: the
/// chapter's data or a variant's) with `runners` (`export::replay`), as a
/// tar and its file name, or why there is none for this design.
pub fn runnable(
    scenario: &Scenario,
    graph: &Graph,
    script: &Script,
    runners: &[crate::export::File],
) -> Result<(String, Vec<u8>), String> {
    let design = compile(graph).map_err(|p| {
        format!(
            "the design has {} to fix first",
            crate::counted::counted(p.len(), "structural problem")
        )
    })?;
    if let Some(why) = not_replayable(&design) {
        return Err(why.to_string());
    }
    let id = format!("scenario{}", scenario.number);
    let files = replay_project(
        &format!("partition_lab_{id}"),
        &[replay(scenario, &design, script)],
        &[(&id, script)],
        runners,
    );
    let root = format!("partition-lab-{id}");
    tar(&root, &files)
        .map(|bytes| (format!("{root}.tar"), bytes))
        .ok_or_else(|| "a file name was too long for the archive".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::WriteChoice;
    use crate::export::replay::runner_files;
    use crate::scenarios::sample::sample;

    #[test]
    fn a_daily_design_exports_and_a_backfill_says_why_not() {
        let (name, bytes) = runnable(
            &crate::scenarios::stories::clicks::SCENARIO,
            &sample(
                &crate::scenarios::stories::clicks::SCENARIO,
                WriteChoice::OverwritePartition,
            ),
            crate::scenarios::stories::clicks::SCENARIO.script(),
            &runner_files(),
        )
        .expect("exports");
        assert_eq!(name, "partition-lab-scenario1.tar");
        assert!(bytes.len() > 1024);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("models/silver_scenario1.sql") && text.contains("replay_dbt.py"));
        assert!(runnable(
            &crate::scenarios::stories::currency::SCENARIO,
            &sample(
                &crate::scenarios::stories::currency::SCENARIO,
                WriteChoice::OverwritePartition
            ),
            crate::scenarios::stories::currency::SCENARIO.script(),
            &runner_files()
        )
        .is_err());
    }

    #[test]
    fn a_comment_wraps_at_80_columns_and_keeps_every_word() {
        let text = "SQLMesh records an interval as built only after its write succeeds, so it cannot save the state first; the batch this design loses to a crash cannot be lost in SQLMesh.";
        let wrapped = commented("--", text);
        assert!(wrapped.lines().count() > 1);
        assert!(wrapped
            .lines()
            .all(|l| l.len() <= 80 && l.starts_with("-- ")));
        let words: Vec<&str> = wrapped.split_whitespace().filter(|w| *w != "--").collect();
        assert_eq!(words, text.split_whitespace().collect::<Vec<_>>());
    }

    #[test]
    fn every_scenario_says_what_sqlmesh_and_dagster_make_of_its_design() {
        use crate::design::graph::StateChoice;
        use crate::engine::{CommitOrder, ListDate};
        use crate::scenarios::sample::daily;
        let block = |codes: &[Code], tool: Tool| {
            codes
                .iter()
                .find(|c| c.tool == tool)
                .map(|c| c.text.clone())
                .expect("a block per tool")
        };
        for s in crate::scenarios::SCENARIOS {
            let codes =
                code(s, &sample(s, WriteChoice::OverwritePartition)).expect("the sample compiles");
            let sqlmesh = block(&codes, Tool::SqlMesh);
            assert!(
                sqlmesh.starts_with("-- No SQLMesh form"),
                "{}: {sqlmesh}",
                s.number
            );
            let dagster = block(&codes, Tool::Dagster);
            assert!(dagster.starts_with("# "), "{dagster}");
        }
        // A backfill design names the restatement and the launch of its dates.
        let codes = code(
            &crate::scenarios::stories::currency::SCENARIO,
            &sample(
                &crate::scenarios::stories::currency::SCENARIO,
                WriteChoice::OverwritePartition,
            ),
        )
        .expect("compiles");
        assert!(block(&codes, Tool::SqlMesh).contains("--start 2026-08-03 --end 2026-08-13"));
        assert!(block(&codes, Tool::Dagster).contains("--partition-range 2026-08-03...2026-08-13"));
        // A list over event dates is a SQLMesh model from the scenario's
        // first day, reading its source into the student's table.
        let list = daily(
            &crate::scenarios::stories::outage::SCENARIO,
            StateChoice::PartitionList {
                lookback: 5,
                over: ListDate::EventDate,
            },
            CommitOrder::StateAfterWrite,
            WriteChoice::OverwritePartition,
            None,
        );
        let codes = code(&crate::scenarios::stories::outage::SCENARIO, &list).expect("compiles");
        let sqlmesh = block(&codes, Tool::SqlMesh);
        let start = crate::scenarios::stories::outage::SCENARIO.script().start;
        assert!(sqlmesh.contains(&format!("start '{start}',")), "{sqlmesh}");
        assert!(sqlmesh.contains("name silver.sales,") && sqlmesh.contains("FROM bronze.sales\n"));
        assert!(sqlmesh.contains("lookback 5),"));
        // Dagster launches the latest missed tick when its scheduler is
        // back: a list that waits for its next run has no Dagster form, one
        // that catches up is an asset whose schedule finds the missed days.
        let waits = block(&codes, Tool::Dagster);
        assert!(
            waits.starts_with("# No Dagster form") && waits.contains("latest missed tick"),
            "{waits}"
        );
        let catching_up = code(
            &crate::scenarios::stories::outage::SCENARIO,
            &crate::scenarios::sample::catching_up(list.clone()),
        )
        .expect("compiles");
        let dagster = block(&catching_up, Tool::Dagster);
        assert!(
            dagster.contains(&format!("START = date.fromisoformat(\"{start}\")")),
            "{dagster}"
        );
        assert!(dagster.contains("SILVER = AssetKey([\"silver\", \"sales\"])"));
        assert!(dagster.contains("from bronze.sales where dt = cast(? as date)"));
        assert!(dagster.contains("LOOKBACK = 5\n") && dagster.contains("builds every day missed"));
        // Without a finaliser a design has no lateness for Beam to set.
        assert!(block(&codes, Tool::Beam).starts_with("# No Beam form"));
    }

    /// Beam's one setting is a finaliser's allowed lateness: a design with
    /// one is the lateness pipeline at that lateness over the scenario's
    /// bronze, and its header says what the design does with the rows
    /// Beam drops; one that reopens final days has no Beam form.
    #[test]
    fn beam_sets_a_finalisers_allowed_lateness() {
        use crate::engine::AfterFinal;
        use crate::scenarios::stories::mobile::SCENARIO as MOBILE;
        let with = |l: u32, after: AfterFinal| {
            let graph = crate::scenarios::sample::finalising(&MOBILE, l, after);
            let codes = code(&MOBILE, &graph).expect("compiles");
            let beam = codes
                .into_iter()
                .find(|c| c.tool == Tool::Beam)
                .expect("a Beam block");
            beam.text
        };
        for l in [0, 2, 5] {
            let text = with(l, AfterFinal::Adjustments);
            assert!(
                text.starts_with("# silver.purchases in Apache Beam"),
                "{text}"
            );
            assert!(text.contains(&format!("\nALLOWED_LATENESS_DAYS = {l}\n")));
            assert!(text.contains(
                "COLUMNS = {\n    \"event\": \"event_time\",\n    \"arrival\": \"arrived_at\","
            ));
            assert!(text.contains("adjustments table"), "{text}");
        }
        assert!(with(2, AfterFinal::Drop).contains("the rows this design drops, as Beam does"));
        assert!(with(2, AfterFinal::Reopen).starts_with("# No Beam form"));
    }

    /// The Beam block's claim on every daily scenario. What Beam drops is
    /// the rows whose arrival needs more than L days (`days_needed`; that
    /// Beam keeps exactly this rule is what `scripts/check-real` proves on
    /// Beam itself). It is what the design keeps out of its final days,
    /// a crash's retry notwithstanding; where the scheduler was down, the
    /// design keeps out fewer, and the block says so.
    #[test]
    fn what_beam_drops_is_what_the_design_keeps_out_or_the_block_says_why_not() {
        use crate::engine::lateness::days_needed;
        use crate::engine::{simulate, AfterFinal};
        use std::collections::HashSet;
        let mut parted = 0;
        for s in crate::scenarios::SCENARIOS {
            if s.is_backfill() {
                continue;
            }
            for (l, after) in [
                (0, AfterFinal::Adjustments),
                (1, AfterFinal::Adjustments),
                (2, AfterFinal::Adjustments),
                (0, AfterFinal::Drop),
            ] {
                let graph = crate::scenarios::sample::finalising(s, l, after);
                let outcome = simulate(&compile(&graph).expect("compiles").pipeline, s.script());
                let kept_out: HashSet<String> = match after {
                    AfterFinal::Drop => outcome.dropped.iter().map(|id| id.to_string()).collect(),
                    _ => outcome
                        .adjustments
                        .iter()
                        .map(|a| a.id.to_string())
                        .collect(),
                };
                let beam: HashSet<String> = s
                    .script()
                    .events
                    .iter()
                    .filter(|e| days_needed(e.event_date(), e.arrived_at) > l)
                    .map(|e| e.id.to_string())
                    .collect();
                let text = code(s, &graph)
                    .expect("compiles")
                    .into_iter()
                    .find(|c| c.tool == Tool::Beam)
                    .map(|c| c.text.replace("\n# ", " "))
                    .expect("a Beam block");
                let says_more =
                    text.contains("so here Beam can drop more than the design keeps out");
                // Only the scenario whose scheduler went down says it.
                assert_eq!(says_more, s.palette.outage, "{s:?}");
                if kept_out != beam {
                    parted += 1;
                    assert!(kept_out.is_subset(&beam), "{s:?} at {l}");
                    assert!(s.palette.outage, "{s:?} at {l}: {text}");
                }
            }
        }
        assert!(
            parted > 0,
            "the outage scenario parts from Beam at some lateness"
        );
    }

    #[test]
    fn the_code_shown_is_the_projects_or_says_it_is_not_run() {
        let graph = sample(
            &crate::scenarios::stories::clicks::SCENARIO,
            WriteChoice::OverwritePartition,
        );
        let design = compile(&graph).expect("compiles");
        let s = crate::scenarios::stories::clicks::SCENARIO.script().clone();
        let files = replay_project(
            "p",
            &[replay(
                &crate::scenarios::stories::clicks::SCENARIO,
                &design,
                &s,
            )],
            &[("scenario1", &s)],
            &crate::export::replay::runner_files(),
        );
        let codes = code(&crate::scenarios::stories::clicks::SCENARIO, &graph).expect("code");
        let text = |tool: Tool| {
            codes
                .iter()
                .find(|c| c.tool == tool)
                .map(|c| c.text.clone())
        };
        let file = |path: &str| {
            files
                .iter()
                .find(|f| f.path == path)
                .map(|f| f.text.clone())
        };
        assert_eq!(text(Tool::Dbt), file("models/silver_scenario1.sql"));
        assert_eq!(text(Tool::Spark), file("spark_jobs/silver_scenario1.py"));
        // A backfill design shows the Spark job check-real runs, and says
        // that its dbt form is not run.
        let graph = sample(
            &crate::scenarios::stories::currency::SCENARIO,
            WriteChoice::OverwritePartition,
        );
        let backfill = code(&crate::scenarios::stories::currency::SCENARIO, &graph).expect("code");
        let shown = |tool: Tool| {
            backfill
                .iter()
                .find(|c| c.tool == tool)
                .map(|c| c.text.clone())
        };
        assert_eq!(
            shown(Tool::Spark),
            backfill_job(&crate::scenarios::stories::currency::SCENARIO, &graph).ok()
        );
        assert!(shown(Tool::Dbt).is_some_and(|t| t.contains("not run by the lab's checks")));
        // What the job cannot express is said, not shown as runnable.
        let mut merged = graph.clone();
        for n in merged.nodes.values_mut() {
            if let NodeConfig::Write { mode, .. } = &mut n.config {
                *mode = WriteChoice::Merge {
                    key: Some(crate::engine::MergeKey::Key),
                };
            }
        }
        let codes = code(&crate::scenarios::stories::currency::SCENARIO, &merged).expect("code");
        assert!(codes
            .iter()
            .filter(|c| c.tool == Tool::Dbt || c.tool == Tool::Spark)
            .all(|c| c
                .text
                .contains("not run by the lab's checks: a merge needs")));
    }
}
