//! How late events arrive: a generated month's or the user's own.

use leptos::prelude::*;

use crate::engine::lateness::{basis_points, percent};

#[component]
pub fn Histogram(
    /// (delay bucket, events) in bucket order.
    #[prop(into)]
    buckets: Signal<Vec<(&'static str, u64)>>,
    /// What the events are, under the heading.
    #[prop(into)]
    about: Signal<String>,
) -> impl IntoView {
    view! {
        <section class="histogram" aria-labelledby="histogram-heading">
            <h2 id="histogram-heading">"How late events arrive"</h2>
            <p class="muted">{move || about.get()}</p>
            <table>
                <caption class="visually-hidden">"Arrival delay histogram"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Delay"</th>
                        <th scope="col">"Events"</th>
                        <th scope="col">"Share"</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let buckets = buckets.read();
                        let total = buckets.iter().fold(0i128, |sum, (_, n)| sum.saturating_add(i128::from(*n)));
                        let biggest = buckets.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
                        buckets
                            .iter()
                            .map(|(label, n)| {
                                let share = basis_points(i128::from(*n), total);
                                // An SVG bar, not an inline style: the CSP allows no style attributes.
                                let width = (n.saturating_mul(100) / biggest).max(u64::from(*n > 0));
                                view! {
                                    <tr>
                                        <th scope="row">{*label}</th>
                                        <td class="bar-cell">
                                            <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                                                <rect width=width height="10" rx="1"></rect>
                                            </svg>
                                            <span class="bar-count">{*n}</span>
                                        </td>
                                        <td>{percent(share)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </section>
    }
}
