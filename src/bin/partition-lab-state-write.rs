//! The State x Write lab's part of the site (see `partition_lab::bundles`):
//! the chapter's way in, so it loads no other lab.

use partition_lab::ui::later::Unfetched;
use partition_lab::ui::state_write::cell::{self, Cells, CELLS};
use partition_lab::ui::state_write::code::{self, Code, CODE};
use partition_lab::ui::state_write::controls::{self, Settings, SETTINGS};
use partition_lab::ui::state_write::room_view::{self, RoomView, ROOM_VIEW};
use partition_lab::ui::state_write::verdicts::{self, Verdicts, VERDICTS};

// Each function below is a chunk of this part's wasm of its own, fetched
// after the page is live or on first use (`ui::later`);
// scripts/split/wasm-bindgen cuts them out.

/// Each pipeline's equivalent code and runnable project.
#[leptos::wasm_split::wasm_split(code, wasm_split_path = ::leptos::wasm_split, fallible)]
fn code() -> Result<&'static Code, Unfetched> {
    Ok(&CODE)
}

/// The engine and the six pipelines' panels, below the first screen.
#[leptos::wasm_split::wasm_split(cells, wasm_split_path = ::leptos::wasm_split, fallible)]
fn cells() -> Result<&'static Cells, Unfetched> {
    Ok(&CELLS)
}

/// The verdicts, shown after the prediction.
#[leptos::wasm_split::wasm_split(verdicts, wasm_split_path = ::leptos::wasm_split, fallible)]
fn verdicts() -> Result<&'static Verdicts, Unfetched> {
    Ok(&VERDICTS)
}

/// The settings' radio groups, folded below the week.
#[leptos::wasm_split::wasm_split(settings, wasm_split_path = ::leptos::wasm_split, fallible)]
fn settings() -> Result<&'static Settings, Unfetched> {
    Ok(&SETTINGS)
}

/// Presenter mode's room view.
#[leptos::wasm_split::wasm_split(room_view, wasm_split_path = ::leptos::wasm_split, fallible)]
fn room_view() -> Result<&'static RoomView, Unfetched> {
    Ok(&ROOM_VIEW)
}

fn main() {
    cell::LATER.set(|| Box::pin(cells()));
    room_view::LATER.set(|| Box::pin(room_view()));
    controls::LATER.set(|| Box::pin(settings()));
    verdicts::LATER.set(|| Box::pin(verdicts()));
    code::LATER.set(|| Box::pin(code()));
    partition_lab::ui::start_first_screen_first(partition_lab::ui::StateWriteApp);
}
