//! Presenter mode's side by side: the slider's setting next to a second
//! one (`compare=` in the address), each with its three figures, and what
//! the second changes in each.

use leptos::prelude::*;

use crate::engine::lateness::{percent, Lateness, LatenessFigures};
use crate::labs::lateness::compare::differences;
use crate::labs::lateness::figures::{close_text, open_text};
use crate::labs::lateness::MAX_DAYS;

use super::{lateness_text, Lab};

fn column(heading: String, f: &LatenessFigures) -> impl IntoView {
    let (open, close) = (open_text(f), close_text(f));
    view! {
        <section class="compare-column">
            <h3>{heading}</h3>
            <dl>
                <dt>"Complete"</dt>
                <dd class="big">{percent(f.complete_value_bp)}</dd>
                <dt>"Open each night"</dt>
                <dd class="big">{open}</dd>
                <dt>"August closes"</dt>
                <dd class="big">{close}</dd>
            </dl>
        </section>
    }
}

/// The choices for the second setting: none, 0..14 days, never.
fn options() -> Vec<(String, String)> {
    std::iter::once((String::new(), "no second setting".to_string()))
        .chain((0..=MAX_DAYS).map(|n| (n.to_string(), lateness_text(Lateness::Days(n)))))
        .chain([("never".to_string(), lateness_text(Lateness::Never))])
        .collect()
}

#[component]
pub fn Comparison() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let compare = Memo::new(move |_| lab.settings.read().compare);
    let current = move || {
        compare
            .get()
            .map_or(String::new(), crate::labs::lateness::query::lateness_value)
    };
    let pick = move |ev: leptos::ev::Event| {
        let second = crate::labs::lateness::query::read_lateness(&event_target_value(&ev));
        lab.update(|s| s.compare = second);
    };
    view! {
        <div class="compare-pick">
            <label for="compare-with">"Side by side with"</label>
            <select id="compare-with" on:change=pick prop:value=current>
                {options()
                    .into_iter()
                    .map(|(value, label)| view! { <option value=value>{label}</option> })
                    .collect_view()}
            </select>
        </div>
        {move || {
            let second = compare.get()?;
            let first = lab.figures.get();
            let other = lab.study.read().figures(second);
            let [complete, open, close] = differences(&first, &other);
            Some(view! {
                <section class="comparison" aria-labelledby="comparison-heading" data-figure="comparison">
                    <h2 id="comparison-heading">{format!("{} against {}", lateness_text(first.lateness), lateness_text(second))}</h2>
                    <div class="compare-columns">
                        {column(format!("Allowed lateness: {}", lateness_text(first.lateness)), &first)}
                        {column(format!("Allowed lateness: {}", lateness_text(second)), &other)}
                    </div>
                    <ul class="differences">
                        <li>{complete}</li>
                        <li>{open}</li>
                        <li>{close}</li>
                    </ul>
                </section>
            })
        }}
    }
}
