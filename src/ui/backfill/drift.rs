//! Step 1 of the backfill lab: the student predicts when the bad code
//! shipped, then runs the drift query and sees whether the data agrees.
//! The prediction never moves the plan; the plan's first date is its own
//! choice, so a wrong guess can be planned on and seen to leave days wrong.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::labs::backfill::case::aug;
use crate::labs::backfill::query::GUESSES;
use crate::labs::backfill::PlanStart;
use crate::labs::tally::Tally;
use crate::ui::room_tally::{TallyForm, TallySpread};

use super::super::drift_table::DriftTable;
use super::super::widgets::RadioGroup;
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
    let reveal = move |g: Option<PlanStart>| {
        lab.set_moment(crate::labs::backfill::query::Moment {
            guess: Some(g),
            ran: Vec::new(),
            room: lab.moment.get_untracked().room,
        });
        focus("guess-verdict");
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
            // The answer is drawn only once asked for: the engine's August
            // is built for it then, not for the first screen.
            <Show when=revealed>
                <Answer answers=answers() room=room() />
            </Show>
        </section>
    }
}

/// Keyboard focus to `id` once it is drawn: the button pressed
/// disappears with its half of the section.
fn focus(id: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document()
            .get_element_by_id(id)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    })
}

/// Step 1's answer: the prediction's verdict, the room's spread, the drift
/// query's rows and the row counts beside them, all from the engine's
/// August.
#[component]
fn Answer(answers: Vec<String>, room: Signal<Tally>) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let radius = lab.case.with_untracked(|case| case.blast_radius());
    let rows = lab.case.with_untracked(|case| {
        case.drift()
            .into_iter()
            .filter(|r| r.drifts())
            .collect::<Vec<_>>()
    });
    let naive = lab.case.with_untracked(|case| {
        crate::engine::drift::naive_flags(&case.silver, &case.script.fx, aug(1))
    });
    let shortcut = crate::labs::backfill::guess::shortcut(&radius, &naive);
    let right: Vec<bool> = lab
        .choices
        .with_untracked(|c| c.august.guesses())
        .iter()
        .map(|g| radius.first() == Some(&g.day()))
        .collect();
    let verdict = move || {
        lab.moment
            .read()
            .guess
            .map(|g| crate::labs::backfill::guess::verdict(&radius, g))
    };
    view! {
        <div>
            <p class="prediction-result" role="status" data-figure="guess" id="guess-verdict" tabindex="-1">
                {verdict}
            </p>
            <Show when=move || lab.moment.read().room.is_some_and(|t| t.total() > 0)>
                <TallySpread answers=answers.clone() tally=room right=right.clone() />
            </Show>
            <p>
                "The deploy date is a guess; the drift query is evidence. It recomputes every order with the fixed logic, rounding each row to the penny exactly as the fix does, and lists the days whose stored total is more than a penny away. Choose where the plan starts from its first row, not from the guess."
            </p>
            <DriftTable rows=rows caption="Drift query result" />
            <p class="muted">{shortcut}</p>
            <RowCounts />
            <button type="button" on:click=move |_| {
                lab.ticked.set(None);
                lab.set_moment(crate::labs::backfill::query::Moment {
                    room: lab.moment.get_untracked().room,
                    ..Default::default()
                });
                focus("guess-0");
            }>"Hide the result and predict again (August starts untouched)"</button>
        </div>
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

/// Beside the drift query, the check it cannot replace: rows per day
/// against bronze (`labs::backfill::reconcile`).
#[component]
fn RowCounts() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let (short, matched) = lab
        .case
        .with_untracked(crate::labs::backfill::reconcile::short_days);
    let lede = crate::labs::backfill::reconcile::lede(&short);
    let rows = short
        .iter()
        .map(|d| {
            view! {
                <tr>
                    <th scope="row">{d.dt.to_string()}</th>
                    <td>{d.bronze}</td>
                    <td>{d.silver}</td>
                    <td>{d.missing.len()}</td>
                    <td>{d.extra}</td>
                </tr>
            }
        })
        .collect_view();
    let reasons = short
        .iter()
        .flat_map(|d| {
            d.missing
                .iter()
                .chain(&d.withdrawn)
                .cloned()
                .collect::<Vec<_>>()
        })
        .map(|m| view! { <li>{m}</li> })
        .collect_view();
    view! {
        <h3 id="counts-heading">"What the drift query cannot see: rows silver never got"</h3>
        <p>{lede}</p>
        {(!short.is_empty()).then(|| view! {
            <div class="table-wrap">
                <table class="counts" data-figure="row-counts">
                    <caption>{crate::labs::backfill::reconcile::caption(matched)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"dt"</th>
                            <th scope="col">"bronze rows"</th>
                            <th scope="col">"silver rows"</th>
                            <th scope="col">"missing from silver"</th>
                            <th scope="col">"no longer in bronze"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <ul class="missing-orders">{reasons}</ul>
        })}
    }
}
