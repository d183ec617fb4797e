//! The dates page (`/dates`): one pipeline's partition, lateness and
//! backfill on one calendar, in every tool's terms. It draws what
//! `labs::dates::view` decides; the controls only rewrite the address.

use chrono::Datelike;
use leptos::prelude::*;

use crate::engine::calendar::{aug, month_short, weekday_day_month, weekday_short, Day};
use crate::labs::dates::query::{href, parse};
use crate::labs::dates::view::{Card, Grid};
use crate::labs::dates::{Calendar, Pipeline, MAX_LATENESS};
use crate::ui::html::Html;

use super::page::set_title;
use super::route::{replace, use_query};
use super::widgets::LinkNotes;

#[component]
pub fn Dates() -> impl IntoView {
    set_title("One pipeline's dates in every tool");
    let query = use_query();
    let parsed = Memo::new(move |_| {
        let q = query.read();
        let read = crate::labs::link::Reading::of(&q);
        let (p, mut notes) = parse(|k| read.get(k));
        let present = crate::labs::link::present(&|k| read.get(k), &mut notes);
        notes.extend(read.repeated());
        (p, present, notes)
    });
    let pipeline = Memo::new(move |_| parsed.read().0);
    let present = Memo::new(move |_| parsed.read().1);
    let notes = Memo::new(move |_| parsed.read().2.clone());
    let set = move |change: &dyn Fn(&mut Pipeline)| {
        let mut p = pipeline.get_untracked();
        change(&mut p);
        // A backfill's first date never passes its last: the other end follows.
        if p.first > p.last {
            p.last = p.first;
        }
        replace(&href(&p, present.get_untracked()));
    };
    let toggle = Callback::new(move |()| {
        replace(&href(&pipeline.get_untracked(), !present.get_untracked()));
    });
    let calendar = Memo::new(move |_| Calendar::of(pipeline.get()));
    let day_select = move |id: &'static str,
                           label: &'static str,
                           read: fn(&Pipeline) -> Day,
                           write: fn(&mut Pipeline, Day)| {
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <select id=id on:change=move |ev| {
                    if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                        set(&|p| write(p, aug(n)));
                    }
                }>
                    {(1..=31).map(|n| {
                        let day = aug(n);
                        view! { <option value=n.to_string() selected=move || read(&pipeline.get()) == day>{weekday_day_month(day)}</option> }
                    }).collect_view()}
                </select>
            </div>
        }
    };
    view! {
        <section class="page dates-page" class:presenter=move || present.get() aria-labelledby="dates-title">
            <div class="title-row">
                <h1 id="dates-title">"One pipeline's dates in every tool"</h1>
                <super::presenter::PresenterToggle present=present on_toggle=toggle link=super::presenter::this_address() />
            </div>
            <LinkNotes notes=notes />
            <p class="lede">
                "The lab's pipeline runs every day at 02:00 UTC. The run on day d+1 (the day after d) builds partition d. With an allowed lateness of L days, the run on d+1+L is the last that may change it. Each tool names those moments differently, and the off-by-ones where people trip are marked ⚠."
            </p>
            <div class="dates-controls">
                {day_select("dates-day", "Partition d", |p| p.day, |p, d| p.day = d)}
                <div class="field">
                    <label for="dates-lateness">"Allowed lateness"</label>
                    <div class="slider-row">
                        <input id="dates-lateness" type="range" min="0" max=MAX_LATENESS.to_string() step="1"
                            value=move || pipeline.get().lateness.to_string()
                            prop:value=move || pipeline.get().lateness.to_string()
                            aria-valuetext=move || days_text(pipeline.get().lateness)
                            on:change=move |ev| {
                                if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                    set(&|p| p.lateness = n.min(MAX_LATENESS));
                                }
                            } />
                        <output for="dates-lateness">{move || days_text(pipeline.get().lateness)}</output>
                    </div>
                </div>
                {day_select("dates-from", "Backfill from", |p| p.first, |p, d| p.first = d)}
                {day_select("dates-to", "Backfill to (included)", |p| p.last, |p, d| {
                    p.last = d;
                    if p.first > d {
                        p.first = d;
                    }
                })}
            </div>
            <h2 id="calendar-heading">"The calendar"</h2>
            <p class="muted">{move || format!(
                "From partition {} to the day after it is final; times UTC. Marks flagged \u{26a0} are where a student trips.",
                weekday_day_month(pipeline.get().day)
            )}</p>
            <div class="dates-grid-wrap" tabindex="0" role="region" aria-labelledby="calendar-heading"
                inner_html=move || grid_html(&calendar.read().grid())>
            </div>
            // Each tool's settings, commands and traps: the reference a
            // practitioner reaches for, folded below the calendar.
            <details class="practitioner" id="terms">
                <summary><h2 id="terms-heading">"In each tool's terms: its settings, commands and traps"</h2></summary>
                <p class="muted">
                    "Every date here is checked in the project's tests by asking each tool itself. Airflow's timetables and backfill dry-run, Dagster's partitions and schedule, SQLMesh runs and restatement plans, dbt runs and a Beam pipeline all answer."
                </p>
                <div class="tool-cards" inner_html=move || cards_html(&calendar.read().cards())></div>
            </details>
        </section>
    }
}

/// The calendar as markup: drawn whole on each change, far smaller in the
/// bundle than a typed view with a node per mark (see `ui::html`).
fn grid_html(grid: &Grid) -> String {
    let mut h = Html::default();
    h.open("table", &[("class", "dates-grid")])
        .element(
            "caption",
            &[("class", "visually-hidden")],
            "What each tool does on each day, by time",
        )
        .open("thead", &[])
        .open("tr", &[])
        .element("th", &[("scope", "col")], "Tool");
    for d in &grid.days {
        let head = format!("{} {} {}", weekday_short(*d), d.day(), month_short(*d));
        h.element("th", &[("scope", "col")], &head);
    }
    h.close("tr").close("thead").open("tbody", &[]);
    for row in &grid.rows {
        h.open("tr", &[])
            .element("th", &[("scope", "row")], row.tool);
        for marks in &row.cells {
            h.open("td", &[]);
            for m in marks {
                h.open("p", &[("class", if m.trap { "mark trap" } else { "mark" })])
                    .element("span", &[("class", "mark-time")], &m.time)
                    .text(" ");
                if m.trap {
                    trap_flag(&mut h);
                }
                h.text(&m.text).close("p");
            }
            h.close("td");
        }
        h.close("tr");
    }
    h.close("tbody").close("table");
    h.finish()
}

/// A trap said in words as well as colour.
fn trap_flag(h: &mut Html) {
    h.element(
        "span",
        &[
            ("class", "trap-flag"),
            ("role", "img"),
            ("aria-label", "Watch out:"),
        ],
        "\u{26a0} ",
    );
}

fn cards_html(cards: &[Card]) -> String {
    let mut h = Html::default();
    for c in cards {
        let heading = format!("dates-{}", c.id);
        h.open(
            "section",
            &[("class", "tool-card"), ("aria-labelledby", &heading)],
        )
        .element("h3", &[("id", &heading)], c.tool)
        .element("p", &[("class", "muted")], c.version);
        code(&mut h, &format!("{}: the setting", c.tool), &c.setting);
        h.open("dl", &[("class", "terms")]);
        for t in &c.terms {
            h.element("dt", &[], t.term).element("dd", &[], &t.value);
        }
        h.close("dl");
        if let Some(command) = &c.command {
            h.element("p", &[], "The backfill:");
            code(
                &mut h,
                &format!("{}: the backfill command", c.tool),
                command,
            );
        }
        h.element("p", &[], &c.covers);
        if !c.traps.is_empty() {
            h.open("ul", &[("class", "traps")]);
            for t in &c.traps {
                h.open("li", &[]);
                trap_flag(&mut h);
                h.text(t).close("li");
            }
            h.close("ul");
        }
        h.close("section");
    }
    h.finish()
}

/// A block of code a keyboard can reach and scroll.
fn code(h: &mut Html, label: &str, text: &str) {
    h.open(
        "pre",
        &[
            ("class", "long-code"),
            ("tabindex", "0"),
            ("aria-label", label),
        ],
    )
    .element("code", &[], text)
    .close("pre");
}

fn days_text(n: u32) -> String {
    if n == 1 {
        "1 day".to_string()
    } else {
        format!("{n} days")
    }
}
