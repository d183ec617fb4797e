//! The inspector: the selected node's settings (a loop over
//! `design::inspector::form`), its connections with a connect menu, and delete.

use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;

use crate::design::choose::{is_unchosen, offered_fields};
use crate::design::inspector::describe::{name, name_of};
use crate::design::inspector::form::{set, value, Field, Input};
use crate::design::{Edit, NodeId};

use super::{Designer, InspectorTarget, Layout};

#[component]
pub fn Inspector() -> impl IntoView {
    let d = expect_context::<Designer>();
    let shown = Memo::new(move |_| {
        d.selected
            .get()
            .filter(|id| d.graph.with(|g| g.node(*id).is_some()))
    });
    view! {
        <aside class="inspector" aria-labelledby="inspector-title">
            <h3 id="inspector-title">"Settings"</h3>
            {move || match shown.get() {
                Some(id) => view! { <NodeSettings id=id /> }.into_any(),
                None => view! {
                    <p class="muted">"Select a node (click it, or Tab to it) to see and change its settings here."</p>
                }
                .into_any(),
            }}
        </aside>
    }
}

fn focus_first(container: &web_sys::Element, selector: &str) {
    if let Some(el) = container
        .query_selector(selector)
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

#[component]
fn NodeSettings(id: NodeId) -> impl IntoView {
    let d = expect_context::<Designer>();
    let container = NodeRef::<leptos::html::Div>::new();
    let title = move || d.graph.with(|g| name_of(g, id));
    let fixed = Memo::new(move |_| d.graph.with(|g| g.node(id).is_some_and(|n| n.fixed)));
    let form = Memo::new(move |_| {
        d.graph.with(|g| {
            g.node(id)
                .map(|n| offered_fields(&d.scenario.palette, &n.config))
                .unwrap_or_default()
        })
    });
    Effect::new(move |previous: Option<u32>| {
        let (count, target) = d.inspector_focus.get();
        if previous.is_some_and(|p| p != count) {
            if let Some(div) = container.get() {
                let selector = match target {
                    InspectorTarget::FirstField => "select, input, button",
                    InspectorTarget::ConnectMenu => ".connect-menu select",
                };
                focus_first(&div, selector);
            }
        }
        count
    });
    // Escape hands focus back to the node on the board.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            d.focus_request.set(Some(id));
        }
    };
    // An unchosen setting says so at its own field, not twice.
    let node_problems = move || {
        d.problems.with(|p| {
            p.iter()
                .filter(|p| p.node == Some(id) && p.field.is_none())
                .map(|p| view! { <li>{p.message.clone()}</li> })
                .collect_view()
        })
    };
    view! {
        <div class="node-settings" node_ref=container on:keydown=keydown>
            <p class="inspector-node"><strong>{title}</strong></p>
            <ul class="node-problems">{node_problems}</ul>
            {move || {
                if fixed.get() {
                    view! {
                        <p class="muted">
                            "The scenario gives this source; it cannot be changed or deleted. Connect it to a processing state, a transform or a backfill job."
                        </p>
                    }
                    .into_any()
                } else {
                    form.get()
                        .into_iter()
                        .map(|field| view! { <FieldInput id=id field=field /> })
                        .collect_view()
                        .into_any()
                }
            }}
            <Connections id=id />
            <Show when=move || !fixed.get()>
                <button type="button" class="danger" on:click=move |_| d.delete(id)>
                    "Delete this node"
                </button>
            </Show>
            {move || match d.layout.get() {
                Layout::Board => view! { <p class="muted small">"Esc returns to the node on the canvas."</p> }.into_any(),
                // A phone's list is a scroll away: one tap goes back to it.
                Layout::List => view! {
                    <button type="button" class="back-to-steps" on:click=move |_| d.focus_request.set(Some(id))>
                        "↑ Back to the steps"
                    </button>
                }
                .into_any(),
            }}
        </div>
    }
}

#[component]
fn FieldInput(id: NodeId, field: Field) -> impl IntoView {
    let d = expect_context::<Designer>();
    let key = field.key;
    let label = field.label;
    let dom_id = format!("field-{}-{key}", id.0);
    let error_id = format!("{dom_id}-error");
    let focus_id = StoredValue::new(dom_id.clone());
    let hint_id = format!("{dom_id}-hint");
    let error = RwSignal::new(None::<String>);
    // Nothing chosen yet: the form shows "Choose…", never the placeholder.
    let unchosen = Memo::new(move |_| {
        d.graph
            .with(|g| g.node(id).is_some_and(|n| is_unchosen(n, key)))
    });
    let current = move || {
        if unchosen.get() {
            return String::new();
        }
        d.graph
            .with(|g| g.node(id).map(|n| value(&n.config, key)))
            .unwrap_or_default()
    };
    let commit = move |raw: String| {
        let Some(config) = d
            .graph
            .with_untracked(|g| g.node(id).map(|n| n.config.clone()))
        else {
            return;
        };
        match set(&config, key, &raw) {
            Ok(next) if next == config && !unchosen.get_untracked() => error.set(None),
            Ok(next) => {
                error.set(None);
                let said = d.graph.with_untracked(|g| {
                    g.node(id)
                        .map(|n| format!("{} of {}: {}.", label, name(n), value(&next, key)))
                        .unwrap_or_default()
                });
                // This field may be gone after the edit: hold its id, not it.
                let target = focus_id.get_value();
                let had_focus = document()
                    .active_element()
                    .is_some_and(|el| el.id() == target);
                d.edit(
                    Edit::Choose {
                        id,
                        key,
                        config: next,
                    },
                    said,
                );
                // A choice can redraw the form (a kind brings its own
                // fields, a yes/no menu becomes a box): keep the keyboard
                // where it was.
                if had_focus {
                    request_animation_frame(move || {
                        // Only if the redraw dropped it: a Tab since wins.
                        let lost = document()
                            .active_element()
                            .is_none_or(|el| el.tag_name() == "BODY" || !el.is_connected());
                        if !lost {
                            return;
                        }
                        if let Some(el) = document()
                            .get_element_by_id(&target)
                            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                        {
                            let _ = el.focus();
                        }
                    });
                }
            }
            Err(message) => error.set(Some(message)),
        }
    };
    let invalid = move || {
        if error.get().is_some() || unchosen.get() {
            "true"
        } else {
            "false"
        }
    };
    let described = format!("{error_id} {hint_id}");
    let choose_first = move || {
        unchosen
            .get()
            .then(|| view! { <option value="" disabled=true selected=true>"Choose…"</option> })
    };
    let control = match field.input {
        Input::Choice(options) => view! {
            <select id=dom_id.clone() prop:value=current aria-invalid=invalid aria-describedby=described.clone()
                on:change=move |ev| commit(event_target_value(&ev))>
                {choose_first}
                {options
                    .into_iter()
                    .map(|(v, text)| view! { <option value=v selected=move || current() == v>{text}</option> })
                    .collect_view()}
            </select>
        }
        .into_any(),
        Input::Number { min, max, unit } => view! {
            <span class="with-unit">
                <input id=dom_id.clone() type="number" min=min max=max step="1" inputmode="numeric"
                    placeholder="Choose…"
                    prop:value=current aria-invalid=invalid aria-describedby=described.clone()
                    on:change=move |ev| commit(event_target_value(&ev)) />
                " " {unit}
            </span>
        }
        .into_any(),
        Input::Date => view! {
            <input id=dom_id.clone() type="date" prop:value=current aria-invalid=invalid
                aria-describedby=described.clone() on:change=move |ev| commit(event_target_value(&ev)) />
        }
        .into_any(),
        Input::Text => view! {
            <input id=dom_id.clone() type="text" maxlength="64" spellcheck="false" prop:value=current
                aria-invalid=invalid aria-describedby=described.clone()
                on:change=move |ev| commit(event_target_value(&ev)) />
        }
        .into_any(),
        // A box cannot say "not chosen yet": until it is, it is a yes or no.
        Input::Check => {
            let dom_id = dom_id.clone();
            let described = described.clone();
            (move || {
                if unchosen.get() {
                    view! {
                        <select id=dom_id.clone() aria-invalid="true" aria-describedby=described.clone()
                            on:change=move |ev| commit(event_target_value(&ev))>
                            <option value="" disabled=true selected=true>"Choose…"</option>
                            <option value="true">"Yes"</option>
                            <option value="false">"No"</option>
                        </select>
                    }
                    .into_any()
                } else {
                    view! {
                        <input id=dom_id.clone() type="checkbox" prop:checked=move || current() == "true"
                            on:change=move |ev| commit(if event_target_checked(&ev) { "true" } else { "false" }.to_string()) />
                    }
                    .into_any()
                }
            })
            .into_any()
        }
    };
    let check = move || control_kind(key) && !unchosen.get();
    view! {
        <div class="field" class:check-field=check class:unchosen=move || unchosen.get()>
            <label for=dom_id>{label}</label>
            {control}
            <p class="field-error" id=error_id role="alert">{move || error.get()}</p>
            <p class="field-hint" id=hint_id hidden=move || !unchosen.get()>"Not chosen yet: the design waits for it."</p>
        </div>
    }
}

/// Checkboxes put their label after the box.
fn control_kind(key: &str) -> bool {
    matches!(key, "yield" | "unique" | "reconcile")
}

/// A node's connections and the menu that adds one: in the inspector, and
/// on a phone inside the step's own card, where the finger is.
#[component]
pub(super) fn Connections(
    id: NodeId,
    /// Where it is drawn, for its ids: the inspector's and a card's differ.
    #[prop(default = "connect")]
    place: &'static str,
) -> impl IntoView {
    let d = expect_context::<Designer>();
    let choice = RwSignal::new(String::new());
    let menu_id = format!("{place}-{}", id.0);
    // Every connection this node could still make, both ways.
    let options = Memo::new(move |_| {
        d.graph.with(|g| {
            let Some(me) = g.node(id) else {
                return Vec::new();
            };
            let (mut outputs, mut inputs) = (Vec::new(), Vec::new());
            for other in g.nodes.values().filter(|n| n.id != id) {
                let has = |from, to| g.edges.iter().any(|e| e.from == from && e.to == to);
                if me.kind().feeds(other.kind()) && !has(id, other.id) {
                    outputs.push((
                        format!("to:{}", other.id.0),
                        format!("this → {}", name(other)),
                    ));
                }
                if other.kind().feeds(me.kind()) && !has(other.id, id) {
                    inputs.push((
                        format!("from:{}", other.id.0),
                        format!("{} → this", name(other)),
                    ));
                }
            }
            // A node without inputs most likely needs one: offer those first.
            if g.inputs(id).next().is_none() {
                inputs.extend(outputs);
                inputs
            } else {
                outputs.extend(inputs);
                outputs
            }
        })
    });
    // What the menu shows: the student's pick while it is still possible,
    // else the first choice.
    let picked = move || {
        let pick = choice.get();
        options.with(|o| {
            if o.iter().any(|(v, _)| *v == pick) {
                pick
            } else {
                o.first().map(|(v, _)| v.clone()).unwrap_or_default()
            }
        })
    };
    let connect = move |_| {
        let picked = picked();
        let parsed = picked
            .split_once(':')
            .and_then(|(dir, n)| Some((dir.to_string(), NodeId(n.parse().ok()?))));
        match parsed {
            Some((dir, other)) if dir == "to" => {
                d.connect(id, other);
            }
            Some((_, other)) => {
                d.connect(other, id);
            }
            None => d
                .announcement
                .set("Choose a node to connect first.".to_string()),
        }
        choice.set(String::new());
    };
    let wires = move || {
        d.graph.with(|g| {
            g.edges
                .iter()
                .filter(|e| e.from == id || e.to == id)
                .map(|e| {
                    let (from, to) = (e.from, e.to);
                    let text = if from == id {
                        format!("this → {}", name_of(g, to))
                    } else {
                        format!("{} → this", name_of(g, from))
                    };
                    let what = format!("Disconnect {text}");
                    view! {
                        <li>
                            {text}
                            " "
                            <button type="button" class="small" aria-label=what on:click=move |_| d.disconnect(from, to)>
                                "Disconnect"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="connections">
            <h4>"Connections"</h4>
            <ul class="wire-list">{wires}</ul>
            <div class="connect-menu">
                <label for=menu_id.clone()>"Connect"</label>
                <select id=menu_id on:change=move |ev| choice.set(event_target_value(&ev)) prop:value=picked>
                    {move || {
                        let options = options.get();
                        if options.is_empty() {
                            view! { <option value="">"(nothing left to connect)"</option> }.into_any()
                        } else {
                            options
                                .into_iter()
                                .map(|(v, text)| view! { <option value=v>{text}</option> })
                                .collect_view()
                                .into_any()
                        }
                    }}
                </select>
                <button type="button" on:click=connect>"Connect"</button>
            </div>
        </div>
    }
}
