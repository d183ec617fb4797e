//! The class page's part of the site (see `partition_lab::bundles`): an
//! instructor's page, so no page a student opens waits for its wasm.

use partition_lab::ui::class::marking::{self, Marking, MARKING};
use partition_lab::ui::later::Unfetched;

// Reading the work handed in, grading it and the results' tables: a chunk
// of this part's wasm of its own, fetched after the page is live or when
// work is handed in (`ui::later`); scripts/split/wasm-bindgen cuts it out.
// `fallible`: a failed download is an `Err` the page says and retries.

#[leptos::wasm_split::wasm_split(marking, wasm_split_path = ::leptos::wasm_split, fallible)]
fn marking() -> Result<&'static Marking, Unfetched> {
    Ok(&MARKING)
}

fn main() {
    marking::LATER.set(|| Box::pin(marking()));
    partition_lab::ui::start(partition_lab::ui::ClassApp);
}
