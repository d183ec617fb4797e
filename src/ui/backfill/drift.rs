//! Step 1 of the backfill lab: the student predicts when the bad code
//! shipped, then runs the drift query and sees whether the data agrees.
//! The prediction never moves the plan; the plan's first date is its own
//! choice, so a wrong guess can be planned on and seen to leave days wrong.

use leptos::prelude::*;

use crate::labs::backfill::query::GUESSES;
use crate::labs::backfill::PlanStart;
use crate::labs::tally::Tally;
use crate::ui::room_tally::TallyForm;

use super::super::widgets::RadioGroup;
use super::focus::{focus, focus_first};
use super::Lab;

#[component]
pub fn Drift() -> impl IntoView {
    let lab = expect_context::<Lab>();
    // The radio ticked before it is locked in; once locked, the address holds it.
    // The ship date ticked: the lab's, so a clicker's keys can tick it.
    let guess = lab.ticked;
    let revealed = move || lab.predicted();
    // The guesses are the August's (drawn again when it changes): the room's
    // answers.
    let august = lab.choices.with_untracked(|c| c.august);
    let guesses = august.guesses();
    let answers = move || {
        guesses
            .iter()
            .map(|g| g.label().to_string())
            .collect::<Vec<String>>()
    };
    let options: Vec<(Option<PlanStart>, &'static str)> =
        guesses.iter().map(|g| (Some(*g), g.label())).collect();
    let room = move || {
        Signal::derive(move || {
            lab.moment
                .read()
                .room
                .unwrap_or_else(|| Tally::empty(GUESSES))
        })
    };
    // The reader asked before the engine had come: the answer, when it
    // comes, takes their focus over (never on a link that opens the lab
    // already answered, whose reader is wherever the page left them).
    let asked_early = StoredValue::new(false);
    let reveal = move |g: Option<PlanStart>| {
        asked_early.set_value(lab.engine.ready.with_untracked(Option::is_none));
        lab.set_moment(crate::labs::backfill::query::Moment {
            guess: Some(g),
            ran: Vec::new(),
            room: lab.moment.get_untracked().room,
        });
        // The verdict, or the line saying the drift query waits for the
        // engine (it takes the focus over once the answer comes).
        focus_first(vec!["guess-verdict", "answer-wait"]);
    };
    // The clicker's reveal: the guess the room gave, by key (the clicker
    // reveals only once there is one).
    Effect::new(move |_| {
        if lab.cue.get() == Some(crate::labs::backfill::clicker::Cue::Reveal) {
            lab.cue.set(None);
            if let Some(g) = guess.get_untracked() {
                reveal(Some(g));
            }
        }
    });
    view! {
        <section aria-labelledby="drift-heading">
            <h2 id="drift-heading">"1. Which partitions are wrong: ask the data"</h2>
            <div class="predict" hidden=revealed>
                <p>"Before you look at the data: the deploy log is vague. Predict when the bad code shipped."</p>
                <RadioGroup
                    legend="When do you think the bad code shipped?"
                    name="guess"
                    options=options
                    current=Signal::derive(move || guess.get())
                    on_pick=move |g| guess.set(g)
                />
                <div class="button-row">
                    <button
                        type="button"
                        class="primary"
                        disabled=move || guess.get().is_none()
                        on:click=move |_| reveal(guess.get_untracked())
                    >
                        "Lock in and run the drift query"
                    </button>
                    <button type="button" on:click=move |_| {
                        guess.set(None);
                        reveal(None);
                    }>"Skip the prediction"</button>
                </div>
                <Show when=move || lab.present()>
                    <p class="muted">"Clicker: "{clicker_keys(august)}" enters the room's answer; PageDown runs the drift query."</p>
                    <TallyForm
                        answers=answers()
                        tally=room()
                        set=Callback::new(move |t| {
                            let mut m = lab.moment.get_untracked();
                            m.room = Some(t);
                            lab.set_moment(m);
                        })
                    />
                </Show>
                <p class="clicker-note" role="status">{move || lab.answer_note.get()}</p>
            </div>
            // The answer is drawn only once asked for, by the lab's engine
            // (a chunk of its own, `super::engine`): the first screen
            // carries none of it.
            <Show when=revealed>
                {move || {
                    // Drawn when the engine comes; another August draws
                    // the whole section again.
                    let engine = lab.engine.ready.get()?;
                    lab.case.with_untracked(|case| {
                        let case = case.as_ref()?;
                        // The reader waited on the line below: the
                        // answer takes their focus over.
                        if asked_early.get_value() && waited_here() {
                            focus("guess-verdict");
                        }
                        asked_early.set_value(false);
                        Some((engine.answer)(case, answers(), room()))
                    })
                }}
                <div id="answer-wait" tabindex="-1" hidden=move || lab.engine.ready.get().is_some()>
                    {lab.engine.status(super::engine::FETCHING, super::engine::NOT_FETCHED)}
                </div>
            </Show>
        </section>
    }
}

/// Whether the reader waited for the engine: their focus is on the line
/// that says so or in it ("Try again"), or nowhere, since a "Try again"
/// that worked is gone with its line before the answer is drawn.
fn waited_here() -> bool {
    let body = document().body().map(web_sys::Element::from);
    match document().active_element() {
        None => true,
        Some(e) => Some(&e) == body.as_ref() || e.closest("#answer-wait").ok().flatten().is_some(),
    }
}

/// "key 1 for the 3rd, 2 for the 8th, 3 for the 12th": the August's own
/// guesses.
pub fn clicker_keys(august: crate::labs::backfill::August) -> String {
    let [a, b, c] = august.guesses();
    format!(
        "key 1 for {}, 2 for {}, 3 for {}",
        a.label(),
        b.label(),
        c.label()
    )
}
