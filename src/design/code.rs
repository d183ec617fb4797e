//! "Export as code": a valid design as the configuration a real team
//! would write for it: the dbt model's config, the Airflow DAG settings
//! (and backfill command), and the Spark write.

use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, ProcessingState,
    WriteMode,
};

use super::compile::{compile, BackfillDesign, CompiledDesign};
use super::graph::{BackfillShape, Graph, Layer, Markers, NodeConfig, NodeKind};
use super::limits::check_config;
use super::validate::Problem;

/// One tool's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub tool: &'static str,
    pub text: String,
}

/// The code for `graph`, or why it has none yet.
pub fn export_code(graph: &Graph) -> Result<Vec<Code>, Vec<Problem>> {
    // Names are pasted into SQL, shell and Python: only what the inspector
    // accepts (plain identifiers) may reach them, however the graph was made.
    let unsafe_nodes: Vec<Problem> = graph
        .nodes
        .values()
        .filter_map(|n| {
            check_config(&n.config).err().map(|why| Problem {
                node: Some(n.id),
                message: why,
            })
        })
        .collect();
    if !unsafe_nodes.is_empty() {
        return Err(unsafe_nodes);
    }
    let design = compile(graph)?;
    let table = |kind: NodeKind| {
        graph.of_kind(kind).find_map(|n| match &n.config {
            NodeConfig::Source { table } | NodeConfig::Write { table, .. } => Some(table.clone()),
            _ => None,
        })
    };
    let source = table(NodeKind::Source).unwrap_or_else(|| "bronze.events".to_string());
    let target = table(NodeKind::Write).unwrap_or_else(|| "silver.events".to_string());
    Ok(vec![
        Code {
            tool: "dbt",
            text: dbt(&design, &source),
        },
        Code {
            tool: "Airflow",
            text: airflow(&design, &target),
        },
        Code {
            tool: "Spark",
            text: spark(&design, &source, &target),
        },
    ])
}

fn key_column(key: MergeKey) -> &'static str {
    match key {
        MergeKey::Key => "id",
        MergeKey::RowId => "row_id",
    }
}

/// The incremental read predicate, as SQL, with the run's day as `run_day`.
fn predicate(state: ProcessingState, run_day: &str, this: &str) -> Option<String> {
    match state {
        ProcessingState::Watermark {
            column,
            overlap_minutes,
        } => {
            let col = column.name();
            Some(if overlap_minutes == 0 {
                format!("{col} > (select max({col}) from {this})")
            } else {
                format!(
                    "{col} > (select max({col}) from {this}) - interval '{overlap_minutes} minutes'"
                )
            })
        }
        ProcessingState::PartitionList { lookback, over } => {
            let col = match over {
                ListDate::EventDate => "dt",
                ListDate::ChangeDate => "change_date",
            };
            Some(format!(
                "{col} between {run_day} - interval '{lookback} day' and {run_day}"
            ))
        }
        ProcessingState::None => None,
    }
}

fn dbt(design: &CompiledDesign, source: &str) -> String {
    let p = &design.pipeline;
    let (materialized, strategy) = match p.write {
        WriteMode::Append => ("incremental", Some("incremental_strategy='append'".to_string())),
        WriteMode::OverwritePartition => (
            "incremental",
            Some("incremental_strategy='insert_overwrite',\n    partition_by={'field': 'dt', 'data_type': 'date'}".to_string()),
        ),
        WriteMode::Merge { key } => (
            "incremental",
            Some(format!(
                "incremental_strategy='merge',\n    unique_key='{}'",
                key_column(key)
            )),
        ),
        WriteMode::ReplaceTable => ("table", None),
    };
    let mut config = format!("{{{{ config(\n    materialized='{materialized}'");
    if let Some(strategy) = strategy {
        config.push_str(&format!(",\n    {strategy}"));
    }
    config.push_str("\n) }}");
    let from = match design.reads {
        Layer::Bronze => format!("{{{{ source('bronze', '{}') }}}}", bare(source)),
        Layer::Silver => "{{ ref('silver_model') }}   -- reads silver, not bronze".to_string(),
    };
    let dt = match p.partition_key {
        PartitionKey::EventDate => "cast(event_time as date) as dt",
        PartitionKey::ProcessingDate => {
            "current_date as dt   -- the day it ran, not the day it happened"
        }
    };
    let logic = match p.logic {
        LogicVersion::Fixed => "",
        LogicVersion::Broken => "\n  -- the old logic: the fx rate truncated to 2 dp",
    };
    let mut sql = format!("{config}\n\nselect *, {dt}{logic}\nfrom {from}");
    if let Some(pred) = predicate(p.state, "date '{{ var(\"run_day\") }}'", "{{ this }}") {
        sql.push_str(&format!(
            "\n{{% if is_incremental() %}}\nwhere {pred}\n{{% endif %}}"
        ));
    }
    if p.commit == CommitOrder::StateBeforeWrite {
        sql.push_str("\n-- dbt keeps no separate state: the predicate reads the table itself,\n-- so \"state saved before the write\" cannot happen here.");
    }
    if let Some(f) = p.finaliser {
        sql.push_str(&format!(
            "\n-- final after {} day(s): runs leave older partitions alone; {}",
            f.allowed_lateness_days,
            match f.after_final {
                AfterFinal::Drop => "later rows are dropped",
                AfterFinal::Adjustments => "later rows go to an adjustments model",
                AfterFinal::Reopen => "later rows reopen the partition",
            }
        ));
    }
    if design.unique_check || design.reconcile_check {
        sql.push_str("\n\n# schema.yml");
        if design.unique_check {
            sql.push_str("\n#   tests: [unique, not_null] on the key");
        }
        if design.reconcile_check {
            sql.push_str("\n#   tests: row counts and totals equal the source's");
        }
    }
    sql
}

fn airflow(design: &CompiledDesign, target: &str) -> String {
    let mut text = format!(
        "with DAG(\n    \"{}_daily\",\n    schedule=\"0 2 * * *\",      # 02:00, for the day before\n    catchup=False,              # history is a backfill, launched on purpose\n    max_active_runs=1,          # one run at a time: each reads the state the last one saved\n    default_args={{\"retries\": 1, \"retry_delay\": timedelta(minutes=5), \"pool\": \"source_pool\"}},\n) as dag:\n    ...",
        bare(target)
    );
    if let Some(b) = design.backfill {
        text.push_str("\n\n");
        text.push_str(&backfill_command(&b, target));
    }
    text
}

fn backfill_command(b: &BackfillDesign, target: &str) -> String {
    let dag = format!("{}_daily", bare(target));
    let base = format!(
        "airflow dags backfill {dag} \\\n  --start-date {} --end-date {} \\\n  --max-active-runs {} --pool backfill_pool",
        b.first, b.last, b.max_concurrency
    );
    let markers = match b.markers {
        Markers::Off => "\n  --reset-dagruns   # no completion markers: a re-run starts again from the top",
        Markers::AfterPartition => "\n  # no --reset-dagruns: succeeded dates are the completion markers, so a re-run resumes",
        Markers::BeforePartition => "\n  # the marker is set when a date starts: a killed date counts as done",
    };
    let mut text = match b.shape {
        BackfillShape::PerDate => format!("{base}{markers}"),
        BackfillShape::Together => format!(
            "{base}{markers}\n# silver_* and gold_* tasks have no dependency between them: gold reads silver as it stands when it starts"
        ),
        BackfillShape::TwoPhases => format!(
            "{base} \\\n  --task-regex '^silver_'{markers}\n# then, once every silver date has landed:\n{base} \\\n  --task-regex '^gold_'"
        ),
    };
    if b.yield_to_scheduled {
        text.push_str("\n# the nightly DAG runs with a higher priority_weight, so it takes the next free slot");
    }
    text
}

fn spark(design: &CompiledDesign, source: &str, target: &str) -> String {
    let p = &design.pipeline;
    let read_from = match design.reads {
        Layer::Bronze => source.to_string(),
        Layer::Silver => "silver (the table this job writes)".to_string(),
    };
    let mut text = format!("batch = spark.table(\"{read_from}\")");
    if let Some(pred) = predicate(p.state, "date'{run_day}'", target) {
        text.push_str(&format!(".where(\"{pred}\")"));
    }
    text.push('\n');
    let state_save = match p.state {
        ProcessingState::Watermark { column, .. } => Some(format!(
            "state.save(batch.agg(F.max(\"{}\")).first()[0])",
            column.name()
        )),
        _ => None,
    };
    let write = match p.write {
        WriteMode::Append => format!("batch.write.mode(\"append\").insertInto(\"{target}\")"),
        WriteMode::OverwritePartition => format!(
            "spark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\nbatch.write.mode(\"overwrite\").insertInto(\"{target}\")   # only the dt values in the batch\n# Delta: .option(\"replaceWhere\", \"dt >= '<first>' AND dt <= '<last>'\")"
        ),
        WriteMode::Merge { key } => {
            let k = key_column(key);
            format!(
                "(DeltaTable.forName(spark, \"{target}\").alias(\"t\")\n  .merge(batch.alias(\"s\"), \"t.{k} = s.{k}\")\n  .whenMatchedUpdateAll(condition=\"s.updated_at >= t.updated_at\")   # latest wins\n  .whenNotMatchedInsertAll()\n  .execute())"
            )
        }
        WriteMode::ReplaceTable => format!(
            "batch.write.mode(\"overwrite\").saveAsTable(\"{target}\")   # the whole table, every run"
        ),
    };
    match (state_save, p.commit) {
        (Some(save), CommitOrder::StateBeforeWrite) => {
            text.push_str(&format!("{save}   # saved BEFORE the write\n{write}"))
        }
        (Some(save), CommitOrder::StateAfterWrite) => {
            text.push_str(&format!("{write}\n{save}   # saved after the write"))
        }
        (None, _) => text.push_str(&write),
    }
    text
}

/// "bronze.clicks" -> "clicks".
fn bare(table: &str) -> &str {
    table.rsplit('.').next().unwrap_or(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::edit::{apply, Edit};
    use crate::design::graph::{NodeId, StateChoice, WriteChoice};
    use crate::engine::WatermarkColumn;

    /// source -> state -> transform -> write, configured as given.
    fn design(state: StateChoice, mode: WriteChoice) -> Graph {
        let mut g = Graph::with_source("bronze.clicks");
        let add = |g: &mut Graph, config: NodeConfig| {
            *g = apply(g, &Edit::Add { config, x: 0, y: 0 }).expect("adds");
            NodeId(g.next_id.saturating_sub(1))
        };
        let s = add(
            &mut g,
            NodeConfig::State {
                state,
                commit: CommitOrder::StateAfterWrite,
            },
        );
        let t = add(&mut g, NodeConfig::default_for(NodeKind::Transform));
        let w = add(
            &mut g,
            NodeConfig::Write {
                table: "silver.clicks".into(),
                mode,
            },
        );
        for (from, to) in [(NodeId(0), s), (s, t), (t, w)] {
            g = apply(&g, &Edit::Connect { from, to }).expect("connects");
        }
        g
    }

    fn tool(codes: &[Code], name: &str) -> String {
        codes
            .iter()
            .find(|c| c.tool == name)
            .map(|c| c.text.clone())
            .unwrap_or_default()
    }

    #[test]
    fn list_and_overwrite_is_insert_overwrite_with_a_lookback() {
        let g = design(
            StateChoice::PartitionList {
                lookback: 2,
                over: ListDate::EventDate,
            },
            WriteChoice::OverwritePartition,
        );
        let codes = export_code(&g).expect("valid");
        let dbt = tool(&codes, "dbt");
        assert!(dbt.contains("insert_overwrite"), "{dbt}");
        assert!(dbt.contains("interval '2 day'"), "{dbt}");
        assert!(dbt.contains("source('bronze', 'clicks')"), "{dbt}");
        let spark = tool(&codes, "Spark");
        assert!(
            spark.contains("partitionOverwriteMode\", \"dynamic\""),
            "{spark}"
        );
        assert!(tool(&codes, "Airflow").contains("catchup=False"));
    }

    #[test]
    fn watermark_and_merge_is_a_merge_on_the_key_with_state_after_the_write() {
        let g = design(
            StateChoice::Watermark {
                column: WatermarkColumn::UpdatedAt,
                overlap_minutes: 180,
            },
            WriteChoice::Merge {
                key: Some(MergeKey::Key),
            },
        );
        let codes = export_code(&g).expect("valid");
        let dbt = tool(&codes, "dbt");
        assert!(
            dbt.contains("incremental_strategy='merge'") && dbt.contains("unique_key='id'"),
            "{dbt}"
        );
        assert!(dbt.contains("interval '180 minutes'"), "{dbt}");
        let spark = tool(&codes, "Spark");
        assert!(
            spark.contains(".merge(") && spark.contains("t.id = s.id"),
            "{spark}"
        );
        assert!(spark.find(".merge(") < spark.find("state.save"), "{spark}");
    }

    #[test]
    fn a_backfill_job_becomes_a_backfill_command() {
        let mut g = design(StateChoice::None, WriteChoice::ReplaceTable);
        g = apply(
            &g,
            &Edit::Add {
                config: NodeConfig::Backfill {
                    first: chrono::NaiveDate::from_ymd_opt(2026, 8, 3).expect("date"),
                    last: chrono::NaiveDate::from_ymd_opt(2026, 8, 13).expect("date"),
                    max_concurrency: 3,
                    shape: BackfillShape::TwoPhases,
                    markers: Markers::Off,
                    yield_to_scheduled: true,
                },
                x: 0,
                y: 0,
            },
        )
        .expect("adds");
        let b = NodeId(g.next_id - 1);
        g = apply(
            &g,
            &Edit::Connect {
                from: NodeId(0),
                to: b,
            },
        )
        .expect("connects");
        g = apply(
            &g,
            &Edit::Connect {
                from: b,
                to: NodeId(3),
            },
        )
        .expect("connects");
        let codes = export_code(&g).expect("valid");
        let airflow = tool(&codes, "Airflow");
        assert!(
            airflow.contains("--start-date 2026-08-03 --end-date 2026-08-13"),
            "{airflow}"
        );
        assert!(airflow.contains("--max-active-runs 3"), "{airflow}");
        assert!(airflow.contains("--reset-dagruns"), "{airflow}");
        assert!(airflow.contains("'^gold_'"), "{airflow}");
        assert!(tool(&codes, "dbt").contains("materialized='table'"));
    }

    #[test]
    fn an_invalid_design_has_no_code() {
        assert!(export_code(&Graph::with_source("bronze.clicks")).is_err());
    }
}
