//! Events that arrive after their day is final, and where they go.

use crate::engine::calendar::weekday_day_month_time;
use leptos::prelude::*;

use crate::engine::lateness::Lateness;
use crate::engine::Money;
use crate::labs::lateness::AfterPolicy;

use super::super::widgets::RadioGroup;
use crate::labs::lateness::late_sentence;

use super::Lab;

fn month_name(month: u32) -> &'static str {
    match month {
        8 => "August",
        9 => "September",
        10 => "October",
        _ => "a later month",
    }
}

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
                let f = lab.figures.get();
                if f.lateness == Lateness::Never {
                    return view! { <p data-figure="late">"Nothing is ever final, so no event misses its day, and nothing is ever closed either."</p> }.into_any();
                }
                let late = f.after_final;
                let value = Money::gbp(late.value).grouped();
                let summary = late_sentence(late.count, &format!(" worth {value}"), policy.get());
                let examples = match f.lateness {
                    Lateness::Days(l) => lab.study.read().missed_examples(l, 4),
                    Lateness::Never => Vec::new(),
                };
                let examples = (!examples.is_empty()).then(|| {
                    view! {
                        <p>"For example:"</p>
                        <ul class="late-examples">
                            {examples
                                .into_iter()
                                .map(|e| {
                                    view! {
                                        <li>
                                            {format!(
                                                "{} ({}) happened {}, arrived {}: needed {} of lateness.",
                                                e.id,
                                                Money::gbp(e.value).grouped(),
                                                weekday_day_month_time(e.event_time),
                                                weekday_day_month_time(e.arrived_at),
                                                crate::counted::counted(e.needed, "day"),
                                            )}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                });
                let body = match policy.get() {
                    AfterPolicy::Drop => view! {
                        <p data-figure="late">{summary}</p>
                        <p class="alarm">
                            <span aria-hidden="true">"✕ "</span>
                            {format!("Lost: {value} never reaches any report, and nothing tells finance.")}
                        </p>
                    }
                    .into_any(),
                    AfterPolicy::Adjust => view! {
                        <p data-figure="late">{summary}</p>
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
                                <tr>
                                    <th scope="row">"August"</th>
                                    <td>"final daily partitions"</td>
                                    <td>{Money::gbp(f.complete.value).grouped()}</td>
                                </tr>
                                {f.adjustments_by_month
                                    .iter()
                                    .map(|((_, month), tally)| {
                                        view! {
                                            <tr>
                                                <th scope="row">{month_name(*month)}</th>
                                                <td>{format!("adjustments for earlier August days ({} events)", tally.count)}</td>
                                                <td>{Money::gbp(tally.value).grouped()}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    }
                    .into_any(),
                };
                view! { {body} {examples} }.into_any()
            }}
        </section>
    }
}
