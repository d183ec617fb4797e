//! A download link for a file the page makes only when it is wanted (a
//! runnable project: a tar of half a megabyte), not at every change of
//! what it holds.

use std::rc::Rc;

use leptos::prelude::*;

use super::storage::BlobUrl;

/// A link to the file `make` makes from `inputs`: its name and bytes, or
/// `None` when they cannot be made. The file is made the moment the link
/// is wanted (the pointer reaches it or presses on it, it gets focus, its
/// menu opens, it is clicked: so a keyboard's Enter, a middle click and
/// "save link as" find it ready) and made again only when `inputs` have
/// changed since; a change takes the old file off the link at once, so no
/// way of following it can save a project for controls no longer set.
/// Before, each change of a lab's controls packed and base64-encoded the
/// whole project into the page.
#[component]
pub fn DownloadOnDemand<K, F>(
    #[prop(into)] inputs: Signal<K>,
    make: F,
    mime: &'static str,
    children: Children,
) -> impl IntoView
where
    K: Clone + PartialEq + Send + Sync + 'static,
    F: Fn(&K) -> Option<(String, Vec<u8>)> + 'static,
{
    let url = BlobUrl::owned();
    let made_for = StoredValue::new(None::<K>);
    let failed = RwSignal::new(false);
    let anchor = NodeRef::<leptos::html::A>::new();
    // Whether the link now holds the file for the current inputs.
    let ready = Rc::new(move || {
        let now = inputs.get_untracked();
        if made_for.with_value(|m| m.as_ref() == Some(&now)) {
            return true;
        }
        let Some(a) = anchor.get_untracked() else {
            return false;
        };
        let made =
            make(&now).and_then(|(name, bytes)| url.replace_bytes(&bytes, mime).map(|u| (name, u)));
        let Some((name, href)) = made else {
            failed.set(true);
            return false;
        };
        let _ = a.set_attribute("href", &href);
        let _ = a.set_attribute("download", &name);
        made_for.set_value(Some(now));
        failed.set(false);
        true
    });
    // A change of the controls: the file on the link is for the old ones.
    Effect::new(move |_| {
        let now = inputs.get();
        if made_for.with_value(|m| m.as_ref().is_some_and(|m| *m != now)) {
            made_for.set_value(None);
            url.clear();
            if let Some(a) = anchor.get_untracked() {
                let _ = a.set_attribute("href", "#");
                let _ = a.set_attribute("download", "");
            }
        }
    });
    let ready: Rc<dyn Fn() -> bool> = ready;
    view! {
        <a
            class="button-link"
            href="#"
            download=""
            node_ref=anchor
            on:pointerenter=wanted(&ready)
            on:pointerdown=wanted(&ready)
            on:focus=wanted(&ready)
            on:contextmenu=wanted(&ready)
            on:click=move |ev| {
                if !ready() {
                    ev.prevent_default();
                }
            }
        >
            {children()}
        </a>
        {move || {
            failed
                .get()
                .then(|| view! { <span role="status">" This file could not be made."</span> })
        }}
    }
}

/// A handler for any event that shows the link is wanted: makes its file.
fn wanted<E>(ready: &Rc<dyn Fn() -> bool>) -> impl Fn(E) + 'static {
    let ready = Rc::clone(ready);
    move |_| {
        ready();
    }
}
