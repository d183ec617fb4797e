//! The browser's localStorage, with its failures as values: a private
//! window or a full disk must not crash the page, and must be told apart.

use wasm_bindgen::JsValue;

use crate::design::files::saves::{Store, StoreError};

fn local() -> Option<web_sys::Storage> {
    crate::ui::browser::window()?.local_storage().ok().flatten()
}

fn session() -> Option<web_sys::Storage> {
    crate::ui::browser::window()?
        .session_storage()
        .ok()
        .flatten()
}

/// The page's localStorage as the design model's `Store`.
pub struct Local;

/// The tab's sessionStorage as a `Store`: what a reload keeps and another
/// tab does not see (the presenter's lesson step).
pub struct Session;

impl Store for Local {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        get(local(), key)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        set(local(), key, value)
    }

    fn remove(&mut self, key: &str) {
        remove(local(), key);
    }
}

impl Store for Session {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        get(session(), key)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        set(session(), key, value)
    }

    fn remove(&mut self, key: &str) {
        remove(session(), key);
    }
}

fn get(store: Option<web_sys::Storage>, key: &str) -> Result<Option<String>, StoreError> {
    // A page drawn ahead of time is a first visit: nothing saved yet,
    // not a browser that keeps nothing.
    if !super::browser::in_browser() {
        return Ok(None);
    }
    let store = store.ok_or(StoreError::Unavailable)?;
    store.get_item(key).map_err(|_| StoreError::Unavailable)
}

fn set(store: Option<web_sys::Storage>, key: &str, value: &str) -> Result<(), StoreError> {
    if !super::browser::in_browser() {
        return Ok(());
    }
    let store = store.ok_or(StoreError::Unavailable)?;
    store.set_item(key, value).map_err(|e| refusal(&e))
}

fn remove(store: Option<web_sys::Storage>, key: &str) {
    if let Some(store) = store {
        let _ = store.remove_item(key);
    }
}

/// Browsers throw a `QuotaExceededError` when the origin's storage is full.
fn refusal(error: &JsValue) -> StoreError {
    let name = js_sys::Reflect::get(error, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string());
    match name.as_deref() {
        Some("QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED") => StoreError::Full,
        _ => StoreError::Unavailable,
    }
}

/// A `data:` URL a download link can point at.
pub fn data_url(text: &str) -> String {
    text_url(text, "application/json")
}

/// A `data:` URL for a UTF-8 text file of type `mime`.
pub fn text_url(text: &str, mime: &str) -> String {
    format!("data:{mime};charset=utf-8,{}", uri_component(text))
}

/// `encodeURIComponent`, the browser's.
#[cfg(target_arch = "wasm32")]
fn uri_component(text: &str) -> String {
    js_sys::encode_uri_component(text).into()
}

/// `encodeURIComponent` as the standard defines it, for a page drawn
/// natively ahead of time: every UTF-8 byte percent-encoded but letters,
/// digits and `-_.!~*'()`.
#[cfg(not(target_arch = "wasm32"))]
fn uri_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// An object URL for a text too long for a `data:` URL (Chrome refuses to
/// download one over 2 MB). Each new text revokes the URL of the one before,
/// and the last is revoked when its owner goes.
#[derive(Clone, Copy)]
pub struct BlobUrl(leptos::prelude::StoredValue<Option<String>>);

impl BlobUrl {
    pub fn owned() -> BlobUrl {
        use leptos::prelude::*;
        let url = StoredValue::new(None::<String>);
        on_cleanup(move || {
            if let Some(old) = url.try_get_value().flatten() {
                let _ = web_sys::Url::revoke_object_url(&old);
            }
        });
        BlobUrl(url)
    }

    /// The URL of `text` as a file of type `mime`; `None` when the browser
    /// will not make one.
    pub fn replace(&self, text: &str, mime: &str) -> Option<String> {
        self.replace_with(&wasm_bindgen::JsValue::from_str(text), mime)
    }

    /// The URL of `bytes` as a file of type `mime`, as `replace`.
    pub fn replace_bytes(&self, bytes: &[u8], mime: &str) -> Option<String> {
        self.replace_with(&js_sys::Uint8Array::from(bytes), mime)
    }

    /// Takes the URL back: its file is no longer the right one.
    pub fn clear(&self) {
        use leptos::prelude::*;
        if let Some(old) = self.0.try_get_value().flatten() {
            let _ = web_sys::Url::revoke_object_url(&old);
        }
        self.0.try_set_value(None);
    }

    /// `part` (a string or bytes) as a file: a Blob takes either.
    fn replace_with(&self, part: &wasm_bindgen::JsValue, mime: &str) -> Option<String> {
        use leptos::prelude::*;
        let options = web_sys::BlobPropertyBag::new();
        options.set_type(mime);
        let parts = js_sys::Array::of1(part);
        let blob =
            web_sys::Blob::new_with_buffer_source_sequence_and_options(&parts, &options).ok()?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
        if let Some(old) = self.0.try_get_value().flatten() {
            let _ = web_sys::Url::revoke_object_url(&old);
        }
        self.0.try_set_value(Some(url.clone()));
        Some(url)
    }
}

/// A `data:` URL for an uncompressed tar archive.
pub fn tar_url(bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:application/x-tar;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// The file a file input's change event chose, if any. The input is
/// cleared, so choosing the same file again is a change too.
pub fn chosen_file(ev: &leptos::ev::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    let input = ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}

/// A chosen file's text; `None` when the browser cannot read it as text.
pub async fn file_text(file: &web_sys::File) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn a_uri_component_is_encoded_as_the_browser_encodes_it() {
        // Values as encodeURIComponent gives them (ECMA-262's unreserved set).
        assert_eq!(
            super::uri_component("a-b_c.d!e~f*g'h(i)j"),
            "a-b_c.d!e~f*g'h(i)j"
        );
        assert_eq!(
            super::uri_component("a b&c=d/e?f#g"),
            "a%20b%26c%3Dd%2Fe%3Ff%23g"
        );
        assert_eq!(super::uri_component("£€\n"), "%C2%A3%E2%82%AC%0A");
    }
}
