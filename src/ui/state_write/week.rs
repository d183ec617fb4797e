//! The week the pipelines replay: orders, late arrivals and runs by day.

use crate::engine::calendar::mm_dd;
use leptos::prelude::*;

use crate::engine::calendar::weekday_short;
use crate::labs::state_write::script;
use crate::labs::state_write::view::{outage_sentence, week};

use super::Lab;

#[component]
pub fn Week() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let rows = Memo::new(move |_| {
        let controls = lab.controls.get();
        week(&script(&controls), &lab.planned.read())
    });
    view! {
        <details class="week" open=move || !lab.present.get()>
            <summary><h2>"The week being replayed"</h2></summary>
            <p>
                "Four orders a day reach bronze two minutes after they happen. Each night at 00:15, every pipeline runs for the day before and sees only what has arrived by then."
            </p>
            {move || { let controls = lab.controls.get(); outage_sentence(&script(&controls), controls.catch_up) }.map(|said| view! { <p class="outage-note"><strong>"Outage. "</strong>{said}</p> })}
            <div class="table-wrap">
                <table>
                    <caption class="visually-hidden">"Orders, late arrivals and runs, day by day"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Day"</th>
                            <th scope="col">"Orders placed"</th>
                            <th scope="col">"Late arrivals"</th>
                            <th scope="col">"Runs"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            rows.get()
                                .into_iter()
                                .map(|d| {
                                    view! {
                                        <tr>
                                            <th scope="row">
                                                {weekday_short(d.day)} " " {mm_dd(d.day)}
                                            </th>
                                            <td>
                                                <ul class="inline-list">
                                                    {d.placed
                                                        .iter()
                                                        .map(|(id, time)| {
                                                            let later = d.arrives_later.iter().find(|(l, _)| l == id).map(|(_, when)| when.clone());
                                                            match later {
                                                                Some(when) => view! {
                                                                    <li class="late-order">
                                                                        <span aria-hidden="true">"⚑ "</span>
                                                                        <strong>{id.clone()}</strong> " " {time.clone()}
                                                                        <span class="tag">" late: arrives " {when}</span>
                                                                    </li>
                                                                }.into_any(),
                                                                None => view! { <li>{id.clone()} " " {time.clone()}</li> }.into_any(),
                                                            }
                                                        })
                                                        .collect_view()}
                                                </ul>
                                            </td>
                                            <td>
                                                {if d.late_arrivals.is_empty() {
                                                    view! { <span class="muted">"none"</span> }.into_any()
                                                } else {
                                                    d.late_arrivals
                                                        .iter()
                                                        .map(|(id, happened, arrived)| {
                                                            view! {
                                                                <span class="late-order">
                                                                    <span aria-hidden="true">"⚑ "</span>
                                                                    <strong>{id.clone()}</strong>
                                                                    {format!(" (happened {happened}) arrives {arrived}")}
                                                                </span>
                                                            }
                                                        })
                                                        .collect_view()
                                                        .into_any()
                                                }}
                                            </td>
                                            <td>
                                                <ul class="plain-list">
                                                    {d.runs.iter().map(|r| view! { <li>{r.clone()}</li> }).collect_view()}
                                                </ul>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </details>
    }
}
