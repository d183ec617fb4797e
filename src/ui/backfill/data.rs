//! Whose August the lab shows (`ui::variant_choice`). Another August
//! starts the lab over: the prediction and the runs belonged to the last.

use leptos::prelude::*;

use crate::labs::backfill::query::Moment;
use crate::labs::backfill::{August, Choices, PlanStart};
use crate::ui::variant_choice::VariantChoice;

use super::Lab;

#[component]
pub fn WhoseAugust() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let current = Memo::new(move |_| lab.choices.read().august.variant);
    let pick = Callback::new(move |to| {
        lab.start_over(Choices {
            august: August::of(to),
            from: PlanStart::FIRST,
            ..lab.choices.get_untracked()
        });
        // The line is drawn again for the new data (and the button pressed
        // may be gone): keyboard focus goes to its first button.
        request_animation_frame(|| {
            if let Some(button) = document().get_element_by_id("fresh-data").and_then(|e| {
                leptos::wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok()
            }) {
                let _ = button.focus();
            }
        });
    });
    move || {
        view! {
            <VariantChoice
                current=current.get()
                pick=pick
                chapter="if you have read it, you know when the bug shipped"
                fresh="Fresh data changes them, so only the data can tell you."
                hidden="the bug shipped on a day only the data can tell you"
                changes="Other data starts the lab over: a new prediction, and no runs yet."
            />
        }
    }
}

impl Lab {
    /// Another August (or any change that makes the runs and the
    /// prediction meaningless): the plan `next`, nothing predicted or run.
    pub fn start_over(&self, next: Choices) {
        self.ticked.set(None);
        self.go.with_value(|go| go(next, Moment::default()));
    }
}
