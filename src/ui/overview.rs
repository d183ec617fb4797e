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
    // Folded until a reader asks for it: by opening it, by a term's link on
    // the map, or by an address that names a term.
    let glossary_open = RwSignal::new(false);
    Effect::new(move |_| {
        let named = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .is_some_and(|h| h.starts_with("#term-"));
        if named {
            glossary_open.set(true);
            scroll_to_hash();
        }
    });
    view! {
        <div class:presenter=move || present.get()>
        <section class="page">
            <div class="title-row">
                <h1>"Partition Lab"</h1>
                <super::presenter::PresenterToggle present=present on_toggle=toggle link=super::presenter::this_address() />
            </div>
            <super::widgets::LinkNotes notes=notes />
            <p class="lede">
                "Partition Lab runs a small data pipeline in your browser and shows, run by run, where each row went. It goes with the chapter “Incremental Processing & Backfills”: each lab lets you watch one of its ideas happen."
            </p>
            <p class="start">
                <a href="/lab/state-write" class="button-link primary">"Start with the State x Write lab"</a>
                " "
                <span class="muted">"Then follow the map below, one stop at a time."</span>
            </p>
            <ul class="audiences">
                <li><strong>"Teaching a class? "</strong>"Presenter mode puts any lab on a projector, and "<a href="/teach">"the lesson plan"</a>" builds a 50-minute session from the labs."</li>
                <li><strong>"Designing pipelines? "</strong><a href="/scenarios">"Six scenarios"</a>" check your own design by running it, faults and all."</li>
            </ul>
        </section>
        <section class="page" aria-labelledby="map-heading">
            <h2 id="map-heading">"Map of the chapter"</h2>
            <p>"Each idea builds on the one before it. Each stop names the question it answers and the lab where you can watch the answer."</p>
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
                                                <a
                                                    href=format!("#{}", anchor(idea))
                                                    on:click=move |_| glossary_open.set(true)
                                                >
                                                    {*idea}
                                                </a>
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
        <Glossary open=glossary_open />
        </div>
    }
}

/// Scrolls to the element the address names, once it is drawn.
fn scroll_to_hash() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(hash) = window.location().hash() else {
        return;
    };
    let id = hash.trim_start_matches('#').to_string();
    leptos::task::spawn_local(async move {
        super::slices::yield_to_browser().await;
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
        {
            el.scroll_into_view();
        }
    });
}

#[component]
fn Glossary(open: RwSignal<bool>) -> impl IntoView {
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
            <details
                class="glossary-fold"
                prop:open=move || open.get()
                on:toggle=super::widgets::fold_follows(open)
            >
            <summary>
                <h2 id="glossary-heading">"Glossary"</h2>
                {format!(" {} terms, each in a sentence or two", GLOSSARY.len())}
            </summary>
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
            </details>
        </section>
    }
}
