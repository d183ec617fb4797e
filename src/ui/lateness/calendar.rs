//! A month as the nightly run sees it on a chosen day: final, rebuilt, not
//! built yet. August for the generated profiles, any month of the user's
//! log for their data.

use crate::engine::calendar::weekday_day_month;
use chrono::Datelike;
use leptos::prelude::*;

use crate::engine::calendar::{days, shift, Day};
use crate::engine::lateness::Lateness;
use crate::labs::lateness::{august, day_status, DayStatus};

use super::Lab;

/// The generated profiles' August, its day in the link.
#[component]
pub fn Calendar() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let today = Memo::new(move |_| lab.settings.read().today);
    let picker = view! {
        <label for="today-select">"Look at the run at 02:00 on"</label>
        <select
            id="today-select"
            on:change=move |ev| {
                if let Ok(day) = event_target_value(&ev).parse::<u32>() {
                    lab.update(|s| s.today = august(day));
                }
            }
        >
            {(1..=31)
                .map(|d| {
                    let day = august(d);
                    view! {
                        <option value=d.to_string() selected=move || today.get() == day>
                            {weekday_day_month(day)}
                        </option>
                    }
                })
                .collect_view()}
        </select>
    };
    view! {
        <Month
            picker=picker.into_any()
            today=Signal::derive(move || today.get())
            lateness=Signal::derive(move || lab.figures.read().lateness)
        />
    }
}

/// The month holding `today`, each day marked as the run on `today`
/// leaves it; `picker` chooses the day.
#[component]
pub fn Month(picker: AnyView, today: Signal<Day>, lateness: Signal<Lateness>) -> impl IntoView {
    let first = Memo::new(move |_| today.get().with_day(1).unwrap_or(today.get()));
    let last = Memo::new(move |_| {
        let first = first.get();
        let next = shift(first, 31).with_day(1).unwrap_or(first);
        shift(next, -1)
    });
    view! {
        <section class="calendar-box" aria-labelledby="calendar-heading">
            <h2 id="calendar-heading">"Which partitions can still change"</h2>
            {picker}
            <ol
                class="calendar"
                aria-label=move || format!("{} {}", crate::engine::calendar::month_long(first.get()), first.get().year())
            >
                {["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                    .into_iter()
                    .map(|d| view! { <li class="weekday" aria-hidden="true">{d}</li> })
                    .collect_view()}
                {move || {
                    (0..first.get().weekday().num_days_from_monday())
                        .map(|_| view! { <li class="blank" aria-hidden="true"></li> })
                        .collect_view()
                }}
                {move || {
                    let today = today.get();
                    let lateness = lateness.get();
                    days(first.get(), last.get())
                        .map(|day| {
                            let status = day_status(day, today, lateness);
                            let (class, glyph, word) = match status {
                                DayStatus::Final => ("day final", "✓", "final"),
                                DayStatus::Rebuilt => ("day rebuilt", "↻", "rebuilt"),
                                DayStatus::NotBuilt => ("day future", "·", "not built yet"),
                            };
                            let is_today = day == today;
                            view! {
                                <li class=class class:today=is_today>
                                    <span class="day-number">{day.day()}</span>
                                    <span class="day-status">
                                        <span aria-hidden="true">{glyph}" "</span>
                                        {word}
                                        {is_today.then_some(", today")}
                                    </span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
