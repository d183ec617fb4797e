//! The three figures that move with the slider.

use crate::engine::calendar::{weekday_day_month, weekday_day_month_time};
use leptos::prelude::*;

use crate::engine::lateness::{percent, Lateness, LatenessFigures};

use super::Lab;

fn long_date(day: chrono::NaiveDate) -> String {
    weekday_day_month(day)
}

/// "3 partitions": the open-each-night figure.
pub fn open_text(f: &LatenessFigures) -> String {
    match f.open_partitions {
        Some(1) => "1 partition".to_string(),
        Some(n) => format!("{n} partitions"),
        None => "all of them".to_string(),
    }
}

/// "✓ Thu 3 Sep": the close figure, on time or not in words too.
pub fn close_text(f: &LatenessFigures) -> String {
    match f.close_on {
        None => "never".to_string(),
        Some(day) if f.on_time() => format!("✓ {}", long_date(day)),
        Some(day) => format!("✗ {}", long_date(day)),
    }
}

#[component]
pub fn Figures() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let f = lab.figures;
    view! {
        <div class="figures">
            <section class="figure" aria-labelledby="fig-complete">
                <h2 id="fig-complete">"Complete"</h2>
                <p class="big" data-figure="completeness">{move || percent(f.read().complete_value_bp)}</p>
                <p>
                    "of August's value reaches its own day before the day is final; "
                    {move || {
                        let f = f.read();
                        format!("{} of events ({} of {}).", percent(f.complete_count_bp), f.complete.count, lab.study.read().total.count)
                    }}
                </p>
            </section>
            <section class="figure" aria-labelledby="fig-open">
                <h2 id="fig-open">"Open each night"</h2>
                <p class="big" data-figure="open">{move || open_text(&f.read())}</p>
                <p>
                    {move || match f.read().lateness {
                        Lateness::Days(0) => "Only yesterday is still open: a late row can change it until tonight's run, after which it is final. A partition-list run rebuilds it each night; a watermark run writes only the partitions its new rows fall in.".to_string(),
                        Lateness::Days(l) => format!("Yesterday and the {} before it are still open: a late row can still change them. A partition-list run rebuilds all of them each night; a watermark run writes only the partitions its new rows fall in.", crate::counted::counted(l, "day")),
                        Lateness::Never => "Nothing is ever final, so every run has to rebuild every day it has built so far.".to_string(),
                    }}
                </p>
            </section>
            <section class="figure" aria-labelledby="fig-close">
                <h2 id="fig-close">"August closes"</h2>
                <p class="big" data-figure="close">{move || close_text(&f.read())}</p>
                <p>
                    {move || {
                        let f = f.read();
                        let deadline = f.deadline.map(long_date).unwrap_or_default();
                        match (f.close_on, f.last_final_at) {
                            (Some(close), Some(final_at)) if f.on_time() => format!(
                                "On time for the deadline ({deadline}, the 3rd business day): 31 Aug is final after the run at {}, so finance can close on {}.",
                                weekday_day_month_time(final_at),
                                long_date(close),
                            ),
                            (Some(_), Some(final_at)) => format!(
                                "Late: 31 Aug is only final after the run at {}, {} after the deadline ({deadline}).",
                                weekday_day_month_time(final_at),
                                crate::counted::counted(f.business_days_late().unwrap_or(0), "business day"),
                            ),
                            _ => format!("With no finalisation any later event can still change August, so finance can never sign it off (deadline {deadline})."),
                        }
                    }}
                </p>
            </section>
        </div>
    }
}
