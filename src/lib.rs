//! Partition Lab: a browser lab for incremental processing and backfills.
//!
//! `engine` is the pure simulation; `labs` turns each lab's controls into
//! engine inputs; `scenarios` and `content` are teaching data; `ui` renders.

pub mod bundles;
pub mod content;
pub mod design;
pub mod engine;
pub mod export;
pub mod labs;
pub mod lean;
pub mod scenarios;
#[cfg(feature = "web")]
pub mod ui;
pub mod vocabulary;
