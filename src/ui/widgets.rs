//! Small pieces every lab uses.

use leptos::prelude::*;

/// A `<details>`'s toggle handler that keeps `open` in step with what the
/// reader did, so a fold the page opens (a link, a term) and one the
/// reader opens or closes agree.
pub fn fold_follows(open: RwSignal<bool>) -> impl Fn(leptos::ev::Event) + Copy + 'static {
    move |ev| {
        let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if now != open.get_untracked() {
            open.set(now);
        }
    }
}

/// A radio group whose options are (value, label) pairs.
#[component]
pub fn RadioGroup<T>(
    legend: &'static str,
    name: &'static str,
    options: Vec<(T, &'static str)>,
    current: Signal<T>,
    on_pick: impl Fn(T) + Copy + Send + Sync + 'static,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    // Only positions reach the markup, so it is compiled once, not once
    // per choice type (seventeen of them cost the bundle 8 KB).
    let values: Vec<T> = options.iter().map(|(value, _)| *value).collect();
    let labels: Vec<&'static str> = options.into_iter().map(|(_, label)| label).collect();
    let chosen = {
        let values = values.clone();
        Signal::derive(move || {
            let now = current.get();
            values.iter().position(|v| *v == now)
        })
    };
    let pick = Callback::new(move |i: usize| {
        if let Some(value) = values.get(i) {
            on_pick(*value);
        }
    });
    radio_markup(legend, name, labels, chosen, pick)
}

fn radio_markup(
    legend: &'static str,
    name: &'static str,
    labels: Vec<&'static str>,
    chosen: Signal<Option<usize>>,
    pick: Callback<usize>,
) -> AnyView {
    view! {
        <fieldset class="radio-group">
            <legend>{legend}</legend>
            {labels
                .into_iter()
                .enumerate()
                .map(|(i, label)| {
                    let id = format!("{name}-{i}");
                    view! {
                        <span class="radio">
                            <input
                                type="radio"
                                id=id.clone()
                                name=name
                                // The attribute draws the page ahead of time (HTML
                                // has no properties); the property is the live state.
                                checked=move || chosen.get() == Some(i)
                                prop:checked=move || chosen.get() == Some(i)
                                on:change=move |_| pick.run(i)
                            />
                            <label for=id>{label}</label>
                        </span>
                    }
                })
                .collect_view()}
        </fieldset>
    }
    .into_any()
}

/// The notes a lab writes when its link held values it could not use.
#[component]
pub fn LinkNotes(#[prop(into)] notes: Signal<Vec<String>>) -> impl IntoView {
    // A link longer than the lab makes is said on every page that reads
    // one, after the page's own notes (a key given twice is among those:
    // `labs::link::Reading`).
    let query = super::route::use_query();
    let path = super::route::use_path();
    let notes = Signal::derive(move || {
        let mut all = notes.get();
        // The whole link as the browser has it (origin and fragment too);
        // drawn ahead of time, its path and query.
        let href = crate::ui::browser::window()
            .and_then(|w| w.location().href().ok())
            .map(|h| h.chars().count());
        all.extend(match href {
            Some(length) => crate::address::length_note(length),
            None => query.read().length_note(path.read().len()),
        });
        all
    });
    view! {
        <Show when=move || !notes.read().is_empty()>
            <div class="notice" role="status">
                <p><strong>"Some of the link's settings could not be used:"</strong></p>
                <ul>{move || notes.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        </Show>
    }
}

/// Whether a key press belongs to a form field (so page-wide shortcuts
/// leave it alone).
pub fn typing_in_a_field(ev: &leptos::ev::KeyboardEvent) -> bool {
    use leptos::wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<leptos::web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"))
}

/// Whether a CSS media query matches now (false where it cannot be asked).
pub fn media_matches(query: &str) -> bool {
    crate::ui::browser::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}
