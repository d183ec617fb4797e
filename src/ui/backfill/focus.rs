//! Keyboard focus within the backfill lab: the button pressed in step 1
//! disappears with its half of the section, so the reader's focus is
//! handed to what replaced it.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

/// Keyboard focus to `id` once it is drawn: the button pressed
/// disappears with its half of the section.
pub(super) fn focus(id: &'static str) {
    focus_first(vec![id]);
}

/// Keyboard focus to the first of `ids` drawn, once drawn.
pub(super) fn focus_first(ids: Vec<&'static str>) {
    request_animation_frame(move || {
        if let Some(el) = ids.iter().find_map(|id| {
            document()
                .get_element_by_id(id)
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        }) {
            let _ = el.focus();
        }
    })
}
