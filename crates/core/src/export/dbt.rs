//! A pipeline as a dbt model for `DBT_VERSIONS`, and the
//! project around it. The model reads its run's scope from two small
//! control tables the runner fills in before each run (`lab_control`: the
//! run's instant and the watermark; `lab_targets`: the partitions a list
//! rebuilds), because dbt itself keeps no state between runs: a model that
//! derived its watermark from `max(...)` of its own table could not show a
//! state saved before the write, which is half of what the lab teaches.

use crate::engine::{AfterFinal, CommitOrder, ListDate, MergeKey, ProcessingState, WriteMode};
use crate::vocabulary::Choice;

use super::replay::Replay;
use super::{quoted, File, DBT_VERSIONS};

/// The model's config block for `write`.
fn config(write: WriteMode) -> String {
    match write {
        WriteMode::Append => {
            "{{ config(materialized='incremental', incremental_strategy='append') }}".to_string()
        }
        // dbt-duckdb has no insert_overwrite: deleting the batch's partitions
        // and inserting the batch is the same partition overwrite.
        WriteMode::OverwritePartition => "{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='dt') }}".to_string(),
        // A real MERGE overwrites a matched row whatever its age; the lab's
        // merge keeps the newer version, so the condition says so. The batch
        // is already one row per key (below): MERGE refuses two source rows
        // for one target row.
        WriteMode::Merge { key } => format!(
            "{{{{ config(materialized='incremental', incremental_strategy='merge', unique_key='{}',\n    merge_update_condition='DBT_INTERNAL_SOURCE.updated_at >= DBT_INTERNAL_DEST.updated_at') }}}}",
            match key {
                MergeKey::Key => "key",
                MergeKey::RowId => "id",
            }
        ),
        WriteMode::ReplaceTable => "{{ config(materialized='table') }}".to_string(),
        // dbt-duckdb cannot replace only the partitions present: that is
        // dbt-spark's and dbt-bigquery's insert_overwrite.
        WriteMode::OverwritePresent => "{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by='dt') }}   -- dbt-spark, dbt-bigquery: dbt-duckdb has no insert_overwrite".to_string(),
    }
}

/// The dbt model for one replayed pipeline.
pub fn model(r: &Replay) -> String {
    let name = quoted(&r.name);
    let script = quoted(&r.script_id);
    let p = &r.config;
    let scope = match p.state {
        ProcessingState::Watermark {
            column,
            overlap_minutes,
        } => {
            let col = column.name();
            let from = if overlap_minutes == 0 {
                "c.mark".to_string()
            } else {
                format!("c.mark - interval '{overlap_minutes} minutes'")
            };
            // Unconditional rather than inside is_incremental(): the runner
            // owns the state, and a first run that crashed before writing
            // must not make the next one read everything.
            format!(
                "    -- the watermark: only what is newer than the last successful run saw\n    and (c.mark is null or b.{col} > {from})\n"
            )
        }
        ProcessingState::PartitionList { over, lookback } => {
            let col = match over {
                ListDate::EventDate => "dt",
                ListDate::ChangeDate => "change_date",
            };
            format!(
                "    -- the partition list is the run's whole scope, first run included: every\n    -- date not yet done, plus {}\n    and b.{col} in (select t.dt from {{{{ source('lab', 'lab_targets') }}}} t where t.pipeline = '{name}')\n",
                super::run_day_and(lookback)
            )
        }
        ProcessingState::TrailingWindow { days } => format!(
            "    -- the trailing window: {}, every\n    -- run, with nothing remembered: a day the window has passed is never read again\n    and b.dt between c.run_day - {days} and c.run_day\n",
            super::run_day_and(days)
        ),
        ProcessingState::None => String::new(),
    };
    let finals = match p.finaliser {
        Some(f) if f.after_final != AfterFinal::Reopen => {
            "    -- final partitions are never written again\n    and (c.final_through is null or b.dt > c.final_through)\n"
        }
        _ => "",
    };
    let commit = match (p.state, p.commit) {
        (ProcessingState::None | ProcessingState::TrailingWindow { .. }, _) => "-- Before each run replay_dbt.py writes the run's instant and day into\n-- lab_control; with no state, a crashed run changes nothing a retry depends on.".to_string(),
        (_, CommitOrder::StateAfterWrite) => format!("-- Before each run replay_dbt.py writes the run's scope into lab_control and\n-- lab_targets, runs `dbt run --select {name}`, then saves the new state: a\n-- crash between the two leaves the state where it was, and the retry reads\n-- the same rows again."),
        (_, CommitOrder::StateBeforeWrite) => format!("-- Before each run replay_dbt.py writes the run's scope into lab_control and\n-- lab_targets and saves the new state BEFORE `dbt run --select {name}`: a\n-- crash between the two leaves the state moved on and the batch never written."),
    };
    format!(
        "-- {name}: generated by Partition Lab for {DBT_VERSIONS}.\n{commit}\n{}\n\nwith c as (\n  select run_at, run_day, mark, final_through from {{{{ source('lab', 'lab_control') }}}} where pipeline = '{name}'\n),\nread as (\n  select b.*\n  from {{{{ ref('bronze') }}}} b, c\n  where b.script = '{script}'\n    and b.arrived_at <= c.run_at   -- only what had arrived when the run started\n{scope}{finals})\n-- one row per key: the latest version the run read\nselect id, key, event_time, updated_at, arrived_at, amount_minor, currency, dt\nfrom read\nqualify row_number() over (partition by key order by updated_at desc, arrived_at desc, id desc) = 1\n",
        config(p.write)
    )
}

/// The profile: one DuckDB file, one writer (DuckDB lets a single process write).
pub fn profile(name: &str) -> File {
    File::new(
        "profiles.yml",
        format!(
            "# One DuckDB file, one writer: DuckDB allows a single process to write.\n{name}:\n  target: lab\n  outputs:\n    lab:\n      type: duckdb\n      path: lab.duckdb\n      threads: 1\n"
        ),
    )
}

/// The project files shared by every model: project, profile, sources, seed types.
pub fn project(name: &str) -> Vec<File> {
    let name = quoted(name).replace(['.', '-', ' ', ':'], "_");
    vec![
        File::new(
            "dbt_project.yml",
            format!(
                "# Generated by Partition Lab for {DBT_VERSIONS}.\nname: {name}\nversion: '1.0'\nprofile: {name}\nconfig-version: 2\nseeds:\n  {name}:\n    bronze:\n      +column_types:\n        script: varchar\n        id: varchar\n        key: varchar\n        event_time: timestamp\n        updated_at: timestamp\n        arrived_at: timestamp\n        amount_minor: bigint\n        currency: varchar\n        dt: date\n        change_date: date\n"
            ),
        ),
        profile(&name),
        File::new(
            "models/sources.yml",
            "version: 2\nsources:\n  - name: lab\n    schema: main\n    description: The runner's control tables (replay.py fills them in before each run).\n    tables:\n      - name: lab_control\n      - name: lab_targets\n",
        ),
    ]
}

/// Gold by day from the microbatch silver, a batch at a time: a rebuild of
/// silver's days with `--select silver_orders+` rebuilds gold's too.
pub fn microbatch_gold(begin: crate::engine::calendar::Day) -> String {
    format!(
        "-- Generated by Partition Lab for {DBT_VERSIONS}.\n-- One batch per day: dbt reads silver_orders for the batch's day only (its\n-- event_time), so gold's day is rebuilt from the silver just written.\n{{{{ config(\n    materialized='incremental',\n    incremental_strategy='microbatch',\n    event_time='dt',\n    batch_size='day',\n    begin='{begin}',\n    concurrent_batches=false\n) }}}}\nselect dt, sum(amount_gbp) as revenue_gbp, count(*) as orders\nfrom {{{{ ref('silver_orders') }}}}\ngroup by dt\n"
    )
}

/// The backfill lab's silver as a microbatch model: one batch per day of
/// `event_time`, each replacing its own day, with the fixed logic (the
/// full-precision rate, half-to-even to the penny; GBP has no rate row).
pub fn microbatch_model(begin: crate::engine::calendar::Day) -> String {
    format!(
        "-- Generated by Partition Lab for {DBT_VERSIONS}.\n-- One batch per day of event_time; a batch replaces its own day, so\n-- re-running a day cannot double it. One batch at a time\n-- (concurrent_batches=false): on DuckDB with one thread dbt was seen to\n-- hang after the first batch without it (DuckDB's own limit is one\n-- writing process, not one batch).\n{{{{ config(\n    materialized='incremental',\n    incremental_strategy='microbatch',\n    event_time='event_time',\n    batch_size='day',\n    begin='{begin}',\n    concurrent_batches=false\n) }}}}\nselect o.order_id, o.event_time, o.dt, o.currency, o.amount,\n       {} as amount_gbp\nfrom {{{{ ref('bronze_orders') }}}} o\nleft join {{{{ ref('fx_rates') }}}} fx on fx.currency = o.currency and fx.dt = o.dt\n",
        crate::export::drift::Dialect::DuckDb.half_even_pounds("o.amount * coalesce(fx.gbp_per_unit, 1)")
    )
}
