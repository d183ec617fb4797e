//! The landing page: what the lab teaches, the map of ideas, the glossary.

use leptos::prelude::*;

use super::page::set_title;
use crate::content::glossary::{Term, GLOSSARY};
use crate::content::idea_map::IDEA_MAP;

/// The anchor id of a glossary entry.
fn anchor(term: &str) -> String {
    let slug: String = term
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("term-{slug}")
}

#[component]
pub fn Overview() -> impl IntoView {
    set_title("");
    let (present, notes, toggle) = super::presenter::plain_page("/".to_string());
    view! {
        <div class:presenter=move || present.get()>
        <section class="page">
            <div class="title-row">
                <h1>"Partition Lab"</h1>
                <super::presenter::PresenterToggle present=present on_toggle=toggle link=super::presenter::this_address() />
            </div>
            <super::widgets::LinkNotes notes=notes />
            <p class="lede">
                "A hands-on companion to the chapter “Incremental Processing & Backfills”. Every lab here runs a small simulated data pipeline, with bronze, silver and gold tables split into daily partitions, and shows you, run by run, where each row went."
            </p>
            <ul class="audiences">
                <li><strong>"Students: "</strong>"predict what a pipeline will do, then scrub through its runs and see why a retry doubles a day or a watermark drops one."</li>
                <li><strong>"Instructors: "</strong>"every lab state lives in the page address, so a bookmark brings back exactly the moment you want to show; presenter mode puts it on a projector, and "<a href="/teach">"the lesson plan"</a>" builds a 50-minute session from the labs."</li>
                <li><strong>"Self-learners: "</strong>"design a pipeline for six realistic scenarios and have it checked by running it, faults and all."</li>
            </ul>
        </section>
        <section class="page" aria-labelledby="map-heading">
            <h2 id="map-heading">"Map of the chapter"</h2>
            <p>"Each idea builds on the one before it. Start at the partition and follow the arrows down: each stop names the question it answers and the lab where you can watch the answer happen."</p>
            <ol class="idea-map">
                {IDEA_MAP
                    .iter()
                    .enumerate()
                    .map(|(i, stop)| {
                        view! {
                            <li class="idea">
                                <h3>
                                    <span class="step" aria-hidden="true">{i + 1}</span>
                                    {stop.title}
                                </h3>
                                <p class="question">{stop.question}</p>
                                <p class="idea-terms">
                                    "Terms: "
                                    {stop
                                        .ideas
                                        .iter()
                                        .enumerate()
                                        .map(|(n, idea)| {
                                            view! {
                                                {if n == 0 { "" } else { ", " }}
                                                <a href=format!("#{}", anchor(idea))>{*idea}</a>
                                            }
                                        })
                                        .collect_view()}
                                </p>
                                <p class="idea-shows"><strong>"You will see: "</strong>{stop.shows}</p>
                                {stop
                                    .lab
                                    .map(|(href, name)| {
                                        view! {
                                            <p>
                                                <a href=href class="button-link">
                                                    "Try it: "
                                                    {name}
                                                </a>
                                            </p>
                                        }
                                    })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
        <Glossary />
        </div>
    }
}

#[component]
fn Glossary() -> impl IntoView {
    let (filter, set_filter) = signal(String::new());
    let shown = Memo::new(move |_| {
        // ASCII folding: the glossary is English, and Unicode case tables
        // cost the bundle more than this search is worth.
        let needle = filter.read().trim().to_ascii_lowercase();
        GLOSSARY
            .iter()
            .filter(|t| {
                needle.is_empty()
                    || t.term.contains(&needle)
                    || t.meaning.to_ascii_lowercase().contains(&needle)
            })
            .copied()
            .collect::<Vec<Term>>()
    });
    view! {
        <section class="page" aria-labelledby="glossary-heading">
            <h2 id="glossary-heading">"Glossary"</h2>
            <label for="glossary-filter">"Filter terms"</label>
            <input
                id="glossary-filter"
                type="search"
                autocomplete="off"
                prop:value=filter
                on:input=move |ev| set_filter.set(event_target_value(&ev))
            />
            <p class="muted" aria-live="polite">
                {move || format!("{} of {} terms shown", shown.read().len(), GLOSSARY.len())}
            </p>
            <dl class="glossary">
                <For each=move || shown.get() key=|t| t.term let(t)>
                    <div class="glossary-entry" id=anchor(t.term)>
                        <dt>{t.term}</dt>
                        <dd>
                            {t.meaning}
                            {t
                                .try_it
                                .map(|href| {
                                    view! {
                                        " "
                                        <a href=href>"Try it in the lab"</a>
                                    }
                                })}
                        </dd>
                    </div>
                </For>
            </dl>
        </section>
    }
}
