//! The scenarios part of the site (see `partition_lab::bundles`): the list,
//! each scenario's canvas and its grader.

use partition_lab::ui::canvas::code::{self, Exporters, EXPORTERS};
use partition_lab::ui::canvas::grader::{self, Grader, GRADER};
use partition_lab::ui::canvas::place::{self, Designing, DESIGNING};
use partition_lab::ui::later::Unfetched;
use partition_lab::ui::my_work::{self, Restoring, RESTORING};

// Each function below is a chunk of this part's wasm of its own, fetched
// after the page is live or on first use (`ui::later`);
// scripts/split/wasm-bindgen cuts them out. `fallible`: a failed download
// is an `Err` the page says and retries, not an abort of the whole app.

/// The canvas, below the first screen: fetched as soon as the page is live.
#[leptos::wasm_split::wasm_split(canvas, wasm_split_path = ::leptos::wasm_split, fallible)]
fn canvas() -> Result<&'static Designing, Unfetched> {
    Ok(&DESIGNING)
}

/// The list's "Take your work with you", below its first screen.
#[leptos::wasm_split::wasm_split(my_work, wasm_split_path = ::leptos::wasm_split, fallible)]
fn my_work() -> Result<&'static Restoring, Unfetched> {
    Ok(&RESTORING)
}

#[leptos::wasm_split::wasm_split(grader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn grader() -> Result<&'static Grader, Unfetched> {
    Ok(&GRADER)
}

#[leptos::wasm_split::wasm_split(exporters, wasm_split_path = ::leptos::wasm_split, fallible)]
fn exporters() -> Result<&'static Exporters, Unfetched> {
    Ok(&EXPORTERS)
}

fn main() {
    place::LATER.set(|| Box::pin(canvas()));
    my_work::LATER.set(|| Box::pin(my_work()));
    grader::LATER.set(|| Box::pin(grader()));
    code::LATER.set(|| Box::pin(exporters()));
    partition_lab::ui::scenarios::fetch_first_chunk();
    partition_lab::ui::start_first_screen_first(partition_lab::ui::ScenariosApp);
}
