//! The engine's week and the six pipelines' panels: each one's state, what
//! the selected run did, its silver partitions with their orders, its
//! checks and, at the end, its verdict. A chunk of the State x Write
//! part's wasm of its own (`ui::later`): the panels lie below the first
//! screen (the week, the prediction and the runs come first, named from
//! the schedule), so the first load carries neither the engine nor their
//! views. The lab fetches them as soon as it is live.

use leptos::prelude::*;

use crate::engine::Outcome;
use crate::labs::state_write::view::{cell_view, day_label, ChipMark, PartitionView};
use crate::labs::state_write::{run, Cell, Controls};
use crate::ui::later::{Fetch, Later};

use super::{code, verdicts, Lab};

/// What the chunk holds: the engine and the six panels.
pub struct Cells {
    /// Every pipeline's week under the controls.
    pub run: fn(&Controls) -> Vec<(Cell, Outcome)>,
    /// The panels, drawn.
    pub panels: fn() -> AnyView,
}

/// The engine and the panels: only the State x Write part's `#[lazy]`
/// loader names them (src/bin/partition-lab-state-write.rs).
pub static CELLS: Cells = Cells { run, panels };

/// The engine and the panels, in the State x Write part a chunk of their own.
pub static LATER: Later<Cells> = Later::new();

/// Drawn natively (the pages drawn ahead of time, the native tests) the
/// panels are part of the program: a page drawn ahead shows them.
#[cfg(not(target_arch = "wasm32"))]
pub const AT_ONCE: Option<&Cells> = Some(&CELLS);
#[cfg(target_arch = "wasm32")]
pub const AT_ONCE: Option<&Cells> = None;

/// What the prediction says when it is locked in before the engine has
/// come: the judgement reads the engine's week.
pub const JUDGING: &str = "Judging your prediction: fetching the pipelines' runs…";
/// What it says when the engine could not be fetched.
pub const NOT_JUDGED: &str =
    "The pipelines' runs could not be fetched, so your prediction is not judged yet: check the connection, then try again.";

/// What the presenter's clicker says when pressed at the prediction
/// before the engine has said which runs every pipeline shares.
pub const CLICKER_WAITS: &str =
    "The pipelines' runs are still on their way: press again in a moment.";

/// What the page says where the panels go while they download.
pub const FETCHING: &str = "Fetching the pipelines' panels…";
/// What it says when they could not be fetched.
pub const NOT_FETCHED: &str =
    "The pipelines' panels could not be fetched: check the connection, then try again.";

fn panels() -> AnyView {
    Cell::ALL
        .into_iter()
        .map(|c| view! { <CellPanel cell=c /> })
        .collect_view()
        .into_any()
}

fn partition_box(p: PartitionView) -> impl IntoView {
    view! {
        <div role="group" class="partition" class:written=p.written aria-label=p.accessible_name.clone()>
            <div class="partition-head" aria-hidden="true">
                <span>{p.weekday}</span>
                // An empty day shows a dash: its box is empty to see.
                <span class="count">{match p.chips.len() + p.missing.len() { 0 => "–".to_string(), _ => p.chips.len().to_string() }}</span>
            </div>
            {p.written.then(|| view! { <div class="written-tag" aria-hidden="true">"✎ written"</div> })}
            <ul class="chips">
                {p.chips
                    .into_iter()
                    .map(|chip| {
                        let (class, glyph, tag) = match chip.mark {
                            ChipMark::Fine => ("chip", "", ""),
                            ChipMark::Duplicate => ("chip dup", "❐ ", " dup"),
                            ChipMark::WrongDay => ("chip wrong", "↷ ", " wrong day"),
                        };
                        view! {
                            <li class=class class:new=chip.new>
                                {chip.new.then_some(view! { <span class="new-tag" role="img" aria-label="new: ">"+"</span> })}
                                {glyph}
                                {chip.id}
                                <span class="tag">{tag}</span>
                            </li>
                        }
                    })
                    .collect_view()}
                {p.missing
                    .into_iter()
                    .map(|id| view! { <li class="chip missing">"✕ " {id} <span class="tag">" missing"</span></li> })
                    .collect_view()}
            </ul>
        </div>
    }
}

/// The id of a panel's heading.
fn heading_id(cell: Cell) -> String {
    format!("cell-{cell:?}").to_ascii_lowercase()
}

/// The panels' headings in order: a reader who pressed "Try again" finds
/// themselves on the first one shown once the panels have come.
pub const HEADINGS: [&str; 6] = [
    "cell-watermarkappend",
    "cell-watermarkoverwrite",
    "cell-listappend",
    "cell-listoverwrite",
    "cell-windowoverwrite",
    "cell-fullrefresh",
];

#[component]
pub fn CellPanel(cell: Cell) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let code = Fetch::new(&code::LATER);
    code.soon();
    let view_model = Memo::new(move |_| {
        let index = lab.run.get();
        lab.outcomes
            .read()
            .iter()
            .flatten()
            .find(|(c, _)| *c == cell)
            .and_then(|(_, o)| cell_view(cell, o, index))
    });
    let id = heading_id(cell);
    view! {
        <section
            class="cell"
            class:reference=cell == Cell::FullRefresh
            class:unpinned=move || lab.present.get() && lab.pinned.get().is_pair() && !lab.pinned.get().contains(cell)
            aria-label=cell.name()
        >
            <div class="cell-head">
                <h3 id=id>
                    {cell.name()}
                    {(cell == Cell::FullRefresh).then_some(view! { <span class="muted">" (reference)"</span> })}
                </h3>
                <Show when=move || lab.present.get()>
                    <button
                        type="button"
                        class="pin"
                        aria-pressed=move || if lab.pinned.get().contains(cell) { "true" } else { "false" }
                        aria-label=format!("Pin {} side by side", cell.name())
                        on:click=move |_| lab.set_pinned(lab.pinned.get_untracked().toggled(cell))
                    >
                        "📌 Pin"
                    </button>
                </Show>
            </div>
            {move || {
                if lab.sealed() {
                    return Some(view! { <p class="muted sealed">"This pipeline's runs are shown once you predict."</p> }.into_any());
                }
                view_model
                    .get()
                    .map(|v| {
                        let reads = v.read_ids.join(", ");
                        view! {
                            <dl class="facts">
                                <dt>"Before"</dt>
                                <dd>{v.state_before.clone()}</dd>
                                <dt>"After"</dt>
                                <dd>{v.state_after.clone()}</dd>
                                <dt>"Read"</dt>
                                <dd>
                                    {crate::counted::counted(v.rows_read, "row")}
                                    <span class="muted">{format!(" ({} so far)", v.rows_read_so_far)}</span>
                                    {(!reads.is_empty()).then(|| view! { <span class="ids">": " {reads.clone()}</span> })}
                                </dd>
                                <dt>"Wrote"</dt>
                                <dd>
                                    {if v.writes.is_empty() {
                                        "nothing".to_string()
                                    } else {
                                        v.writes
                                            .iter()
                                            .map(|w| format!("{} ({} → {} rows)", day_label(w.day), w.rows_before, w.rows_after))
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    }}
                                </dd>
                                <dt>"Deleted"</dt>
                                <dd class:alarm=!v.deleted.is_empty()>
                                    {if v.deleted.is_empty() { "nothing".to_string() } else { v.deleted.join(", ") }}
                                </dd>
                            </dl>
                            {v.incident.clone().map(|text| view! { <p class="incident"><span aria-hidden="true">"⚡ "</span>{text}</p> })}
                            <div class="partitions" role="group" aria-label=format!("{}: silver partitions", cell.name())>
                                {v.partitions.into_iter().map(partition_box).collect_view()}
                            </div>
                            <ul class="checks" aria-label=format!("{}: checks", cell.name())>
                                {v
                                    .checks
                                    .into_iter()
                                    .map(|c| {
                                        view! {
                                            // The mark says pass or fail (to a screen reader in words);
                                            // the legend says which check most teams lack.
                                            <li class:fail=!c.passed class:rare=!c.usual>
                                                <span class="check-mark" role="img" aria-label=if c.passed { "pass" } else { "fail" }>{if c.passed { "✓" } else { "✗" }}</span>
                                                " "
                                                <span class="check-name">{c.name}</span>
                                                // One line a day: a list, not one long sentence.
                                {(!c.details.is_empty()).then(|| view! {
                                    <ul class="check-detail">
                                        {c.details.iter().map(|d| view! { <li>{d.clone()}</li> }).collect_view()}
                                    </ul>
                                })}
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                        .into_any()
                    })
            }}
            <details class="code" on:toggle=move |_| code.start()>
                <summary>"Equivalent code"</summary>
                // Its code comes in a chunk of its own, fetched a moment
                // after the lab is live or when this is opened first.
                {move || code.ready.get().map(|c| (c.panel)(cell))}
                {code.status(code::FETCHING, code::NOT_FETCHED)}
            </details>
            <div class="verdict-slot">
                {move || {
                    if lab.asking() {
                        // The prediction above says the verdicts wait for it.
                        return ().into_any();
                    }
                    if !lab.at_last_run() {
                        return view! {
                            <p class="muted">
                                "The verdict shows at the last run. "
                                <button type="button" class="link-button" on:click=move |_| lab.set_run(usize::MAX)>"Go to the last run"</button>
                            </p>
                        }
                        .into_any();
                    }
                    // The verdicts come in a chunk of their own (`verdicts`),
                    // fetched while the student predicts. The prediction's
                    // line is the one that is announced: six cells saying
                    // the same at once would be noise.
                    match lab.verdicts.ready.get() {
                        Some(v) => (v.panel)(cell),
                        None => view! {
                            <p class="muted">{move || lab.verdicts.fetching.get().then_some(verdicts::FETCHING)}</p>
                        }
                        .into_any(),
                    }
                }}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headings_are_the_panels_in_order() {
        let ids: Vec<String> = Cell::ALL.iter().map(|c| heading_id(*c)).collect();
        assert_eq!(ids, HEADINGS);
    }
}
