//! Events that arrive after their day is final, and where they go, in the
//! words `labs::lateness::late` gives them.

use leptos::prelude::*;

use crate::labs::lateness::late::{late, NEVER_FINAL};
use crate::labs::lateness::AfterPolicy;

use super::super::widgets::RadioGroup;
use super::Lab;

#[component]
pub fn LateRows() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let policy = Memo::new(move |_| lab.settings.read().after);
    view! {
        <section class="late-rows" aria-labelledby="late-heading">
            <h2 id="late-heading">"Events that miss their day"</h2>
            <RadioGroup
                legend="An event that arrives after its partition is final is"
                name="after"
                options=vec![(AfterPolicy::Drop, "dropped"), (AfterPolicy::Adjust, "booked to an adjustments table")]
                current=Signal::derive(move || policy.get())
                on_pick=move |p| lab.update(|s| s.after = p)
            />
            {move || {
                let said = lab.study.with(|s| late(s, &lab.figures.read(), policy.get()));
                let Some(said) = said else {
                    return view! { <p data-figure="late">{NEVER_FINAL}</p> }.into_any();
                };
                let lost = said.lost.map(|lost| view! {
                    <p class="alarm">
                        <span aria-hidden="true">"✕ "</span>
                        {lost}
                    </p>
                });
                let report = said.report.map(|rows| view! {
                    <table class="report">
                        <caption>"Finance report lines for August's purchases"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Report"</th>
                                <th scope="col">"Line"</th>
                                <th scope="col">"Amount"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {rows
                                .into_iter()
                                .map(|r| view! {
                                    <tr>
                                        <th scope="row">{r.month}</th>
                                        <td>{r.line}</td>
                                        <td>{r.amount}</td>
                                    </tr>
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                });
                let examples = (!said.examples.is_empty()).then(|| view! {
                    <p>"For example:"</p>
                    <ul class="late-examples">
                        {said.examples.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                    </ul>
                });
                view! {
                    <p data-figure="late">{said.sentence}</p>
                    {lost}
                    {report}
                    {examples}
                }
                .into_any()
            }}
        </section>
    }
}
