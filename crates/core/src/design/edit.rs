//! Edit commands and the one function that applies them; undo and redo
//! keep whole graphs, which are small.

use thiserror::Error;

use super::graph::{Edge, Graph, Node, NodeConfig, NodeId, NodeKind};
use super::limits::{self, CANVAS, MAX_EDGES, MAX_NODES};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A node with every choice made (a sample, a test, a layout).
    Add {
        config: NodeConfig,
        x: i32,
        y: i32,
    },
    /// A node from the palette, its graded choices still to make
    /// (`design::choose::placed`).
    Place {
        config: NodeConfig,
        unchosen: Vec<&'static str>,
        x: i32,
        y: i32,
    },
    Move {
        id: NodeId,
        x: i32,
        y: i32,
    },
    Connect {
        from: NodeId,
        to: NodeId,
    },
    Disconnect {
        from: NodeId,
        to: NodeId,
    },
    /// A whole configuration: every field of it counts as chosen.
    Configure {
        id: NodeId,
        config: NodeConfig,
    },
    /// The inspector's field `key` set, giving `config` (`form::set`).
    Choose {
        id: NodeId,
        key: &'static str,
        config: NodeConfig,
    },
    Delete {
        id: NodeId,
    },
}

/// Why an edit was refused, in words a student can act on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EditError {
    #[error("there is no node {0:?} any more")]
    NoSuchNode(NodeId),
    #[error("those two nodes are not connected")]
    NoSuchEdge,
    #[error("a {} cannot feed a {}", .from.name(), .to.name())]
    CannotConnect { from: NodeKind, to: NodeKind },
    #[error("a node cannot feed itself")]
    SelfLoop,
    #[error("those two nodes are already connected")]
    AlreadyConnected,
    #[error("a {} node cannot take the settings of a {}", .node.name(), .given.name())]
    WrongSettings { node: NodeKind, given: NodeKind },
    #[error("the scenario gives this node; it cannot be changed or deleted")]
    Fixed,
    #[error("the scenario gives the bronze source; add the other parts from the palette")]
    SourceFromPalette,
    #[error("a design holds at most {MAX_NODES} nodes: delete one before adding another")]
    TooManyNodes,
    #[error("a design holds at most {MAX_EDGES} connections: remove one before adding another")]
    TooManyEdges,
    #[error("this design has used up its node ids: download it and start again to add more")]
    OutOfIds,
    /// A setting outside what the inspector offers, in its words.
    #[error("{0}")]
    OutOfLimits(String),
}

/// `graph` after `edit`, or why not.
pub fn apply(graph: &Graph, edit: &Edit) -> Result<Graph, EditError> {
    let mut next = graph.clone();
    match edit {
        Edit::Add { config, x, y } => add(&mut next, config, Vec::new(), *x, *y)?,
        Edit::Place {
            config,
            unchosen,
            x,
            y,
        } => {
            let known: Vec<&str> = crate::design::inspector::form::fields(config)
                .into_iter()
                .map(|f| f.key)
                .collect();
            if let Some(odd) = unchosen.iter().find(|k| !known.contains(k)) {
                return Err(EditError::OutOfLimits(format!(
                    "This node has no setting “{odd}”."
                )));
            }
            add(&mut next, config, unchosen.clone(), *x, *y)?
        }
        Edit::Move { id, x, y } => {
            let node = next.nodes.get_mut(id).ok_or(EditError::NoSuchNode(*id))?;
            node.x = (*x).clamp(0, CANVAS);
            node.y = (*y).clamp(0, CANVAS);
        }
        Edit::Connect { from, to } => {
            let from_kind = graph
                .node(*from)
                .ok_or(EditError::NoSuchNode(*from))?
                .kind();
            let to_kind = graph.node(*to).ok_or(EditError::NoSuchNode(*to))?.kind();
            if from == to {
                return Err(EditError::SelfLoop);
            }
            if !from_kind.feeds(to_kind) {
                return Err(EditError::CannotConnect {
                    from: from_kind,
                    to: to_kind,
                });
            }
            if graph.edges.len() >= MAX_EDGES {
                return Err(EditError::TooManyEdges);
            }
            if !next.edges.insert(Edge {
                from: *from,
                to: *to,
            }) {
                return Err(EditError::AlreadyConnected);
            }
        }
        Edit::Disconnect { from, to } => {
            if !next.edges.remove(&Edge {
                from: *from,
                to: *to,
            }) {
                return Err(EditError::NoSuchEdge);
            }
        }
        Edit::Configure { id, config } => {
            let node = configurable(&mut next, *id, config)?;
            node.config = config.clone();
            node.unchosen.clear();
        }
        Edit::Choose { id, key, config } => {
            let node = configurable(&mut next, *id, config)?;
            node.unchosen = super::choose::after_choosing(node, key, config);
            node.config = config.clone();
        }
        Edit::Delete { id } => {
            let node = next.nodes.get(id).ok_or(EditError::NoSuchNode(*id))?;
            if node.fixed {
                return Err(EditError::Fixed);
            }
            next.nodes.remove(id);
            next.edges.retain(|e| e.from != *id && e.to != *id);
        }
    }
    Ok(next)
}

/// Node `id` of `graph`, if it may take `config`.
fn configurable<'g>(
    graph: &'g mut Graph,
    id: NodeId,
    config: &NodeConfig,
) -> Result<&'g mut Node, EditError> {
    let node = graph.nodes.get_mut(&id).ok_or(EditError::NoSuchNode(id))?;
    if node.fixed {
        return Err(EditError::Fixed);
    }
    if node.kind() != config.kind() {
        return Err(EditError::WrongSettings {
            node: node.kind(),
            given: config.kind(),
        });
    }
    limits::check_config(config).map_err(EditError::OutOfLimits)?;
    Ok(node)
}

/// `graph` with a new node of `config`, `unchosen` still to choose.
fn add(
    graph: &mut Graph,
    config: &NodeConfig,
    unchosen: Vec<&'static str>,
    x: i32,
    y: i32,
) -> Result<(), EditError> {
    if config.kind() == NodeKind::Source {
        return Err(EditError::SourceFromPalette);
    }
    if graph.nodes.len() >= MAX_NODES {
        return Err(EditError::TooManyNodes);
    }
    limits::check_config(config).map_err(EditError::OutOfLimits)?;
    let id = graph.fresh_id().ok_or(EditError::OutOfIds)?;
    graph.nodes.insert(
        id,
        Node {
            id,
            x: x.clamp(0, CANVAS),
            y: y.clamp(0, CANVAS),
            config: config.clone(),
            fixed: false,
            unchosen,
        },
    );
    Ok(())
}

/// The design with its undo and redo stacks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub current: Graph,
    past: Vec<Graph>,
    future: Vec<Graph>,
}

/// Undo steps kept.
const DEPTH: usize = 200;

impl History {
    pub fn new(graph: Graph) -> Self {
        Self {
            current: graph,
            past: Vec::new(),
            future: Vec::new(),
        }
    }

    /// Applies `edit`; a refused edit changes nothing.
    pub fn edit(&mut self, edit: &Edit) -> Result<(), EditError> {
        let next = apply(&self.current, edit)?;
        self.past.push(std::mem::replace(&mut self.current, next));
        if self.past.len() > DEPTH {
            self.past.remove(0);
        }
        self.future.clear();
        Ok(())
    }

    /// Swaps in a whole design (an import, a link) as one step that undo
    /// takes back, so nothing is overwritten without a way back.
    pub fn replace(&mut self, graph: Graph) {
        self.past.push(std::mem::replace(&mut self.current, graph));
        if self.past.len() > DEPTH {
            self.past.remove(0);
        }
        self.future.clear();
    }

    pub fn undo(&mut self) -> bool {
        match self.past.pop() {
            Some(previous) => {
                self.future
                    .push(std::mem::replace(&mut self.current, previous));
                true
            }
            None => false,
        }
    }

    pub fn redo(&mut self) -> bool {
        match self.future.pop() {
            Some(next) => {
                self.past.push(std::mem::replace(&mut self.current, next));
                true
            }
            None => false,
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }
}
