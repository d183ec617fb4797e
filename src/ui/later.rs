//! Parts of a page's code that arrive after the page is live. A part's
//! binary names each with a `#[lazy]` function (src/bin/*.rs), which the
//! build cuts into a wasm chunk of its own (scripts/split/wasm-bindgen),
//! and hands the library a way to fetch it (`Later::set`). The library
//! never names what is inside: named here, it would be in every part's
//! first download. A page fetches a chunk on first use, once it has drawn
//! and answered (`soon`), or, for one the page asks for as soon as it is
//! live, from its start (`start_now`). A fetch that fails is not kept: the
//! next use tries again.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

use leptos::prelude::*;

/// Fetches a chunk (when it has not come yet) and gives what it holds, or
/// `Err` when it could not be fetched (the network, the host).
pub type Load<T> = fn() -> Pin<Box<dyn Future<Output = Result<&'static T, Unfetched>>>>;

/// Why a chunk is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfetched {
    /// The download failed; a later call tries again.
    Failed,
    /// This part was built without it (never in a built site).
    NotInPart,
}

/// A part's `#[lazy]` functions are `fallible`: a failed download is this
/// `Err`, not an abort of the whole app.
impl From<leptos::wasm_split::SplitLoaderError> for Unfetched {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unfetched::Failed
    }
}

/// Something a part fetches after its page is live.
pub struct Later<T: 'static> {
    load: OnceLock<Load<T>>,
}

/// What a later part says on a page drawn ahead of time.
const AHEAD: &str = "Shown once the page has started.";

/// How long after a page is drawn its later chunks are fetched: long
/// enough for the first paint and the first answer to go first.
const SOON_MS: u32 = 1_000;

impl<T: Sync + 'static> Later<T> {
    pub const fn new() -> Self {
        Later {
            load: OnceLock::new(),
        }
    }

    /// The part's way to fetch it, set once at its start.
    pub fn set(&self, load: Load<T>) {
        let _ = self.load.set(load);
    }

    /// What the chunk holds, fetched on first use.
    pub async fn get(&'static self) -> Result<&'static T, Unfetched> {
        match self.load.get() {
            Some(load) => load().await,
            None => Err(Unfetched::NotInPart),
        }
    }

    /// Starts its download in this very task, before the page is drawn:
    /// for a chunk the page asks for as soon as it is live, the network
    /// works while the first screen is drawn. The future polled once here
    /// is dropped, which leaves the Rust side's cell empty (async-once-cell
    /// lets the next caller start again); the page's own `get` then asks
    /// the JS loader again, and `makeLoad` in the loader hands back the
    /// download already under way (it forgets a failed one, so "Try again"
    /// fetches afresh). wasm_split's runtime says its future should not be
    /// cancelled: it stays memory-safe (the callback of the dropped
    /// attempt frees what it shares), and `later.test.mjs` checks that the
    /// canvas's chunk is fetched once.
    pub fn start_now(&'static self) {
        if let Some(load) = self.load.get() {
            // One poll asks the loader, which starts the fetches at once;
            // the future is then dropped, the download is not.
            let mut started = load();
            let _ = started
                .as_mut()
                .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        }
    }

    /// Fetches it once the page has had a moment to draw and answer.
    pub fn soon(&'static self) {
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(SOON_MS).await;
            let _ = self.get().await;
        });
    }
}

impl<T: Sync + 'static> Default for Later<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A later chunk as a view waits for it: what it holds once it has come,
/// whether a fetch is under way, and whether the last one failed.
pub struct Fetch<T: 'static> {
    later: &'static Later<T>,
    pub ready: RwSignal<Option<&'static T>>,
    pub fetching: RwSignal<bool>,
    pub failed: RwSignal<bool>,
}

impl<T: 'static> Clone for Fetch<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static> Copy for Fetch<T> {}

impl<T: Send + Sync + 'static> Fetch<T> {
    pub fn new(later: &'static Later<T>) -> Self {
        Fetch {
            later,
            ready: RwSignal::new(None),
            fetching: RwSignal::new(false),
            failed: RwSignal::new(false),
        }
    }

    /// Fetches it, unless it has come or is on its way, or the view that
    /// asked is gone (a timer from `soon` can outlive it: its signals are
    /// then disposed, and read only with `try_`).
    pub fn start(self) {
        let (Some(fetching), Some(ready)) = (
            self.fetching.try_get_untracked(),
            self.ready.try_get_untracked(),
        ) else {
            return;
        };
        if fetching || ready.is_some() {
            return;
        }
        self.fetching.try_set(true);
        leptos::task::spawn_local(async move {
            let got = self.later.get().await;
            // The view may be gone meanwhile.
            self.fetching.try_set(false);
            match got {
                Ok(it) => {
                    self.failed.try_set(false);
                    self.ready.try_set(Some(it));
                }
                Err(_) => {
                    self.failed.try_set(true);
                }
            }
        });
    }

    /// Takes `drawn` where the chunk is part of the program (drawn
    /// natively: the pages drawn ahead, the native tests), else fetches it.
    pub fn drawn_or_start(self, drawn: Option<&'static T>) {
        match drawn {
            Some(it) => self.ready.set(Some(it)),
            None => self.start(),
        }
    }

    /// Fetches it once the page has had a moment to draw and answer,
    /// unless something asked for it first.
    pub fn soon(self) {
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(SOON_MS).await;
            self.start();
        });
    }

    /// What the view shows until it has come: `fetching` while it is on
    /// its way, `failed` and a way to try again when it could not come
    /// (kept while trying again);
    /// on a page drawn ahead of time (which fetches nothing), that it
    /// comes once the page has started.
    pub fn status(self, fetching: &'static str, failed: &'static str) -> impl IntoView {
        // Drawn by one function for every chunk: a part with four later
        // chunks carries the view once.
        let said = Said {
            fetching,
            failed,
            is_fetching: self.fetching,
            has_failed: self.failed,
        };
        said.view(Callback::new(move |()| self.start()))
    }
}

/// A fetch's state as its status line says it, whatever the chunk holds.
struct Said {
    fetching: &'static str,
    failed: &'static str,
    is_fetching: RwSignal<bool>,
    has_failed: RwSignal<bool>,
}

impl Said {
    fn view(self, again: Callback<()>) -> impl IntoView {
        let Said {
            fetching,
            failed,
            is_fetching,
            has_failed,
        } = self;
        view! {
            {(!crate::ui::browser::in_browser()).then(|| view! { <p class="muted">{AHEAD}</p> })}
            <p class="muted fetch-status" role="status">{move || is_fetching.get().then_some(fetching)}</p>
            // The button stays while it tries again (busy, pressing it
            // again does nothing), so the reader's focus stays on it.
            <Show when=move || has_failed.get()>
                // An alert: a reader on "Try again" hears it fail again.
                <p class="notice" role="alert" hidden=move || is_fetching.get()>{failed}</p>
                <div class="button-row">
                    <button
                        type="button"
                        aria-disabled=move || is_fetching.get().then_some("true")
                        on:click=move |_| again.run(())
                    >
                        "Try again"
                    </button>
                </div>
            </Show>
        }
    }
}

/// A reader on a later chunk's "Try again" keeps their place: the button
/// goes with the status when the chunk comes, and the focus moves to the
/// heading the chunk draws (the first of `headings`, ids, that is shown:
/// a presenter's pinned pair can hide the first), not to the page's top.
#[derive(Clone, Copy)]
pub struct KeptFocus {
    waited: RwSignal<bool>,
}

impl KeptFocus {
    /// Made where the place is drawn, outside what goes when `came`.
    pub fn new(came: Signal<bool>, headings: &'static [&'static str]) -> Self {
        let waited = RwSignal::new(false);
        Effect::new(move |_| {
            if came.get() && waited.get_untracked() {
                // A frame on: the chunk's views, drawn by effects that may
                // run after this one, are there by then.
                request_animation_frame(move || {
                    if waited.try_get_untracked() == Some(true) && nothing_focused() {
                        waited.set(false);
                        focus_heading(headings);
                    }
                });
            }
        });
        KeptFocus { waited }
    }

    /// A waiting status, in a `div` of `class` that follows the focus.
    pub fn holding(self, class: &'static str, status: impl IntoView) -> impl IntoView {
        view! {
            <div class=class on:focusin=move |_| self.entered() on:focusout=move |ev| self.left(ev)>
                {status}
            </div>
        }
    }

    /// For the waiting status's `focusin`.
    pub fn entered(self) {
        self.waited.set(true);
    }

    /// For its `focusout`. The focus that moved to another element, or to
    /// nothing while the status is still there (a click on plain text), is
    /// no longer waiting; the focus that went with the status, removed as
    /// the chunk came, still is (a removed element's `focusout`, where one
    /// fires, has no target either).
    pub fn left(self, ev: leptos::ev::FocusEvent) {
        use wasm_bindgen::JsCast;
        if ev.related_target().is_some() {
            self.waited.set(false);
            return;
        }
        let Some(node) = ev.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else {
            return;
        };
        let waited = self.waited;
        set_timeout(
            move || {
                if node.is_connected() {
                    waited.try_set(false);
                }
            },
            std::time::Duration::ZERO,
        );
    }
}

fn nothing_focused() -> bool {
    document()
        .active_element()
        .is_none_or(|e| e.tag_name().eq_ignore_ascii_case("body"))
}

fn focus_heading(ids: &[&str]) {
    use wasm_bindgen::JsCast;
    let document = document();
    if let Some(head) = ids
        .iter()
        .filter_map(|id| document.get_element_by_id(id))
        .filter_map(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        // Laid out: an element in a hidden subtree has no offset parent.
        .find(|e| e.offset_parent().is_some())
    {
        let _ = head.set_attribute("tabindex", "-1");
        let _ = head.focus();
    }
}
