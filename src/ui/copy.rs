//! A copy-to-clipboard button that says what happened, in words.

use leptos::prelude::*;

#[component]
pub fn CopyButton(
    #[prop(into)] text: Signal<String>,
    what: String,
    /// The button's words; "Copy" unless told.
    #[prop(optional)]
    label: Option<&'static str>,
) -> impl IntoView {
    let status = RwSignal::new(String::new());
    let copy = move |_| {
        let text = text.get_untracked();
        let what = what.clone();
        let Some(window) = crate::ui::browser::window() else {
            return;
        };
        let promise = window.navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(_) => status.set(format!("{what} copied.")),
                Err(_) => status.set(
                    "The browser refused to copy: select the text and copy it by hand.".to_string(),
                ),
            }
        });
    };
    view! {
        <span class="copy">
            <button type="button" on:click=copy>{label.unwrap_or("Copy")}</button>
            <span class="copy-status" role="status">{move || status.get()}</span>
        </span>
    }
}
