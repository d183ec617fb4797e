//! Small pieces every lab uses.

use leptos::prelude::*;

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
    view! {
        <fieldset class="radio-group">
            <legend>{legend}</legend>
            {options
                .into_iter()
                .enumerate()
                .map(|(i, (value, label))| {
                    let id = format!("{name}-{i}");
                    view! {
                        <span class="radio">
                            <input
                                type="radio"
                                id=id.clone()
                                name=name
                                prop:checked=move || current.get() == value
                                on:change=move |_| on_pick(value)
                            />
                            <label for=id>{label}</label>
                        </span>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// The notes a lab writes when its link held values it could not use.
#[component]
pub fn LinkNotes(#[prop(into)] notes: Signal<Vec<String>>) -> impl IntoView {
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
