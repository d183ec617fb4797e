//! Leptos views. They render what the engine and the lab models compute
//! and keep no pipeline logic of their own.

#[cfg(feature = "prerender")]
pub mod ahead;
pub mod app;
pub mod backfill;
pub mod browser;
pub mod canvas;
pub mod code_file;
pub mod copy;
pub mod dates;
pub mod download;
pub mod drift_lookback;
pub mod drift_table;
pub mod html;
pub mod lateness;
pub mod my_work;
pub mod not_found;
pub mod offline;
pub mod overview;
pub mod page;
pub mod pool_timeline;
pub mod presenter;
pub mod route;
pub mod runners;
pub mod scenarios;
pub mod slices;
pub mod state_write;
pub mod storage;
pub mod teach;
pub mod widgets;

pub use app::{DatesApp, LabsApp, LatenessApp, ScenariosApp};
