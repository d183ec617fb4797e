//! The canvas's place on a scenario page. The canvas (the palette, the
//! board or the steps, the settings, the problems, the check, the files
//! and the exports) lies below the first screen on a phone and on a wide
//! screen alike: the story, the numbers and the requirements come first.
//! So it is a chunk of the scenarios part's wasm of its own
//! (`ui::later`), fetched as soon as the page is live; until it has come
//! its place says so, and a design saved or shared waits untouched in
//! storage and in the address.

use leptos::prelude::*;

use crate::scenarios::Scenario;
use crate::ui::later::{Fetch, KeptFocus, Later};
use crate::variant::Variant;

/// What the chunk holds: the canvas, drawn for one scenario in one variant.
pub struct Designing {
    pub canvas: fn(&'static Scenario, Variant) -> AnyView,
}

fn canvas(scenario: &'static Scenario, variant: Variant) -> AnyView {
    view! { <super::Canvas scenario=scenario variant=variant /> }.into_any()
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

/// The id of the heading "Your design": the canvas draws it, and its
/// place while it waits.
pub const TITLE: &str = "designer-title";

/// What the page says where the canvas goes while it downloads.
pub const FETCHING: &str = "Fetching the design canvas…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The design canvas could not be fetched: check the connection, then try again. Your design is kept, in this browser or in your link.";

/// Where the canvas goes: it, once it has come.
#[component]
pub fn CanvasPlace(scenario: &'static Scenario, variant: Variant) -> impl IntoView {
    let fetch = Fetch::new(&LATER);
    fetch.drawn_or_start(AT_ONCE);
    let kept = KeptFocus::new(
        Signal::derive(move || fetch.ready.get().is_some()),
        &[TITLE],
    );
    view! {
        <div class="canvas-place" aria-busy=move || fetch.fetching.get().then_some("true")>
            <Show when=move || fetch.ready.get().is_none()>
                <section
                    class="designer designer-waiting"
                    aria-labelledby=TITLE
                    on:focusin=move |_| kept.entered()
                    on:focusout=move |ev| kept.left(ev)
                >
                    <h2 id=TITLE>"Your design"</h2>
                    {fetch.status(FETCHING, NOT_FETCHED)}
                </section>
            </Show>
            {move || fetch.ready.get().map(|it| (it.canvas)(scenario, variant))}
        </div>
    }
}
