//! Prediction first: the student names the silently-losing cell before
//! the verdicts are shown. Instructors can skip straight to them.

use leptos::prelude::*;

use crate::labs::state_write::{Cell, Prediction};

use super::Lab;

fn prediction_name(p: Prediction) -> &'static str {
    match p {
        Prediction::Cell(cell) => cell.name(),
        Prediction::NoCell => "none of them",
    }
}

fn names(cells: &[Cell]) -> String {
    let names: Vec<&str> = cells.iter().map(|c| c.name()).collect();
    match names.as_slice() {
        [] => "none of them".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[component]
pub fn Predict() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let options: Vec<Prediction> = Cell::ALL
        .into_iter()
        .map(Prediction::Cell)
        .chain([Prediction::NoCell])
        .collect();
    let reveal = move || {
        lab.revealed.set(true);
        lab.set_run(usize::MAX);
    };
    view! {
        <section class="predict" aria-labelledby="predict-heading">
            <h2 id="predict-heading">"Predict first"</h2>
            <Show
                when=move || lab.revealed.get()
                fallback=move || {
                    view! {
                        <fieldset class="radio-group">
                            <legend>"Which pipeline will lose orders without any of the usual checks noticing?"</legend>
                            {options
                                .iter()
                                .enumerate()
                                .map(|(i, p)| {
                                    let p = *p;
                                    let id = format!("predict-{i}");
                                    view! {
                                        <span class="radio">
                                            <input
                                                type="radio"
                                                id=id.clone()
                                                name="prediction"
                                                prop:checked=move || lab.prediction.get() == Some(p)
                                                on:change=move |_| lab.prediction.set(Some(p))
                                            />
                                            <label for=id>{prediction_name(p)}</label>
                                        </span>
                                    }
                                })
                                .collect_view()}
                        </fieldset>
                        <div class="button-row">
                            <button
                                type="button"
                                class="primary"
                                disabled=move || lab.prediction.get().is_none()
                                on:click=move |_| reveal()
                            >
                                "Lock in and reveal the verdicts"
                            </button>
                            <button type="button" on:click=move |_| {
                                lab.prediction.set(None);
                                reveal();
                            }>"Skip the prediction"</button>
                        </div>
                    }
                }
            >
                <div class="prediction-result" role="status">
                    {move || {
                        let silent = lab.silent.get();
                        let truth = format!("With these settings the silent one is: {}.", names(&silent));
                        match lab.prediction.get() {
                            Some(p) if p.is_right(&silent) => format!("✓ Right: you picked {}. {truth}", prediction_name(p)),
                            Some(p) => format!("✗ Not this time: you picked {}. {truth}", prediction_name(p)),
                            None => format!("Prediction skipped. {truth}"),
                        }
                    }}
                </div>
                <button type="button" on:click=move |_| {
                    lab.revealed.set(false);
                    lab.prediction.set(None);
                }>"Hide the verdicts and predict again"</button>
            </Show>
        </section>
    }
}
