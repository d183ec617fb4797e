//! Presenter mode's show of hands at a prediction: before the reveal the
//! presenter enters how many in the room chose each answer (a number per
//! answer, or "+1" as hands go up); after it, the room's spread is drawn
//! beside the answer, each line with its count and share in words, the
//! right answers marked ✓ (never by colour alone).

use leptos::prelude::*;

use crate::labs::tally::{Tally, MOST_HANDS};

/// The form: one line per answer in `answers`; `set` takes each change.
#[component]
pub fn TallyForm(
    answers: Vec<String>,
    #[prop(into)] tally: Signal<Tally>,
    set: Callback<Tally>,
) -> impl IntoView {
    let lines = answers
        .into_iter()
        .enumerate()
        .map(|(i, answer)| {
            let id = format!("room-hands-{i}");
            let hands = move || tally.with(|t| t.hands().get(i).copied().unwrap_or(0));
            let typed = move |ev: leptos::ev::Event| {
                let mut next = tally.get_untracked();
                let n = event_target_value(&ev).trim().parse::<u16>().unwrap_or(0);
                next.set(i, n);
                set.run(next);
            };
            let plus_label = format!("+1 hand for {answer}");
            view! {
                <li>
                    <label for=id.clone()>{answer}</label>
                    <input id=id type="number" min="0" max=MOST_HANDS.to_string() inputmode="numeric"
                        prop:value=move || hands().to_string() on:change=typed />
                    <button type="button" aria-label=plus_label on:click=move |_| {
                        let mut next = tally.get_untracked();
                        next.add(i);
                        set.run(next);
                    }>"+1"</button>
                </li>
            }
        })
        .collect_view();
    view! {
        <fieldset class="room-tally">
            <legend>"The room's hands (optional): how many chose each answer"</legend>
            <ul class="plain-list">{lines}</ul>
            <p class="muted">{move || format!("{} hands so far; the spread is drawn beside the answer once it is revealed.", tally.with(Tally::total))}</p>
        </fieldset>
    }
}

/// The room's spread after the reveal: `right` marks the answers that were.
#[component]
pub fn TallySpread(
    answers: Vec<String>,
    #[prop(into)] tally: Signal<Tally>,
    #[prop(into)] right: Signal<Vec<bool>>,
) -> impl IntoView {
    let lines = move || {
        let right = right.get();
        tally.with(|t| {
            t.bars()
                .into_iter()
                .zip(&answers)
                .enumerate()
                .map(|(i, (bar, answer))| {
                    let is_right = right.get(i).copied().unwrap_or(false);
                    let words = format!(
                        "{answer}: {} ({} %){}",
                        crate::counted::counted(usize::from(bar.hands), "hand"),
                        bar.share,
                        if is_right { " ✓ the answer" } else { "" }
                    );
                    view! {
                        <li class:right=is_right>
                            <span class="room-words">{words}</span>
                            // A drawn bar, not a styled one: the page's CSP allows no inline style.
                            <svg class="room-bar" aria-hidden="true" viewBox="0 0 100 4" preserveAspectRatio="none">
                                <rect width=bar.length.to_string() height="4"></rect>
                            </svg>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <figure class="room-spread">
            <figcaption>{move || format!("The room's answers ({} hands)", tally.with(Tally::total))}</figcaption>
            <ul class="plain-list">{lines}</ul>
        </figure>
    }
}
