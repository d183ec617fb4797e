//! The Python runners of the downloadable projects, loaded from
//! `/runners/` once, the first time a page offers a project (they are not
//! in the wasm; `export::replay::runner_files` says why), and handed as a
//! value to whatever builds a project. Until they are here the download
//! link waits; if they cannot be loaded it says so.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use std::sync::Arc;

use crate::export::replay::{runners, RUNNERS};
use crate::export::File;

/// Whether the runners can be bundled yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runners {
    Loading,
    /// The runners, as files of a project.
    Ready(Arc<Vec<File>>),
    Failed,
}

thread_local! {
    static STATE: RwSignal<Runners> = RwSignal::new(Runners::Loading);
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The runners' state, starting the load on the first call.
pub fn use_runners() -> RwSignal<Runners> {
    let state = STATE.with(|s| *s);
    if !STARTED.with(|s| s.replace(true)) {
        leptos::task::spawn_local(async move {
            let mut texts = Vec::new();
            for name in RUNNERS {
                match fetch_text(&format!("/runners/{name}")).await {
                    Some(text) => texts.push(text),
                    None => {
                        state.set(Runners::Failed);
                        // A later page may try again (the network may be back).
                        STARTED.with(|s| s.set(false));
                        return;
                    }
                }
            }
            state.set(Runners::Ready(Arc::new(runners(texts))));
        });
    }
    state
}

async fn fetch_text(url: &str) -> Option<String> {
    let window = crate::ui::browser::window()?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .ok()?
        .dyn_into::<web_sys::Response>()
        .ok()?;
    if !response.ok() {
        return None;
    }
    wasm_bindgen_futures::JsFuture::from(response.text().ok()?)
        .await
        .ok()?
        .as_string()
}
