//! What every page shares: its document title.

use leptos::prelude::document;

/// Sets the browser tab's title, so screen-reader users hear where a
/// client-side navigation took them.
pub fn set_title(page: &str) {
    let title = if page.is_empty() {
        "Partition Lab".to_string()
    } else {
        format!("{page} · Partition Lab")
    };
    document().set_title(&title);
}
