//! What the class did: each scenario's tally, the files whose own verdict
//! differed from grading, a row per submission (sortable) and the
//! gradebook's CSV. Every state is said in words and a mark, never by
//! colour alone.

use leptos::prelude::*;

use super::Class;
use crate::class::gradebook::csv;
use crate::class::results::{order, same_student, tally, Row, SortBy, Tally};
use crate::counted::counted;
use crate::scenarios::progress::Progress;
use crate::scenarios::SCENARIOS;

/// A verdict in a cell: a mark and words.
fn cell(verdict: &Progress) -> String {
    match verdict {
        Progress::Passed => "✓ Passed".to_string(),
        Progress::Failing(rules) => format!("✗ Fails {}", rules.join(", ")),
        Progress::Structural => "✗ Structural problems".to_string(),
        Progress::NotStarted | Progress::Unreadable => "○ Not started".to_string(),
    }
}

fn rules_failed(t: &Tally) -> String {
    let failed: Vec<String> = t
        .rules
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(id, n)| format!("{id} × {n}"))
        .collect();
    if failed.is_empty() {
        "none".to_string()
    } else {
        failed.join(" · ")
    }
}

fn causes(t: &Tally) -> impl IntoView {
    let mut lines: Vec<String> = t
        .causes
        .iter()
        .take(3)
        .map(|(cause, n)| format!("{} × {n} (revisit: {})", cause.summary(), cause.revisit()))
        .collect();
    if t.unexplained > 0 {
        lines.push(format!(
            "{} with no cause the tutor names",
            counted(t.unexplained, "failed requirement")
        ));
    }
    if lines.is_empty() {
        return view! { <span>"none"</span> }.into_any();
    }
    view! { <ul class="plain-list">{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul> }.into_any()
}

#[component]
fn Tallies(rows: Memo<Vec<Row>>) -> impl IntoView {
    view! {
        <h2 id="class-scenarios">"Each scenario"</h2>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="class-scenarios">
            <table class="class-tally">
                <thead><tr>
                    <th scope="col">"Scenario"</th>
                    <th scope="col">"Passed"</th>
                    <th scope="col">"Failed"</th>
                    <th scope="col">"Not started"</th>
                    <th scope="col">"Requirements failed"</th>
                    <th scope="col">"Most common causes"</th>
                </tr></thead>
                <tbody>
                    {move || tally(&rows.read()).into_iter().map(|t| view! {
                        <tr data-scenario=t.scenario.number>
                            <th scope="row">{format!("{}. {}", t.scenario.number, t.scenario.title)}</th>
                            <td data-label="Passed">{t.passed}</td>
                            <td data-label="Failed">{t.failed}</td>
                            <td data-label="Not started">{t.not_started}</td>
                            <td data-label="Requirements failed">{rules_failed(&t)}</td>
                            <td data-label="Most common causes">{causes(&t)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The files whose saved verdict is not what grading says now.
#[component]
fn Disagreements(rows: Memo<Vec<Row>>) -> impl IntoView {
    let lines = move || {
        rows.read()
            .iter()
            .flat_map(|row| {
                row.disagreements().into_iter().map(move |m| {
                    format!(
                        "{} ({}), scenario {}: the file says {}; grading its design says {}.",
                        row.name(),
                        row.from,
                        m.scenario,
                        m.stored.label(),
                        m.verdict.label()
                    )
                })
            })
            .collect::<Vec<_>>()
    };
    view! {
        <Show when=move || !lines().is_empty()>
            <div class="notice warning">
                <h2 id="class-disagree">"Files whose own verdict differs"</h2>
                <p>"A file keeps the verdict of the student's last check; a design changed after it, or a file edited by hand, says something else. The tables use the grading, never the file's word."</p>
                <ul>{move || lines().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
            </div>
        </Show>
    }
}

/// A column header that sorts the table by `by`, saying how it is sorted.
fn sort_header(label: String, by: SortBy, sort: RwSignal<(SortBy, bool)>) -> impl IntoView {
    let state = move || match sort.get() {
        (b, false) if b == by => "ascending",
        (b, true) if b == by => "descending",
        _ => "none",
    };
    view! {
        <th scope="col" aria-sort=state>
            <button
                type="button"
                class="sort"
                on:click=move |_| sort.update(|(b, down)| {
                    *down = *b == by && !*down;
                    *b = by;
                })
            >
                {label}
                <span aria-hidden="true">{move || match state() { "ascending" => " ▲", "descending" => " ▼", _ => "" }}</span>
            </button>
        </th>
    }
}

#[component]
fn Students(rows: Memo<Vec<Row>>) -> impl IntoView {
    let sort = RwSignal::new((SortBy::Name, false));
    let body = move || {
        let rows = rows.read();
        let twins = same_student(&rows);
        let (by, down) = sort.get();
        order(&rows, by, down)
            .into_iter()
            .map(|i| {
                let row = &rows[i];
                let also: Vec<String> = twins[i].iter().map(|&j| rows[j].from.clone()).collect();
                let flag = (!also.is_empty()).then(|| format!("⚠ also handed in as {}", also.join(", ")));
                view! {
                    <tr>
                        <th scope="row">
                            {row.name()}
                            <span class="muted">{format!(" · {}", row.from)}</span>
                            {flag.map(|f| view! { <span class="twin">" " {f}</span> })}
                        </th>
                        {SCENARIOS.iter().map(|s| {
                            let m = row.mark(s.number);
                            let edited = m.is_some_and(|m| m.disagrees()).then_some(" ⚠ file said otherwise");
                            let elsewhere = m.is_some_and(|m| m.linked_elsewhere).then_some(" ⚠ made on other data");
                            view! { <td>{cell(&row.verdict(s.number))}{edited}{elsewhere}</td> }
                        }).collect_view()}
                        <td>{row.passed()}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <h2 id="class-students">"Each student"</h2>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="class-students">
            <table class="class-students">
                <thead><tr>
                    {sort_header("Student".to_string(), SortBy::Name, sort)}
                    {SCENARIOS.iter().map(|s| sort_header(format!("Scenario {}", s.number), SortBy::Scenario(s.number), sort)).collect_view()}
                    {sort_header("Passed".to_string(), SortBy::Passed, sort)}
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

#[component]
pub fn Results(class: Class) -> impl IntoView {
    let rows = Memo::new(move |_| class.rows.get());
    let href = move || crate::ui::storage::text_url(&csv(&rows.read()), "text/csv");
    view! {
        <Show when=move || !rows.read().is_empty()>
            <p class="class-summary">{move || {
                let n = rows.read().len();
                format!("{} graded; counts below are per submission.", counted(n, "submission"))
            }}</p>
            <Tallies rows=rows />
            <Disagreements rows=rows />
            <Students rows=rows />
            <p>
                <a class="button-link" href=href download="class-results.csv">"Download the gradebook (CSV)"</a>
                <span class="muted">" One row per submission, a column per scenario: 1 passed, 0 failed, blank not started; the notes say which requirements failed."</span>
            </p>
        </Show>
    }
}
