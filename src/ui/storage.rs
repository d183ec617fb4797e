//! The browser's localStorage, with its failures as values: a private
//! window or a full disk must not crash the page.

fn store() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved text under `key`; `Err` when the browser keeps no storage.
pub fn get(key: &str) -> Result<Option<String>, String> {
    let store = store().ok_or_else(unavailable)?;
    store.get_item(key).map_err(|_| unavailable())
}

pub fn set(key: &str, value: &str) -> Result<(), String> {
    let store = store().ok_or_else(unavailable)?;
    store.set_item(key, value).map_err(|_| {
        "The browser refused to save (storage full or blocked): export your design to keep it."
            .to_string()
    })
}

fn unavailable() -> String {
    "This browser keeps no local storage here (a private window?): your design lasts until the tab closes. Export it to keep it.".to_string()
}

/// A `data:` URL a download link can point at.
pub fn data_url(text: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(text).into();
    format!("data:application/json;charset=utf-8,{encoded}")
}

pub fn remove(key: &str) {
    if let Some(store) = store() {
        let _ = store.remove_item(key);
    }
}
