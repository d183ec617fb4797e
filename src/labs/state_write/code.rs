//! Each cell as the real tool would write it: the same state and write
//! mode in Spark or dbt, with the lab's lookback and commit order filled in.

use crate::engine::CommitOrder;

use super::model::{Cell, Controls};

/// (tool name, code) for a cell under the current controls.
pub fn equivalent(cell: Cell, controls: &Controls) -> (&'static str, String) {
    let before = controls.commit == CommitOrder::StateBeforeWrite;
    let lookback = controls.lookback;
    match cell {
        Cell::WatermarkAppend | Cell::WatermarkOverwrite => {
            let (mode, setup) = if cell == Cell::WatermarkAppend {
                ("append", String::new())
            } else {
                (
                    "overwrite",
                    "# Replace only the dt partitions present in the batch.\nspark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")\n\n"
                        .to_string(),
                )
            };
            let save = "state.save(\"orders\", batch.agg(F.max(\"arrived_at\")).first()[0])";
            let write = format!("batch.write.mode(\"{mode}\").insertInto(\"silver.orders\")");
            let steps = if before {
                format!("{save}   # saved BEFORE the write\n{write}")
            } else {
                format!("{write}\n{save}   # saved after the write")
            };
            (
                "Spark",
                format!(
                    "{setup}mark = state.load(\"orders\")   # max arrived_at read so far\nbatch = (spark.table(\"bronze.orders\")\n           .where(F.col(\"arrived_at\") > mark))\n{steps}"
                ),
            )
        }
        Cell::ListAppend | Cell::ListOverwrite => {
            let strategy = if cell == Cell::ListAppend {
                "incremental_strategy='append'"
            } else {
                "incremental_strategy='delete+insert', unique_key='dt'"
            };
            (
                "dbt",
                format!(
                    "{{{{ config(materialized='incremental', {strategy}) }}}}\n\nselect order_id, amount_gbp, dt\nfrom {{{{ ref('bronze_orders') }}}}\n{{% if is_incremental() %}}\n  -- today's partition plus the {lookback}-day lookback\n  where dt >= date '{{{{ var(\"run_day\") }}}}' - interval '{lookback} day'\n{{% endif %}}"
                ),
            )
        }
        Cell::FullRefresh => (
            "dbt",
            "{{ config(materialized='table') }}   -- rebuilt from scratch every run\n\nselect order_id, amount_gbp, dt\nfrom {{ ref('bronze_orders') }}".to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_follows_the_controls() {
        let controls = Controls {
            lookback: 2,
            commit: CommitOrder::StateBeforeWrite,
            ..Controls::default()
        };
        let (tool, code) = equivalent(Cell::ListOverwrite, &controls);
        assert_eq!(tool, "dbt");
        assert!(code.contains("delete+insert"));
        assert!(code.contains("interval '2 day'"));
        let (_, code) = equivalent(Cell::WatermarkOverwrite, &controls);
        assert!(code.contains("partitionOverwriteMode"));
        let save = code.find("state.save").expect("saves state");
        let write = code.find("insertInto").expect("writes");
        assert!(save < write, "state saved before the write when asked");
        let (_, code) = equivalent(Cell::WatermarkAppend, &Controls::default());
        assert!(code.find("insertInto") < code.find("state.save"));
    }
}
