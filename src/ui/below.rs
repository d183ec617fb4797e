//! The part of a page below its first screen, drawn a moment after it.
//!
//! A page starts in one task: the engine's work and every element at
//! once, and the reader's first tap waits for all of it. On a phone most
//! of that is below the screen. A `Below` is drawn in a task of its own
//! once the first screen has been painted (`ui::start_first_screen_first`),
//! so the first screen answers sooner. Until then it holds what the page
//! drawn ahead of time had in its place (handed over by
//! `browser::Reading::hand_over`), so nothing blinks on a tall screen
//! either (when the live page draws the same state as the drawn one: a
//! link to another state shows the live part a frame later). Drawn
//! natively, and on a page already started (a section drawn again later),
//! it is drawn at once. In a hidden tab (no frames) the parts wait until
//! it is shown. A part whose views come in a later chunk (`after`) keeps
//! the drawn copy until they have come, so the reader sees the drawn
//! chart rather than a line saying it is on its way; a part holding no
//! copy is drawn at once, and says so itself.

use std::cell::RefCell;

use leptos::prelude::*;

use super::browser::{in_browser, window};

thread_local! {
    /// The parts still to draw while the page starts (`wait` to
    /// `draw_rest`); none before or after (a part made then has no first
    /// paint to wait for). One list, so the waiting costs the bundle one
    /// timer, not one per part.
    static WAITING: RefCell<Option<Vec<RwSignal<bool>>>> = const { RefCell::new(None) };
}

/// The attribute naming a below part, in the drawn page and the live one;
/// selectors for any part, and (with its name and `"]`) for one.
pub const NAME: &str = "data-below";
pub const ANY: &str = "[data-below]";
pub const NAMED: &str = "[data-below=\"";

/// Marks the drawn copy's elements, moved into a live below part until it
/// is drawn.
pub const DRAWN: &str = "data-drawn";

/// Its children, drawn once the page's first screen has been painted.
/// `name` pairs it with the same part of the page drawn ahead of time,
/// whose copy goes in the task that draws them: when `after` is given
/// and the place holds a copy, once `after` holds too.
#[component]
pub fn Below(
    name: &'static str,
    /// Whether what the children draw has come (a later chunk's views, or
    /// its failure, which the children say), and the drawn copy still
    /// shows the live page's state.
    #[prop(optional)]
    after: Option<Signal<bool>>,
    children: ChildrenFn,
) -> impl IntoView {
    let painted = RwSignal::new(true);
    if in_browser() {
        WAITING.with_borrow_mut(|waiting| {
            if let Some(waiting) = waiting {
                painted.set(false);
                waiting.push(painted);
            }
        });
    }
    // The copy is looked for once painted: the live page has taken it over
    // (`Reading::hand_over`) by then, and nothing adds one later.
    let shown = Memo::new(move |_| {
        painted.get() && (after.is_none_or(|after| after.get()) || !holds_copy(name))
    });
    if in_browser() {
        Effect::new(move |_| {
            if shown.get() {
                drop_copy(name);
            }
        });
    }
    view! {
        // Busy until drawn, for assistive technology and tests.
        <div class="below" data-below=name aria-busy=move || (!shown.get()).then_some("true")>
            {move || shown.get().then(|| children())}
        </div>
    }
}

/// The drawn copy's elements held in the place named `name`.
fn copy_selector(name: &str) -> String {
    [NAMED, name, "\"] > [", DRAWN, "]"].concat()
}

/// Whether the place named `name` holds a drawn copy.
fn holds_copy(name: &str) -> bool {
    window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(&copy_selector(name)).ok().flatten())
        .is_some()
}

/// Removes the drawn copy held in the place named `name`.
fn drop_copy(name: &str) {
    let Some(document) = window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(copies) = document.query_selector_all(&copy_selector(name)) {
        for i in 0..copies.length() {
            if let Some(copy) = copies.item(i) {
                if let Some(parent) = copy.parent_node() {
                    let _ = parent.remove_child(&copy);
                }
            }
        }
    }
}

/// From now until `draw_rest`, a `Below` waits.
pub fn wait() {
    WAITING.set(Some(Vec::new()));
}

/// Once the page's first screen has been painted: a frame's callback runs
/// before that frame is painted, so a task after it.
pub async fn first_paint() {
    if let Some(window) = window() {
        let frame = js_sys::Promise::new(&mut |painted, _| {
            let _ = window.request_animation_frame(&painted);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    }
    gloo_timers::future::TimeoutFuture::new(0).await;
}

/// Draws every part still waiting (each drawn copy gone in the same
/// task, `Below`'s effect), or lets it wait for its `after`; from now on
/// a `Below` is drawn at once.
pub fn draw_rest() {
    for painted in WAITING.take().into_iter().flatten() {
        painted.set(true);
    }
}

/// The page's `<main>`: busy (`aria-busy`) while its parts below the
/// first screen are still to come, for assistive technology and tests.
pub fn busy(yes: bool) {
    let Some(main) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("main").ok().flatten())
    else {
        return;
    };
    let _ = if yes {
        main.set_attribute("aria-busy", "true")
    } else {
        main.remove_attribute("aria-busy")
    };
}
