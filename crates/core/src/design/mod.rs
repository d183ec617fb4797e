//! The pipeline canvas's design model, pure: a graph of configured nodes
//! with stable ids, edit commands applied by one function (so mouse,
//! keyboard and undo/redo share a path), structural validation in a
//! student's words, and compilation to the engine's configuration.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub mod choose;
pub mod compile;
pub mod describe;
pub mod edit;
pub mod file;
pub mod form;
pub mod graph;
mod json;
pub mod layout;
pub mod limits;
pub mod link;
pub mod saves;
pub mod validate;
pub mod viewport;
pub mod words;

pub use compile::{compile, CompiledDesign};
pub use edit::{apply, Edit, EditError, History};
pub use graph::{Graph, Node, NodeConfig, NodeId, NodeKind};
pub use validate::{validate, Problem};
