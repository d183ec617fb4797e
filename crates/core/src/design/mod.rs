//! The pipeline canvas's design model, pure: a graph of configured nodes
//! with stable ids, edit commands applied by one function (so mouse,
//! keyboard and undo/redo share a path), structural validation in a
//! student's words, and compilation to the engine's configuration.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

// The model: the graph, its edits, its checks and its compilation.
pub mod choose;
pub mod compile;
pub mod edit;
pub mod graph;
pub mod limits;
pub mod validate;
// Around it, a room each: its files, links and saves (`files`), the
// canvas's geometry (`geometry`), the inspector's forms and words
// (`inspector`).
pub mod files;
pub mod geometry;
pub mod inspector;

pub use compile::{compile, CompiledDesign};
pub use edit::{apply, Edit, EditError, History};
pub use graph::{Graph, Node, NodeConfig, NodeId, NodeKind};
pub use validate::{validate, Problem};
