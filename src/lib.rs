//! Partition Lab: a browser lab for incremental processing and backfills.
//!
//! The web app, on top of the layers below it (each a crate of its own:
//! `crates/`): `engine` is the pure simulation; `labs` turns each lab's
//! controls into engine inputs; `design`, `scenarios` and `export` are the
//! canvas, the grader and the bridge to real tools; `ui` renders.

// The ssr renderer's async view types nest deeper than the default allows.
#![cfg_attr(feature = "prerender", recursion_limit = "512")]

pub mod bundles;
#[cfg(feature = "web")]
pub mod ui;

pub use partition_lab_core::{
    address, class, content, counted, design, engine, export, labs, lean, scenarios, tool, tutor,
    variant, vocabulary,
};
