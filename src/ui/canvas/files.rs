//! A design leaving and entering the page: download, import, share link,
//! start again, and the damaged copy of a save that could not be read.
//! Whatever comes in goes through `design::files::file`'s importer and replaces
//! the design as one undoable step.

use leptos::prelude::*;

use crate::ui::presenter::PresenterLink;

use crate::design::files::file::{export, for_scenario, import, MAX_BYTES};
use crate::design::files::link;
use crate::design::files::saves::{self, LinkOpening};
use crate::design::Graph;
use crate::ui::copy::CopyButton;
use crate::ui::storage;
use crate::ui::widgets::fold_follows;

use super::{Designer, Notice, PendingLink};

/// Opens a design carried by the page's link, then drops it from the
/// address so a reload shows the saved design. Links carry the design in
/// the fragment (`#design=`), which never reaches a server and so has no
/// URL length limit there; `?design=` is read too. Over a design of the
/// student's own, the page asks first and keeps theirs as a backup.
#[component]
pub fn OpenLink() -> impl IntoView {
    let d = expect_context::<Designer>();
    let open = move |value: String| {
        match link::decode(&value)
            .map_err(|e| e.to_string())
            .and_then(|file| for_scenario(file, d.scenario.number, d.scenario.source))
        {
            Ok(graph) => {
                let current = d.graph.get_untracked();
                match saves::opening(
                    &storage::Local,
                    d.scenario.number,
                    d.scenario.source,
                    &current,
                    &graph,
                ) {
                    LinkOpening::Open => d.replace(graph, "Opened the design from the link."),
                    LinkOpening::Ask { replaces_backup } => {
                        d.pending_link.set(Some(PendingLink {
                            graph,
                            replaces_backup,
                        }));
                        d.announcement.set(
                            "This link carries a design: choose whether to open it.".to_string(),
                        );
                    }
                }
            }
            Err(reason) => d.notice.set(Some(Notice::Error(format!(
                "The link's design could not be opened: {reason}. Your own design is unchanged."
            )))),
        }
        // The design leaves the address; presenter mode and the data stay.
        let present = crate::ui::route::use_query().with_untracked(|q| q.get("present"));
        let keep = if present.as_deref() == Some("1") {
            "?present=1"
        } else {
            ""
        };
        crate::ui::route::replace(&page_of(&d, keep));
    };
    let in_fragment = || {
        let hash = crate::ui::browser::window()?.location().hash().ok()?;
        hash.strip_prefix("#design=").map(str::to_string)
    };
    if let Some(value) =
        in_fragment().or_else(|| crate::ui::route::use_query().with_untracked(|q| q.get("design")))
    {
        open(value);
    }
    // A link pasted into this same page only changes the fragment.
    let open_again = open;
    crate::ui::browser::listen(leptos::ev::hashchange, move |_| {
        if let Some(value) = in_fragment() {
            open_again(value);
        }
    });
}

/// "Open the link's design?" over a design of the student's own.
#[component]
pub fn LinkPrompt() -> impl IntoView {
    let d = expect_context::<Designer>();
    let open = move |_| {
        let Some(pending) = d.pending_link.get_untracked() else {
            return;
        };
        let current = d.graph.get_untracked();
        match saves::keep_backup(&mut storage::Local, d.scenario.number, &current) {
            Ok(()) => {
                d.backup.set(Some(current));
                d.pending_link.set(None);
                d.replace(
                    pending.graph,
                    "Opened the link's design. The design you had is kept as a backup: bring it back from this page any time, even after a reload.",
                );
            }
            Err(why) => {
                d.pending_link.set(None);
                d.notice.set(Some(Notice::Error(format!(
                    "The link was not opened, because your design could not be kept as a backup: {why}"
                ))));
            }
        }
    };
    let keep = move |_| {
        d.pending_link.set(None);
        d.notice.set(Some(Notice::Info(
            "Kept your design; the link's design was not opened.".to_string(),
        )));
    };
    move || {
        d.pending_link.get().map(|pending| {
            view! {
                <div class="notice warning link-prompt" role="region" aria-labelledby="link-prompt-text">
                    <p id="link-prompt-text">
                        "This link carries a design for this scenario. Opening it replaces the design you have here; yours is kept as a backup that this page offers back, even after a reload."
                        {pending.replaces_backup.then_some(" The backup kept from an earlier link is replaced by your current design.")}
                    </p>
                    <button type="button" class="primary" on:click=open>"Open the link's design"</button>
                    " "
                    <button type="button" on:click=keep>"Keep my design"</button>
                </div>
            }
        })
    }
}

/// What a kept copy offers besides its download.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    /// The design a link replaced: bring it back, or delete it.
    Backup,
    /// A damaged save moved aside into `slot`: delete it when done.
    Damaged(usize),
    /// A damaged save left in place: let new work be saved over it.
    Held,
}

/// Everything kept for the student, each offered for download until they
/// say otherwise: the design a link replaced, damaged saves moved aside,
/// and a damaged save that could not be moved (held in place, autosave
/// paused). One view for all three, so nothing is rendered three ways.
#[component]
pub fn KeptCopies() -> impl IntoView {
    let d = expect_context::<Designer>();
    let scenario = d.scenario.number;
    let damaged = RwSignal::new(saves::damaged_copies(&storage::Local, scenario));
    let bring_back = move || {
        let Some(kept) = d.backup.get_untracked() else {
            return;
        };
        // Swap, so the link's design (perhaps edited since) is kept in turn,
        // each with the data it was made on.
        let kept_on = saves::backup_variant(&storage::Local, scenario)
            .map(|v| d.scenario.variant(v))
            .filter(|v| *v != d.variant);
        let current = d.graph.get_untracked();
        match saves::keep_backup(&mut storage::Local, scenario, &current) {
            Ok(()) => {
                d.backup.set(Some(current));
                d.replace(
                    kept,
                    "Brought back the design you had before the link. The link's design is now the kept backup.",
                );
                // Made on other data than this page's: saved with it, and
                // the page opens again on it, so the design is checked on
                // the data it was made for.
                if let Some(v) = kept_on {
                    if saves::put_variant(&mut storage::Local, scenario, Some(v)).is_ok() {
                        if let Some(window) = crate::ui::browser::window() {
                            let _ = window
                                .location()
                                .set_href(&crate::ui::scenario_data::href(d.scenario, v));
                        }
                    }
                }
            }
            Err(why) => d.notice.set(Some(Notice::Error(format!(
                "Your design was not swapped, because the current one could not be kept: {why}"
            )))),
        }
    };
    let act = move |keep: Keep, primary: bool| match (keep, primary) {
        (Keep::Backup, true) => bring_back(),
        (Keep::Backup, false) => {
            saves::delete_backup(&mut storage::Local, scenario);
            d.backup.set(None);
            d.announcement.set("Deleted the kept backup.".to_string());
        }
        (Keep::Damaged(slot), _) => {
            saves::delete_damaged(&mut storage::Local, scenario, slot);
            damaged.update(|k| k.retain(|(s, _)| *s != slot));
            d.announcement.set("Deleted the damaged copy.".to_string());
        }
        (Keep::Held, _) => d.release_held(),
    };
    move || {
        let mut items: Vec<(Keep, String)> = Vec::new();
        if let Some(graph) = d.backup.get() {
            items.push((Keep::Backup, export(&graph, Some(scenario))));
        }
        items.extend(
            damaged
                .get()
                .into_iter()
                .map(|(slot, text)| (Keep::Damaged(slot), text)),
        );
        if let Some(text) = d.held.get() {
            items.push((Keep::Held, text));
        }
        items
            .into_iter()
            .map(|(keep, text)| {
                let (message, file, primary, secondary) = match keep {
                    Keep::Backup => (
                        "A design you had before opening a link, importing a file, restoring your work or starting again is kept here.",
                        "design-before-link".to_string(),
                        Some("Bring back my earlier design"),
                        "Delete the kept backup",
                    ),
                    Keep::Damaged(slot) => (
                        "A saved design for this scenario was damaged and could not be opened. Its text is kept here so nothing is lost.",
                        format!("damaged-design-{}", slot.saturating_add(1)),
                        None,
                        "Delete the damaged copy",
                    ),
                    Keep::Held => (
                        "Your damaged saved design is still where it was, and autosave is paused so nothing overwrites it: until you choose, new edits here are not saved and a reload loses them. Download the damaged copy, then choose whether your new work may replace it.",
                        "damaged-design".to_string(),
                        None,
                        "Save my new work over it",
                    ),
                };
                let label = match keep {
                    Keep::Backup => "Design kept from before it was replaced".to_string(),
                    Keep::Damaged(slot) => format!("Damaged saved design {}", slot.saturating_add(1)),
                    Keep::Held => "Damaged saved design, left in place".to_string(),
                };
                let download = match keep {
                    Keep::Backup => "Download it",
                    Keep::Damaged(_) | Keep::Held => "Download the damaged copy",
                };
                view! {
                    <div class="notice warning kept" role="region" aria-label=label>
                        <p>{message}</p>
                        {primary.map(|name| view! {
                            <button type="button" on:click=move |_| act(keep, true)>{name}</button>
                            " "
                        })}
                        <a class="button-link" href=storage::data_url(&text) download=format!("scenario-{scenario}-{file}.json")>
                            {download}
                        </a>
                        " "
                        <button type="button" on:click=move |_| act(keep, false)>{secondary}</button>
                    </div>
                }
            })
            .collect_view()
    }
}

/// The design as a link to its scenario's page, with `query` (say
/// `?present=1`) before the fragment, or why there is none.
fn share_link(d: &Designer, query: &str) -> Result<String, String> {
    let query = with_data(d, query);
    d.graph
        .with(|g| link::share_link(&origin(), g, d.scenario.number, &query))
}

/// `query` (say `?present=1`) with the page's data first: a scenario a
/// variant moves always names its data, the chapter's as 0, so whoever
/// opens the link (the class page too) sees the design on the same data,
/// not on their own.
fn with_data(d: &Designer, query: &str) -> String {
    if !d.scenario.varies() {
        return query.to_string();
    }
    let variant = format!("variant={}", d.variant.name());
    match query.strip_prefix('?') {
        Some(rest) => format!("?{variant}&{rest}"),
        None => format!("?{variant}"),
    }
}

/// This page's address with its data and `query` (say `?present=1`).
fn page_of(d: &Designer, query: &str) -> String {
    format!("/scenarios/{}{}", d.scenario.number, with_data(d, query))
}

fn origin() -> String {
    crate::ui::browser::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

#[component]
pub fn Files() -> impl IntoView {
    let d = expect_context::<Designer>();
    let file_name = format!("scenario-{}-design.json", d.scenario.number);
    // The file and the link are each the whole design written out: made
    // while the fold is open, not for the first screen nor on every edit.
    let open = RwSignal::new(false);
    let download = move || storage::data_url(&d.graph.with(|g| export(g, Some(d.scenario.number))));
    let share = Memo::new(move |_| share_link(&d, ""));
    if let Some(PresenterLink(out)) = use_context::<PresenterLink>() {
        // A design too large for a link leaves the presenter's link
        // without it; Save, share, import says why.
        Effect::new(move |_| {
            out.set(
                share_link(&d, "?present=1")
                    .unwrap_or_else(|_| format!("{}{}", origin(), page_of(&d, "?present=1"))),
            )
        });
    }
    let import_file = move |ev: leptos::ev::Event| {
        let Some(file) = storage::chosen_file(&ev) else {
            return;
        };
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            d.notice.set(Some(Notice::Error(format!(
                "{name} is {} KB; designs are at most {} KB. Your design is unchanged.",
                // Whole kilobytes: formatting an f64 costs the bundle kilobytes.
                (file.size() / 1024.0).round() as u64,
                MAX_BYTES / 1024
            ))));
            return;
        }
        leptos::task::spawn_local(async move {
            let text = storage::file_text(&file).await;
            let result = text
                .ok_or_else(|| "the browser could not read it as text".to_string())
                .and_then(|text| import(&text).map_err(|e| e.to_string()))
                .and_then(|file| for_scenario(file, d.scenario.number, d.scenario.source));
            match result {
                Ok(graph) => d.replace_keeping(
                    graph,
                    &format!("Imported {name}. The design you had is kept as a backup (above), and Undo (Ctrl+Z) brings it back too."),
                ),
                Err(reason) => d.notice.set(Some(Notice::Error(format!(
                    "{name} could not be imported: {reason}. Your design is unchanged."
                )))),
            }
        });
    };
    let start_again = move |_| {
        d.replace_keeping(
            Graph::with_source(d.scenario.source),
            "Started again from the scenario's canvas. Your design is kept as a backup (above), and Undo (Ctrl+Z) brings it back too.",
        )
    };
    view! {
        <details class="files" on:toggle=fold_follows(open)>
            <summary>"Save, share, import"</summary>
            <p class="muted">
                "Your design saves itself in this browser as you work. To keep it elsewhere or hand it to someone, download it or copy its link."
            </p>
            <Show when=move || open.get()>
                <p>
                    <a class="button-link" href=download download=file_name.clone()>"Download design (JSON)"</a>
                </p>
            </Show>
            <p class="field">
                <label for="import-file">"Import a design file (replaces the current design, which is kept as a backup)"</label>
                <input id="import-file" type="file" accept=".json,application/json" on:change=import_file />
            </p>
            {move || open.get().then(|| match share.get() {
                Ok(link) => view! {
                    <p class="field">
                        <label for="share-link">"Share link"</label>
                        <input id="share-link" type="text" readonly prop:value=link.clone() />
                        <CopyButton text=link what="The share link".to_string() />
                    </p>
                }
                .into_any(),
                Err(why) => view! { <p class="notice" data-share="too-long">{why}</p> }.into_any(),
            })}
            <p>
                <button type="button" on:click=start_again>"Start again"</button>
            </p>
        </details>
    }
}
