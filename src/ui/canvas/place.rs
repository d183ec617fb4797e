//! The canvas's place on a scenario page. The canvas (the palette, the
//! board or the steps, the settings, the problems, the check, the files
//! and the exports) lies below the first screen on a phone and on a wide
//! screen alike: the story, the numbers and the requirements come first.
//! So it is a chunk of the scenarios part's wasm of its own
//! (`ui::later`), fetched as soon as the page is live; until it has come
//! its place says so, and a design saved or shared waits untouched in
//! storage and in the address.

use std::sync::Arc;

use leptos::prelude::*;

use crate::engine::Script;
use crate::scenarios::Scenario;
use crate::ui::later::{Fetch, Later};
use crate::variant::Variant;

/// What the chunk holds: the canvas, drawn for one scenario in one variant.
pub struct Designing {
    pub canvas: fn(&'static Scenario, Variant, Arc<Script>) -> AnyView,
}

fn canvas(scenario: &'static Scenario, variant: Variant, script: Arc<Script>) -> AnyView {
    view! { <super::Canvas scenario=scenario variant=variant script=script /> }.into_any()
}

/// The canvas: only the scenarios part's `#[lazy]` loader names it
/// (src/bin/partition-lab-scenarios.rs).
pub static DESIGNING: Designing = Designing { canvas };

/// The canvas, in the scenarios part a chunk of its own.
pub static LATER: Later<Designing> = Later::new();

/// Drawn natively (the pages drawn ahead of time, the native tests) the
/// canvas is part of the program: a page drawn ahead shows it.
#[cfg(not(target_arch = "wasm32"))]
const AT_ONCE: Option<&Designing> = Some(&DESIGNING);
#[cfg(target_arch = "wasm32")]
const AT_ONCE: Option<&Designing> = None;

/// What the page says where the canvas goes while it downloads.
pub const FETCHING: &str = "Fetching the design canvas…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The design canvas could not be fetched: check the connection, then try again. Your saved design is kept.";

/// Where the canvas goes: it, once it has come.
#[component]
pub fn CanvasPlace(
    scenario: &'static Scenario,
    variant: Variant,
    script: Arc<Script>,
) -> impl IntoView {
    let fetch = Fetch::new(&LATER);
    match AT_ONCE {
        Some(drawn) => fetch.ready.set(Some(drawn)),
        None => fetch.start(),
    }
    // A reader on "Try again" keeps their place: the button goes when the
    // canvas comes, and the focus moves to its heading, not to the page's
    // top. (Removing a focused element moves the focus without a target.)
    let waited_here = RwSignal::new(false);
    Effect::new(move |_| {
        if fetch.ready.get().is_some() && waited_here.get_untracked() && nothing_focused() {
            focus_heading();
        }
    });
    view! {
        <div class="canvas-place" aria-busy=move || fetch.fetching.get().then_some("true")>
            <Show when=move || fetch.ready.get().is_none()>
                <section
                    class="designer designer-waiting"
                    aria-labelledby="designer-title"
                    on:focusin=move |_| waited_here.set(true)
                    on:focusout=move |ev| {
                        if ev.related_target().is_some() {
                            waited_here.set(false);
                        }
                    }
                >
                    <h2 id="designer-title">"Your design"</h2>
                    {fetch.status(FETCHING, NOT_FETCHED)}
                </section>
            </Show>
            {move || fetch.ready.get().map(|it| (it.canvas)(scenario, variant, script.clone()))}
        </div>
    }
}

fn nothing_focused() -> bool {
    document()
        .active_element()
        .is_none_or(|e| e.tag_name().eq_ignore_ascii_case("body"))
}

fn focus_heading() {
    use wasm_bindgen::JsCast;
    if let Some(head) = document()
        .get_element_by_id("designer-title")
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = head.set_attribute("tabindex", "-1");
        let _ = head.focus();
    }
}
