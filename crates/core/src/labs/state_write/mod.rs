//! The State x Write lab (SPEC 4): controls, the fixed week, the six
//! pipelines, what each cell shows for a run, and the verdicts' wording.

pub mod explain;
pub mod model;
pub mod predict;
pub mod query;
pub mod room;
pub mod view;

pub use model::{monday, planned_runs, run, run_count, script, Cell, Controls, Down, LateOrder};
pub use predict::Guess;
