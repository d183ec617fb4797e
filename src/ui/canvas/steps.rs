//! The design as a list, one card per node in the order the pipeline
//! reads: what a phone shows instead of the board, where a 200-unit node
//! would be drawn at a third of its size. Every button goes through the
//! same `Designer` as the board, so undo, autosave and the inspector
//! treat both alike.

use leptos::prelude::*;

use crate::design::geometry::layout::reading_order;
use crate::design::inspector::describe::{name_of, node_summary};
use crate::design::NodeId;

use super::{Designer, InspectorTarget};

#[component]
pub fn Steps() -> impl IntoView {
    let d = expect_context::<Designer>();
    let order = Memo::new(move |_| d.graph.with(reading_order));
    view! {
        <ol class="design-steps" aria-label="Pipeline steps, in the order the rows flow" aria-describedby="canvas-help">
            <For each=move || order.get() key=|id| *id let:id>
                <Step id=id order=order />
            </For>
        </ol>
    }
}

/// Selects `id` and sends focus into the inspector at `target`.
fn open(d: &Designer, id: NodeId, target: InspectorTarget) {
    d.selected.set(Some(id));
    d.inspector_focus.update(|(n, t)| {
        *n += 1;
        *t = target;
    });
}

#[component]
fn Step(id: NodeId, order: Memo<Vec<NodeId>>) -> impl IntoView {
    let d = expect_context::<Designer>();
    let first = NodeRef::<leptos::html::Button>::new();
    let node = d.node_memo(id);
    let problems = d.problems_at(id);
    // The card's first button takes the focus the board's box would.
    d.focus_on_request(id, move || first.get().is_some_and(|el| el.focus().is_ok()));
    let title = move || d.graph.with(|g| name_of(g, id));
    let summary = move || node.with(|n| n.as_ref().map(node_summary).unwrap_or_default());
    let feeds = move || {
        d.graph.with(|g| {
            let to: Vec<String> = g.outputs(id).map(|n| name_of(g, n.id)).collect();
            if to.is_empty() {
                "Feeds nothing yet".to_string()
            } else {
                format!("Feeds {}", to.join(", "))
            }
        })
    };
    let problem_text = move || match problems.get() {
        0 => None,
        1 => Some("! 1 problem: see Settings".to_string()),
        n => Some(format!("! {n} problems: see Settings")),
    };
    // The arrow above a card means the card above feeds it, nothing less.
    let fed_from_above = move || {
        let above = order.with(|o| {
            let at = o.iter().position(|n| *n == id)?;
            o.get(at.checked_sub(1)?).copied()
        });
        above.is_some_and(|from| {
            d.graph
                .with(|g| g.edges.iter().any(|e| e.from == from && e.to == id))
        })
    };
    let fixed = move || node.with(|n| n.as_ref().is_some_and(|n| n.fixed));
    let title_id = format!("step-title-{}", id.0);
    // "Connect…" opens the menu inside this card, under the finger that
    // pressed it, not in the inspector a screen further down.
    let connecting = RwSignal::new(false);
    let menu = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if connecting.get() {
            request_animation_frame(move || {
                if let Some(select) = menu
                    .get_untracked()
                    .and_then(|div| div.query_selector("select").ok().flatten())
                    .and_then(|el| {
                        leptos::wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok()
                    })
                {
                    let _ = select.focus();
                }
            });
        }
    });
    view! {
        <li
            class="design-step"
            class:selected=move || d.selected.get() == Some(id)
            class:has-problem=move || { problems.get() > 0 }
            class:fixed=fixed
            class:fed-from-above=fed_from_above
            class:involved=move || d.highlight.with(|h| h.contains(&id))
            aria-labelledby=title_id
            data-node=id.0
        >
            <h4 id=title_id.clone()>{title}</h4>
            <p class="design-step-summary">{summary}</p>
            <p class="design-step-feeds">{feeds}</p>
            {move || problem_text().map(|text| view! { <p class="design-step-problems">{text}</p> })}
            <div class="design-step-actions">
                <button type="button" node_ref=first aria-pressed=move || if d.selected.get() == Some(id) { "true" } else { "false" }
                    on:click=move |_| open(&d, id, InspectorTarget::FirstField)>
                    "Settings"
                </button>
                <button
                    type="button"
                    aria-expanded=move || if connecting.get() { "true" } else { "false" }
                    on:click=move |_| {
                        d.selected.set(Some(id));
                        connecting.update(|c| *c = !*c);
                    }
                >
                    {move || if connecting.get() { "Close connections" } else { "Connect…" }}
                </button>
                <Show when=move || !fixed()>
                    <button type="button" on:click=move |_| d.delete(id)>
                        "Remove"
                    </button>
                </Show>
            </div>
            <Show when=move || connecting.get()>
                <div class="step-connect" node_ref=menu>
                    <super::inspector::Connections id=id place="step-connect" />
                </div>
            </Show>
        </li>
    }
}
