//! The backfill lab's part of the site (see `partition_lab::bundles`): the
//! currency bug, its plan and the plan's commands.

use partition_lab::ui::backfill::engine::{self, Engine, ENGINE};
use partition_lab::ui::backfill::outcome::{self, Outcome, OUTCOME};
use partition_lab::ui::backfill::shelf::{self, Shelf, SHELF};
use partition_lab::ui::later::Unfetched;

// Each function below is a chunk of this part's wasm of its own, fetched
// after the page is live or on first use (`ui::later`);
// scripts/split/wasm-bindgen cuts them out.

/// The practitioner's shelf (each tool's commands, the runnable project).
#[leptos::wasm_split::wasm_split(shelf, wasm_split_path = ::leptos::wasm_split, fallible)]
fn shelf() -> Result<&'static Shelf, Unfetched> {
    Ok(&SHELF)
}

/// The engine's August and all the lab reads from it: asked for by the
/// prediction.
#[leptos::wasm_split::wasm_split(engine, wasm_split_path = ::leptos::wasm_split, fallible)]
fn engine() -> Result<&'static Engine, Unfetched> {
    Ok(&ENGINE)
}

/// A run's outcome, drawn once a run has ended.
#[leptos::wasm_split::wasm_split(outcome, wasm_split_path = ::leptos::wasm_split, fallible)]
fn outcome() -> Result<&'static Outcome, Unfetched> {
    Ok(&OUTCOME)
}

fn main() {
    engine::LATER.set(|| Box::pin(engine()));
    outcome::LATER.set(|| Box::pin(outcome()));
    shelf::LATER.set(|| Box::pin(shelf()));
    partition_lab::ui::start_first_screen_first(partition_lab::ui::BackfillApp);
}
