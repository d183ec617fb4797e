//! A backfill run's outcome: the drift it leaves, the source pool's
//! timeline, the finance report and the restatement note: a chunk of the
//! backfill part's wasm of its own (`ui::later`), so the lab's first
//! screen (the plan and the prediction) answers before it has downloaded.

use leptos::prelude::*;

use crate::labs::backfill::outcome::outcome as outcome_of;
use crate::ui::copy::CopyButton;
use crate::ui::later::Later;

use super::Lab;

/// What the chunk holds: the outcome of the runs so far, drawn.
pub struct Outcome {
    pub view: fn() -> AnyView,
}

/// The outcome itself: only the backfill part's `#[lazy]` loader names it
/// (src/bin/partition-lab-backfill.rs).
pub static OUTCOME: Outcome = Outcome { view };

/// The outcome, in the backfill part a chunk of its own.
pub static LATER: Later<Outcome> = Later::new();

/// What the run section says when a run has ended before it has come.
pub const FETCHING: &str = "Fetching the run's outcome…";
/// What it says when it could not be fetched.
pub const NOT_FETCHED: &str =
    "The run's outcome could not be fetched: check the connection, then try again.";

fn view() -> AnyView {
    let lab = expect_context::<Lab>();
    let outcome = Memo::new(move |_| {
        let runs = lab.finished.get();
        if runs.is_empty() || lab.current.read().is_some() {
            return None;
        }
        let choices = lab.choices.get_untracked();
        lab.case
            .with(|case| case.as_ref().map(|case| outcome_of(case, &runs, &choices)))
    });
    (move || {
        outcome
            .get()
            .map(|o| {
                view! {
                    <div class="run-outcome">
                        <p class="outcome-headline">{o.headline()}</p>
                        {lab.finished.with(|runs| crate::labs::pool::from_executions(runs, crate::labs::backfill::case::SOURCE_POOL)).map(|picture| view! {
                            <crate::ui::pool_timeline::PoolTimeline picture=picture id="pool" title="The source pool's 4 connections during the runs so far" />
                        })}
                        <dl class="facts">
                            <dt>"Remaining drift"</dt>
                            <dd data-figure="remaining">{o.remaining()}</dd>
                            {(!o.kept.is_empty()).then(|| view! {
                                <dt>"Rebuilt from no rows, still full"</dt>
                                <dd data-figure="kept">{o.kept.join(" ")}</dd>
                            })}
                            <dt>"Gold partitions still old"</dt>
                            <dd>{o.gold_left}</dd>
                            <dt>"Rebuilt but needed no rebuild"</dt>
                            <dd data-figure="needless">{o.needless}</dd>
                            <dt>"Partitions rebuilt more than once"</dt>
                            <dd data-figure="twice">{o.rebuilt_twice}</dd>
                            <dt>"Finance total, 1–13 Aug"</dt>
                            <dd data-figure="finance">{o.finance()}</dd>
                            <dt>"Finance report"</dt>
                            <dd>{o.report()}</dd>
                        </dl>
                        {o.shows_note().then(|| {
                            let text = o.note.join("\n");
                            view! {
                                <section class="restatement" aria-labelledby="restatement-heading">
                                    <h3 id="restatement-heading">"What finance receives"</h3>
                                    <ul data-figure="restatement">
                                        {o.note.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}
                                    </ul>
                                    <CopyButton text=text what="The restatement note".to_string() />
                                </section>
                            }
                        })}
                    </div>
                }
            })
    })
    .into_any()
}
