//! Whose data a page shows (SPEC 14): the chapter's (whose text can give
//! an answer away), the student's own variant (from the class code and
//! name kept on this browser), or fresh data. The page says what another
//! variant does to what is on it; the choice is the page's to apply. Drawn
//! for one variant: a page draws it again when its variant changes.

use leptos::prelude::*;

use crate::scenarios::student::Student;
use crate::ui::storage;
use crate::variant::Variant;

/// What the line says of `current`: `chapter`, what the chapter's data
/// gives away; `fresh`, what fresh data does to it; `hidden`, what only a
/// variant's data tells.
fn said(
    current: Variant,
    student: Option<&Student>,
    (chapter, fresh): (&str, &str),
    hidden: &str,
) -> String {
    match student {
        _ if current.is_chapter() => format!("These are the chapter's figures: {chapter}. {fresh}"),
        Some(s) if s.variant() == current => format!(
            "Your own data (class {}, {}): {hidden}. The same on any computer with that class code and name.",
            s.class, s.name
        ),
        _ => format!(
            "Data variant {}: {hidden}. The link keeps this variant.",
            current.name()
        ),
    }
}

/// The line that says whose data this is, and the ways to another.
/// `changes`: what another variant does on this page.
#[component]
pub fn VariantChoice(
    current: Variant,
    pick: Callback<Variant>,
    chapter: &'static str,
    /// What fresh data does to the chapter's figures, a sentence.
    fresh: &'static str,
    hidden: &'static str,
    changes: &'static str,
) -> impl IntoView {
    let student = Student::kept(&storage::Local).filter(|s| !s.class.is_empty());
    let line = said(current, student.as_ref(), (chapter, fresh), hidden);
    // The student's own data, when this is not it.
    let own = student
        .filter(|s| s.variant() != current)
        .map(|s| (s.variant(), format!("Use my own data (class {})", s.class)));
    let fresh = move |_| {
        // Any number will do: data nobody has the answer to.
        let seed = (js_sys::Math::random() * 4_294_967_296.0) as u64 ^ js_sys::Date::now() as u64;
        pick.run(Variant::from_seed(seed));
    };
    view! {
        <div class="whose-data" role="group" aria-labelledby="whose-data">
            <p id="whose-data" data-figure="whose-data" role="status">{line}</p>
            <div class="button-row">
                <button type="button" id="fresh-data" aria-describedby="whose-data-changes" on:click=fresh>"Fresh data"</button>
                {own.map(|(v, label)| view! {
                    <button type="button" aria-describedby="whose-data-changes" on:click=move |_| pick.run(v)>{label}</button>
                })}
                {(!current.is_chapter()).then(|| view! {
                    <button type="button" aria-describedby="whose-data-changes" on:click=move |_| pick.run(Variant::CHAPTER)>"Back to the chapter's data"</button>
                })}
            </div>
            <p class="muted" id="whose-data-changes">{changes}</p>
        </div>
    }
}
