//! The inspector's form as data: which fields a node's configuration
//! has, their current values as text, and setting one from what a student
//! typed or picked. The inspector view stays a loop over these fields.

use crate::design::inspector::words::{StateKind, WriteKind};
use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};
use crate::vocabulary::Choice;

use crate::design::graph::{
    BackfillShape, Layer, Markers, NodeConfig, Restate, StateChoice, WriteChoice,
};
use crate::design::limits::{self, Range, IN_FLIGHT, LATENESS, LOOKBACK, OVERLAP};

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

fn options<C: Choice>() -> Input {
    Input::Choice(C::options())
}

fn number(range: Range) -> Input {
    Input::Number {
        min: range.min,
        max: range.max,
        unit: range.unit,
    }
}

/// A merge still being designed has no key yet: the form offers that too.
fn merge_keys() -> Input {
    let mut keys = vec![("none", "(choose a key)")];
    keys.extend(MergeKey::options());
    Input::Choice(keys)
}

/// The fields `config` shows, in order; a choice can bring its own
/// follow-up fields (a watermark's column, a merge's key).
pub fn fields(config: &NodeConfig) -> Vec<Field> {
    match config {
        NodeConfig::Source { .. } => Vec::new(),
        NodeConfig::State { state, .. } => {
            let mut f = vec![field("state", "Remembers", options::<StateKind>())];
            match state {
                StateChoice::Watermark { .. } => {
                    f.push(field(
                        "column",
                        "Watermark column",
                        options::<WatermarkColumn>(),
                    ));
                    f.push(field(
                        "overlap",
                        "Overlap (re-read before the watermark)",
                        number(OVERLAP),
                    ));
                }
                StateChoice::PartitionList { .. } => {
                    f.push(field("lookback", "Lookback", number(LOOKBACK)));
                    f.push(field("over", "Partitions listed by", options::<ListDate>()));
                }
                StateChoice::TrailingWindow { .. } => {
                    f.push(field(
                        "window",
                        "Window (days before the run's day)",
                        number(LOOKBACK),
                    ));
                }
                StateChoice::None => {}
            }
            f.push(field("commit", "State saved", options::<CommitOrder>()));
            f.push(field(
                "catch_up",
                "Catch up: after the scheduler was down, run each missed run in order",
                Input::Check,
            ));
            f
        }
        NodeConfig::Transform { .. } => vec![
            field("logic", "Logic version", options::<LogicVersion>()),
            field("reads", "Reads from", options::<Layer>()),
            field(
                "partition_key",
                "Partition rows by",
                options::<PartitionKey>(),
            ),
        ],
        NodeConfig::Write { mode, .. } => {
            let mut f = vec![
                field("table", "Table", Input::Text),
                field("mode", "Write mode", options::<WriteKind>()),
            ];
            if matches!(mode, WriteChoice::Merge { .. }) {
                f.push(field("key", "Merge key", merge_keys()));
            }
            f
        }
        NodeConfig::Backfill { .. } => vec![
            field("first", "First date", Input::Date),
            field("last", "Last date", Input::Date),
            field("concurrency", "Dates in flight at most", number(IN_FLIGHT)),
            field("shape", "Shape", options::<BackfillShape>()),
            field("markers", "Completion markers", options::<Markers>()),
            field("yield", "Yield a slot to scheduled runs", Input::Check),
        ],
        NodeConfig::Finaliser { .. } => vec![
            field("lateness", "Allowed lateness", number(LATENESS)),
            field(
                "after_final",
                "Rows arriving after final",
                options::<AfterFinal>(),
            ),
        ],
        NodeConfig::Checks { .. } => vec![
            field("unique", "Unique key", Input::Check),
            field("reconcile", "Reconcile with the source", Input::Check),
        ],
        NodeConfig::Report { .. } => {
            vec![field("restate", "Restate the report", options::<Restate>())]
        }
    }
}

fn flag(on: bool) -> String {
    if on { "true" } else { "false" }.to_string()
}

/// The field's current value as the form shows it.
pub fn value(config: &NodeConfig, key: &str) -> String {
    match (config, key) {
        (NodeConfig::State { state, .. }, "state") => state.kind().name().to_string(),
        (
            NodeConfig::State {
                state: StateChoice::Watermark { column, .. },
                ..
            },
            "column",
        ) => column.name().to_string(),
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
        ) => over.name().to_string(),
        (
            NodeConfig::State {
                state: StateChoice::TrailingWindow { days },
                ..
            },
            "window",
        ) => days.to_string(),
        (NodeConfig::State { commit, .. }, "commit") => commit.name().to_string(),
        (NodeConfig::State { catch_up, .. }, "catch_up") => flag(*catch_up),
        (NodeConfig::Transform { logic, .. }, "logic") => logic.name().to_string(),
        (NodeConfig::Transform { reads, .. }, "reads") => reads.name().to_string(),
        (NodeConfig::Transform { partition_key, .. }, "partition_key") => {
            partition_key.name().to_string()
        }
        (NodeConfig::Write { table, .. }, "table") => table.clone(),
        (NodeConfig::Write { mode, .. }, "mode") => mode.kind().name().to_string(),
        (
            NodeConfig::Write {
                mode: WriteChoice::Merge { key },
                ..
            },
            "key",
        ) => key.map_or("none", MergeKey::name).to_string(),
        (NodeConfig::Backfill { first, .. }, "first") => first.to_string(),
        (NodeConfig::Backfill { last, .. }, "last") => last.to_string(),
        (
            NodeConfig::Backfill {
                max_concurrency, ..
            },
            "concurrency",
        ) => max_concurrency.to_string(),
        (NodeConfig::Backfill { shape, .. }, "shape") => shape.name().to_string(),
        (NodeConfig::Backfill { markers, .. }, "markers") => markers.name().to_string(),
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
        (NodeConfig::Finaliser { after_final, .. }, "after_final") => {
            after_final.name().to_string()
        }
        (NodeConfig::Checks { unique_key, .. }, "unique") => flag(*unique_key),
        (NodeConfig::Checks { reconcile, .. }, "reconcile") => flag(*reconcile),
        (NodeConfig::Report { restate }, "restate") => restate.name().to_string(),
        _ => String::new(),
    }
}

/// Field `key` of `config` as the inspector reads it: "Watermark column:
/// updated_at", "Lookback: 1 day". `None` for a field the node lacks.
pub fn said(config: &NodeConfig, key: &str) -> Option<String> {
    let field = fields(config).into_iter().find(|f| f.key == key)?;
    let value = value(config, key);
    let shown = match &field.input {
        Input::Choice(options) => options
            .iter()
            .find(|(name, _)| *name == value)
            .map(|(_, label)| (*label).to_string())?,
        Input::Number { unit, .. } => match (*unit, value.parse::<u64>()) {
            ("days", Ok(n)) => crate::counted::counted(n, "day"),
            ("minutes", Ok(n)) => crate::counted::counted(n, "minute"),
            _ => format!("{value} {unit}"),
        },
        Input::Check if value == "true" => "on".to_string(),
        Input::Check => "off".to_string(),
        Input::Date | Input::Text => value,
    };
    Some(format!("{}: {shown}", field.label))
}

/// The variant of `C` a form sent, or why `raw` is none of them.
fn pick<C: Choice>(raw: &str) -> Result<C, String> {
    C::from_name(raw).ok_or_else(|| format!("“{raw}” is not one of the choices."))
}

/// `config` with field `key` set from `raw`, or what is wrong with `raw`.
pub fn set(config: &NodeConfig, key: &str, raw: &str) -> Result<NodeConfig, String> {
    let mut next = config.clone();
    let on = raw == "true";
    let missing = || Err(format!("This node has no setting “{key}”."));
    match (&mut next, key) {
        (NodeConfig::State { state, .. }, "state") => {
            // Switching kind keeps nothing of the old choice: start from sensible defaults.
            *state = match pick::<StateKind>(raw)? {
                StateKind::Watermark => StateChoice::Watermark {
                    column: WatermarkColumn::ArrivedAt,
                    overlap_minutes: 0,
                },
                StateKind::PartitionList => StateChoice::PartitionList {
                    lookback: 1,
                    over: ListDate::EventDate,
                },
                StateKind::None => StateChoice::None,
                StateKind::TrailingWindow => StateChoice::TrailingWindow { days: 1 },
            }
        }
        (
            NodeConfig::State { state, .. },
            "column" | "overlap" | "lookback" | "over" | "window",
        ) => match (state, key) {
            (StateChoice::Watermark { column, .. }, "column") => *column = pick(raw)?,
            (
                StateChoice::Watermark {
                    overlap_minutes, ..
                },
                "overlap",
            ) => *overlap_minutes = OVERLAP.parse(raw)?,
            (StateChoice::PartitionList { lookback, .. }, "lookback") => {
                *lookback = LOOKBACK.parse(raw)?
            }
            (StateChoice::PartitionList { over, .. }, "over") => *over = pick(raw)?,
            (StateChoice::TrailingWindow { days }, "window") => *days = LOOKBACK.parse(raw)?,
            _ => return missing(),
        },
        (NodeConfig::State { commit, .. }, "commit") => *commit = pick(raw)?,
        (NodeConfig::State { catch_up, .. }, "catch_up") => *catch_up = on,
        (NodeConfig::Transform { logic, .. }, "logic") => *logic = pick(raw)?,
        (NodeConfig::Transform { reads, .. }, "reads") => *reads = pick(raw)?,
        (NodeConfig::Transform { partition_key, .. }, "partition_key") => {
            *partition_key = pick(raw)?
        }
        (NodeConfig::Write { table, .. }, "table") => *table = limits::table_name(raw)?,
        (NodeConfig::Write { mode, .. }, "mode") => {
            *mode = match pick::<WriteKind>(raw)? {
                WriteKind::Append => WriteChoice::Append,
                WriteKind::OverwritePartition => WriteChoice::OverwritePartition,
                WriteKind::Merge => WriteChoice::Merge { key: None },
                WriteKind::ReplaceTable => WriteChoice::ReplaceTable,
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
                _ => Some(pick(raw)?),
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
        (NodeConfig::Backfill { shape, .. }, "shape") => *shape = pick(raw)?,
        (NodeConfig::Backfill { markers, .. }, "markers") => *markers = pick(raw)?,
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
        (NodeConfig::Finaliser { after_final, .. }, "after_final") => *after_final = pick(raw)?,
        (NodeConfig::Checks { unique_key, .. }, "unique") => *unique_key = on,
        (NodeConfig::Checks { reconcile, .. }, "reconcile") => *reconcile = on,
        (NodeConfig::Report { restate }, "restate") => *restate = pick(raw)?,
        _ => return missing(),
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
