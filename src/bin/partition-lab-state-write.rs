//! The State x Write lab's part of the site (see `partition_lab::bundles`):
//! the chapter's way in, so it loads no other lab.

use partition_lab::ui::later::Unfetched;
use partition_lab::ui::state_write::code::{self, Code, CODE};
use partition_lab::ui::state_write::verdicts::{self, Verdicts, VERDICTS};

// Each function below is a chunk of this part's wasm of its own, fetched
// after the page is live or on first use (`ui::later`);
// scripts/split/wasm-bindgen cuts them out.

/// Each pipeline's equivalent code and runnable project.
#[leptos::wasm_split::wasm_split(code, wasm_split_path = ::leptos::wasm_split, fallible)]
fn code() -> Result<&'static Code, Unfetched> {
    Ok(&CODE)
}

/// The verdicts, shown after the prediction.
#[leptos::wasm_split::wasm_split(verdicts, wasm_split_path = ::leptos::wasm_split, fallible)]
fn verdicts() -> Result<&'static Verdicts, Unfetched> {
    Ok(&VERDICTS)
}

fn main() {
    verdicts::LATER.set(|| Box::pin(verdicts()));
    code::LATER.set(|| Box::pin(code()));
    partition_lab::ui::start(partition_lab::ui::StateWriteApp);
}
