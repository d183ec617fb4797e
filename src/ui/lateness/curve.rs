//! Completeness against allowed lateness, with the current point marked,
//! and the same numbers as a table: for a generated month or the user's
//! own log.

use leptos::prelude::*;

use crate::engine::lateness::{percent, Lateness};
use crate::labs::lateness::chart::{Chart, HEIGHT, NARROW_WIDTH, WIDTH};
use crate::labs::lateness::MAX_DAYS;

#[component]
pub fn Curve(
    /// (lateness, by events, by value) for 0..=14 days.
    #[prop(into)]
    curve: Signal<Vec<(u32, u32, u32)>>,
    /// The current setting and its completeness by value.
    #[prop(into)]
    current: Signal<(Lateness, u32)>,
    /// Where every event is complete, in days (may be past the slider).
    #[prop(into)]
    full_at: Signal<Option<u32>>,
    /// What the curve is of: "August", "your data".
    subject: &'static str,
) -> impl IntoView {
    // A phone draws the chart in fewer units, so its labels stay legible.
    let width = if crate::ui::widgets::media_matches("(max-width: 640px)") {
        NARROW_WIDTH
    } else {
        WIDTH
    };
    let chart = Memo::new(move |_| Chart::sized(&curve.read(), width));
    let marker = move || {
        let chart = chart.read();
        let (lateness, value_bp) = current.get();
        let l = match lateness {
            Lateness::Days(l) => l,
            Lateness::Never => MAX_DAYS,
        };
        (chart.x(l), chart.y(value_bp), chart.plot_bottom())
    };
    view! {
        <section class="curve" aria-labelledby="curve-heading">
            <h2 id="curve-heading">"Completeness against allowed lateness"</h2>
            <svg
                viewBox=format!("0 0 {width} {HEIGHT}")
                role="img"
                aria-labelledby="curve-title curve-desc"
                class="chart"
            >
                <title id="curve-title">{format!("Share of {subject} complete for each allowed lateness from 0 to 14 days")}</title>
                <desc id="curve-desc">
                    {move || {
                        let c = curve.read();
                        let first = c.first().map(|p| percent(p.2)).unwrap_or_default();
                        let full = match full_at.get() {
                            Some(days) => format!("rising to 100 % by {}", crate::counted::counted(days, "day")),
                            None => "never reaching 100 %".to_string(),
                        };
                        format!("By value, {first} at 0 days {full}; the table below lists every point.")
                    }}
                </desc>
                {move || {
                    let chart = chart.get();
                    let (left, right, bottom) = (chart.plot_left(), chart.plot_right(), chart.plot_bottom());
                    view! {
                        <g class="grid">
                            {chart
                                .y_ticks
                                .iter()
                                .map(|(label, y)| {
                                    view! {
                                        <line x1=left x2=right y1=*y y2=*y />
                                        <text x=left - 6 y=*y + 4 text-anchor="end">{label.clone()}</text>
                                    }
                                })
                                .collect_view()}
                            {chart
                                .x_ticks
                                .iter()
                                .map(|(label, x)| view! { <text x=*x y=bottom + 18 text-anchor="middle">{label.clone()}</text> })
                                .collect_view()}
                            <text x=(left + right) / 2 y=bottom + 36 text-anchor="middle">"allowed lateness (days)"</text>
                        </g>
                        <path class="line count" d=chart.count_path.clone() />
                        <path class="line value" d=chart.value_path.clone() />
                    }
                }}
                {move || {
                    let (x, y, bottom) = marker();
                    view! {
                        <line class="marker-line" x1=x x2=x y1=y y2=bottom />
                        <circle class="marker" cx=x cy=y r="7" />
                    }
                }}
            </svg>
            <p class="legend-line">
                <span class="swatch value" aria-hidden="true"></span>" by value (solid)   "
                <span class="swatch count" aria-hidden="true"></span>" by number of events (dashed)   "
                <span aria-hidden="true">"●"</span>" the current setting"
            </p>
            <details class="explain">
                <summary>"The curve as a table"</summary>
                <div class="table-wrap">
                    <table>
                        <caption class="visually-hidden">"Completeness for each allowed lateness"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Allowed lateness"</th>
                                <th scope="col">"Complete by value"</th>
                                <th scope="col">"Complete by count"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                curve
                                    .get()
                                    .into_iter()
                                    .map(|(l, count, value)| {
                                        let current = current.read().0 == Lateness::Days(l);
                                        view! {
                                            <tr class:current=current>
                                                <th scope="row">{crate::counted::counted(l, "day")}{current.then_some(" (current)")}</th>
                                                <td>{percent(value)}</td>
                                                <td>{percent(count)}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tbody>
                    </table>
                </div>
            </details>
        </section>
    }
}
