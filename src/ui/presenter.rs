//! Presenter mode's shared parts: the toggle, a link to the exact state on
//! the screen (for the next class, or a student's own laptop), and a
//! clicker's keys. A clicker sends arrows and PageUp/PageDown; they step
//! the page wherever the focus is, except while typing in a field.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use super::copy::CopyButton;

/// The toggle, and while presenting a button that copies `link`.
#[component]
pub fn PresenterToggle(
    #[prop(into)] present: Signal<bool>,
    on_toggle: Callback<()>,
    #[prop(into)] link: Signal<String>,
) -> impl IntoView {
    view! {
        <div class="presenter-bar">
            <button
                type="button"
                aria-pressed=move || if present.get() { "true" } else { "false" }
                on:click=move |_| on_toggle.run(())
            >
                "Presenter mode"
            </button>
            <Show when=move || present.get()>
                <CopyButton text=link what="The link to this state".to_string() label="Copy link to this state" />
                <LessonNav />
            </Show>
        </div>
    }
}

/// The address on show, updated as the page rewrites its query.
pub fn this_address() -> Signal<String> {
    let query = super::route::use_query();
    let path = super::route::use_path();
    Signal::derive(move || {
        query.track();
        path.track();
        crate::ui::browser::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    })
}

/// What has the keyboard: nothing special, a control whose arrow keys mean
/// something (a radio, a select, a checkbox), or one whose paging keys do
/// too (text entry, a slider).
#[derive(PartialEq)]
enum Focus {
    Page,
    Control,
    Entry,
}

fn focus_of(ev: &leptos::ev::KeyboardEvent) -> Focus {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return Focus::Page;
    };
    match el.tag_name().as_str() {
        "TEXTAREA" => Focus::Entry,
        "SELECT" => Focus::Control,
        "INPUT" => match el.get_attribute("type").as_deref() {
            Some("radio" | "checkbox" | "button" | "submit" | "file") => Focus::Control,
            _ => Focus::Entry,
        },
        _ => Focus::Page,
    }
}

/// Calls `step(1)` for → and PageDown, `step(-1)` for ← and PageUp, while
/// `present()` holds; removed with the page. A clicker sends PageUp and
/// PageDown, which step the page unless a text field or slider has focus;
/// arrows step it unless any form control does (there they move the radio,
/// the slider, the select, as they always do). `step` says whether the page
/// moved: at its end (or its start) a page opened from a lesson step goes on
/// to the plan's next (or previous) step.
pub fn on_clicker(present: impl Fn() -> bool + 'static, step: impl Fn(i32) -> bool + 'static) {
    super::browser::listen(leptos::ev::keydown, move |ev| {
        // A key the page already used (a canvas node moved by an arrow) is
        // not a step, nor one with a modifier (Alt+← is the browser's Back).
        if !present() || ev.default_prevented() || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
            return;
        }
        let (by, paging) = match ev.key().as_str() {
            "PageDown" => (1, true),
            "PageUp" => (-1, true),
            "ArrowRight" => (1, false),
            "ArrowLeft" => (-1, false),
            _ => return,
        };
        let focus = focus_of(&ev);
        if focus == Focus::Entry || (!paging && focus == Focus::Control) {
            return;
        }
        ev.prevent_default();
        if !step(by) {
            to_lesson_step(by);
        }
    });
}

/// At a prediction in presenter mode: the room's answer entered by key.
/// `pick(Some(i))` for the i-th answer (keys 1 to 9, or the letters A to
/// I), `pick(None)` for 0 ("none of them", where a question offers it);
/// `pick` says whether the key was an answer. Not while typing in a field.
pub fn on_choice_keys(
    asking: impl Fn() -> bool + 'static,
    pick: impl Fn(Option<usize>) -> bool + 'static,
) {
    super::browser::listen(leptos::ev::keydown, move |ev| {
        if !asking() || ev.default_prevented() || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
            return;
        }
        if focus_of(&ev) == Focus::Entry {
            return;
        }
        let key = ev.key();
        let mut chars = key.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return;
        };
        let answer = match c.to_ascii_uppercase() {
            '0' => None,
            d @ '1'..='9' => Some(usize::from(d as u8 - b'1')),
            l @ 'A'..='I' => Some(usize::from(l as u8 - b'A')),
            _ => return,
        };
        if pick(answer) {
            ev.prevent_default();
        }
    });
}

thread_local! {
    /// The lesson step this document was opened from, with its path: the
    /// labs rewrite their address as they go, and the step must outlive that.
    static LESSON_STEP: std::cell::RefCell<Option<(String, usize)>> = const { std::cell::RefCell::new(None) };
}

/// The lesson step the page was opened from, if any: the address's
/// `lesson=`, the one this document remembers for the path, or after a
/// reload or Back the one the tab kept (`design::files::saves`). A page reached
/// any other way without `lesson=` is not in the plan, and the tab
/// forgets the step for it.
fn lesson_step(path: &str, given: Option<String>) -> Option<usize> {
    use crate::content::lesson::step_number;
    use crate::design::files::saves;
    use crate::ui::storage::Session;
    let remember = |n: usize| LESSON_STEP.with(|s| *s.borrow_mut() = Some((path.to_string(), n)));
    if let Some(n) = step_number(given.as_deref()) {
        remember(n);
        saves::put_lesson_step(&mut Session, path, n);
        return Some(n);
    }
    let remembered = LESSON_STEP.with(|s| {
        s.borrow()
            .as_ref()
            .filter(|(p, _)| p == path)
            .map(|(_, n)| *n)
    });
    if remembered.is_some() {
        return remembered;
    }
    if !crate::ui::browser::returned() {
        saves::forget_lesson_step(&mut Session, path);
        return None;
    }
    let kept = step_number(saves::lesson_step(&Session, path).as_deref());
    if let Some(n) = kept {
        remember(n);
    }
    kept
}

/// The page's lesson step, followed as the address changes.
fn use_lesson_step() -> Memo<Option<usize>> {
    let query = super::route::use_query();
    let path = super::route::use_path();
    Memo::new(move |_| lesson_step(&path.get(), query.read().get("lesson")))
}

/// Goes to the lesson step `by` away from this page's, if it has one.
fn to_lesson_step(by: i32) {
    let Some(path) = crate::ui::browser::window().and_then(|w| w.location().pathname().ok()) else {
        return;
    };
    let Some(here) = lesson_step(&path, None) else {
        return;
    };
    let next = if by > 0 {
        here.checked_add(1)
    } else {
        here.checked_sub(1)
    };
    if let Some(href) = next.and_then(crate::content::lesson::step_href) {
        super::route::push(&href);
    }
}

/// Whether a page with a prediction has revealed its answer: a lab
/// provides it, and the lesson step's question for the room shows until
/// then (a page without one shows it throughout).
#[derive(Clone, Copy)]
pub struct Revealed(pub Signal<bool>);

/// In presenter mode on a page opened from the lesson plan: which step this
/// is, the question to ask the room while it thinks, and links to the step
/// before and after (a clicker goes there from the page's end and start).
#[component]
fn LessonNav() -> impl IntoView {
    use crate::content::lesson::{step_href, ASKS, TITLES};
    let step = use_lesson_step();
    let revealed = use_context::<Revealed>().map(|r| r.0);
    let ask = move || {
        let n = step.get()?;
        let asked = *ASKS.get(n.checked_sub(1)?)?;
        (!revealed.is_some_and(|r| r.get())).then_some(asked)
    };
    let nav = move || {
        step.get().map(|n| {
            let title = |k: usize| k.checked_sub(1).and_then(|i| TITLES.get(i)).copied();
            let link = |k: Option<usize>, before: bool| {
                k.and_then(|k| Some((step_href(k)?, title(k)?, k)))
                    .map(|(href, t, k)| {
                        let words = if before {
                            format!("← Step {k}: {t}")
                        } else {
                            format!("Step {k}: {t} →")
                        };
                        view! { <a class="button-link" href=href>{words}</a> }
                    })
            };
            view! {
                <nav class="lesson-nav" aria-label="Lesson plan">
                    <span>{format!("Lesson step {n} of {}", TITLES.len())}</span>
                    {link(n.checked_sub(1), true)}
                    {link(n.checked_add(1), false)}
                </nav>
            }
        })
    };
    view! {
        {nav}
        {move || ask().map(|q| view! {
            <p class="ask-room" role="note"><strong>"Ask the room: "</strong>{q}</p>
        })}
    }
}

/// For pages whose steps are their sections (the backfill lab, a
/// scenario, the lesson plan): brings the next (or previous) visible `h2`
/// to the top and focuses it, so a screen reader follows the room; `false`
/// when there is none left that way.
pub fn step_section(by: i32) -> bool {
    let Some(document) = crate::ui::browser::window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(found) = document.query_selector_all(".presenter h2") else {
        return false;
    };
    let heads: Vec<(f64, web_sys::HtmlElement)> = (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .map(|h| (h.get_bounding_client_rect(), h))
        .filter(|(r, _)| r.height() > 0.0)
        .map(|(r, h)| (r.top(), h))
        .collect();
    // From the heading last stepped to when it still has focus (near the
    // page's end it cannot reach the top); else from what is on show.
    let focused = document.active_element();
    let at = heads.iter().position(|(_, h)| {
        focused
            .as_ref()
            .is_some_and(|f| f == h.unchecked_ref::<web_sys::Element>())
    });
    let target = match at {
        Some(i) if by > 0 => heads.get(i.saturating_add(1)),
        Some(i) => i.checked_sub(1).and_then(|j| heads.get(j)),
        None if by > 0 => heads.iter().find(|(top, _)| *top > 8.0),
        None => heads.iter().rev().find(|(top, _)| *top < -8.0),
    };
    match target {
        Some((_, head)) => {
            bring(head);
            true
        }
        None => false,
    }
}

/// Brings the heading with `id` to the top and focuses it.
pub fn bring_heading(id: &str) {
    if let Some(head) = crate::ui::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        bring(&head);
    }
}

fn bring(head: &web_sys::HtmlElement) {
    let _ = head.set_attribute("tabindex", "-1");
    let _ = head.focus();
    head.scroll_into_view();
}

/// Where a page's presenter link comes from when the page itself cannot
/// build it: a scenario's canvas writes its share link here, so the link on
/// show carries the student's design.
#[derive(Clone, Copy)]
pub struct PresenterLink(pub RwSignal<String>);

/// Presenter mode for a page whose only state in its query is `present`
/// (the overview, the lesson plan, a scenario): whether it is on, what the address said that the page
/// could not use, and the toggle, which rewrites `path`'s address. A
/// clicker steps the page's sections.
pub fn plain_page(path: String) -> (Memo<bool>, Memo<Vec<String>>, Callback<()>) {
    let query = super::route::use_query();
    let scenario = path.starts_with("/scenarios/");
    let parsed = Memo::new(move |_| {
        let q = query.read();
        let read = crate::labs::link::Reading::of(&q);
        let mut notes = Vec::new();
        let present = crate::labs::link::present(&|k| read.get(k), &mut notes);
        if scenario {
            // A scenario's canvas opens a `design=` (canvas::files), and
            // its data is the `variant=` (ui::scenario_data).
            let _ = read.get("design");
            let _ = read.get("variant");
        }
        notes.extend(read.repeated());
        (present, notes)
    });
    let present = Memo::new(move |_| parsed.read().0);
    let notes = Memo::new(move |_| parsed.read().1.clone());
    on_clicker(move || present.get_untracked(), step_section);
    let toggle = Callback::new(move |()| {
        // A scenario's data variant stays with the page (`ui::scenario_data`).
        let mut keys: Vec<String> = query
            .with_untracked(|q| q.get("variant"))
            .filter(|_| scenario)
            .and_then(|v| crate::variant::Variant::read(&v))
            .map(|v| format!("variant={}", v.name()))
            .into_iter()
            .collect();
        if !present.get_untracked() {
            keys.push("present=1".to_string());
        }
        // A shared design the canvas has not read yet stays in the address.
        let (pair, fragment) = if scenario {
            super::route::unread_design()
        } else {
            (None, String::new())
        };
        keys.extend(pair);
        let query = if keys.is_empty() {
            String::new()
        } else {
            format!("?{}", keys.join("&"))
        };
        super::route::replace(&format!("{path}{query}{fragment}"));
    });
    (present, notes, toggle)
}
