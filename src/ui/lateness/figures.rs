//! The three figures that move with the slider, in the words
//! `labs::lateness::figures` gives them.

use leptos::prelude::*;

use crate::engine::lateness::percent;
use crate::labs::lateness::figures::{close_line, close_text, complete_line, open_line, open_text};

use super::Lab;

#[component]
pub fn Figures() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let f = lab.figures;
    view! {
        <div class="figures">
            <section class="figure" aria-labelledby="fig-complete">
                <h2 id="fig-complete">"Complete"</h2>
                <p class="big" data-figure="completeness">{move || percent(f.read().complete_value_bp)}</p>
                <p>
                    "of August's value reaches its own day before the day is final; "
                    {move || complete_line(&f.read(), lab.study.read().total.count)}
                </p>
            </section>
            <section class="figure" aria-labelledby="fig-open">
                <h2 id="fig-open">"Open each night"</h2>
                <p class="big" data-figure="open">{move || open_text(&f.read())}</p>
                <p>{move || open_line(f.read().lateness)}</p>
            </section>
            <section class="figure" aria-labelledby="fig-close">
                <h2 id="fig-close">"August closes"</h2>
                <p class="big" data-figure="close">{move || close_text(&f.read())}</p>
                <p>{move || close_line(&f.read())}</p>
            </section>
        </div>
    }
}
