//! Presenter mode's shared parts: the toggle, a link to the exact state on
//! the screen (for the next class, or a student's own laptop), and a
//! clicker's keys. A clicker sends arrows and PageUp/PageDown; they step
//! the page wherever the focus is, except while typing in a field.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use super::copy::CopyButton;

/// The toggle, and while presenting a button that copies `link`.
#[component]
pub fn PresenterToggle(
    #[prop(into)] present: Signal<bool>,
    on_toggle: Callback<()>,
    #[prop(into)] link: Signal<String>,
) -> impl IntoView {
    view! {
        <div class="presenter-bar">
            <button
                type="button"
                aria-pressed=move || if present.get() { "true" } else { "false" }
                on:click=move |_| on_toggle.run(())
            >
                "Presenter mode"
            </button>
            <Show when=move || present.get()>
                <CopyButton text=link what="The link to this state".to_string() label="Copy link to this state" />
            </Show>
        </div>
    }
}

/// The address on show, updated as the page rewrites its query.
pub fn this_address() -> Signal<String> {
    let query = super::route::use_query();
    let path = super::route::use_path();
    Signal::derive(move || {
        query.track();
        path.track();
        web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    })
}

/// Calls `step(1)` for → and PageDown, `step(-1)` for ← and PageUp, while
/// `present()` holds; removed with the page.
pub fn on_clicker(present: impl Fn() -> bool + 'static, step: impl Fn(i32) + 'static) {
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        // A key the page already used (a canvas node moved by an arrow) is not a step.
        if !present() || ev.default_prevented() || super::widgets::typing_in_a_field(&ev) {
            return;
        }
        let by = match ev.key().as_str() {
            "ArrowRight" | "PageDown" => 1,
            "ArrowLeft" | "PageUp" => -1,
            _ => return,
        };
        ev.prevent_default();
        step(by);
    });
    on_cleanup(move || keys.remove());
}

/// For pages whose steps are their sections (the backfill lab, a
/// scenario): brings the next (or previous) visible `h2` to the top and
/// focuses it, so a screen reader follows the room.
pub fn step_section(by: i32) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(found) = document.query_selector_all(".presenter h2") else {
        return;
    };
    let heads: Vec<(f64, web_sys::HtmlElement)> = (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|h| (h.get_bounding_client_rect(), h))
        .filter(|(r, _)| r.height() > 0.0)
        .map(|(r, h)| (r.top(), h))
        .collect();
    // A heading within a few pixels of the top is the one on show.
    let target = if by > 0 {
        heads.iter().find(|(top, _)| *top > 8.0)
    } else {
        heads.iter().rev().find(|(top, _)| *top < -8.0)
    };
    if let Some((_, head)) = target {
        let _ = head.set_attribute("tabindex", "-1");
        let _ = head.focus();
        head.scroll_into_view();
    }
}

/// Where a page's presenter link comes from when the page itself cannot
/// build it: a scenario's canvas writes its share link here, so the link on
/// show carries the student's design.
#[derive(Clone, Copy)]
pub struct PresenterLink(pub RwSignal<String>);
