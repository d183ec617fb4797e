//! Reading a design file's JSON by hand, from a `serde_json::Value`.
//!
//! Derived `Deserialize` impls for the design's many small enums were the
//! single largest piece of the browser bundle; walking a `Value` reads the
//! same document (the shape `Serialize` writes) at a fraction of the size.
//! Unknown fields are ignored, as serde does by default.

use crate::lean::sorted::{SortedMap, SortedSet};

use serde_json::{Map, Value};

use crate::engine::calendar::parse_iso_date;
use crate::vocabulary::{Choice, StateKind, WriteKind};

use super::file::DesignFile;
use super::graph::{Edge, Graph, Node, NodeConfig, NodeId, StateChoice, WriteChoice};

type Read<T> = Result<T, String>;

fn object<'a>(value: &'a Value, what: &str) -> Read<&'a Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| format!("{what} should be an object"))
}

fn field<'a>(map: &'a Map<String, Value>, key: &str, what: &str) -> Read<&'a Value> {
    map.get(key).ok_or_else(|| format!("{what} has no “{key}”"))
}

fn text<'a>(map: &'a Map<String, Value>, key: &str, what: &str) -> Read<&'a str> {
    field(map, key, what)?
        .as_str()
        .ok_or_else(|| format!("{what}: “{key}” should be text"))
}

fn whole<T: TryFrom<i64>>(map: &Map<String, Value>, key: &str, what: &str) -> Read<T> {
    field(map, key, what)?
        .as_i64()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("{what}: “{key}” should be a whole number in range"))
}

fn flag(map: &Map<String, Value>, key: &str, what: &str) -> Read<bool> {
    field(map, key, what)?
        .as_bool()
        .ok_or_else(|| format!("{what}: “{key}” should be true or false"))
}

/// A unit variant, written as its file name (`crate::vocabulary`).
fn named<C: Choice>(map: &Map<String, Value>, key: &str, what: &str) -> Read<C> {
    let name = text(map, key, what)?;
    C::from_file(name).ok_or_else(|| format!("{what}: “{key}” cannot be “{name}”"))
}

/// An externally tagged enum value: `"Name"` or `{"Name": {...}}`.
fn tagged<'a>(value: &'a Value, what: &str) -> Read<(&'a str, Option<&'a Map<String, Value>>)> {
    match value {
        Value::String(name) => Ok((name.as_str(), None)),
        Value::Object(map) if map.len() == 1 => {
            let (name, inner) = map
                .iter()
                .next()
                .ok_or_else(|| format!("{what} is empty"))?;
            Ok((name.as_str(), Some(object(inner, what)?)))
        }
        _ => Err(format!("{what} is not a known setting")),
    }
}

pub fn design_file(value: &Value) -> Read<DesignFile> {
    let map = object(value, "the file")?;
    let scenario = match field(map, "scenario", "the file")? {
        Value::Null => None,
        _ => Some(whole::<u8>(map, "scenario", "the file")?),
    };
    Ok(DesignFile {
        format: text(map, "format", "the file")?.to_string(),
        version: whole(map, "version", "the file")?,
        scenario,
        graph: graph(field(map, "graph", "the file")?)?,
    })
}

fn graph(value: &Value) -> Read<Graph> {
    let map = object(value, "the graph")?;
    let mut nodes = SortedMap::new();
    for (key, value) in object(field(map, "nodes", "the graph")?, "the nodes")? {
        let id = key
            .parse::<u32>()
            .map_err(|_| format!("“{key}” is not a node id"))?;
        nodes.insert(NodeId(id), node(value, id)?);
    }
    let mut edges = SortedSet::new();
    let list = field(map, "edges", "the graph")?
        .as_array()
        .ok_or("the edges should be a list")?;
    for value in list {
        let e = object(value, "an edge")?;
        edges.insert(Edge {
            from: NodeId(whole(e, "from", "an edge")?),
            to: NodeId(whole(e, "to", "an edge")?),
        });
    }
    Ok(Graph {
        nodes,
        edges,
        next_id: whole(map, "next_id", "the graph")?,
    })
}

fn node(value: &Value, key: u32) -> Read<Node> {
    let what = format!("node {key}");
    let map = object(value, &what)?;
    let config = config(field(map, "config", &what)?, &what)?;
    Ok(Node {
        id: NodeId(whole(map, "id", &what)?),
        x: whole(map, "x", &what)?,
        y: whole(map, "y", &what)?,
        unchosen: unchosen(map, &config, &what)?,
        config,
        fixed: flag(map, "fixed", &what)?,
    })
}

/// The fields a node still waits for: names of its own inspector fields,
/// each once. A file from before there was such a list has none (its
/// choices are as saved).
fn unchosen(map: &Map<String, Value>, config: &NodeConfig, what: &str) -> Read<Vec<&'static str>> {
    let Some(list) = map.get("unchosen") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| format!("{what}: “unchosen” should be a list"))?;
    let keys: Vec<&'static str> = super::form::fields(config)
        .into_iter()
        .map(|f| f.key)
        .collect();
    let mut out: Vec<&'static str> = Vec::new();
    for item in list {
        let name = item
            .as_str()
            .ok_or_else(|| format!("{what}: “unchosen” should list setting names"))?;
        match keys.iter().find(|k| **k == name) {
            Some(key) if super::choose::always_set(key) => {
                return Err(format!("{what}: “{name}” always has a value"))
            }
            Some(key) if !out.contains(key) => out.push(key),
            Some(_) => return Err(format!("{what} lists “{name}” as unchosen twice")),
            None => return Err(format!("{what} has no setting “{name}” to choose")),
        }
    }
    Ok(out)
}

fn config(value: &Value, what: &str) -> Read<NodeConfig> {
    let (name, inner) = tagged(value, what)?;
    let empty = Map::new();
    let m = inner.unwrap_or(&empty);
    Ok(match name {
        "Source" => NodeConfig::Source {
            table: text(m, "table", what)?.to_string(),
        },
        "State" => NodeConfig::State {
            state: state(field(m, "state", what)?, what)?,
            commit: named(m, "commit", what)?,
            // Files from before there were outages have no such field.
            catch_up: m.contains_key("catch_up") && flag(m, "catch_up", what)?,
        },
        "Transform" => NodeConfig::Transform {
            logic: named(m, "logic", what)?,
            reads: named(m, "reads", what)?,
            partition_key: named(m, "partition_key", what)?,
        },
        "Write" => NodeConfig::Write {
            table: text(m, "table", what)?.to_string(),
            mode: write_mode(field(m, "mode", what)?, what)?,
        },
        "Backfill" => {
            let date = |key: &str| {
                parse_iso_date(text(m, key, what)?)
                    .ok_or_else(|| format!("{what}: “{key}” should be a YYYY-MM-DD date"))
            };
            NodeConfig::Backfill {
                first: date("first")?,
                last: date("last")?,
                max_concurrency: whole(m, "max_concurrency", what)?,
                shape: named(m, "shape", what)?,
                markers: named(m, "markers", what)?,
                yield_to_scheduled: flag(m, "yield_to_scheduled", what)?,
            }
        }
        "Finaliser" => NodeConfig::Finaliser {
            allowed_lateness_days: whole(m, "allowed_lateness_days", what)?,
            after_final: named(m, "after_final", what)?,
        },
        "Checks" => NodeConfig::Checks {
            unique_key: flag(m, "unique_key", what)?,
            reconcile: flag(m, "reconcile", what)?,
        },
        "Report" => NodeConfig::Report {
            restate: named(m, "restate", what)?,
        },
        other => return Err(format!("{what} is of an unknown kind “{other}”")),
    })
}

fn state(value: &Value, what: &str) -> Read<StateChoice> {
    let (name, inner) = tagged(value, what)?;
    let empty = Map::new();
    let m = inner.unwrap_or(&empty);
    Ok(match StateKind::from_file(name) {
        Some(StateKind::None) => StateChoice::None,
        Some(StateKind::Watermark) => StateChoice::Watermark {
            column: named(m, "column", what)?,
            overlap_minutes: whole(m, "overlap_minutes", what)?,
        },
        Some(StateKind::PartitionList) => StateChoice::PartitionList {
            lookback: whole(m, "lookback", what)?,
            over: named(m, "over", what)?,
        },
        Some(StateKind::TrailingWindow) => StateChoice::TrailingWindow {
            days: whole(m, "days", what)?,
        },
        None => return Err(format!("{what}: unknown processing state “{name}”")),
    })
}

fn write_mode(value: &Value, what: &str) -> Read<WriteChoice> {
    let (name, inner) = tagged(value, what)?;
    Ok(match (WriteKind::from_file(name), inner) {
        (Some(WriteKind::Append), None) => WriteChoice::Append,
        (Some(WriteKind::OverwritePartition), None) => WriteChoice::OverwritePartition,
        (Some(WriteKind::ReplaceTable), None) => WriteChoice::ReplaceTable,
        (Some(WriteKind::Merge), Some(m)) => WriteChoice::Merge {
            key: match field(m, "key", what)? {
                Value::Null => None,
                _ => Some(named(m, "key", what)?),
            },
        },
        _ => return Err(format!("{what}: unknown write mode “{name}”")),
    })
}
