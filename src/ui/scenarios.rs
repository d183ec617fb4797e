//! The scenario list with each scenario's progress, and each scenario's
//! page: its story, numbers, canvas and check.

use leptos::prelude::*;

use super::drift_lookback::DriftLookBack;

use super::canvas::place::CanvasPlace;
use super::not_found::NotFound;
use super::page::set_title;
use super::presenter::{PresenterLink, PresenterToggle};
use super::storage;
use super::widgets::LinkNotes;
use crate::design::files::saves;
use crate::scenarios::progress::Progress;
use crate::scenarios::{find, SCENARIOS};

fn progress(number: u8) -> Progress {
    Progress::parse(saves::progress(&storage::Local, number).as_deref())
}

/// Starts downloading, before the page is drawn, the chunk the opened page
/// asks for as soon as it is live (a scenario's canvas, the list's "Take
/// your work with you"): the network works while the first screen is
/// drawn, a few tenths of a second on a phone's CPU.
pub fn fetch_first_chunk() {
    let Some(path) = super::browser::window().and_then(|w| w.location().pathname().ok()) else {
        return;
    };
    match path.strip_prefix("/scenarios/") {
        Some(number) if find(number).is_some() => super::canvas::place::LATER.start_now(),
        Some(_) => {}
        None => super::my_work::LATER.start_now(),
    }
}

#[component]
pub fn ScenarioList() -> impl IntoView {
    set_title("Scenarios");
    // Bumped by a restore: the statuses below read storage again.
    let changed = RwSignal::new(0_u32);
    view! {
        <section class="page">
            <h1>{format!("{} design scenarios", crate::counted::in_words(SCENARIOS.len()))}</h1>
            <p class="lede">
                "Each scenario is a realistic stretch of data with its faults: from two weeks of clicks to two years of history. You design a pipeline for it on a canvas; the lab runs your design through the simulated days and checks it against the scenario's requirements. Any design that meets them passes."
            </p>
            <p class="progress" role="status">
                {move || {
                    changed.track();
                    let passed = SCENARIOS.iter().filter(|s| progress(s.number) == Progress::Passed).count();
                    format!("Your progress: {passed} of {} passed.", SCENARIOS.len())
                }}
            </p>
            <ol class="card-list">
                {move || {
                changed.track();
                SCENARIOS
                    .iter()
                    .map(|s| {
                        let p = progress(s.number);
                        let class = match p {
                            Progress::Passed => "progress progress-passed",
                            Progress::NotStarted => "progress",
                            _ => "progress progress-failing",
                        };
                        let mark = match p {
                            Progress::Passed => "✓ ",
                            Progress::NotStarted => "○ ",
                            _ => "✗ ",
                        };
                        view! {
                            <li class="card" data-scenario=s.number>
                                <h2>
                                    <a href=format!("/scenarios/{}", s.number)>
                                        {format!("{}. {}", s.number, s.title)}
                                    </a>
                                </h2>
                                <p>{s.brief}</p>
                                <p class="muted">"Idea: " {s.idea} " · " {crate::counted::counted(s.rule_count(), "requirement")}</p>
                                <p class=class>"Status: " {mark} {p.label()}</p>
                            </li>
                        }
                    })
                    .collect_view()
                }}
            </ol>
            <super::my_work::MyWorkPlace changed=changed />
            <p class="muted">"Teaching a class? " <a href="/class">"Grade your students' work files together"</a> "."</p>
        </section>
    }
}

#[component]
pub fn ScenarioPage(number: String) -> impl IntoView {
    match find(&number) {
        Some(s) => {
            set_title(&format!("Scenario {}: {}", s.number, s.title));
            // The toggle rewrites the query, and keeps a shared design the
            // canvas has not read yet (`route::unread_design`).
            let (present, notes, toggle) =
                super::presenter::plain_page(format!("/scenarios/{}", s.number));
            let link = RwSignal::new(String::new());
            provide_context(PresenterLink(link));
            // Until the canvas has come and written its share link, the
            // address on show (a shared design is still in its fragment).
            let on_show = super::presenter::this_address();
            let link = Signal::derive(move || {
                let made = link.get();
                if made.is_empty() {
                    on_show.get()
                } else {
                    made
                }
            });
            let (variant, data_note) = super::scenario_data::opened(s);
            let notes = Memo::new(move |_| {
                let mut all = notes.get();
                all.extend(data_note.clone());
                all
            });
            view! {
                <section class="page" class:presenter=move || present.get() aria-labelledby="scenario-title">
                    <p class="breadcrumb"><a href="/scenarios">"All scenarios"</a></p>
                    <div class="title-row">
                        <h1 id="scenario-title">{format!("Scenario {}: {}", s.number, s.title)}</h1>
                        <PresenterToggle present=present on_toggle=toggle link=link />
                    </div>
                    <LinkNotes notes=notes />
                    <p class="lede">{s.brief}</p>
                    {s.story_in(variant).into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
                    <h2>"The numbers"</h2>
                    <ul>{s.facts_in(variant).into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
                    <h2 id="requirements">"The requirements"</h2>
                    <p>{format!(
                        "\"Check my design\" runs your design through these days and grades it against each of these {}, as a ticket's acceptance criteria would.",
                        crate::counted::counted(s.rule_count(), "requirement")
                    )}</p>
                    <ul class="requirements">
                        {s.rules().into_iter().map(|r| view! {
                            <li data-requirement=r.id><strong>{r.id}</strong> ": " {r.text}</li>
                        }).collect_view()}
                    </ul>
                    {s.varies().then(|| view! { <super::scenario_data::ScenarioData scenario=s variant=variant /> })}
                    {s.drift_query.then(|| view! { <DriftLookBack scenario=s variant=variant /> })}
                    <CanvasPlace scenario=s variant=variant />
                </section>
            }
            .into_any()
        }
        None => view! { <NotFound /> }.into_any(),
    }
}
