//! What a node from the palette arrives as: every choice a scenario
//! grades left unchosen, and the few defaults that remain (a table name,
//! a backfill's dates) the scenario's own. A student passes a scenario by
//! deciding, never by accepting what the palette handed over.
//!
//! The placeholder values under an unchosen field are never shown and
//! never simulated: the inspector shows "Choose…", the canvas counts what
//! is left, and `validate` names each one, so `compile` refuses the design
//! until all are chosen. They are also deliberately naive (remember
//! nothing, append), so that even read as choices they pass no scenario
//! (a test holds every scenario to that).

use chrono::{Days, NaiveDate};

use crate::engine::{AfterFinal, CommitOrder, LogicVersion, PartitionKey};

use super::graph::{
    BackfillShape, Layer, Markers, Node, NodeConfig, NodeKind, Restate, StateChoice, WriteChoice,
};
use crate::design::inspector::form::{fields, Field};

/// A scenario's palette: the defaults that are not choices, and which
/// options can matter in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// The table a new write target names.
    pub table: &'static str,
    /// The scenario's dates: a new backfill starts on the first and covers
    /// a week of them, inside the range whatever it is.
    pub first: NaiveDate,
    pub last: NaiveDate,
    /// Whether the transform's logic version can matter (only where the
    /// old logic is the bug being repaired).
    pub logic_matters: bool,
    /// The scenario's scheduler goes down: the state node asks whether to catch up.
    pub outage: bool,
}

/// Fields that are never left unchosen: names and dates have a sensible
/// scenario default, and a merge's key has its own "(choose a key)".
pub fn always_set(key: &str) -> bool {
    matches!(key, "table" | "first" | "last" | "key")
}

/// Whether `palette` offers the field `key` of `config` at all. The logic
/// version stays offered wherever a design (an older file) chose the old
/// logic, so it can be chosen back.
fn offered(palette: &Palette, config: &NodeConfig, key: &str) -> bool {
    match (config, key) {
        (
            NodeConfig::Transform {
                logic: LogicVersion::Fixed,
                ..
            },
            "logic",
        ) => palette.logic_matters,
        // Catching up matters only where the scheduler goes down; a design
        // that chose it keeps the field, so it can be chosen back.
        (
            NodeConfig::State {
                catch_up: false, ..
            },
            "catch_up",
        ) => palette.outage,
        _ => true,
    }
}

/// The inspector fields `palette` offers for `config`, in order.
pub fn offered_fields(palette: &Palette, config: &NodeConfig) -> Vec<Field> {
    fields(config)
        .into_iter()
        .filter(|f| offered(palette, config, f.key))
        .collect()
}

/// The keys of `config`'s fields that start unchosen.
fn open_keys(palette: &Palette, config: &NodeConfig) -> Vec<&'static str> {
    offered_fields(palette, config)
        .into_iter()
        .map(|f| f.key)
        .filter(|k| !always_set(k))
        .collect()
}

/// A new `kind` node as the palette places it, and its unchosen fields.
pub fn placed(kind: NodeKind, palette: &Palette) -> (NodeConfig, Vec<&'static str>) {
    let config = match kind {
        NodeKind::State => NodeConfig::State {
            state: StateChoice::None,
            commit: CommitOrder::StateAfterWrite,
            catch_up: false,
        },
        NodeKind::Transform => NodeConfig::Transform {
            logic: LogicVersion::Fixed,
            reads: Layer::Bronze,
            partition_key: PartitionKey::EventDate,
        },
        NodeKind::Write => NodeConfig::Write {
            table: palette.table.to_string(),
            mode: WriteChoice::Append,
        },
        NodeKind::Backfill => NodeConfig::Backfill {
            first: palette.first,
            last: palette
                .first
                .checked_add_days(Days::new(6))
                .unwrap_or(palette.last)
                .min(palette.last),
            max_concurrency: 1,
            shape: BackfillShape::PerDate,
            markers: Markers::Off,
            yield_to_scheduled: false,
        },
        NodeKind::Finaliser => NodeConfig::Finaliser {
            allowed_lateness_days: 0,
            after_final: AfterFinal::Drop,
        },
        NodeKind::Checks => NodeConfig::Checks {
            unique_key: false,
            reconcile: false,
        },
        NodeKind::Report => NodeConfig::Report {
            restate: Restate::AtOnce,
        },
        NodeKind::Source => NodeConfig::default_for(NodeKind::Source),
    };
    let open = open_keys(palette, &config);
    (config, open)
}

/// The unchosen fields of `node` once field `key` is set and its
/// configuration becomes `next`: `key` is chosen, the follow-up fields the
/// choice brings (a watermark's column and overlap) arrive unchosen, and
/// fields that went away are forgotten.
pub fn after_choosing(node: &Node, key: &str, next: &NodeConfig) -> Vec<&'static str> {
    let before: Vec<&'static str> = fields(&node.config).into_iter().map(|f| f.key).collect();
    fields(next)
        .into_iter()
        .map(|f| f.key)
        .filter(|k| *k != key)
        .filter(|k| node.unchosen.contains(k) || (!before.contains(k) && !always_set(k)))
        .collect()
}

/// Whether field `key` of `node` is still to be chosen.
pub fn is_unchosen(node: &Node, key: &str) -> bool {
    node.unchosen.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::NodeId;
    use crate::design::inspector::form::set;

    fn palette() -> Palette {
        let day = crate::engine::calendar::aug;
        Palette {
            table: "silver.orders",
            first: day(1),
            last: day(14),
            logic_matters: false,
            outage: false,
        }
    }

    fn node(kind: NodeKind) -> Node {
        let (config, unchosen) = placed(kind, &palette());
        Node {
            id: NodeId(1),
            x: 0,
            y: 0,
            config,
            fixed: false,
            unchosen,
        }
    }

    #[test]
    fn every_graded_field_of_a_placed_node_is_unchosen() {
        for kind in NodeKind::PALETTE {
            let n = node(kind);
            for f in offered_fields(&palette(), &n.config) {
                assert_eq!(
                    is_unchosen(&n, f.key),
                    !always_set(f.key),
                    "{kind:?} {}",
                    f.key
                );
            }
            assert!(!n.unchosen.is_empty(), "{kind:?}");
        }
    }

    #[test]
    fn choosing_a_state_kind_brings_its_own_fields_unchosen() {
        let n = node(NodeKind::State);
        assert_eq!(n.unchosen, vec!["state", "commit"]);
        let next = set(&n.config, "state", "watermark").expect("a listed choice");
        assert_eq!(
            after_choosing(&n, "state", &next),
            vec!["column", "overlap", "commit"]
        );
        // A fully chosen node (an older file) asks for the follow-ups too.
        let chosen = Node {
            unchosen: Vec::new(),
            ..n
        };
        let list = set(&chosen.config, "state", "list").expect("a listed choice");
        assert_eq!(
            after_choosing(&chosen, "state", &list),
            vec!["lookback", "over"]
        );
    }

    #[test]
    fn a_merge_key_keeps_its_own_unchosen_state() {
        let n = node(NodeKind::Write);
        let merge = set(&n.config, "mode", "merge").expect("a listed choice");
        assert!(after_choosing(&n, "mode", &merge).is_empty());
    }

    #[test]
    fn the_old_logic_is_offered_only_where_it_matters_or_was_chosen() {
        let n = node(NodeKind::Transform);
        assert!(!is_unchosen(&n, "logic"));
        let keys = |p: &Palette, c: &NodeConfig| -> Vec<&str> {
            offered_fields(p, c).into_iter().map(|f| f.key).collect()
        };
        assert!(!keys(&palette(), &n.config).contains(&"logic"));
        let currency = Palette {
            logic_matters: true,
            outage: false,
            ..palette()
        };
        assert!(placed(NodeKind::Transform, &currency).1.contains(&"logic"));
        let old = set(&n.config, "logic", "broken").expect("a listed choice");
        assert!(keys(&palette(), &old).contains(&"logic"));
    }

    #[test]
    fn a_backfill_starts_inside_the_scenario_whatever_its_length() {
        let short = Palette {
            last: palette().first,
            ..palette()
        };
        for p in [palette(), short] {
            let NodeConfig::Backfill { first, last, .. } = placed(NodeKind::Backfill, &p).0 else {
                unreachable!("a backfill")
            };
            assert!(p.first <= first && first <= last && last <= p.last, "{p:?}");
        }
    }
}
