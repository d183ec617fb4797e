//! The palette: click (or Enter) adds a node next to the selection; a
//! drag drops it where the pointer lets go.

use leptos::prelude::*;

use crate::design::NodeKind;

use super::{Designer, Drag, Layout};

fn blurb(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Source => "where the rows come from",
        NodeKind::State => "what a run remembers",
        NodeKind::Transform => "what a run computes",
        NodeKind::Write => "how rows land in a table",
        NodeKind::Backfill => "rebuilds a range of dates",
        NodeKind::Finaliser => "when a day stops changing",
        NodeKind::Checks => "what is verified after a run",
        NodeKind::Report => "what reads the table",
    }
}

#[component]
pub fn Palette() -> impl IntoView {
    let d = expect_context::<Designer>();
    view! {
        <div class="palette">
            <h3 id="palette-title">"Palette"</h3>
            <ul aria-labelledby="palette-title">
                {NodeKind::PALETTE
                    .into_iter()
                    .map(|kind| {
                        let down = move |ev: leptos::ev::PointerEvent| {
                            // The list has no board to drop on: a tap adds.
                            if ev.button() != 0 || d.layout.get_untracked() == Layout::List {
                                return;
                            }
                            d.swallow_click.set(false);
                            d.drag.set(Some(Drag::Place {
                                kind,
                                client_x: f64::from(ev.client_x()),
                                client_y: f64::from(ev.client_y()),
                                moved: false,
                            }));
                        };
                        let click = move |ev: leptos::ev::MouseEvent| {
                            // A click from the keyboard (detail 0) always adds.
                            if ev.detail() != 0 && d.swallow_click.get_untracked() {
                                d.swallow_click.set(false);
                                return;
                            }
                            d.add(kind, None);
                        };
                        view! {
                            <li>
                                <button type="button" class="palette-item" data-kind=kind.name() on:pointerdown=down on:click=click>
                                    <span class="palette-name">"+ " {kind.name()}</span>
                                    <span class="palette-blurb">{blurb(kind)}</span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}
