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

/// What has the keyboard: nothing special, a control whose arrow keys mean
/// something (a radio, a select, a checkbox), or one whose paging keys do
/// too (text entry, a slider).
#[derive(PartialEq)]
enum Focus {
    Page,
    Control,
    Entry,
}

fn focus_of(ev: &leptos::ev::KeyboardEvent) -> Focus {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return Focus::Page;
    };
    match el.tag_name().as_str() {
        "TEXTAREA" => Focus::Entry,
        "SELECT" => Focus::Control,
        "INPUT" => match el.get_attribute("type").as_deref() {
            Some("radio" | "checkbox" | "button" | "submit" | "file") => Focus::Control,
            _ => Focus::Entry,
        },
        _ => Focus::Page,
    }
}

/// Calls `step(1)` for → and PageDown, `step(-1)` for ← and PageUp, while
/// `present()` holds; removed with the page. A clicker sends PageUp and
/// PageDown, which step the page unless a text field or slider has focus;
/// arrows step it unless any form control does (there they move the radio,
/// the slider, the select, as they always do).
pub fn on_clicker(present: impl Fn() -> bool + 'static, step: impl Fn(i32) + 'static) {
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        // A key the page already used (a canvas node moved by an arrow) is
        // not a step, nor one with a modifier (Alt+← is the browser's Back).
        if !present() || ev.default_prevented() || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
            return;
        }
        let (by, paging) = match ev.key().as_str() {
            "PageDown" => (1, true),
            "PageUp" => (-1, true),
            "ArrowRight" => (1, false),
            "ArrowLeft" => (-1, false),
            _ => return,
        };
        let focus = focus_of(&ev);
        if focus == Focus::Entry || (!paging && focus == Focus::Control) {
            return;
        }
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
    // From the heading last stepped to when it still has focus (near the
    // page's end it cannot reach the top); else from what is on show.
    let focused = document.active_element();
    let at = heads.iter().position(|(_, h)| {
        focused
            .as_ref()
            .is_some_and(|f| f == h.unchecked_ref::<web_sys::Element>())
    });
    let target = match at {
        Some(i) if by > 0 => heads.get(i.saturating_add(1)),
        Some(i) => i.checked_sub(1).and_then(|j| heads.get(j)),
        None if by > 0 => heads.iter().find(|(top, _)| *top > 8.0),
        None => heads.iter().rev().find(|(top, _)| *top < -8.0),
    };
    if let Some((_, head)) = target {
        bring(head);
    }
}

/// Brings the heading with `id` to the top and focuses it.
pub fn bring_heading(id: &str) {
    if let Some(head) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        bring(&head);
    }
}

fn bring(head: &web_sys::HtmlElement) {
    let _ = head.set_attribute("tabindex", "-1");
    let _ = head.focus();
    head.scroll_into_view();
}

/// Where a page's presenter link comes from when the page itself cannot
/// build it: a scenario's canvas writes its share link here, so the link on
/// show carries the student's design.
#[derive(Clone, Copy)]
pub struct PresenterLink(pub RwSignal<String>);
