//! Step 1's answer, once the ship date is predicted: the prediction's
//! verdict, the room's spread, the drift query's rows and the row counts
//! beside them, all from the engine's August. Part of the lab's engine
//! chunk (`super::engine`), as the August it reads is.

use leptos::prelude::*;

use crate::labs::backfill::case::aug;
use crate::labs::backfill::Case;
use crate::labs::tally::Tally;
use crate::ui::room_tally::TallySpread;

use super::super::drift_table::DriftTable;
use super::focus::focus;
use super::Lab;

/// The answer for the August `case`, as the engine's table draws it.
pub fn view(case: &Case, answers: Vec<String>, room: Signal<Tally>) -> AnyView {
    let radius = case.blast_radius();
    let rows = case
        .drift()
        .into_iter()
        .filter(|r| r.drifts())
        .collect::<Vec<_>>();
    let naive = crate::engine::drift::naive_flags(&case.silver, &case.script.fx, aug(1));
    let short = crate::labs::backfill::reconcile::short_days(case);
    view! { <Answer answers=answers room=room radius=radius rows=rows naive=naive short=short /> }
        .into_any()
}

/// Step 1's answer: the prediction's verdict, the room's spread, the drift
/// query's rows and the row counts beside them, all from the engine's
/// August.
#[component]
fn Answer(
    answers: Vec<String>,
    room: Signal<Tally>,
    /// The days the drift query flags.
    radius: Vec<crate::engine::calendar::Day>,
    rows: Vec<crate::engine::drift::DriftRow>,
    /// The days a look at totals alone would flag.
    naive: Vec<crate::engine::calendar::Day>,
    short: (Vec<crate::labs::backfill::reconcile::ShortDay>, usize),
) -> impl IntoView {
    let lab = expect_context::<Lab>();
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
            <RowCounts short=short />
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

/// Beside the drift query, the check it cannot replace: rows per day
/// against bronze (`labs::backfill::reconcile`).
#[component]
fn RowCounts(short: (Vec<crate::labs::backfill::reconcile::ShortDay>, usize)) -> impl IntoView {
    let (short, matched) = short;
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
