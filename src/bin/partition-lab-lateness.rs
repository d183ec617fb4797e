//! The lateness lab's part of the site (see `partition_lab::bundles`): the
//! page a first visit most often opens, so it loads nothing else.

use partition_lab::ui::lateness::charts::{self, Charts, CHARTS};
use partition_lab::ui::lateness::shelf::{self, Shelf, SHELF};
use partition_lab::ui::lateness::your_data::{self, Reader, READER};
use partition_lab::ui::later::Unfetched;

// Each function below is a chunk of this part's wasm of its own, fetched
// after the page is live or on first use (`ui::later`);
// scripts/split/wasm-bindgen cuts them out.

/// The month's charts, below the first screen.
#[leptos::wasm_split::wasm_split(charts, wasm_split_path = ::leptos::wasm_split, fallible)]
fn charts() -> Result<&'static Charts, Unfetched> {
    Ok(&CHARTS)
}

/// The reader of a user's own log.
#[leptos::wasm_split::wasm_split(reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reader() -> Result<&'static Reader, Unfetched> {
    Ok(&READER)
}

/// The practitioner's shelf of a generated month.
#[leptos::wasm_split::wasm_split(shelf, wasm_split_path = ::leptos::wasm_split, fallible)]
fn shelf() -> Result<&'static Shelf, Unfetched> {
    Ok(&SHELF)
}

fn main() {
    charts::LATER.set(|| Box::pin(charts()));
    your_data::LATER.set(|| Box::pin(reader()));
    shelf::LATER.set(|| Box::pin(shelf()));
    partition_lab::ui::start_first_screen_first(partition_lab::ui::LatenessApp);
}
