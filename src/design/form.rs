//! The inspector's form as data: which fields a node's configuration
//! has, their current values as text, and setting one from what a student
//! typed or picked. The inspector view stays a loop over these fields.

use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};

use super::graph::{BackfillShape, Layer, Markers, NodeConfig, Restate, StateChoice, WriteChoice};
use super::limits::{self, Range, IN_FLIGHT, LATENESS, LOOKBACK, OVERLAP};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// (value, label) pairs.
    Choice(Vec<(&'static str, &'static str)>),
    Number {
        min: u32,
        max: u32,
        unit: &'static str,
    },
    Date,
    Text,
    Check,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub key: &'static str,
    pub label: &'static str,
    pub input: Input,
}

fn field(key: &'static str, label: &'static str, input: Input) -> Field {
    Field { key, label, input }
}

fn choice(options: &[(&'static str, &'static str)]) -> Input {
    Input::Choice(options.to_vec())
}

fn number(range: Range) -> Input {
    Input::Number {
        min: range.min,
        max: range.max,
        unit: range.unit,
    }
}

/// The fields `config` shows, in order; a choice can bring its own
/// follow-up fields (a watermark's column, a merge's key).
pub fn fields(config: &NodeConfig) -> Vec<Field> {
    match config {
        NodeConfig::Source { .. } => Vec::new(),
        NodeConfig::State { state, .. } => {
            let mut f = vec![field(
                "state",
                "Remembers",
                choice(&[
                    ("watermark", "a watermark"),
                    ("list", "a partition list"),
                    ("none", "nothing (full refresh)"),
                ]),
            )];
            match state {
                StateChoice::Watermark { .. } => {
                    f.push(field(
                        "column",
                        "Watermark column",
                        choice(&[
                            ("arrived_at", "arrived_at"),
                            ("updated_at", "updated_at"),
                            ("event_time", "event_time"),
                        ]),
                    ));
                    f.push(field(
                        "overlap",
                        "Overlap (re-read before the watermark)",
                        number(OVERLAP),
                    ));
                }
                StateChoice::PartitionList { .. } => {
                    f.push(field("lookback", "Lookback", number(LOOKBACK)));
                    f.push(field(
                        "over",
                        "Partitions listed by",
                        choice(&[("event", "event date"), ("change", "change date")]),
                    ));
                }
                StateChoice::None => {}
            }
            f.push(field(
                "commit",
                "State saved",
                choice(&[("after", "after the write"), ("before", "before the write")]),
            ));
            f
        }
        NodeConfig::Transform { .. } => vec![
            field(
                "logic",
                "Logic version",
                choice(&[
                    ("fixed", "fixed (current)"),
                    ("broken", "old (rate truncated to 2 dp)"),
                ]),
            ),
            field(
                "reads",
                "Reads from",
                choice(&[("bronze", "bronze"), ("silver", "silver")]),
            ),
            field(
                "partition_key",
                "Partition rows by",
                choice(&[
                    ("event", "event date"),
                    ("processing", "processing date (the day it ran)"),
                ]),
            ),
        ],
        NodeConfig::Write { mode, .. } => {
            let mut f = vec![
                field("table", "Table", Input::Text),
                field(
                    "mode",
                    "Write mode",
                    choice(&[
                        ("append", "append"),
                        ("overwrite", "overwrite partition"),
                        ("merge", "merge on a key"),
                        ("replace", "replace table"),
                    ]),
                ),
            ];
            if matches!(mode, WriteChoice::Merge { .. }) {
                f.push(field(
                    "key",
                    "Merge key",
                    choice(&[
                        ("none", "(choose a key)"),
                        ("key", "the business key (click / order id)"),
                        ("row", "the row id (one per change row)"),
                    ]),
                ));
            }
            f
        }
        NodeConfig::Backfill { .. } => vec![
            field("first", "First date", Input::Date),
            field("last", "Last date", Input::Date),
            field("concurrency", "Dates in flight at most", number(IN_FLIGHT)),
            field(
                "shape",
                "Shape",
                choice(&[
                    ("per_date", "per date: silver, then its gold"),
                    ("two_phases", "two phases: all silver, then all gold"),
                    ("together", "per date: silver and gold at the same time"),
                ]),
            ),
            field(
                "markers",
                "Completion markers",
                choice(&[
                    ("off", "off"),
                    ("after", "written after the partition"),
                    ("before", "written before the partition"),
                ]),
            ),
            field("yield", "Yield a slot to scheduled runs", Input::Check),
        ],
        NodeConfig::Finaliser { .. } => vec![
            field("lateness", "Allowed lateness", number(LATENESS)),
            field(
                "after_final",
                "Rows arriving after final",
                choice(&[
                    ("drop", "drop them"),
                    ("adjustments", "write them to an adjustments table"),
                    ("reopen", "reopen the partition"),
                ]),
            ),
        ],
        NodeConfig::Checks { .. } => vec![
            field("unique", "Unique key", Input::Check),
            field("reconcile", "Reconcile with the source", Input::Check),
        ],
        NodeConfig::Report { .. } => vec![field(
            "restate",
            "Restate the report",
            choice(&[
                ("after_all_gold", "after all gold has landed"),
                ("at_once", "at once"),
            ]),
        )],
    }
}

fn flag(on: bool) -> String {
    if on { "true" } else { "false" }.to_string()
}

/// The field's current value as the form shows it.
pub fn value(config: &NodeConfig, key: &str) -> String {
    let text = |s: &str| s.to_string();
    match (config, key) {
        (NodeConfig::State { state, .. }, "state") => text(match state {
            StateChoice::Watermark { .. } => "watermark",
            StateChoice::PartitionList { .. } => "list",
            StateChoice::None => "none",
        }),
        (
            NodeConfig::State {
                state: StateChoice::Watermark { column, .. },
                ..
            },
            "column",
        ) => text(column.name()),
        (
            NodeConfig::State {
                state:
                    StateChoice::Watermark {
                        overlap_minutes, ..
                    },
                ..
            },
            "overlap",
        ) => overlap_minutes.to_string(),
        (
            NodeConfig::State {
                state: StateChoice::PartitionList { lookback, .. },
                ..
            },
            "lookback",
        ) => lookback.to_string(),
        (
            NodeConfig::State {
                state: StateChoice::PartitionList { over, .. },
                ..
            },
            "over",
        ) => text(match over {
            ListDate::EventDate => "event",
            ListDate::ChangeDate => "change",
        }),
        (NodeConfig::State { commit, .. }, "commit") => text(match commit {
            CommitOrder::StateAfterWrite => "after",
            CommitOrder::StateBeforeWrite => "before",
        }),
        (NodeConfig::Transform { logic, .. }, "logic") => text(match logic {
            LogicVersion::Fixed => "fixed",
            LogicVersion::Broken => "broken",
        }),
        (NodeConfig::Transform { reads, .. }, "reads") => text(match reads {
            Layer::Bronze => "bronze",
            Layer::Silver => "silver",
        }),
        (NodeConfig::Transform { partition_key, .. }, "partition_key") => {
            text(match partition_key {
                PartitionKey::EventDate => "event",
                PartitionKey::ProcessingDate => "processing",
            })
        }
        (NodeConfig::Write { table, .. }, "table") => table.clone(),
        (NodeConfig::Write { mode, .. }, "mode") => text(match mode {
            WriteChoice::Append => "append",
            WriteChoice::OverwritePartition => "overwrite",
            WriteChoice::Merge { .. } => "merge",
            WriteChoice::ReplaceTable => "replace",
        }),
        (
            NodeConfig::Write {
                mode: WriteChoice::Merge { key },
                ..
            },
            "key",
        ) => text(match key {
            None => "none",
            Some(MergeKey::Key) => "key",
            Some(MergeKey::RowId) => "row",
        }),
        (NodeConfig::Backfill { first, .. }, "first") => first.to_string(),
        (NodeConfig::Backfill { last, .. }, "last") => last.to_string(),
        (
            NodeConfig::Backfill {
                max_concurrency, ..
            },
            "concurrency",
        ) => max_concurrency.to_string(),
        (NodeConfig::Backfill { shape, .. }, "shape") => text(match shape {
            BackfillShape::PerDate => "per_date",
            BackfillShape::TwoPhases => "two_phases",
            BackfillShape::Together => "together",
        }),
        (NodeConfig::Backfill { markers, .. }, "markers") => text(match markers {
            Markers::Off => "off",
            Markers::AfterPartition => "after",
            Markers::BeforePartition => "before",
        }),
        (
            NodeConfig::Backfill {
                yield_to_scheduled, ..
            },
            "yield",
        ) => flag(*yield_to_scheduled),
        (
            NodeConfig::Finaliser {
                allowed_lateness_days,
                ..
            },
            "lateness",
        ) => allowed_lateness_days.to_string(),
        (NodeConfig::Finaliser { after_final, .. }, "after_final") => text(match after_final {
            AfterFinal::Drop => "drop",
            AfterFinal::Adjustments => "adjustments",
            AfterFinal::Reopen => "reopen",
        }),
        (NodeConfig::Checks { unique_key, .. }, "unique") => flag(*unique_key),
        (NodeConfig::Checks { reconcile, .. }, "reconcile") => flag(*reconcile),
        (NodeConfig::Report { restate }, "restate") => text(match restate {
            Restate::AfterAllGold => "after_all_gold",
            Restate::AtOnce => "at_once",
        }),
        _ => String::new(),
    }
}

/// `config` with field `key` set from `raw`, or what is wrong with `raw`.
pub fn set(config: &NodeConfig, key: &str, raw: &str) -> Result<NodeConfig, String> {
    let mut next = config.clone();
    let unknown = || Err(format!("“{raw}” is not one of the choices."));
    let on = raw == "true";
    match (&mut next, key) {
        (NodeConfig::State { state, .. }, "state") => {
            *state = match raw {
                // Switching kind keeps nothing of the old choice: start from sensible defaults.
                "watermark" => StateChoice::Watermark {
                    column: WatermarkColumn::ArrivedAt,
                    overlap_minutes: 0,
                },
                "list" => StateChoice::PartitionList {
                    lookback: 1,
                    over: ListDate::EventDate,
                },
                "none" => StateChoice::None,
                _ => return unknown(),
            }
        }
        (
            NodeConfig::State {
                state: StateChoice::Watermark { column, .. },
                ..
            },
            "column",
        ) => {
            *column = match raw {
                "arrived_at" => WatermarkColumn::ArrivedAt,
                "updated_at" => WatermarkColumn::UpdatedAt,
                "event_time" => WatermarkColumn::EventTime,
                _ => return unknown(),
            }
        }
        (
            NodeConfig::State {
                state:
                    StateChoice::Watermark {
                        overlap_minutes, ..
                    },
                ..
            },
            "overlap",
        ) => *overlap_minutes = OVERLAP.parse(raw)?,
        (
            NodeConfig::State {
                state: StateChoice::PartitionList { lookback, .. },
                ..
            },
            "lookback",
        ) => *lookback = LOOKBACK.parse(raw)?,
        (
            NodeConfig::State {
                state: StateChoice::PartitionList { over, .. },
                ..
            },
            "over",
        ) => {
            *over = match raw {
                "event" => ListDate::EventDate,
                "change" => ListDate::ChangeDate,
                _ => return unknown(),
            }
        }
        (NodeConfig::State { commit, .. }, "commit") => {
            *commit = match raw {
                "after" => CommitOrder::StateAfterWrite,
                "before" => CommitOrder::StateBeforeWrite,
                _ => return unknown(),
            }
        }
        (NodeConfig::Transform { logic, .. }, "logic") => {
            *logic = match raw {
                "fixed" => LogicVersion::Fixed,
                "broken" => LogicVersion::Broken,
                _ => return unknown(),
            }
        }
        (NodeConfig::Transform { reads, .. }, "reads") => {
            *reads = match raw {
                "bronze" => Layer::Bronze,
                "silver" => Layer::Silver,
                _ => return unknown(),
            }
        }
        (NodeConfig::Transform { partition_key, .. }, "partition_key") => {
            *partition_key = match raw {
                "event" => PartitionKey::EventDate,
                "processing" => PartitionKey::ProcessingDate,
                _ => return unknown(),
            }
        }
        (NodeConfig::Write { table, .. }, "table") => *table = limits::table_name(raw)?,
        (NodeConfig::Write { mode, .. }, "mode") => {
            *mode = match raw {
                "append" => WriteChoice::Append,
                "overwrite" => WriteChoice::OverwritePartition,
                "merge" => WriteChoice::Merge { key: None },
                "replace" => WriteChoice::ReplaceTable,
                _ => return unknown(),
            }
        }
        (
            NodeConfig::Write {
                mode: WriteChoice::Merge { key },
                ..
            },
            "key",
        ) => {
            *key = match raw {
                "none" => None,
                "key" => Some(MergeKey::Key),
                "row" => Some(MergeKey::RowId),
                _ => return unknown(),
            }
        }
        (NodeConfig::Backfill { first, .. }, "first") => *first = limits::date(raw, "First date")?,
        (NodeConfig::Backfill { last, .. }, "last") => *last = limits::date(raw, "Last date")?,
        (
            NodeConfig::Backfill {
                max_concurrency, ..
            },
            "concurrency",
        ) => *max_concurrency = IN_FLIGHT.parse(raw)?,
        (NodeConfig::Backfill { shape, .. }, "shape") => {
            *shape = match raw {
                "per_date" => BackfillShape::PerDate,
                "two_phases" => BackfillShape::TwoPhases,
                "together" => BackfillShape::Together,
                _ => return unknown(),
            }
        }
        (NodeConfig::Backfill { markers, .. }, "markers") => {
            *markers = match raw {
                "off" => Markers::Off,
                "after" => Markers::AfterPartition,
                "before" => Markers::BeforePartition,
                _ => return unknown(),
            }
        }
        (
            NodeConfig::Backfill {
                yield_to_scheduled, ..
            },
            "yield",
        ) => *yield_to_scheduled = on,
        (
            NodeConfig::Finaliser {
                allowed_lateness_days,
                ..
            },
            "lateness",
        ) => *allowed_lateness_days = LATENESS.parse(raw)?,
        (NodeConfig::Finaliser { after_final, .. }, "after_final") => {
            *after_final = match raw {
                "drop" => AfterFinal::Drop,
                "adjustments" => AfterFinal::Adjustments,
                "reopen" => AfterFinal::Reopen,
                _ => return unknown(),
            }
        }
        (NodeConfig::Checks { unique_key, .. }, "unique") => *unique_key = on,
        (NodeConfig::Checks { reconcile, .. }, "reconcile") => *reconcile = on,
        (NodeConfig::Report { restate }, "restate") => {
            *restate = match raw {
                "after_all_gold" => Restate::AfterAllGold,
                "at_once" => Restate::AtOnce,
                _ => return unknown(),
            }
        }
        _ => return Err(format!("This node has no setting “{key}”.")),
    }
    // The last word is the limits' own, the same check an imported file gets.
    limits::check_config(&next)?;
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::NodeKind;

    /// Every choice of every field, set and read back, on every node
    /// kind (following the fields a choice brings with it).
    #[test]
    fn every_choice_reads_back_as_set() {
        for kind in NodeKind::PALETTE {
            let mut pending = vec![NodeConfig::default_for(kind)];
            let mut seen: Vec<NodeConfig> = Vec::new();
            while let Some(config) = pending.pop() {
                if seen.contains(&config) {
                    continue;
                }
                seen.push(config.clone());
                for f in fields(&config) {
                    assert!(
                        !value(&config, f.key).is_empty() || f.input == Input::Text,
                        "{kind:?} {}",
                        f.key
                    );
                    if let Input::Choice(options) = &f.input {
                        for (v, _) in options {
                            let next = set(&config, f.key, v).expect("a listed choice is accepted");
                            assert_eq!(value(&next, f.key), *v, "{kind:?} {}", f.key);
                            if fields(&next).len() != fields(&config).len() {
                                pending.push(next);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_text_is_refused_with_a_reason_and_changes_nothing() {
        let state = NodeConfig::default_for(NodeKind::State);
        for raw in ["", "-1", "61", "1.5", "ten", "99999999999999"] {
            assert!(set(&state, "lookback", raw).is_err(), "{raw}");
        }
        assert_eq!(
            value(&set(&state, "lookback", " 3 ").expect("3"), "lookback"),
            "3"
        );
        let backfill = NodeConfig::default_for(NodeKind::Backfill);
        assert!(set(&backfill, "first", "2026-02-30").is_err());
        assert!(set(&backfill, "concurrency", "0").is_err());
        let write = NodeConfig::default_for(NodeKind::Write);
        assert!(set(&write, "table", "   ").is_err());
        assert!(set(&write, "table", "silver.orders; drop table x").is_err());
        assert!(set(&write, "mode", "upsert").is_err());
        assert!(
            set(&write, "lookback", "1").is_err(),
            "a field the node lacks"
        );
    }
}
