//! Partition Lab: a browser lab for incremental processing and backfills.
//!
//! `engine` is the pure simulation; `labs` turns each lab's controls into
//! engine inputs and traces into what the lab shows; `ui` renders them.

pub mod engine;
pub mod labs;
pub mod ui;
