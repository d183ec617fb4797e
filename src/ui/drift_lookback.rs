//! Scenario 4's drift query, run by the student from a look-back date of
//! their choosing. The evidence is not handed over: a date after the first
//! bad day finds only the later ones, as a query over a real warehouse
//! sees only what it scans. The query runs the week, so it comes with the
//! grader's chunk (`canvas::grader`): a query run before it has come says
//! it is fetching, then answers.

use leptos::prelude::*;

use crate::engine::calendar::day_month;
use crate::engine::Script;
use crate::scenarios::stories::currency::{drift_window, lookback_from};
use crate::scenarios::Scenario;
use crate::ui::canvas::grader;
use crate::ui::later::Fetch;
use crate::variant::Variant;

use super::drift_table::DriftTable;

/// The query over `scenario`'s August in the page's `variant`.
#[component]
pub fn DriftLookBack(scenario: &'static Scenario, variant: Variant) -> impl IntoView {
    let (first, last) = drift_window();
    let typed = RwSignal::new(String::new());
    let ran = RwSignal::new(None::<chrono::NaiveDate>);
    let error = RwSignal::new(None::<String>);
    let query = Fetch::new(&grader::LATER);
    // Made by the grader's maker on the first run, then kept.
    let script = StoredValue::new(std::sync::OnceLock::<Script>::new());
    // A refused date leaves no earlier result under its message: what
    // shows is always the answer to what the field says.
    let run = move |_| match lookback_from(&typed.get_untracked()) {
        Ok(from) => {
            error.set(None);
            ran.set(Some(from));
            query.start();
        }
        Err(why) => {
            ran.set(None);
            error.set(Some(why));
        }
    };
    let result = move || {
        let grader = query.ready.get()?;
        ran.get().map(|from| {
            let scanned = script.with_value(|made| {
                let script = made.get_or_init(|| (grader.make_script)(scenario, variant));
                (grader.drift)(script, from)
            });
            let rows: Vec<_> = scanned.iter().filter(|r| r.drifts()).cloned().collect();
            let days = scanned.len();
            let found = match rows.len() {
                0 => "none is more than a penny out".to_string(),
                1 => "1 is more than a penny out".to_string(),
                n => format!("{n} are more than a penny out"),
            };
            let said = format!(
                "Scanned {} of silver, {} to {}: {found}. Days before {} were not looked at.",
                crate::counted::counted(days, "day"),
                day_month(from),
                day_month(last),
                day_month(from),
            );
            let caption = format!(
                "The drift query from {}, on Friday 14 August",
                day_month(from)
            );
            view! {
                <p role="status" data-figure="lookback">{said}</p>
                {(!rows.is_empty()).then(|| view! { <DriftTable rows=rows caption=caption /> })}
            }
        })
    };
    view! {
        <section class="drift-lookback" aria-labelledby="lookback-heading">
            <h2 id="lookback-heading">"The drift query"</h2>
            <p>
                "It recomputes each day of silver from bronze with the fixed logic, rounding each row to the penny as the fix does, and lists the days whose stored total is more than a penny away. It scans silver from the date you give it: on a real warehouse every day further back costs a scan, and a day it does not scan it cannot find."
            </p>
            <div class="lookback-row">
                <label for="lookback-from">"Look back from"</label>
                <input id="lookback-from" type="date" min=first.to_string() max=last.to_string()
                    prop:value=move || typed.get() aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                    aria-describedby="lookback-error"
                    on:input=move |ev| typed.set(event_target_value(&ev))
                    on:change=move |ev| typed.set(event_target_value(&ev)) />
                <button type="button" class="primary" on:click=run>"Run the drift query"</button>
            </div>
            <p class="field-error" id="lookback-error" role="alert">{move || error.get()}</p>
            // On the page from the start, so a change of its words is said.
            {query.status(
                "Fetching the drift query (the first run only).",
                "The drift query could not be fetched: check the connection, then try again.",
            )}
            {result}
        </section>
    }
}
