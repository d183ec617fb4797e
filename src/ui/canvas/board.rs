//! The SVG board: nodes, wires, and the pointer gestures that move,
//! connect and pan; plus the toolbar above it.

use leptos::prelude::*;

use crate::design::geometry::layout::{bounds, edge_path, hit, output_port, NODE_H, NODE_W};
use crate::design::inspector::describe::{label, name, node_summary};
use crate::design::{Edit, NodeId};

use crate::design::geometry::viewport::{Follow, Release, Screen};

use super::{Designer, Drag, InspectorTarget, Layout, Viewport};

/// Arrow keys move a node this far (Shift: four times).
const KEY_STEP: i32 = 20;

/// Where the board is on screen now, if it is.
fn screen(d: &Designer) -> Option<Screen> {
    let rect = d.board.get_untracked()?.get_bounding_client_rect();
    Some(Screen {
        left: rect.left(),
        top: rect.top(),
        width: rect.width(),
        height: rect.height(),
    })
}

/// A client (screen) point in canvas units, if the board is on screen.
pub fn to_canvas(d: &Designer, client_x: f64, client_y: f64) -> Option<(i32, i32)> {
    d.viewport
        .get_untracked()
        .to_canvas(screen(d)?, client_x, client_y)
}

fn zoom_by(d: &Designer, factor: f64) {
    d.viewport.update(|v| *v = v.zoomed(factor));
}

/// Pans (never zooms) so the node at `(x, y)` is inside the view.
pub fn reveal(d: &Designer, x: i32, y: i32) {
    let v = d.viewport.get_untracked();
    let next = v.revealing(x, y);
    if next != v {
        d.viewport.set(next);
    }
}

/// Fits the view to the design when part of it would be off the board (an
/// opened, imported or shared design), leaving a design that shows alone.
pub fn fit_if_hidden(d: &Designer) {
    if Viewport::hides(d.graph.with_untracked(bounds)) {
        fit(d);
    }
}

/// Zoom and pan so every node shows.
fn fit(d: &Designer) {
    d.viewport
        .set(Viewport::fitting(d.graph.with_untracked(bounds)));
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let d = expect_context::<Designer>();
    let can_undo = move || d.history.with(|h| h.can_undo());
    let can_redo = move || d.history.with(|h| h.can_redo());
    let on_board = move || d.layout.get() == Layout::Board;
    let show = move |layout: Layout| {
        d.layout.set(layout);
        if layout == Layout::Board {
            d.drag.set(None);
        }
    };
    let pressed = move |layout: Layout| {
        move || {
            if d.layout.get() == layout {
                "true"
            } else {
                "false"
            }
        }
    };
    view! {
        <div class="toolbar" role="toolbar" aria-label="Canvas">
            <button type="button" on:click=move |_| d.undo() disabled=move || !can_undo()
                aria-keyshortcuts="Control+Z">"↶ Undo"</button>
            <button type="button" on:click=move |_| d.redo() disabled=move || !can_redo()
                aria-keyshortcuts="Control+Shift+Z">"↷ Redo"</button>
            <span class="toolbar-gap"></span>
            // A phone gets the list only: the board's words would be
            // smaller than anyone can read there.
            {(!super::phone()).then(|| view! {
                <span class="layout-switch" role="group" aria-label="Show the design as">
                    <button type="button" aria-pressed=pressed(Layout::Board) on:click=move |_| show(Layout::Board)>"Board"</button>
                    <button type="button" aria-pressed=pressed(Layout::List) on:click=move |_| show(Layout::List)>"List"</button>
                </span>
            })}
            <Show when=on_board>
                <button type="button" on:click=move |_| zoom_by(&d, 1.0 / 1.25) aria-label="Zoom out">"−"</button>
                <span class="zoom-level" aria-live="polite">
                    // Whole numbers only: f64 formatting is a large part of a wasm bundle.
                    {move || format!("{} %", d.viewport.get().percent())}
                </span>
                <button type="button" on:click=move |_| zoom_by(&d, 1.25) aria-label="Zoom in">"+"</button>
                <button type="button" on:click=move |_| fit(&d)>"Fit to view"</button>
            </Show>
        </div>
    }
}

#[component]
pub fn Board() -> impl IntoView {
    let d = expect_context::<Designer>();

    crate::ui::browser::listen(leptos::ev::pointermove, move |ev| {
        let (Some(drag), Some(screen)) = (d.drag.get_untracked(), screen(&d)) else {
            return;
        };
        let (cx, cy) = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        match drag.follow(d.viewport.get_untracked(), screen, cx, cy) {
            Follow::Drag(next) => d.drag.set(Some(next)),
            Follow::View(view) => d.viewport.set(view),
            Follow::Still => {}
        }
    });
    crate::ui::browser::listen(leptos::ev::pointerup, move |ev| {
        let Some(drag) = d.drag.get_untracked() else {
            return;
        };
        d.drag.set(None);
        let Some(screen) = screen(&d) else {
            return;
        };
        let (cx, cy) = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        if matches!(drag, Drag::Place { moved: true, .. }) {
            d.swallow_click.set(true);
        }
        match drag.release(d.viewport.get_untracked(), screen, cx, cy) {
            Release::Moved { id, x, y } => {
                let said = d.graph.with_untracked(|g| {
                    g.node(id)
                        .map(|n| format!("Moved {}.", name(n)))
                        .unwrap_or_default()
                });
                d.edit(Edit::Move { id, x, y }, said);
            }
            Release::WireAt { from, x, y } => match d.graph.with_untracked(|g| hit(g, x, y)) {
                Some(to) if to != from => {
                    d.connect(from, to);
                }
                _ => d
                    .announcement
                    .set("Not connected: drop the wire on another node.".to_string()),
            },
            Release::Placed { kind, x, y } => {
                d.add(kind, Some((x, y)));
            }
            Release::Nothing => {}
        }
    });

    let view_box = move || d.viewport.get().view_box();
    let background_down = move |ev: leptos::ev::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        d.selected.set(None);
        d.drag.set(Some(Drag::Pan {
            client_x: f64::from(ev.client_x()),
            client_y: f64::from(ev.client_y()),
            start: d.viewport.get_untracked(),
        }));
    };
    let wheel = move |ev: leptos::ev::WheelEvent| {
        // Plain wheel scrolls the page; Ctrl + wheel (and pinch) zooms.
        if !(ev.ctrl_key() || ev.meta_key()) {
            return;
        }
        ev.prevent_default();
        zoom_by(&d, if ev.delta_y() < 0.0 { 1.1 } else { 1.0 / 1.1 });
    };
    let ids = move || {
        d.graph
            .with(|g| g.nodes.keys().copied().collect::<Vec<_>>())
    };

    view! {
        <svg
            class="board"
            node_ref=d.board
            viewBox=view_box
            preserveAspectRatio="xMinYMin meet"
            role="group"
            aria-label="Pipeline canvas: its nodes follow"
            aria-describedby="canvas-help"
            on:wheel=wheel
        >
            <defs>
                <marker id="wire-end" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="wire-head" />
                </marker>
            </defs>
            <rect class="board-bg" x="-10000" y="-10000" width="30000" height="30000" on:pointerdown=background_down />
            <g class="wires" aria-hidden="true">
                <Wires />
            </g>
            <For each=ids key=|id| *id let:id>
                <NodeBox id=id />
            </For>
        </svg>
    }
}

/// Where a node is drawn: its dragged position while it is dragged.
fn drawn_at(d: &Designer, id: NodeId) -> Option<(i32, i32)> {
    if let Some(Drag::Move {
        id: moving, x, y, ..
    }) = d.drag.get()
    {
        if moving == id {
            return Some((x, y));
        }
    }
    d.graph.with(|g| g.node(id).map(|n| (n.x, n.y)))
}

#[component]
fn Wires() -> impl IntoView {
    let d = expect_context::<Designer>();
    let wires = move || {
        let edges = d
            .graph
            .with(|g| g.edges.iter().copied().collect::<Vec<_>>());
        edges
            .into_iter()
            .filter_map(|e| {
                let (fx, fy) = drawn_at(&d, e.from)?;
                let (tx, ty) = drawn_at(&d, e.to)?;
                let path = edge_path((fx + NODE_W, fy + NODE_H / 2), (tx, ty + NODE_H / 2));
                Some(view! { <path class="wire" d=path marker-end="url(#wire-end)" /> })
            })
            .collect_view()
    };
    let pending = move || match d.drag.get() {
        Some(Drag::Connect { from, x, y }) => d.graph.with(|g| {
            g.node(from).map(|n| {
                let path = edge_path(output_port(n), (x, y));
                view! { <path class="wire pending" d=path /> }
            })
        }),
        _ => None,
    };
    view! { {wires} {pending} }
}

/// Cuts a summary to what fits in a node box; the full text is in the label.
/// Characters of a node's summary that fit its box at 13 px: 30 of the
/// widest ("watermark on updated_at − 3 …") measured 213 units against the
/// 180 there are; the full summary is in the node's description.
const SUMMARY_CHARS: usize = 25;

fn fit_text(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

#[component]
fn NodeBox(id: NodeId) -> impl IntoView {
    let d = expect_context::<Designer>();
    let node_ref = NodeRef::<leptos::svg::G>::new();
    let node = d.node_memo(id);
    let problems = d.problems_at(id);
    d.focus_on_request(id, move || {
        node_ref.get().is_some_and(|el| el.focus().is_ok())
    });
    let transform = move || {
        let (x, y) = drawn_at(&d, id).unwrap_or_default();
        format!("translate({x} {y})")
    };
    let aria = move || {
        let count = problems.get();
        d.graph
            .with(|g| g.node(id).map(|n| label(g, n, count)))
            .unwrap_or_default()
    };
    let down = move |ev: leptos::ev::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        d.selected.set(Some(id));
        let Some((px, py)) = to_canvas(&d, f64::from(ev.client_x()), f64::from(ev.client_y()))
        else {
            return;
        };
        if let Some(n) = node.get_untracked() {
            d.drag.set(Some(Drag::Move {
                id,
                dx: px - n.x,
                dy: py - n.y,
                x: n.x,
                y: n.y,
                moved: false,
            }));
        }
    };
    let port_down = move |ev: leptos::ev::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        ev.prevent_default();
        if let Some((x, y)) = to_canvas(&d, f64::from(ev.client_x()), f64::from(ev.client_y())) {
            d.drag.set(Some(Drag::Connect { from: id, x, y }));
        }
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let step = if ev.shift_key() {
            KEY_STEP * 4
        } else {
            KEY_STEP
        };
        let by = match ev.key().as_str() {
            "ArrowLeft" => Some((-step, 0)),
            "ArrowRight" => Some((step, 0)),
            "ArrowUp" => Some((0, -step)),
            "ArrowDown" => Some((0, step)),
            _ => None,
        };
        if let Some((dx, dy)) = by {
            ev.prevent_default();
            if let Some(n) = node.get_untracked() {
                let said = format!("Moved {} to {}, {}.", name(&n), n.x + dx, n.y + dy);
                d.edit(
                    Edit::Move {
                        id,
                        x: n.x + dx,
                        y: n.y + dy,
                    },
                    said,
                );
            }
            return;
        }
        match ev.key().as_str() {
            "Enter" | " " => {
                ev.prevent_default();
                d.selected.set(Some(id));
                d.inspector_focus.update(|(n, t)| {
                    *n += 1;
                    *t = InspectorTarget::FirstField;
                });
            }
            "c" | "C" => {
                ev.prevent_default();
                d.selected.set(Some(id));
                d.inspector_focus.update(|(n, t)| {
                    *n += 1;
                    *t = InspectorTarget::ConnectMenu;
                });
            }
            "Delete" | "Backspace" => {
                ev.prevent_default();
                if node.get_untracked().is_some_and(|n| n.fixed) {
                    d.announcement
                        .set("The scenario gives this node; it cannot be deleted.".to_string());
                } else {
                    d.delete(id);
                }
            }
            "Escape" => d.selected.set(None),
            _ => {}
        }
    };
    let kind = move || node.with(|n| n.as_ref().map(|n| n.kind().name()).unwrap_or_default());
    let text = move || {
        node.with(|n| {
            n.as_ref()
                .map(|n| fit_text(&node_summary(n), SUMMARY_CHARS))
                .unwrap_or_default()
        })
    };
    let fixed = move || node.with(|n| n.as_ref().is_some_and(|n| n.fixed));
    view! {
        <g
            class="node"
            class:selected=move || d.selected.get() == Some(id)
            class:has-problem=move || { problems.get() > 0 }
            class:fixed=fixed
            class:involved=move || d.highlight.with(|h| h.contains(&id))
            transform=transform
            tabindex="0"
            role="button"
            aria-pressed=move || if d.selected.get() == Some(id) { "true" } else { "false" }
            aria-describedby=format!("node-desc-{}", id.0)
            node_ref=node_ref
            on:pointerdown=down
            on:keydown=keydown
            on:focus=move |_| {
                d.selected.set(Some(id));
                // Tabbing to a node off the view brings it into view.
                if d.drag.get_untracked().is_none() {
                    if let Some(n) = node.get_untracked() {
                        reveal(&d, n.x, n.y);
                    }
                }
            }
            data-node=id.0
        >
            <desc id=format!("node-desc-{}", id.0)>{aria}</desc>
            <rect class="node-box" width=NODE_W height=NODE_H rx="8" />
            <text class="node-kind" x="12" y="24">
                // The given source's id is the canvas's business: it reads
                // "bronze source (given)", as announcements name it.
                {move || if fixed() { format!("{} (given)", kind()) } else { format!("{} {}", kind(), id.0) }}
            </text>
            <text class="node-summary" x="12" y="46">{text}</text>
            {move || {
                let count = problems.get();
                (count > 0).then(|| view! {
                    <g class="node-problem" aria-hidden="true">
                        <circle cx=NODE_W - 14 cy="14" r="11" />
                        <text x=NODE_W - 14 y="19" text-anchor="middle">{format!("!{count}")}</text>
                    </g>
                })
            }}
            <circle class="port port-in" cx="0" cy=NODE_H / 2 r="7" aria-hidden="true" />
            <circle class="port port-out" cx=NODE_W cy=NODE_H / 2 r="8" aria-hidden="true" on:pointerdown=port_down />
            // A finger needs more than the dot: an invisible ring around it
            // takes the same press.
            <circle class="port-hit" cx=NODE_W cy=NODE_H / 2 r="14" aria-hidden="true" on:pointerdown=port_down />
        </g>
    }
}
