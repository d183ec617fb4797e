//! The backfill lab's engine: August built (its orders, the nightly runs,
//! the truth), step 1's answer drawn from it, the grid once the ship date
//! is predicted, the runs and the Sunday's figures. A chunk of the
//! backfill part's wasm of its own (`ui::later`): the first screen asks
//! before it answers (SPEC 9), so it reads none of this, and the first
//! load carries no engine. It is fetched a moment after the lab is live,
//! or at once when the ship date is predicted (or a link holds the
//! prediction).

use leptos::prelude::*;

use crate::engine::calendar::Instant;
use crate::labs::backfill::case::Sunday;
use crate::labs::backfill::query::Ran;
use crate::labs::backfill::run::Execution;
use crate::labs::backfill::view::BoxView;
use crate::labs::backfill::{August, Case, Choices};
use crate::labs::tally::Tally;
use crate::ui::later::Later;

/// The run under way, if one is, and the instant it has reached.
pub type UnderWay<'a> = Option<(&'a Execution, Instant)>;

/// What the chunk holds: everything the lab reads the engine's August
/// for, each a function of the case the lab keeps (`Lab::case`).
pub struct Engine {
    /// The August `august` with its Sunday as `sunday`.
    pub case: fn(August, Sunday) -> Case,
    /// Step 1's answer: the verdict, the room's spread, the drift query's
    /// rows and the row counts.
    pub answer: fn(&Case, Vec<String>, Signal<Tally>) -> AnyView,
    /// Each partition as the runs so far (and the one under way) leave it.
    pub grid: fn(&Case, &Choices, &[Execution], UnderWay<'_>) -> Vec<BoxView>,
    /// The runs a link describes, replayed.
    pub replay: fn(&Case, &Choices, &[Ran]) -> Vec<Execution>,
    /// The next run of the plan after `earlier`, to its end.
    pub execute: fn(&Case, &Choices, &[Execution]) -> Execution,
    /// The Sunday's note with the day's figures.
    pub sunday_note: fn(&Case, &Choices) -> String,
}

/// The engine itself: only the backfill part's `#[lazy]` loader names it
/// (src/bin/partition-lab-backfill.rs).
pub static ENGINE: Engine = Engine {
    case: Case::in_august,
    answer: super::answer::view,
    grid: crate::labs::backfill::view::grid,
    replay: crate::labs::backfill::session::replay,
    execute: next_run,
    sunday_note: Case::sunday_note,
};

/// The engine, in the backfill part a chunk of its own.
pub static LATER: Later<Engine> = Later::new();

/// What step 1 says when the answer is asked for before the engine has
/// come.
pub const FETCHING: &str = "Running the drift query: fetching the lab's engine…";
/// What it says when the engine could not be fetched.
pub const NOT_FETCHED: &str =
    "The lab's engine could not be fetched, so the drift query has not run: check the connection, then try again.";

fn next_run(case: &Case, choices: &Choices, earlier: &[Execution]) -> Execution {
    let start = crate::labs::backfill::session::next_start(earlier);
    case.execute(choices, earlier, start, None)
}

/// Why a run cannot start yet because of the engine, if it cannot.
pub fn run_waits(ready: bool, failed: bool) -> Option<&'static str> {
    match (ready, failed) {
        (true, _) => None,
        (false, false) => Some("The run starts once the lab's engine has come: fetching it now."),
        (false, true) => {
            Some("The lab's engine could not be fetched: try again in step 1, then run.")
        }
    }
}
