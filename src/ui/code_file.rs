//! A file the page writes for the student (a pipeline, a model), in a
//! section that opens: the code, a copy button and a download link.

use leptos::prelude::*;

use super::copy::CopyButton;
use super::storage::BlobUrl;

/// `code`, the file `file` of type `mime`, under `summary`. The download
/// link is made the first time the section is opened, as a Blob URL that
/// follows the code: not a `data:` URL written into the page at every
/// change, which doubled a long file's weight in the page (in a page drawn
/// ahead of time too) and re-encoded it at every slider step. `children`
/// go above the code; `opened` says when the section has been opened.
#[component]
pub fn CodeFile(
    summary: String,
    /// What the code is ("The Beam pipeline"): the code's label and the
    /// copy button's message.
    what: &'static str,
    #[prop(into)] code: Signal<String>,
    file: String,
    mime: &'static str,
    #[prop(optional)] opened: Option<RwSignal<bool>>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let opened = opened.unwrap_or_else(|| RwSignal::new(false));
    let url = BlobUrl::owned();
    let href = Memo::new(move |_| {
        opened
            .get()
            .then(|| url.replace(&code.get(), mime))
            .flatten()
    });
    let words = format!("Download {file}");
    let link = move || {
        opened.get().then(|| match href.get() {
            Some(h) => view! {
                " "
                <a class="button-link" href=h download=file.clone()>{words.clone()}</a>
            }
            .into_any(),
            None => view! { <p role="status">"This browser would not make the file to download: copy it instead."</p> }.into_any(),
        })
    };
    view! {
        <details class="sql" on:toggle=move |_| if !opened.get_untracked() { opened.set(true) }>
            <summary>{summary}</summary>
            {children.map(|c| c())}
            <pre class="long-code" tabindex="0" aria-label=what><code>{move || code.get()}</code></pre>
            <CopyButton text=code what=what.to_string() />
            {link}
        </details>
    }
}
