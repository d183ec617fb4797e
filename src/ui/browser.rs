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

/// Lets the live page replace a page drawn ahead of time (`ahead`): its
/// body, marked `ahead`, is emptied just before the app mounts, in the
/// same task, so the browser never paints the page half gone.
pub fn take_over() {
    let Some(body) = window().and_then(|w| w.document()).and_then(|d| d.body()) else {
        return;
    };
    if body.class_name().split_whitespace().any(|c| c == "ahead") {
        body.set_inner_html("");
        let _ = body.remove_attribute("class");
    }
}
