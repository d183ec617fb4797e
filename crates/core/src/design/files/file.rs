//! Designs as files: a versioned JSON document, and an importer that
//! trusts nothing it reads (it may be hand-edited, truncated or hostile).
//!
//! Schema, version 1:
//! `{"format": "partition-lab-design", "version": 1, "scenario": <1..5 or null>,
//!   "graph": {"nodes": {"<id>": {"id", "x", "y", "config", "fixed", "unchosen"?}}, "edges": [{"from", "to"}], "next_id"}}`
//! where `config` is one of the node configurations of `design::graph` and
//! the optional `unchosen` lists the node's settings not chosen yet (by
//! their inspector keys). It came later and is additive: a file without it
//! has every choice made, as it was saved.

use thiserror::Error;

use crate::design::graph::{Graph, NodeConfig, NodeKind};
pub use crate::design::limits::MAX_NODES;
use crate::design::limits::{check_config, check_size, on_canvas};

pub const FORMAT: &str = "partition-lab-design";
pub const VERSION: u32 = 1;
/// Larger files are refused before parsing. The largest design the editor
/// allows (every node and connection it can hold) exports well below it.
pub const MAX_BYTES: usize = 256 * 1024;

pub use crate::design::files::json::DesignFile;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImportError {
    #[error("the file is {0} KB; designs are at most 256 KB")]
    TooLarge(usize),
    #[error("this is not a Partition Lab design: {0}")]
    NotADesign(String),
    #[error("this design was saved by a newer version of Partition Lab (format {0}); this one reads format 1")]
    NewerVersion(u32),
    #[error("the design has {0} nodes; at most 200 are allowed")]
    TooManyNodes(usize),
    #[error("the design is damaged: {0}")]
    Damaged(String),
}

pub fn export(graph: &Graph, scenario: Option<u8>) -> String {
    let file = DesignFile {
        format: FORMAT.to_string(),
        version: VERSION,
        scenario,
        graph: graph.clone(),
    };
    crate::design::files::json::write_design_file(&file)
}

/// Reads a design file, checking everything the edit commands would have guaranteed.
pub fn import(text: &str) -> Result<DesignFile, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooLarge(text.len() / 1024));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ImportError::NotADesign(short(&e.to_string())))?;
    import_value(&value)
}

/// The importer's rules over a design already parsed as JSON (one entry of
/// a work file); `import` adds the size limit and the parsing.
pub fn import_value(value: &serde_json::Value) -> Result<DesignFile, ImportError> {
    let file = crate::design::files::json::design_file(value)
        .map_err(|e| ImportError::NotADesign(short(&e)))?;
    if file.format != FORMAT {
        return Err(ImportError::NotADesign(format!(
            "its format is “{}”",
            short(&file.format)
        )));
    }
    if file.version > VERSION {
        return Err(ImportError::NewerVersion(file.version));
    }
    // No release ever wrote another format: anything else was edited by hand.
    if file.version != VERSION {
        return Err(ImportError::NotADesign(format!(
            "its format version is {}; Partition Lab writes version 1",
            file.version
        )));
    }
    let graph = &file.graph;
    if graph.nodes.len() > MAX_NODES {
        return Err(ImportError::TooManyNodes(graph.nodes.len()));
    }
    let damaged = |what: String| Err(ImportError::Damaged(what));
    if let Err(what) = check_size(graph) {
        return damaged(what);
    }
    for (id, node) in &graph.nodes {
        if *id != node.id {
            return damaged(format!("node {} is filed under {}", node.id.0, id.0));
        }
        if node.id.0 >= graph.next_id {
            return damaged(format!(
                "node {} has an id that was never handed out",
                node.id.0
            ));
        }
        if !on_canvas(node.x, node.y) {
            return damaged(format!("node {} is off the canvas", node.id.0));
        }
        // Exactly what the inspector accepts, through the inspector's own check.
        if let Err(why) = check_config(&node.config) {
            return damaged(format!(
                "node {} has a setting the editor cannot make ({})",
                node.id.0,
                short(why.trim_end_matches('.'))
            ));
        }
        if node.kind() == NodeKind::Source && !node.fixed {
            return damaged("a bronze source that the scenario did not give".to_string());
        }
        if node.fixed && node.kind() != NodeKind::Source {
            return damaged(format!(
                "node {} is marked as given by the scenario, but scenarios give only the bronze source",
                node.id.0
            ));
        }
    }
    if graph
        .nodes
        .values()
        .filter(|n| n.kind() == NodeKind::Source)
        .count()
        != 1
    {
        return damaged("a design has exactly one bronze source".to_string());
    }
    for edge in &graph.edges {
        match (graph.node(edge.from), graph.node(edge.to)) {
            (Some(from), Some(to)) if edge.from != edge.to && from.kind().feeds(to.kind()) => {}
            _ => {
                return damaged(format!(
                    "an impossible connection from node {} to node {}",
                    edge.from.0, edge.to.0
                ))
            }
        }
    }
    Ok(file)
}

/// A design read for one scenario's canvas: an imported file, a share
/// link or the browser's saved copy must be that scenario's, with its
/// bronze source.
pub fn for_scenario(file: DesignFile, scenario: u8, source: &str) -> Result<Graph, String> {
    if let Some(other) = file.scenario.filter(|n| *n != scenario) {
        return Err(format!(
            "this design was made for scenario {other}; open scenario {other} to use it"
        ));
    }
    let given = file
        .graph
        .of_kind(NodeKind::Source)
        .find_map(|n| match &n.config {
            NodeConfig::Source { table } => Some(table.clone()),
            _ => None,
        });
    match given {
        Some(table) if table == source => Ok(file.graph),
        Some(table) => Err(format!(
            "its bronze source is {}, but this scenario's is {source}",
            short(&table)
        )),
        None => Err("it has no bronze source".to_string()),
    }
}

/// What the browser had saved for a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Nothing saved yet: start from the scenario's canvas.
    Nothing,
    Design(Graph),
    /// Saved text that no longer reads as a design; kept for the student.
    Damaged {
        text: String,
        reason: String,
    },
}

/// Reads the saved copy of `scenario`'s design.
pub fn read_stored(text: Option<String>, scenario: u8, source: &str) -> Stored {
    let Some(text) = text else {
        return Stored::Nothing;
    };
    match import(&text)
        .map_err(|e| e.to_string())
        .and_then(|file| for_scenario(file, scenario, source))
    {
        Ok(graph) => Stored::Design(graph),
        Err(reason) => Stored::Damaged { text, reason },
    }
}

fn short(text: &str) -> String {
    let mut s: String = text.chars().take(120).collect();
    if text.chars().count() > 120 {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Edit, History, NodeId};

    fn sample() -> Graph {
        let mut h = History::new(Graph::with_source("bronze.clicks"));
        for kind in [
            NodeKind::State,
            NodeKind::Transform,
            NodeKind::Write,
            NodeKind::Finaliser,
        ] {
            h.edit(&Edit::Add {
                config: NodeConfig::default_for(kind),
                x: 10,
                y: 20,
            })
            .expect("add");
        }
        for (from, to) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            h.edit(&Edit::Connect {
                from: NodeId(from),
                to: NodeId(to),
            })
            .expect("connect");
        }
        h.current
    }

    #[test]
    fn stored_designs_are_read_for_their_own_scenario_only() {
        let text = export(&sample(), Some(1));
        assert_eq!(read_stored(None, 1, "bronze.clicks"), Stored::Nothing);
        assert_eq!(
            read_stored(Some(text.clone()), 1, "bronze.clicks"),
            Stored::Design(sample())
        );
        for (scenario, source) in [(2, "bronze.clicks"), (1, "bronze.orders")] {
            assert!(matches!(
                read_stored(Some(text.clone()), scenario, source),
                Stored::Damaged { .. }
            ));
        }
        let cut = text[..text.len() / 2].to_string();
        match read_stored(Some(cut.clone()), 1, "bronze.clicks") {
            Stored::Damaged { text, reason } => {
                assert_eq!(text, cut, "the broken text is kept whole");
                assert!(!reason.is_empty());
            }
            other => panic!("a cut file read as {other:?}"),
        }
    }

    #[test]
    fn a_design_round_trips_through_its_file() {
        let graph = sample();
        let file = import(&export(&graph, Some(3))).expect("own export imports");
        assert_eq!(file.graph, graph);
        assert_eq!(file.scenario, Some(3));
    }

    #[test]
    fn damaged_and_foreign_files_are_refused_with_a_reason() {
        let good = export(&sample(), None);
        assert!(matches!(import("{}"), Err(ImportError::NotADesign(_))));
        assert!(matches!(
            import("not json"),
            Err(ImportError::NotADesign(_))
        ));
        assert!(matches!(
            import(&good.replace("\"version\": 1", "\"version\": 9")),
            Err(ImportError::NewerVersion(9))
        ));
        assert!(matches!(
            import(&good.replace("\"version\": 1", "\"version\": 0")),
            Err(ImportError::NotADesign(_))
        ));
        assert!(matches!(
            import(&good.replace(FORMAT, "something-else")),
            Err(ImportError::NotADesign(_))
        ));
        assert!(matches!(
            import(&" ".repeat(MAX_BYTES + 1)),
            Err(ImportError::TooLarge(_))
        ));
        let dangling = good.replace("\"to\": 4", "\"to\": 99");
        assert!(
            matches!(import(&dangling), Err(ImportError::Damaged(_))),
            "{dangling}"
        );
        let off_canvas = good.replacen("\"x\": 10", "\"x\": 999999", 1);
        assert!(matches!(import(&off_canvas), Err(ImportError::Damaged(_))));
    }
}
