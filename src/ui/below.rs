//! The part of a page below its first screen, drawn a moment after it.
//!
//! A page starts in one task: the engine's work and every element at
//! once, and the reader's first tap waits for all of it. On a phone most
//! of that is below the screen. A `Below` is drawn in a task of its own
//! once the first screen has been painted, so the first screen answers
//! sooner. Until then it holds what the page drawn ahead of time had in
//! its place (handed over by `browser::take_over`), so nothing blinks on
//! a tall screen either. Drawn natively, and on a page already started
//! (a section drawn again later), it is drawn at once.

use std::cell::Cell;

use leptos::html::Div;
use leptos::prelude::*;

use super::browser::{in_browser, window};

thread_local! {
    /// Whether the page's first screen has been painted: a `Below` made
    /// after that has no reason to wait.
    static STARTED: Cell<bool> = const { Cell::new(false) };
}

/// The attribute naming a below part, in the drawn page and the live one.
pub const NAME: &str = "data-below";

/// Marks the drawn copy's elements, moved into a live below part until it
/// is drawn.
pub const DRAWN: &str = "data-drawn";

/// Its children, drawn once the page's first screen has been painted.
/// `name` pairs it with the same part of the page drawn ahead of time.
#[component]
pub fn Below(name: &'static str, children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(!in_browser() || STARTED.get());
    let place = NodeRef::<Div>::new();
    if !shown.get_untracked() {
        after_first_paint(move || {
            // The drawn copy goes in the same task as the live part comes.
            if let Some(copy) = place
                .get_untracked()
                .and_then(|p| p.query_selector_all(&format!(":scope > [{DRAWN}]")).ok())
            {
                for i in 0..copy.length() {
                    if let Some(node) = copy.item(i) {
                        if let Some(parent) = node.parent_node() {
                            let _ = parent.remove_child(&node);
                        }
                    }
                }
            }
            shown.set(true);
        });
    }
    view! {
        <div class="below" data-below=name node_ref=place>
            {move || shown.get().then(|| children())}
        </div>
    }
}

/// Runs `then` in a task of its own after the next frame is painted (at
/// once in a task of its own when the tab is hidden: it paints nothing).
/// Calls made in order run in that order.
pub fn after_first_paint(then: impl FnOnce() + 'static) {
    let Some(window) = window() else {
        return;
    };
    let later = move || set_timeout(then, std::time::Duration::ZERO);
    let hidden = window
        .document()
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden);
    if hidden {
        later();
    } else {
        request_animation_frame(later);
    }
}

/// The page's `<main>` while its parts below the first screen are still
/// to come: busy (`aria-busy`), for assistive technology and for tests.
fn main_element() -> Option<web_sys::Element> {
    window()?.document()?.query_selector("main").ok()?
}

/// Marks the page as still drawing, just after it is mounted.
pub fn drawing() {
    if let Some(main) = main_element() {
        let _ = main.set_attribute("aria-busy", "true");
    }
}

/// Marks the page's start done: every `Below` made from now on is drawn
/// at once, and the page is no longer busy.
pub fn started() {
    STARTED.set(true);
    if let Some(main) = main_element() {
        let _ = main.remove_attribute("aria-busy");
    }
}
