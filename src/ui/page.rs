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
    if super::browser::in_browser() {
        document().set_title(&title);
    }
    TITLE.with(|t| *t.borrow_mut() = title);
}

thread_local! {
    // The last title set: a page drawn ahead of time writes it as its <title>.
    static TITLE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Forgets the title set before, so a page that sets none is not given
/// the last page's.
pub fn forget_title() {
    TITLE.with(|t| t.borrow_mut().clear());
}

/// The title the page being drawn set.
pub fn title() -> String {
    TITLE.with(|t| t.borrow().clone())
}
