//! The design file's format, both ways and in one place: written from
//! `design::graph` and read back into it by hand, every choice spelled by
//! its file name in `crate::vocabulary`, so a variant renamed in the code
//! changes no file.
//!
//! By hand because serde's derived impls for the design's many small
//! enums were the largest piece of the browser bundle (`crates/lean/src`). The
//! writer keeps serde's shape (externally tagged enums, pretty-printed with
//! two spaces), so every file written before reads the same and writing it
//! again gives the same bytes. The reader ignores unknown fields, as serde
//! does by default.

use crate::lean::sorted::{SortedMap, SortedSet};

use serde_json::{Map, Value};

use crate::design::inspector::words::{StateKind, WriteKind};
use crate::engine::calendar::parse_iso_date;
use crate::vocabulary::Choice;

use crate::design::graph::{Edge, Graph, Node, NodeConfig, NodeId, StateChoice, WriteChoice};

type Read<T> = Result<T, String>;

/// The tag of each kind of node's settings in a file.
mod tag {
    pub const SOURCE: &str = "Source";
    pub const STATE: &str = "State";
    pub const TRANSFORM: &str = "Transform";
    pub const WRITE: &str = "Write";
    pub const BACKFILL: &str = "Backfill";
    pub const FINALISER: &str = "Finaliser";
    pub const CHECKS: &str = "Checks";
    pub const REPORT: &str = "Report";
}

/// A JSON value as the writer builds it: an object keeps its keys in the
/// order written (`serde_json::Value` would sort them).
enum Out {
    Text(String),
    Whole(i64),
    Flag(bool),
    Null,
    Object(Vec<(String, Out)>),
    List(Vec<Out>),
}

fn obj(fields: Vec<(&str, Out)>) -> Out {
    Out::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A choice, by its file name.
fn choice<C: Choice>(c: C) -> Out {
    Out::Text(c.file().to_string())
}

/// An externally tagged enum value with fields: `{"Name": {...}}`.
fn variant(name: &str, fields: Vec<(&str, Out)>) -> Out {
    Out::Object(vec![(name.to_string(), obj(fields))])
}

fn number(n: impl Into<i64>) -> Out {
    Out::Whole(n.into())
}

/// `out` as serde_json's pretty printer writes it.
fn print(out: &Out, indent: usize, to: &mut String) {
    let pad = |to: &mut String, n: usize| to.extend(std::iter::repeat_n("  ", n));
    match out {
        // serde_json's own escaping, so text reads back exactly.
        Out::Text(t) => to.push_str(&serde_json::to_string(t).unwrap_or_default()),
        Out::Whole(n) => to.push_str(&n.to_string()),
        Out::Flag(b) => to.push_str(if *b { "true" } else { "false" }),
        Out::Null => to.push_str("null"),
        Out::Object(fields) if fields.is_empty() => to.push_str("{}"),
        Out::List(items) if items.is_empty() => to.push_str("[]"),
        Out::Object(fields) => {
            to.push('{');
            for (i, (key, value)) in fields.iter().enumerate() {
                to.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(to, indent.saturating_add(1));
                print(&Out::Text(key.clone()), 0, to);
                to.push_str(": ");
                print(value, indent.saturating_add(1), to);
            }
            to.push('\n');
            pad(to, indent);
            to.push('}');
        }
        Out::List(items) => {
            to.push('[');
            for (i, value) in items.iter().enumerate() {
                to.push_str(if i == 0 { "\n" } else { ",\n" });
                pad(to, indent.saturating_add(1));
                print(value, indent.saturating_add(1), to);
            }
            to.push('\n');
            pad(to, indent);
            to.push(']');
        }
    }
}

/// A design file's contents, as this module writes and reads its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignFile {
    pub format: String,
    pub version: u32,
    pub scenario: Option<u8>,
    pub graph: Graph,
}

/// The file's text.
pub fn write_design_file(file: &DesignFile) -> String {
    let out = obj(vec![
        ("format", Out::Text(file.format.clone())),
        ("version", number(file.version)),
        ("scenario", file.scenario.map_or(Out::Null, number)),
        ("graph", write_graph(&file.graph)),
    ]);
    let mut text = String::new();
    print(&out, 0, &mut text);
    text
}

fn write_graph(graph: &Graph) -> Out {
    obj(vec![
        (
            "nodes",
            Out::Object(
                graph
                    .nodes
                    .iter()
                    .map(|(id, node)| (id.0.to_string(), write_node(node)))
                    .collect(),
            ),
        ),
        (
            "edges",
            Out::List(
                graph
                    .edges
                    .iter()
                    .map(|e| obj(vec![("from", number(e.from.0)), ("to", number(e.to.0))]))
                    .collect(),
            ),
        ),
        ("next_id", number(graph.next_id)),
    ])
}

fn write_node(node: &Node) -> Out {
    let mut fields = vec![
        ("id", number(node.id.0)),
        ("x", number(node.x)),
        ("y", number(node.y)),
        ("config", write_config(&node.config)),
        ("fixed", Out::Flag(node.fixed)),
    ];
    // Files from before there was such a list have none: an empty one is left out.
    if !node.unchosen.is_empty() {
        let keys = node.unchosen.iter().map(|k| Out::Text((*k).to_string()));
        fields.push(("unchosen", Out::List(keys.collect())));
    }
    obj(fields)
}

fn write_config(config: &NodeConfig) -> Out {
    match config {
        NodeConfig::Source { table } => {
            variant(tag::SOURCE, vec![("table", Out::Text(table.clone()))])
        }
        NodeConfig::State {
            state,
            commit,
            catch_up,
        } => {
            let mut fields = vec![("state", write_state(state)), ("commit", choice(*commit))];
            // Files from before there were outages have none: false is left out.
            if *catch_up {
                fields.push(("catch_up", Out::Flag(true)));
            }
            variant(tag::STATE, fields)
        }
        NodeConfig::Transform {
            logic,
            reads,
            partition_key,
        } => variant(
            tag::TRANSFORM,
            vec![
                ("logic", choice(*logic)),
                ("reads", choice(*reads)),
                ("partition_key", choice(*partition_key)),
            ],
        ),
        NodeConfig::Write { table, mode } => variant(
            tag::WRITE,
            vec![
                ("table", Out::Text(table.clone())),
                ("mode", write_mode_out(mode)),
            ],
        ),
        NodeConfig::Backfill {
            first,
            last,
            max_concurrency,
            shape,
            markers,
            yield_to_scheduled,
        } => variant(
            tag::BACKFILL,
            vec![
                ("first", Out::Text(first.to_string())),
                ("last", Out::Text(last.to_string())),
                ("max_concurrency", number(*max_concurrency)),
                ("shape", choice(*shape)),
                ("markers", choice(*markers)),
                ("yield_to_scheduled", Out::Flag(*yield_to_scheduled)),
            ],
        ),
        NodeConfig::Finaliser {
            allowed_lateness_days,
            after_final,
        } => variant(
            tag::FINALISER,
            vec![
                ("allowed_lateness_days", number(*allowed_lateness_days)),
                ("after_final", choice(*after_final)),
            ],
        ),
        NodeConfig::Checks {
            unique_key,
            reconcile,
        } => variant(
            tag::CHECKS,
            vec![
                ("unique_key", Out::Flag(*unique_key)),
                ("reconcile", Out::Flag(*reconcile)),
            ],
        ),
        NodeConfig::Report { restate } => variant(tag::REPORT, vec![("restate", choice(*restate))]),
    }
}

fn write_state(state: &StateChoice) -> Out {
    let name = state.kind().file();
    match *state {
        StateChoice::None => Out::Text(name.to_string()),
        StateChoice::Watermark {
            column,
            overlap_minutes,
        } => variant(
            name,
            vec![
                ("column", choice(column)),
                ("overlap_minutes", number(overlap_minutes)),
            ],
        ),
        StateChoice::PartitionList { lookback, over } => variant(
            name,
            vec![("lookback", number(lookback)), ("over", choice(over))],
        ),
        StateChoice::TrailingWindow { days } => variant(name, vec![("days", number(days))]),
    }
}

fn write_mode_out(mode: &WriteChoice) -> Out {
    let name = mode.kind().file();
    match *mode {
        WriteChoice::Merge { key } => variant(name, vec![("key", key.map_or(Out::Null, choice))]),
        _ => Out::Text(name.to_string()),
    }
}

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
    let keys: Vec<&'static str> = crate::design::inspector::form::fields(config)
        .into_iter()
        .map(|f| f.key)
        .collect();
    let mut out: Vec<&'static str> = Vec::new();
    for item in list {
        let name = item
            .as_str()
            .ok_or_else(|| format!("{what}: “unchosen” should list setting names"))?;
        match keys.iter().find(|k| **k == name) {
            Some(key) if crate::design::choose::always_set(key) => {
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
        tag::SOURCE => NodeConfig::Source {
            table: text(m, "table", what)?.to_string(),
        },
        tag::STATE => NodeConfig::State {
            state: state(field(m, "state", what)?, what)?,
            commit: named(m, "commit", what)?,
            // Files from before there were outages have no such field.
            catch_up: m.contains_key("catch_up") && flag(m, "catch_up", what)?,
        },
        tag::TRANSFORM => NodeConfig::Transform {
            logic: named(m, "logic", what)?,
            reads: named(m, "reads", what)?,
            partition_key: named(m, "partition_key", what)?,
        },
        tag::WRITE => NodeConfig::Write {
            table: text(m, "table", what)?.to_string(),
            mode: write_mode(field(m, "mode", what)?, what)?,
        },
        tag::BACKFILL => {
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
        tag::FINALISER => NodeConfig::Finaliser {
            allowed_lateness_days: whole(m, "allowed_lateness_days", what)?,
            after_final: named(m, "after_final", what)?,
        },
        tag::CHECKS => NodeConfig::Checks {
            unique_key: flag(m, "unique_key", what)?,
            reconcile: flag(m, "reconcile", what)?,
        },
        tag::REPORT => NodeConfig::Report {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{CommitOrder, MergeKey, WatermarkColumn};

    /// A design with a node of each shape the writer has: unit and tagged
    /// variants, a null, a date, a list of unchosen settings, edges.
    fn design() -> DesignFile {
        let mut graph = Graph::with_source("bronze.orders");
        let mut add = |config: NodeConfig, unchosen: Vec<&'static str>| {
            let id = NodeId(graph.next_id);
            graph.next_id = graph.next_id.saturating_add(1);
            graph.nodes.insert(
                id,
                Node {
                    id,
                    x: 40,
                    y: 80,
                    config,
                    fixed: false,
                    unchosen,
                },
            );
            id
        };
        let state = add(
            NodeConfig::State {
                state: StateChoice::Watermark {
                    column: WatermarkColumn::UpdatedAt,
                    overlap_minutes: 30,
                },
                commit: CommitOrder::StateAfterWrite,
                catch_up: true,
            },
            vec![],
        );
        let write = add(
            NodeConfig::Write {
                table: "silver.orders".to_string(),
                mode: WriteChoice::Merge { key: None },
            },
            vec!["mode"],
        );
        add(
            NodeConfig::Backfill {
                first: crate::engine::calendar::date(2026, 8, 3),
                last: crate::engine::calendar::date(2026, 8, 13),
                max_concurrency: 4,
                shape: crate::design::graph::BackfillShape::PerDate,
                markers: crate::design::graph::Markers::AfterPartition,
                yield_to_scheduled: false,
            },
            vec![],
        );
        graph.edges.insert(Edge {
            from: NodeId(0),
            to: state,
        });
        graph.edges.insert(Edge {
            from: state,
            to: write,
        });
        DesignFile {
            format: "partition-lab-design".to_string(),
            version: 1,
            scenario: Some(2),
            graph,
        }
    }

    /// The bytes serde's derived writer gave for this design, before the
    /// writer was written by hand: files written since read the same.
    const WRITTEN: &str = include_str!("../../../tests/data/design-v1.json");

    #[test]
    fn the_writer_writes_todays_files_and_the_reader_reads_them_back() {
        let file = design();
        let text = write_design_file(&file);
        assert_eq!(text, WRITTEN.trim_end());
        let value: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(design_file(&value), Ok(file));
        // A key no longer written still reads; one merge key chosen writes.
        let mut keyed = design();
        if let Some(node) = keyed.graph.nodes.get_mut(&NodeId(2)) {
            node.config = NodeConfig::Write {
                table: "silver.orders".to_string(),
                mode: WriteChoice::Merge {
                    key: Some(MergeKey::RowId),
                },
            };
        }
        assert!(write_design_file(&keyed).contains("\"Merge\": {\n"));
        assert!(write_design_file(&keyed).contains("\"key\": \"RowId\""));
    }
}
