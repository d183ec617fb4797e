//! The lab's question before its figures (SPEC 9, 12): the student (or in
//! presenter mode the room, by key) says what share of August's value is in
//! its day when the day becomes final; until then no figure that answers
//! it is drawn. The answer is in the address, so the moment after is a
//! link; moving the slider afterwards is free.

use leptos::prelude::*;

use crate::labs::lateness::guess::{feedback, question, Guess, Share};
use crate::labs::tally::Tally;
use crate::ui::room_tally::{TallyForm, TallySpread};
use crate::vocabulary::Choice;

use super::Lab;

/// The answers, lettered as a room calls them out.
pub const LETTERS: [char; 4] = ['A', 'B', 'C', 'D'];

/// The answers as the room's tally names them.
fn answers() -> Vec<String> {
    Share::ALL
        .iter()
        .zip(LETTERS)
        .map(|(share, letter)| format!("{letter}. {}", share.label()))
        .collect()
}

/// The room's hands so far (none entered: an empty tally).
fn room(lab: Lab) -> Signal<Tally> {
    Signal::derive(move || {
        lab.settings
            .read()
            .room
            .unwrap_or_else(|| Tally::empty(Share::ALL.len()))
    })
}

#[component]
pub fn Predict() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let lock = move || {
        if let Some(share) = lab.picking.get_untracked() {
            lab.update(|s| {
                s.guess = Some(Guess::Picked {
                    share,
                    at: s.lateness,
                })
            });
        }
    };
    let present = move || lab.settings.read().present;
    view! {
        <section class="predict" aria-labelledby="predict-heading">
            <h2 id="predict-heading">"Predict first"</h2>
            <fieldset class="radio-group">
                <legend>
                    {move || {
                        let s = lab.settings.read();
                        question(s.profile.label(), lab.live.get())
                    }}
                </legend>
                {Share::ALL
                    .iter()
                    .copied()
                    .zip(LETTERS)
                    .enumerate()
                    .map(|(i, (share, letter))| {
                        let id = format!("predict-share-{i}");
                        view! {
                            <span class="radio">
                                <input
                                    type="radio"
                                    id=id.clone()
                                    name="predict-share"
                                    prop:checked=move || lab.picking.get() == Some(share)
                                    on:change=move |_| lab.picking.set(Some(share))
                                />
                                <label for=id>{format!("{letter}. {}", share.label())}</label>
                            </span>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <div class="button-row">
                <button
                    type="button"
                    class="primary"
                    disabled=move || lab.picking.get().is_none()
                    on:click=move |_| lock()
                >
                    "Lock in and show the figures"
                </button>
                <button type="button" on:click=move |_| lab.update(|s| s.guess = Some(Guess::Skipped))>
                    "Skip the question"
                </button>
            </div>
            <Show when=present>
                <p class="muted">"Clicker: keys 1 to 4 (or A to D) enter the room's answer, then PageDown shows the figures."</p>
                <TallyForm
                    answers=answers()
                    tally=room(lab)
                    set=Callback::new(move |t| lab.update(|s| s.room = Some(t)))
                />
            </Show>
            <p class="clicker-note" role="status">{move || lab.cue.get()}</p>
        </section>
    }
}

/// After the answer: what it was, from the figures at the lateness it was
/// given at, and a way to be asked again.
#[component]
pub fn Answered() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let said = move || {
        let guess = lab.settings.read().guess?;
        let at = match guess {
            Guess::Picked { at, .. } => at,
            Guess::Skipped => lab.settings.read().lateness,
        };
        Some(feedback(guess, &lab.study.read().figures(at)))
    };
    // The right band: the share at the lateness the answer was given at.
    let right = Signal::derive(move || {
        let s = lab.settings.read();
        let at = match s.guess {
            Some(Guess::Picked { at, .. }) => at,
            _ => s.lateness,
        };
        let band = Share::of(lab.study.read().figures(at).complete_value_bp);
        Share::ALL.iter().map(|b| *b == band).collect::<Vec<bool>>()
    });
    let hands = move || lab.settings.read().room.is_some_and(|t| t.total() > 0);
    view! {
        <div class="prediction-result" role="status">
            <p>{said}</p>
            <Show when=hands>
                <TallySpread answers=answers() tally=room(lab) right=right />
            </Show>
            <button type="button" on:click=move |_| {
                lab.picking.set(None);
                lab.update(|s| s.guess = None);
            }>"Hide the figures and predict again"</button>
        </div>
    }
}
