//! One pipeline's panel: its state, what the selected run did, its silver
//! partitions with their orders, its checks and, at the end, its verdict.

use leptos::prelude::*;

use crate::export::state_write::equivalent;
use crate::labs::state_write::explain::{verdict, VerdictKind};
use crate::labs::state_write::script;
use crate::labs::state_write::view::{cell_view, day_label, ChipMark, PartitionView};
use crate::labs::state_write::{Cell, Controls};
use crate::ui::download::DownloadOnDemand;

use crate::ui::runners::{use_runners, Runners};

use super::Lab;

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

#[component]
pub fn CellPanel(cell: Cell) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let runners = use_runners();
    let view_model = Memo::new(move |_| {
        let index = lab.run.get();
        lab.outcomes
            .read()
            .iter()
            .find(|(c, _)| *c == cell)
            .and_then(|(_, o)| cell_view(cell, o, index))
    });
    let verdict_view = Memo::new(move |_| {
        let controls = lab.controls.get();
        lab.outcomes
            .read()
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, o)| verdict(o, &cell.config(&controls), &script(&controls)))
    });
    let heading_id = format!("cell-{cell:?}").to_ascii_lowercase();
    view! {
        <section
            class="cell"
            class:reference=cell == Cell::FullRefresh
            class:unpinned=move || lab.present.get() && lab.pinned.get().is_pair() && !lab.pinned.get().contains(cell)
            aria-label=cell.name()
        >
            <div class="cell-head">
                <h3 id=heading_id>
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
            <details class="code">
                <summary>"Equivalent code"</summary>
                {move || {
                    equivalent(cell, &lab.controls.get())
                        .into_iter()
                        .map(|(tool, code)| view! {
                            <p class="muted">{format!("In {tool}:")}</p>
                            <pre tabindex="0" data-tool=tool.name()><code>{code}</code></pre>
                        })
                        .collect_view()
                }}
                {move || match runners.get() {
                    Runners::Ready(files) => Some(view! {
                        <p>
                            <DownloadOnDemand
                                inputs=lab.controls
                                make=move |controls: &Controls| crate::export::state_write::runnable(cell, controls, &files)
                                mime="application/x-tar"
                            >
                                "Download this week as a runnable project (dbt and Spark)"
                            </DownloadOnDemand>
                        </p>
                    }.into_any()),
                    Runners::Loading => Some(view! { <p class="muted" role="status">"Preparing the runnable project…"</p> }.into_any()),
                    Runners::Failed => Some(view! { <p class="muted" role="status">"The runnable project's Python runners could not be loaded: check the connection, then reload the page."</p> }.into_any()),
                }}
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
                    verdict_view
                        .get()
                        .map(|v| {
                            let (class, label) = match v.kind {
                                VerdictKind::Correct => ("verdict ok", "✓ Correct"),
                                VerdictKind::Loud => ("verdict loud", "⚠ Loud"),
                                VerdictKind::Silent => ("verdict silent", "✕ Silent loss"),
                            };
                            view! {
                                <div class=class>
                                    <p class="verdict-label"><strong>{label}</strong></p>
                                    <p>{v.headline}</p>
                                    <ul>{v.details.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                                    <p class="cost">{format!("Rows read in total: {}", v.rows_read_total)}</p>
                                </div>
                            }
                        })
                        .into_any()
                }}
            </div>
        </section>
    }
}
