//! Each of silver.orders' August partitions as the backfill leaves it.

use chrono::Datelike;
use leptos::prelude::*;

use crate::engine::Money;
use crate::labs::backfill::view::{grid_asking, Phase};

use super::Lab;

#[component]
pub fn Grid() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let boxes = Memo::new(move |_| {
        let choices = lab.choices.get();
        // Until the prediction nothing has run and the grid is the plan's
        // alone: the engine's August (`lab.case`, a chunk of its own) is
        // fetched and built for the answer, not for the first screen.
        let Some(engine) = lab.answering() else {
            return grid_asking(&choices);
        };
        let finished = lab.finished.get();
        let current = lab.current.get();
        let minute = lab.minute.get();
        lab.case.with(|case| {
            let now = current
                .as_ref()
                .map(|e| (e, e.started + chrono::Duration::minutes(minute)));
            case.as_ref()
                .map(|case| (engine.grid)(case, &choices, &finished, now))
                .unwrap_or_else(|| grid_asking(&choices))
        })
    });
    // What each box says comes from the engine: until it has, the boxes
    // ask as they did before the prediction.
    let answered = move || lab.answered();
    view! {
        <section aria-labelledby="grid-heading">
            <h2 id="grid-heading">"silver.orders in August: each day's partition"</h2>
            <ol class="grid14">
                {move || {
                    boxes
                        .get()
                        .into_iter()
                        .map(|b| {
                            let (glyph, built) = if !answered() && !b.tonight {
                                ("▢", "built")
                            } else if b.tonight {
                                ("☾", "tonight, fixed code")
                            } else if b.rebuilds > 0 {
                                ("✓", "rebuilt, fixed code")
                            } else if b.built_broken {
                                ("✕", "broken code")
                            } else {
                                ("✓", "correct")
                            };
                            let phase_class = match b.phase {
                                Phase::Untouched => "",
                                Phase::SilverRunning | Phase::GoldRunning => "running",
                                Phase::SilverDone => "half",
                                Phase::Done => "rebuilt",
                            };
                            let still_broken = b.built_broken && b.drift > 1;
                            let outside = !b.in_plan && !b.tonight;
                            view! {
                                <li>
                                    <div
                                        role="group"
                                        aria-label=b.accessible_name.clone()
                                        class=format!("pbox {phase_class}")
                                        class:broken=still_broken
                                        class:tonight=b.tonight
                                        class:asking=!answered() && !b.tonight
                                        class:out=outside
                                    >
                                        <span class="pbox-day">{format!("{:02}", b.dt.day())}</span>
                                        <span class="pbox-built"><span aria-hidden="true">{glyph}" "</span>{built}</span>
                                        {(!b.tonight && answered()).then(|| view! {
                                            <span class="pbox-drift">
                                                {if b.drift > 1 { format!("−{}", Money::gbp(b.drift).grouped()) } else { "no drift".to_string() }}
                                            </span>
                                        })}
                                        {(b.phase != Phase::Untouched).then(|| view! { <span class="pbox-phase">{b.phase.words()}{(b.rebuilds > 1).then(|| format!(" ×{}", b.rebuilds))}</span> })}
                                        {b.marker.then_some(view! { <span class="pbox-marker">"⚑ marker"</span> })}
                                        {b.stays_wrong.then_some(view! { <span class="pbox-warn">"will still be wrong after this backfill"</span> })}
                                    </div>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
            <p class="legend-line">
                {move || if lab.answered() {
                    "✕ built by the broken code · ✓ built or rebuilt by correct code · ☾ built tonight · ⚑ completion marker · a dashed box is outside the plan"
                } else if lab.predicted() {
                    "▢ built (which code built it is shown once the lab's engine has come: see step 1) · ☾ built tonight · a dashed box is outside the plan"
                } else {
                    "▢ built (which code built it is shown once you have predicted, in step 1) · ☾ built tonight · a dashed box is outside the plan"
                }}
            </p>
        </section>
    }
}
