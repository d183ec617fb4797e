//! Which variant a scenario page checks in (SPEC 14): the address's
//! `variant=` (fresh data, or the chapter's written as 0), else the class
//! variant of the student named on this browser, else the data this
//! browser's design for it was made on, else the chapter's. The
//! class page grades a student's work file in the same class variant, so a
//! verdict on the page is the verdict there.

use leptos::prelude::*;

use crate::design::files::saves;
use crate::scenarios::student::Student;
use crate::scenarios::Scenario;
use crate::ui::storage;
use crate::ui::variant_choice::VariantChoice;
use crate::variant::Variant;

/// The page's variant, read once as the page opens (a change of variant
/// opens the page again), and a note for a `variant=` the page cannot
/// use. Its script is made when something runs it, by the grader's or the
/// exporters' maker (`canvas::Designer::script`, the drift query): the
/// first screen needs none.
pub fn opened(scenario: &'static Scenario) -> (Variant, Option<String>) {
    let given = super::route::use_query().with_untracked(|q| q.get("variant"));
    let asked = given.as_deref().map(Variant::read);
    let note = match (&given, asked) {
        (Some(text), Some(None)) => Some(crate::labs::link::ignored(
            "variant",
            text,
            "a variant's number, as the page writes it",
            "your class's data, the data your design was made on, or the chapter's",
        )),
        (Some(_), Some(Some(v))) if !v.is_chapter() && !scenario.varies() => Some(format!(
            "This scenario has no variants yet: variant {} is the chapter's data here.",
            v.name()
        )),
        _ => None,
    };
    // A class code's own data, else the data this browser's design for
    // the scenario was made on (a self-learner's fresh data, or a work
    // file's, restored), else the chapter's.
    let own = || Student::kept_class_variant(&storage::Local);
    // A share link that names no data was made before its scenario had
    // variants: on the chapter's, whatever this browser's design is on.
    let made_on = || {
        let hash = crate::ui::browser::window().and_then(|w| w.location().hash().ok());
        let shared = hash.is_some_and(|h| h.contains("design="));
        (!shared)
            .then(|| saves::variant(&storage::Local, scenario.number))
            .flatten()
    };
    let variant = scenario.variant(
        asked
            .flatten()
            .or_else(own)
            .or_else(made_on)
            .unwrap_or_default(),
    );
    (variant, note)
}

/// The address of `scenario`'s page in `variant`: written out for the
/// chapter's too, so a student with a class code can open it.
pub fn href(scenario: &Scenario, variant: Variant) -> String {
    format!("/scenarios/{}?variant={}", scenario.number, variant.name())
}

/// Whose data the page checks in, and the ways to another: another
/// variant opens the page again (the design is saved as it is edited).
#[component]
pub fn ScenarioData(scenario: &'static Scenario, variant: Variant) -> impl IntoView {
    let pick = Callback::new(move |to: Variant| {
        // A shared design the canvas has not read yet goes along.
        let (pair, fragment) = super::route::unread_design();
        let mut address = href(scenario, to);
        if let Some(pair) = pair {
            address.push('&');
            address.push_str(&pair);
        }
        address.push_str(&fragment);
        if let Some(window) = web_sys::window() {
            let _ = window.location().set_href(&address);
        }
    });
    let (chapter, hidden, fresh) = scenario.variant_tells().unwrap_or_default();
    view! {
        <VariantChoice
            current=variant
            pick=pick
            chapter=chapter
            fresh=fresh
            hidden=hidden
            changes="Other data opens this page again with your design as it is: a design made for other data may fail here."
        />
    }
}
