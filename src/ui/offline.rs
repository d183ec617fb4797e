//! Registers the service worker (`/sw.js`, written by the build) so a lab
//! loaded once keeps working when a classroom network drops. Only where the
//! browser offers service workers: a plain-http address other than
//! localhost does not, and the app works there as before, online only.

use leptos::wasm_bindgen::JsValue;

pub fn register() {
    let Some(window) = crate::ui::browser::window() else {
        return;
    };
    let navigator = window.navigator();
    let offered = window.is_secure_context()
        && js_sys::Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false);
    if offered {
        // A refused registration leaves the app as it was: online only.
        let _ = navigator.service_worker().register("/sw.js");
    }
}
