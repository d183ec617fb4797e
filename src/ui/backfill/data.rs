//! Whose August the lab shows: the chapter's (whose text gives away when
//! the bug shipped), the student's own (from the class code and name kept
//! on this browser), or fresh data. Another August starts the lab over:
//! the prediction and the runs belonged to the last one.

use leptos::prelude::*;

use crate::labs::backfill::query::Moment;
use crate::labs::backfill::{August, Choices, PlanStart};
use crate::scenarios::student::Student;
use crate::ui::storage;
use crate::variant::Variant;

use super::Lab;

/// The line that says which August this is, and the ways to another.
#[component]
pub fn WhoseAugust() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let student = Student::kept(&storage::Local).filter(|s| !s.class.is_empty());
    let august = Memo::new(move |_| lab.choices.read().august);
    let own = student.as_ref().map(Student::variant);
    let switch = move |to: Variant| {
        let next = Choices {
            august: August::of(to),
            from: PlanStart::FIRST,
            ..lab.choices.get_untracked()
        };
        lab.start_over(next);
    };
    let fresh = move |_| {
        // Any number will do: a new August nobody has the answer to.
        let seed = (js_sys::Math::random() * 4_294_967_296.0) as u64 ^ js_sys::Date::now() as u64;
        switch(Variant::from_seed(seed));
    };
    let said = {
        let student = student.clone();
        move || {
            let variant = august.get().variant;
            match (&student, variant) {
                (_, v) if v.is_chapter() => "These are the chapter's figures: if you have read it, you know when the bug shipped. Fresh data moves the ship date, so only the data can tell you.".to_string(),
                (Some(s), v) if Some(v) == own => format!(
                    "Your own August (class {}, {}): the bug shipped on a day only the data can tell you. The same on any computer with that class code and name.",
                    s.class, s.name
                ),
                (_, v) => format!(
                    "August, variant {}: the bug shipped on a day only the data can tell you. The link keeps this August.",
                    v.name()
                ),
            }
        }
    };
    let class_label = student
        .as_ref()
        .map(|s| format!("Use my class's August (class {})", s.class));
    view! {
        <div class="whose-august" role="group" aria-label="Whose August">
            <p data-figure="whose-august">{said}</p>
            <div class="button-row">
                <button type="button" on:click=fresh>"Fresh data: another August"</button>
                {move || {
                    let here = august.get().variant;
                    let mine = own.filter(|v| *v != here).zip(class_label.clone());
                    mine.map(|(v, label)| view! {
                        <button type="button" on:click=move |_| switch(v)>{label}</button>
                    })
                }}
                <Show when=move || !august.get().variant.is_chapter()>
                    <button type="button" on:click=move |_| switch(Variant::CHAPTER)>"Back to the chapter's August"</button>
                </Show>
            </div>
            <p class="muted">"Another August starts the lab over: a new prediction, and no runs yet."</p>
        </div>
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
