//! The drift query's result as a table: the backfill lab reveals it after
//! a prediction, scenario 4 shows it from the look-back date the student
//! runs it from.

use leptos::prelude::*;

use crate::engine::drift::DriftRow;
use crate::engine::Money;

#[component]
pub fn DriftTable(rows: Vec<DriftRow>, #[prop(into)] caption: String) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="drift">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">"dt"</th>
                        <th scope="col">"stored"</th>
                        <th scope="col">"recomputed"</th>
                        <th scope="col">"drift"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|r| view! {
                            <tr>
                                <th scope="row">{r.dt.to_string()}</th>
                                <td>{Money::gbp(r.stored).grouped()}</td>
                                <td>{Money::gbp(r.recomputed).grouped()}</td>
                                <td>{Money::gbp(r.drift()).grouped()}</td>
                            </tr>
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}
