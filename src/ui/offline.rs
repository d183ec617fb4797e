//! Registers the service worker (`/sw.js`, written by the build) so a lab
//! loaded once keeps working when a classroom network drops. Only where the
//! browser offers service workers: a plain-http address other than
//! localhost does not, and the app works there as before, online only.

use leptos::wasm_bindgen::{closure::Closure, JsCast, JsValue};

/// How long after the page has loaded the worker is registered.
const SETTLE_MS: u32 = 1_000;

/// Registers the worker once the page has loaded and settled: installing
/// it fetches every file of the site (all five parts' bundles), which on
/// a phone's network would otherwise share the line with what the page
/// itself is still fetching and take the main thread as the lab starts.
pub fn register() {
    let Some(window) = crate::ui::browser::window() else {
        return;
    };
    let navigator = window.navigator();
    let offered = window.is_secure_context()
        && js_sys::Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false);
    if !offered {
        return;
    }
    let later = move || {
        gloo_timers::callback::Timeout::new(SETTLE_MS, move || {
            // A refused registration leaves the app as it was: online only.
            let _ = navigator.service_worker().register("/sw.js");
        })
        .forget();
    };
    let loaded = window
        .document()
        .is_some_and(|d| d.ready_state() == "complete");
    if loaded {
        later();
        return;
    }
    let once = Closure::once_into_js(later);
    let options = web_sys::AddEventListenerOptions::new();
    options.set_once(true);
    if window
        .add_event_listener_with_callback_and_add_event_listener_options(
            "load",
            once.unchecked_ref(),
            &options,
        )
        .is_err()
    {
        // No load event to wait for: register as before.
        let _ = window.navigator().service_worker().register("/sw.js");
    }
}
