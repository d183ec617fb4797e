//! Prediction first (SPEC 9): the student names every pipeline they expect
//! to lose orders silently before any outcome that tells the pipelines
//! apart is shown. Instructors can skip straight to the verdicts. The
//! locked-in prediction is in the URL, so the moment after it is a link.

use leptos::prelude::*;

use crate::labs::state_write::query::ROOM_ANSWERS;
use crate::labs::state_write::{Cell, Guess};
use crate::labs::tally::Tally;
use crate::ui::room_tally::{TallyForm, TallySpread};

/// The room's answers, as the form and the spread name them.
fn answers() -> Vec<String> {
    Cell::ALL
        .iter()
        .map(|c| c.name().to_string())
        .chain(["none of them".to_string()])
        .collect()
}

use super::Lab;

#[component]
pub fn Predict() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let chosen = move || lab.choosing_none.get() || !lab.choosing.get().is_empty();
    let lock = move || {
        let guess = if lab.choosing_none.get_untracked() {
            Guess::NoCell
        } else {
            Guess::of(&lab.choosing.get_untracked())
        };
        lab.lock_in(guess);
    };
    view! {
        <section class="predict" aria-labelledby="predict-heading">
            <h2 id="predict-heading">"Predict first"</h2>
            <Show
                when=move || !lab.asking()
                fallback=move || {
                    view! {
                        <p class="muted">
                            {move || {
                                // Said once the engine has compared the pipelines.
                                let (Some(shared), runs) = (lab.shared.get(), lab.runs.get()) else {
                                    return String::new();
                                };
                                if shared == 0 {
                                    "The pipelines differ from the first run: their runs are shown once you predict.".to_string()
                                } else if shared < runs {
                                    format!("From run {} on the pipelines differ, so those runs and the verdicts wait for your prediction.", shared + 1)
                                } else {
                                    String::new()
                                }
                            }}
                        </p>
                        <fieldset class="radio-group">
                            <legend>"Which pipelines will lose orders without any of the usual checks noticing? Tick every one you expect: there can be more than one."</legend>
                            {Cell::ALL
                                .into_iter()
                                .enumerate()
                                .map(|(i, cell)| {
                                    let id = format!("predict-{i}");
                                    view! {
                                        <span class="radio">
                                            <input
                                                type="checkbox"
                                                id=id.clone()
                                                name="prediction"
                                                prop:checked=move || lab.choosing.get().contains(&cell)
                                                on:change=move |ev| {
                                                    let on = event_target_checked(&ev);
                                                    lab.choosing.update(|cells| {
                                                        cells.retain(|c| *c != cell);
                                                        if on {
                                                            cells.push(cell);
                                                        }
                                                    });
                                                    if on {
                                                        lab.choosing_none.set(false);
                                                    }
                                                }
                                            />
                                            // Numbered for a clicker's keys in presenter mode.
                                            <label for=id>{move || if lab.present.get() { format!("{}. {}", i + 1, cell.name()) } else { cell.name().to_string() }}</label>
                                        </span>
                                    }
                                })
                                .collect_view()}
                            <span class="radio">
                                <input
                                    type="checkbox"
                                    id="predict-none"
                                    name="prediction"
                                    prop:checked=move || lab.choosing_none.get()
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        lab.choosing_none.set(on);
                                        if on {
                                            lab.choosing.set(Vec::new());
                                        }
                                    }
                                />
                                <label for="predict-none">"none of them"</label>
                            </span>
                        </fieldset>
                        <div class="button-row">
                            <button
                                type="button"
                                class="primary"
                                disabled=move || !chosen()
                                on:click=move |_| lock()
                            >
                                "Lock in and reveal the verdicts"
                            </button>
                            <button type="button" on:click=move |_| lab.lock_in(Guess::Skipped)>"Skip the prediction"</button>
                        </div>
                        <Show when=move || lab.present.get()>
                            <p class="muted">"Clicker: keys 1 to 6 tick the room's pipelines (0 for none of them), then PageDown reveals."</p>
                            <TallyForm
                                answers=answers()
                                tally=Signal::derive(move || lab.room.get().unwrap_or_else(|| Tally::empty(ROOM_ANSWERS)))
                                set=Callback::new(move |t| lab.set_room(t))
                            />
                        </Show>
                        <p class="clicker-note" role="status">{move || lab.cue.get()}</p>
                    }
                }
            >
                // The judgement needs the verdicts (`verdicts`): said in a
                // live region there from the lock-in, so it is heard when
                // they come after it.
                <div role="status">
                    {move || lab.guess.get().zip(lab.silent.get()).map(|(g, silent)| view! {
                        <p class="prediction-result">{g.feedback(&silent)}</p>
                    })}
                </div>
                {lab.verdicts.status(super::verdicts::FETCHING, super::verdicts::NOT_FETCHED)}
                <Show when=move || lab.outcomes.read().is_none()>
                    {lab.cells.status(super::cell::JUDGING, super::cell::NOT_JUDGED)}
                </Show>
                <Show when=move || lab.silent.read().is_some() && lab.room.get().is_some_and(|t| t.total() > 0)>
                    <TallySpread
                        answers=answers()
                        tally=Signal::derive(move || lab.room.get().unwrap_or_else(|| Tally::empty(ROOM_ANSWERS)))
                        right=Signal::derive(move || {
                            let silent = lab.silent.get().unwrap_or_default();
                            Cell::ALL.iter().map(|c| silent.contains(c)).chain([silent.is_empty()]).collect()
                        })
                    />
                </Show>
                <button type="button" on:click=move |_| lab.predict_again()>"Hide the verdicts and predict again"</button>
            </Show>
        </section>
    }
}
