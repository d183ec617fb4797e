//! "Download my work" and "Restore my work" on the scenario list: every
//! scenario's design and verdict in one file, read back on another
//! machine scenario by scenario (`scenarios::work` has the rules). Below
//! the list's first screen, and with the work file's reader and writer a
//! chunk of the scenarios part's wasm of its own (`ui::later`), fetched as
//! soon as the list is live.

use leptos::prelude::*;

use crate::scenarios::work::{export_work, read_work, restore, step, when, Step, Work, MAX_BYTES};

use super::later::{Fetch, KeptFocus, Later};
use super::storage;

/// What the chunk holds: the section, drawn; `changed` is bumped by a
/// restore, and the list reads storage again.
pub struct Restoring {
    pub view: fn(RwSignal<u32>) -> AnyView,
}

fn drawn(changed: RwSignal<u32>) -> AnyView {
    view! { <MyWork changed=changed /> }.into_any()
}

/// The section: only the scenarios part's `#[lazy]` loader names it
/// (src/bin/partition-lab-scenarios.rs).
pub static RESTORING: Restoring = Restoring { view: drawn };

/// The section, in the scenarios part a chunk of its own.
pub static LATER: Later<Restoring> = Later::new();

/// Drawn natively (the pages drawn ahead of time, the native tests) the
/// section is part of the program: a page drawn ahead shows it.
#[cfg(not(target_arch = "wasm32"))]
const AT_ONCE: Option<&Restoring> = Some(&RESTORING);
#[cfg(target_arch = "wasm32")]
const AT_ONCE: Option<&Restoring> = None;

const HEADING: &str = "Take your work with you";
const HEADING_ID: &str = "my-work-heading";
const FETCHING: &str = "Fetching the download and the restore…";
const NOT_FETCHED: &str =
    "The download and the restore could not be fetched: check the connection, then try again. Your work is kept in this browser.";

/// Where the section goes: it, once it has come.
#[component]
pub fn MyWorkPlace(changed: RwSignal<u32>) -> impl IntoView {
    let fetch = Fetch::new(&LATER);
    fetch.drawn_or_start(AT_ONCE);
    let kept = KeptFocus::new(
        Signal::derive(move || fetch.ready.get().is_some()),
        &[HEADING_ID],
    );
    view! {
        <div class="my-work-place" aria-busy=move || fetch.fetching.get().then_some("true")>
            <Show when=move || fetch.ready.get().is_none()>
                <section
                    class="my-work"
                    aria-labelledby=HEADING_ID
                    on:focusin=move |_| kept.entered()
                    on:focusout=move |ev| kept.left(ev)
                >
                    <h2 id=HEADING_ID>{HEADING}</h2>
                    {fetch.status(FETCHING, NOT_FETCHED)}
                </section>
            </Show>
            {move || fetch.ready.get().map(|it| (it.view)(changed))}
        </div>
    }
}

/// What the last restore did, line by line, and whether it failed outright.
#[derive(Clone, Default)]
struct Outcome {
    refused: Option<String>,
    lines: Vec<String>,
}

fn restore_line(work: &Work, kept: bool) -> String {
    match restore(&mut storage::Local, work) {
        Ok(()) if kept => format!(
            "Scenario {}: restored; the design it replaced is kept as a backup on the scenario's page.",
            work.scenario
        ),
        Ok(()) => format!("Scenario {}: restored.", work.scenario),
        Err(why) => format!("Scenario {}: not restored: {why}", work.scenario),
    }
}

#[component]
fn MyWork(changed: RwSignal<u32>) -> impl IntoView {
    let outcome = RwSignal::new(Outcome::default());
    // Scenarios whose copy here is newer than the file's: each waits for a yes.
    // Each row's tick is its own signal, so ticking one redraws nothing else
    // (and keyboard focus stays on the box just ticked).
    let asking = RwSignal::new(Vec::<(Work, String, ArcRwSignal<bool>)>::new());
    let download = move || {
        changed.track();
        storage::data_url(&export_work(&storage::Local))
    };
    let finish = move |replace: bool| {
        let waiting = asking.get_untracked();
        asking.set(Vec::new());
        outcome.update(|o| {
            for (work, _, ticked) in &waiting {
                o.lines.push(if replace && ticked.get_untracked() {
                    restore_line(work, true)
                } else {
                    format!(
                        "Scenario {}: kept the design here, as you chose.",
                        work.scenario
                    )
                });
            }
        });
        changed.update(|n| *n = n.wrapping_add(1));
    };
    let read = move |name: String, text: Option<String>| {
        let works = text
            .ok_or_else(|| "the browser could not read it as text".to_string())
            .and_then(|text| read_work(&text));
        let works = match works {
            Ok(works) => works,
            Err(why) => {
                outcome.set(Outcome {
                    refused: Some(format!(
                        "{name} could not be restored: {why}. Nothing was changed."
                    )),
                    lines: Vec::new(),
                });
                return;
            }
        };
        let mut lines = Vec::new();
        let mut waiting = Vec::new();
        for work in works {
            match step(&storage::Local, &work) {
                Step::Same => lines.push(format!(
                    "Scenario {}: already the same here.",
                    work.scenario
                )),
                Step::Take => lines.push(restore_line(&work, false)),
                Step::Replace => lines.push(restore_line(&work, true)),
                Step::Ask {
                    here,
                    replaces_backup,
                } => {
                    let theirs = work
                        .saved_at
                        .as_ref()
                        .map_or("at an unknown time".to_string(), |t| {
                            format!("saved {}", when(t))
                        });
                    let mine = here.as_ref().map_or("at an unknown time".to_string(), |t| {
                        format!("saved {}", when(t))
                    });
                    let backup = if replaces_backup {
                        "; the backup kept from before is replaced by the design here"
                    } else {
                        ""
                    };
                    let words = format!(
                        "Scenario {}: replace the design here ({mine}) with the file's ({theirs}){backup}",
                        work.scenario
                    );
                    waiting.push((work, words, ArcRwSignal::new(false)));
                }
            }
        }
        outcome.set(Outcome {
            refused: None,
            lines,
        });
        asking.set(waiting);
        changed.update(|n| *n = n.wrapping_add(1));
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = storage::chosen_file(&ev) else {
            return;
        };
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            outcome.set(Outcome {
                refused: Some(format!(
                    "{name} could not be restored: a work file is at most {} KB. Nothing was changed.",
                    MAX_BYTES / 1024
                )),
                lines: Vec::new(),
            });
            return;
        }
        leptos::task::spawn_local(async move {
            let text = storage::file_text(&file).await;
            read(name, text);
        });
    };
    view! {
        <section class="my-work" aria-labelledby=HEADING_ID>
            <h2 id=HEADING_ID>{HEADING}</h2>
            <p>
                "Your designs and verdicts are saved in this browser only. Download them as one file to carry on elsewhere; restoring it on another machine merges scenario by scenario and asks before replacing a design that is newer there."
            </p>
            <super::your_name::YourName changed=changed />
            <p>
                <a class="button-link" href=download download="partition-lab-work.json">"Download my work"</a>
            </p>
            <p class="field">
                <label for="restore-work">"Restore my work from a downloaded work file"</label>
                <input id="restore-work" type="file" accept=".json,application/json" on:change=on_file />
            </p>
            <div role="status" class="restore-outcome">
                {move || outcome.with(|o| o.refused.clone()).map(|why| view! { <p class="notice error">{why}</p> })}
                {move || {
                    let lines = outcome.with(|o| o.lines.clone());
                    (!lines.is_empty()).then(|| view! {
                        <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                    })
                }}
            </div>
            <Show when=move || !asking.read().is_empty()>
                <fieldset class="restore-ask">
                    <legend>"Newer work here: tick the designs to replace (yours is kept as a backup on its page)"</legend>
                    {move || {
                        asking
                            .get()
                            .into_iter()
                            .enumerate()
                            .map(|(i, (_, words, ticked))| {
                                let id = format!("restore-ask-{i}");
                                let shown = ticked.clone();
                                view! {
                                    <span class="tick">
                                        <input
                                            type="checkbox"
                                            id=id.clone()
                                            prop:checked=move || shown.get()
                                            on:change=move |ev| ticked.set(event_target_checked(&ev))
                                        />
                                        <label for=id>{words}</label>
                                    </span>
                                }
                            })
                            .collect_view()
                    }}
                    <div class="button-row">
                        <button type="button" class="primary" on:click=move |_| finish(true)>"Replace the ticked ones"</button>
                        <button type="button" on:click=move |_| finish(false)>"Keep mine for all of these"</button>
                    </div>
                </fieldset>
            </Show>
        </section>
    }
}
