//! The pipeline canvas: a palette, an SVG board, an inspector and the
//! problem list around one `History`. Every change, by mouse or keyboard,
//! goes through `Designer::edit`, so undo, autosave and announcements
//! cover them all.

mod board;
pub mod check;
pub mod code;
mod files;
pub mod grader;
mod inspector;
mod palette;
pub mod place;
mod problems;
pub mod report;
mod steps;

use leptos::prelude::*;

use crate::design::choose::placed;
use crate::design::files::saves::{self, Loaded};
use crate::design::geometry::layout::free_spot;
use crate::design::inspector::describe::name_of;
use crate::design::{validate, Edit, EditError, Graph, History, NodeId, NodeKind, Problem};
use crate::scenarios::Scenario;

use super::storage;

pub use crate::design::geometry::viewport::{Drag, Viewport};

/// A message shown above the canvas, where the student is looking.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    Info(String),
    Error(String),
}

/// How the design is drawn: as a board of boxes and wires, or as a list
/// of steps (a phone's way: legible and every target finger-sized).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Board,
    List,
}

/// Screens narrower than this get the list: the board's nodes would be
/// drawn at a third of their size there, their words under 12 px.
const LIST_BELOW: &str = "(max-width: 640px)";

/// Whether the screen is a phone's, which gets the list and no board.
pub(super) fn phone() -> bool {
    super::widgets::media_matches(LIST_BELOW)
}

#[derive(Clone, Copy)]
pub struct Designer {
    /// The scenario being designed for: its saves' keys, its source
    /// table, what a node from the palette arrives as, its check.
    pub scenario: &'static Scenario,
    /// The variant the page checks in (`ui::scenario_data`).
    pub variant: crate::variant::Variant,
    /// The scenario's script in it, once something has run it (`script`).
    made: StoredValue<std::sync::OnceLock<std::sync::Arc<crate::engine::Script>>>,
    pub history: RwSignal<History>,
    pub graph: Memo<Graph>,
    pub problems: Memo<Vec<Problem>>,
    pub selected: RwSignal<Option<NodeId>>,
    /// Read out by screen readers after every change.
    pub announcement: RwSignal<String>,
    pub notice: RwSignal<Option<Notice>>,
    pub viewport: RwSignal<Viewport>,
    pub layout: RwSignal<Layout>,
    pub drag: RwSignal<Option<Drag>>,
    /// A node that should take keyboard focus once it is drawn.
    pub focus_request: RwSignal<Option<NodeId>>,
    /// Bumped to move focus into the inspector (its first field, or the
    /// connect menu).
    pub inspector_focus: RwSignal<(u32, InspectorTarget)>,
    /// The palette ignores the click that ends a drag onto the board.
    pub swallow_click: RwSignal<bool>,
    pub board: NodeRef<leptos::svg::Svg>,
    /// Nodes a failed rule is about, outlined on the board.
    pub highlight: RwSignal<Vec<NodeId>>,
    /// A damaged save that could not be moved aside: autosave writes
    /// nothing while it is held, so it is never overwritten unasked.
    pub held: RwSignal<Option<String>>,
    /// A share link's design waiting for the student to say yes.
    pub pending_link: RwSignal<Option<PendingLink>>,
    /// The design a link replaced, offered back across reloads.
    pub backup: RwSignal<Option<Graph>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PendingLink {
    pub graph: Graph,
    pub replaces_backup: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InspectorTarget {
    FirstField,
    ConnectMenu,
}

impl Designer {
    /// The scenario's script in the page's variant, made by `make` on
    /// first use and then kept. `make` is the grader's or the exporters':
    /// what runs the script brings its maker, so the canvas's own chunk
    /// carries no script maker and no judge (`Scenario::running`).
    pub fn script(&self, make: ScriptMaker) -> std::sync::Arc<crate::engine::Script> {
        let (scenario, variant) = (self.scenario, self.variant);
        self.made.with_value(|made| {
            made.get_or_init(|| std::sync::Arc::new(make(scenario, variant)))
                .clone()
        })
    }

    /// Node `id` as it stands, for a view drawing it (board box or list card).
    pub fn node_memo(&self, id: NodeId) -> Memo<Option<crate::design::Node>> {
        let graph = self.graph;
        Memo::new(move |_| graph.with(|g| g.node(id).cloned()))
    }

    /// How many problems point at node `id`.
    pub fn problems_at(&self, id: NodeId) -> Memo<usize> {
        let problems = self.problems;
        Memo::new(move |_| problems.with(|p| p.iter().filter(|p| p.node == Some(id)).count()))
    }

    /// Calls `focus` whenever node `id` is asked to take keyboard focus (it
    /// was just added, or a neighbour deleted); `focus` says whether the
    /// view could, and the request is kept until one does.
    pub fn focus_on_request(&self, id: NodeId, focus: impl Fn() -> bool + 'static) {
        let request = self.focus_request;
        Effect::new(move |_| {
            if request.get() == Some(id) && focus() {
                request.set(None);
            }
        });
    }

    fn save(&self) {
        if self.held.with_untracked(Option::is_some) {
            return;
        }
        let now = js_sys::Date::now() as i64;
        let saved = self.history.with_untracked(|h| {
            saves::save(&mut storage::Local, self.scenario.number, &h.current, now)
        });
        // The data it is made on goes with it into the work file. A store
        // that refuses this is refusing the design too, said just below.
        let data = || {
            saves::put_variant(
                &mut storage::Local,
                self.scenario.number,
                Some(self.variant),
            )
        };
        if let Err(message) = saved.and_then(|()| data().map_err(|e| e.message().to_string())) {
            self.notice.set(Some(Notice::Error(message)));
        }
    }

    /// Lets autosave write again over a held damaged save, once the
    /// student has said so.
    pub fn release_held(&self) {
        self.held.set(None);
        self.save();
    }

    /// Applies `edit`, saying `said` if it worked and why not if it did not.
    pub fn edit(&self, edit: Edit, said: impl Into<String>) -> bool {
        let result = self.history.try_update(|h| h.edit(&edit));
        match result {
            Some(Ok(())) => {
                self.announcement.set(said.into());
                self.save();
                true
            }
            Some(Err(e)) => {
                let said = capitalised(&e.to_string());
                // A limit reached is news to the eye too, not only to a screen reader.
                if matches!(
                    e,
                    EditError::TooManyNodes
                        | EditError::TooManyEdges
                        | EditError::OutOfIds
                        | EditError::OutOfLimits(_)
                ) {
                    self.notice.set(Some(Notice::Error(said.clone())));
                }
                self.announcement.set(said);
                false
            }
            None => false,
        }
    }

    /// Adds a `kind` node at `at` (or next to the selection), selects it
    /// and gives it focus.
    pub fn add(&self, kind: NodeKind, at: Option<(i32, i32)>) {
        let (id, spot) = self.history.with_untracked(|h| {
            let spot = at.unwrap_or_else(|| free_spot(&h.current, self.selected.get_untracked()));
            (NodeId(h.current.next_id), spot)
        });
        let said = format!(
            "Added {} {}. Arrow keys move it, Enter opens its settings, C connects it.",
            kind.name(),
            id.0
        );
        let (config, unchosen) = placed(kind, &self.scenario.palette);
        let added = self.edit(
            Edit::Place {
                config,
                unchosen,
                x: spot.0,
                y: spot.1,
            },
            said,
        );
        if added {
            board::reveal(self, spot.0, spot.1);
            self.selected.set(Some(id));
            self.focus_request.set(Some(id));
        }
    }

    pub fn connect(&self, from: NodeId, to: NodeId) -> bool {
        let said = self
            .graph
            .with_untracked(|g| format!("Connected {} to {}.", name_of(g, from), name_of(g, to)));
        self.edit(Edit::Connect { from, to }, said)
    }

    pub fn disconnect(&self, from: NodeId, to: NodeId) {
        let said = self.graph.with_untracked(|g| {
            format!("Disconnected {} from {}.", name_of(g, from), name_of(g, to))
        });
        self.edit(Edit::Disconnect { from, to }, said);
    }

    /// Deletes a node and hands focus to a neighbour, so the keyboard
    /// never lands nowhere.
    pub fn delete(&self, id: NodeId) {
        let (said, next) = self.graph.with_untracked(|g| {
            let next = g
                .nodes
                .range(..id)
                .next_back()
                .or_else(|| g.nodes.range(id..).nth(1))
                .map(|(k, _)| *k);
            (format!("Deleted {}.", name_of(g, id)), next)
        });
        if self.edit(Edit::Delete { id }, said) {
            self.selected.set(next);
            self.focus_request.set(next);
        }
    }

    pub fn undo(&self) {
        if self.history.try_update(|h| h.undo()).unwrap_or(false) {
            self.after_time_travel("Undone.");
        } else {
            self.announcement.set("Nothing to undo.".to_string());
        }
    }

    pub fn redo(&self) {
        if self.history.try_update(|h| h.redo()).unwrap_or(false) {
            self.after_time_travel("Redone.");
        } else {
            self.announcement.set("Nothing to redo.".to_string());
        }
    }

    fn after_time_travel(&self, said: &str) {
        let gone = self
            .selected
            .get_untracked()
            .is_some_and(|id| self.graph.with_untracked(|g| g.node(id).is_none()));
        if gone {
            self.selected.set(None);
        }
        self.announcement.set(said.to_string());
        self.save();
    }

    /// Swaps in a whole design (an import, a fresh start) after keeping
    /// the student's own as the backup this page offers back, so it
    /// survives a reload as well as Undo; refuses if it cannot be kept.
    pub fn replace_keeping(&self, graph: Graph, said: &str) {
        let current = self.graph.get_untracked();
        if current != Graph::with_source(self.scenario.source) {
            if let Err(why) =
                saves::keep_backup(&mut storage::Local, self.scenario.number, &current)
            {
                self.notice.set(Some(Notice::Error(format!(
                    "Your design was not replaced, because it could not be kept as a backup first: {why}"
                ))));
                return;
            }
            self.backup.set(Some(current));
        }
        self.replace(graph, said);
    }

    /// Swaps in a whole design (an import, a link, a fresh start) as one
    /// undoable step.
    pub fn replace(&self, graph: Graph, said: &str) {
        self.history.update(|h| h.replace(graph));
        board::fit_if_hidden(self);
        self.selected.set(None);
        self.notice.set(Some(Notice::Info(said.to_string())));
        self.announcement.set(said.to_string());
        self.save();
    }
}

fn capitalised(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("{}.", crate::scenarios::grading::report::capital(text))
    }
}

/// Makes a scenario's script in a variant: the grader's or the
/// exporters' (`Designer::script`).
pub type ScriptMaker = fn(&'static Scenario, crate::variant::Variant) -> crate::engine::Script;

#[component]
pub fn Canvas(scenario: &'static Scenario, variant: crate::variant::Variant) -> impl IntoView {
    let (number, source) = (scenario.number, scenario.source);
    let Loaded {
        graph,
        message,
        held,
    } = saves::load(&mut storage::Local, number, source);
    let history = RwSignal::new(History::new(graph));
    let graph = Memo::new(move |_| history.with(|h| h.current.clone()));
    let problems = Memo::new(move |_| graph.with(validate));
    let designer = Designer {
        scenario,
        variant,
        made: StoredValue::new(std::sync::OnceLock::new()),
        history,
        graph,
        problems,
        selected: RwSignal::new(None),
        announcement: RwSignal::new(String::new()),
        notice: RwSignal::new(message.map(Notice::Error)),
        viewport: RwSignal::new(Viewport::default()),
        layout: RwSignal::new(if phone() { Layout::List } else { Layout::Board }),
        drag: RwSignal::new(None),
        focus_request: RwSignal::new(None),
        inspector_focus: RwSignal::new((0, InspectorTarget::FirstField)),
        swallow_click: RwSignal::new(false),
        board: NodeRef::new(),
        highlight: RwSignal::new(Vec::new()),
        held: RwSignal::new(held),
        pending_link: RwSignal::new(None),
        backup: RwSignal::new(saves::backup(&mut storage::Local, number, source)),
    };
    provide_context(designer);
    board::fit_if_hidden(&designer);

    // Undo and redo from anywhere on the page, except while typing.
    crate::ui::browser::listen(leptos::ev::keydown, move |ev| {
        if super::widgets::typing_in_a_field(&ev) || !(ev.ctrl_key() || ev.meta_key()) {
            return;
        }
        match (ev.key().to_ascii_lowercase().as_str(), ev.shift_key()) {
            ("z", false) => designer.undo(),
            ("z", true) | ("y", false) => designer.redo(),
            _ => return,
        }
        ev.prevent_default();
    });

    view! {
        <section class="designer" aria-labelledby=place::TITLE>
            <h2 id=place::TITLE>"Your design"</h2>
            <files::OpenLink />
            <NoticeBar />
            <files::LinkPrompt />
            <files::KeptCopies />
            <div class="designer-grid">
                <palette::Palette />
                <div class="board-column">
                    <board::Toolbar />
                    {move || match designer.layout.get() {
                        Layout::Board => view! {
                            <board::Board />
                            <p class="canvas-help muted explain-text" id="canvas-help">
                                "Mouse: drag from the palette, drag nodes to move them, drag from a node's right-hand port to another node to connect, drag the background to pan, Ctrl + wheel to zoom. Keyboard: Tab between nodes, arrow keys move the focused node, Enter opens its settings, C connects it, Delete removes it, Ctrl+Z / Ctrl+Shift+Z undo and redo."
                            </p>
                        }
                        .into_any(),
                        Layout::List => view! {
                            <p class="canvas-help muted explain-text" id="canvas-help">
                                "Each step in the order the rows flow. Tap + in the palette to add one, Settings to make its choices, Connect… to wire it to the next step. The board shows the same design."
                            </p>
                            <steps::Steps />
                        }
                        .into_any(),
                    }}
                </div>
                <inspector::Inspector />
            </div>
            <problems::Problems />
            <check::CheckPanel />
            // The files panel is not put off: the presenter's link (a
            // control at the top) is made by it.
            <files::Files />
            // Below a phone's first screen: drawn once that is painted.
            <super::below::Below name="designer-export">
                <code::ExportCode />
            </super::below::Below>
            <p class="visually-hidden" role="status" aria-live="polite">
                {move || designer.announcement.get()}
            </p>
        </section>
    }
}

#[component]
fn NoticeBar() -> impl IntoView {
    let d = expect_context::<Designer>();
    move || {
        d.notice.get().map(|notice| {
            let (class, role, text) = match notice {
                Notice::Info(text) => ("notice", "status", text),
                Notice::Error(text) => ("notice error", "alert", text),
            };
            view! {
                <div class=class role=role>
                    <p>{text}</p>
                    <button type="button" on:click=move |_| d.notice.set(None)>"Dismiss"</button>
                </div>
            }
        })
    }
}
