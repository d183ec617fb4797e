//! The address bar as a signal, and links that move between pages without
//! a reload.
//!
//! A handful of fixed paths and one number are all the app routes;
//! leptos_router brought its matcher, nested outlets and a view-choosing
//! function holding every page into the wasm for them (one of the bundle's
//! own tools: `crates/lean/src/README.md`). This keeps its two
//! behaviours the pages rely on: a click on an internal link is a history
//! push, and a lab rewrites its query in place (a history replace).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::bundles::Bundle;

/// Where the app is: the path and the raw query string (without `?`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Address {
    pub path: String,
    pub query: String,
}

impl Address {
    fn current() -> Self {
        if !super::browser::in_browser() {
            return AHEAD.with(|a| a.borrow().clone());
        }
        let location = crate::ui::browser::window().map(|w| w.location());
        let read = |f: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
            location
                .as_ref()
                .and_then(|l| f(l).ok())
                .unwrap_or_default()
        };
        let path = read(web_sys::Location::pathname);
        let query = read(web_sys::Location::search);
        Address {
            path: normalise(&path),
            query: query.trim_start_matches('?').to_string(),
        }
    }
}

thread_local! {
    // The address a page drawn ahead of time is drawn at (no browser has one).
    static AHEAD: std::cell::RefCell<Address> = std::cell::RefCell::new(Address::default());
}

/// Draws pages ahead of time at `path` (with `query`, without `?`).
pub fn draw_at(path: &str, query: &str) {
    AHEAD.with(|a| {
        *a.borrow_mut() = Address {
            path: normalise(path),
            query: query.to_string(),
        }
    });
}

/// `/scenarios/` and `/scenarios` are the same page.
fn normalise(path: &str) -> String {
    match path.trim_end_matches('/') {
        "" => "/".to_string(),
        trimmed => trimmed.to_string(),
    }
}

/// A parsed query (the first value of a key is the one used): the same
/// reader the native tests and the fuzz targets use.
pub use crate::labs::link::Query;

thread_local! {
    // Not a context: navigation happens in event handlers, which run
    // outside the component tree where contexts are found.
    static ADDRESS: std::cell::Cell<Option<RwSignal<Address>>> = const { std::cell::Cell::new(None) };
    // The part of the site this page's bundle serves (crate::bundles).
    static BUNDLE: std::cell::Cell<Bundle> = const { std::cell::Cell::new(Bundle::Home) };
}

/// This page's part of the site.
pub fn bundle() -> Bundle {
    BUNDLE.with(std::cell::Cell::get)
}

fn address() -> Option<RwSignal<Address>> {
    ADDRESS.with(std::cell::Cell::get)
}

/// Starts following the address bar; call once, in the shell, with the
/// part of the site this bundle serves.
pub fn provide_router(serves: Bundle) {
    BUNDLE.with(|b| b.set(serves));
    let address = RwSignal::new(Address::current());
    ADDRESS.with(|a| a.set(Some(address)));
    // Back and forward.
    super::browser::listen(leptos::ev::popstate, move |_| {
        address.set(Address::current());
    });
    super::browser::listen(leptos::ev::click, move |ev| {
        if let Some(href) = internal_link(&ev) {
            ev.prevent_default();
            push(&href);
            if let Some(window) = crate::ui::browser::window() {
                window.scroll_to_with_x_and_y(0.0, 0.0);
            }
        }
    });
}

/// The href of an app link a plain left click landed on; `None` for
/// downloads, other sites, new tabs, modified clicks, links within the
/// same page and links to another part of the site (the browser handles
/// those itself: another part is another page load).
fn internal_link(ev: &web_sys::MouseEvent) -> Option<String> {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.ctrl_key()
        || ev.shift_key()
        || ev.alt_key()
    {
        return None;
    }
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let anchor = target.closest("a[href]").ok()??;
    if anchor.has_attribute("download") || anchor.get_attribute("target").is_some() {
        return None;
    }
    let href = anchor.get_attribute("href")?;
    if !href.starts_with('/') || href.starts_with("//") {
        return None;
    }
    let (path_and_query, fragment) = href.split_once('#').unwrap_or((&href, ""));
    let here = Address::current();
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    if Bundle::of(path) != bundle() {
        return None;
    }
    let same_page = normalise(path) == here.path && query == here.query;
    (!same_page || fragment.is_empty()).then_some(href)
}

fn go(href: &str, replace: bool) {
    let Some(window) = crate::ui::browser::window() else {
        return;
    };
    // Another part's page (say the clicker going on from the lateness lab
    // to the backfill lab) is another bundle: only a page load can show it.
    let path = href.split(['?', '#']).next().unwrap_or(href);
    // Only an absolute path can name another part; a query or a fragment
    // alone stays on this page.
    if path.starts_with('/') && Bundle::of(path) != bundle() {
        let location = window.location();
        let _ = if replace {
            location.replace(href)
        } else {
            location.assign(href)
        };
        return;
    }
    let Ok(history) = window.history() else {
        return;
    };
    let moved = if replace {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href))
    } else {
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href))
    };
    if moved.is_ok() {
        if let Some(a) = address() {
            a.set(Address::current());
        }
    }
}

/// The shared design a scenario page's address still holds, as it stands
/// there: its query's `design=` pair and its `#design=` fragment (or an
/// empty string). The canvas reads it and takes it out of the address;
/// until the canvas has come (a later chunk), a control that rewrites the
/// address carries it over, so the design is not lost.
pub fn unread_design() -> (Option<String>, String) {
    let Some(location) = super::browser::window().map(|w| w.location()) else {
        return (None, String::new());
    };
    let search = location.search().unwrap_or_default();
    let pair = search
        .trim_start_matches('?')
        .split('&')
        .find(|p| p.starts_with("design="))
        .map(str::to_string);
    let hash = location.hash().unwrap_or_default();
    let fragment = if hash.starts_with("#design=") {
        hash
    } else {
        String::new()
    };
    (pair, fragment)
}

/// A new history entry: what a link click does.
pub fn push(href: &str) {
    go(href, false);
}

/// Rewrites the address in place: a lab recording its controls, so a
/// reload or a shared link shows the same thing, without filling Back.
pub fn replace(href: &str) {
    go(href, true);
}

/// The current path, changing only when the page does.
pub fn use_path() -> Memo<String> {
    let address = address();
    Memo::new(move |_| address.map_or_else(|| "/".to_string(), |a| a.with(|a| a.path.clone())))
}

/// The current query, changing only when it does.
pub fn use_query() -> Memo<Query> {
    let address = address();
    Memo::new(move |_| {
        address
            .map(|a| a.with(|a| Query::parse(&a.query)))
            .unwrap_or_default()
    })
}

/// A navigation link marked `aria-current="page"` while its page (or, unless
/// `exact`, a page under it) is showing.
#[component]
pub fn NavLink(
    href: &'static str,
    #[prop(optional)] exact: bool,
    children: Children,
) -> impl IntoView {
    let path = use_path();
    let current = move || {
        path.with(|p| {
            p == href
                || (!exact
                    && p.strip_prefix(href)
                        .is_some_and(|rest| rest.starts_with('/')))
        })
        .then_some("page")
    };
    view! { <a href=href aria-current=current>{children()}</a> }
}
