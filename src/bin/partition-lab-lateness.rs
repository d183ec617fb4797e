//! The lateness lab's part of the site (see `partition_lab::bundles`): the
//! page a first visit most often opens, so it loads nothing else.

use partition_lab::ui::lateness::your_data::{self, Reader, READER};
use partition_lab::ui::later::Unfetched;

/// The reader of a user's own log, in a chunk of this part's wasm of its
/// own (`ui::later`; scripts/split/wasm-bindgen cuts it out).
#[leptos::wasm_split::wasm_split(reader, wasm_split_path = ::leptos::wasm_split, fallible)]
fn reader() -> Result<&'static Reader, Unfetched> {
    Ok(&READER)
}

fn main() {
    your_data::LATER.set(|| Box::pin(reader()));
    partition_lab::ui::start(partition_lab::ui::LatenessApp);
}
