//! What a view asks of the browser while it is drawn. In the browser these
//! are the browser's; drawn natively, ahead of time (`crate::prerender`),
//! there is no window: nothing is listened to, and the title is the page's
//! own `<title>` once written.

use leptos::ev::EventDescriptor;

/// Calls `handler` on each `event` at the window for as long as the view
/// that asked is alive.
pub fn listen<E>(event: E, handler: impl Fn(E::EventType) + 'static)
where
    E: EventDescriptor + 'static,
    E::EventType: wasm_bindgen::JsCast,
{
    #[cfg(target_arch = "wasm32")]
    {
        use leptos::prelude::{on_cleanup, window_event_listener};
        let handle = window_event_listener(event, handler);
        on_cleanup(move || handle.remove());
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (event, handler);
    }
}

/// Whether this is the browser (false while a page is drawn natively).
pub const fn in_browser() -> bool {
    cfg!(target_arch = "wasm32")
}

/// The window, in the browser; none while a page is drawn natively.
pub fn window() -> Option<web_sys::Window> {
    if in_browser() {
        web_sys::window()
    } else {
        None
    }
}

/// Where the reader was on a page drawn ahead of time: how far they had
/// scrolled and the control they had moved to (by its id), given back to
/// the live page once it is mounted; and the drawn page's parts below its
/// first screen (`ui::below`), shown in the live page's places for them
/// until it draws its own.
pub struct Reading {
    x: f64,
    y: f64,
    focused: Option<String>,
    below: Vec<web_sys::Element>,
    /// Where the first `resume` left the window: a reader who has
    /// scrolled since is neither moved nor refocused again.
    left: std::cell::Cell<Option<(f64, f64)>>,
}

/// Lets the live page replace a page drawn ahead of time (`ahead`): its
/// body, marked `ahead`, is emptied just before the app mounts, in the
/// same task, so the browser never paints the page half gone. Where the
/// reader was comes back with it: call `Reading::resume` after mounting;
/// a part that draws its parts below the first screen later
/// (`BELOW_LATER`) calls `Reading::hand_over` first, and `resume` again
/// once they are drawn.
pub fn take_over<const BELOW_LATER: bool>() -> Option<Reading> {
    let window = window()?;
    let body = window.document()?.body()?;
    if !body.class_name().split_whitespace().any(|c| c == "ahead") {
        return None;
    }
    let focused = window
        .document()
        .and_then(|d| d.active_element())
        .map(|e| e.id())
        .filter(|id| !id.is_empty());
    // Only a part that draws them later keeps them (the others' bundles
    // carry none of this).
    let below = if BELOW_LATER {
        body.query_selector_all(super::below::ANY)
            .map(|list| {
                (0..list.length())
                    .filter_map(|i| list.item(i))
                    .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let reading = Reading {
        x: window.scroll_x().unwrap_or(0.0),
        y: window.scroll_y().unwrap_or(0.0),
        focused,
        below,
        left: std::cell::Cell::new(None),
    };
    body.set_inner_html("");
    let _ = body.remove_attribute("class");
    Some(reading)
}

impl Reading {
    /// Puts each drawn part below the first screen into the live page's
    /// place of the same name, where it stays until that part is drawn.
    pub fn hand_over(&self) {
        let Some(document) = window().and_then(|w| w.document()) else {
            return;
        };
        for drawn in &self.below {
            let Some(name) = drawn.get_attribute(super::below::NAME) else {
                continue;
            };
            // The names are the views' own identifiers (no quotes).
            let place = document
                .query_selector(&[super::below::NAMED, &name, "\"]"].concat())
                .ok()
                .flatten();
            let Some(place) = place else {
                continue;
            };
            // Its elements, not itself: the live place's own children
            // are what the stylesheet expects there.
            while let Some(child) = drawn.first_element_child() {
                let _ = child.set_attribute(super::below::DRAWN, "");
                // A copy: nothing in it to reach or press meanwhile.
                let _ = child.set_attribute("inert", "");
                if place.append_child(&child).is_err() {
                    break;
                }
            }
        }
    }

    /// The live page where the reader was on the drawn one: their control,
    /// then their scroll (focusing can scroll; the scroll puts them back).
    /// Called again once the whole page is drawn, it does nothing if the
    /// reader has scrolled since, and focuses only when nothing has focus.
    pub fn resume(&self) {
        let Some(window) = window() else {
            return;
        };
        let at = |w: &web_sys::Window| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0));
        if self.left.get().is_some_and(|left| left != at(&window)) {
            return;
        }
        let document = window.document();
        let nothing_focused = document
            .as_ref()
            .and_then(|d| d.active_element())
            .is_none_or(|e| e.tag_name().eq_ignore_ascii_case("body"));
        if let Some(element) = self
            .focused
            .as_ref()
            .filter(|_| nothing_focused)
            .and_then(|id| document?.get_element_by_id(id))
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = element.focus();
        }
        window.scroll_to_with_x_and_y(self.x, self.y);
        self.left.set(Some(at(&window)));
    }
}

/// Whether this document was loaded again (a reload, or Back and Forward)
/// rather than reached by a link or a typed address: the Navigation
/// Timing entry's `type`, read without a web-sys binding for one string.
pub fn returned() -> bool {
    use wasm_bindgen::{JsCast, JsValue};
    let read = || -> Option<String> {
        let performance =
            js_sys::Reflect::get(&window()?.into(), &JsValue::from_str("performance")).ok()?;
        let entries: js_sys::Function =
            js_sys::Reflect::get(&performance, &JsValue::from_str("getEntriesByType"))
                .ok()?
                .dyn_into()
                .ok()?;
        let list: js_sys::Array = entries
            .call1(&performance, &JsValue::from_str("navigation"))
            .ok()?
            .dyn_into()
            .ok()?;
        js_sys::Reflect::get(&list.get(0), &JsValue::from_str("type"))
            .ok()?
            .as_string()
    };
    matches!(read().as_deref(), Some("reload" | "back_forward"))
}
