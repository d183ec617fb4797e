//! The State x Write lab page. The URL query is the lab's only state (so
//! any moment can be bookmarked); everything shown is derived from it
//! through the lab model and the engine.

pub mod cell;
pub mod code;
pub mod controls;
mod predict;
pub mod room_view;
mod scrubber;
pub mod verdicts;
mod week;

use leptos::prelude::*;

use crate::engine::simulate::Planned;
use crate::engine::Outcome;
use crate::labs::state_write::predict::{last_open_run, shared_runs};
use crate::labs::state_write::query::{parse, resolve_run, to_query, Pinned};
use crate::labs::state_write::{planned_runs, run_count, Cell, Controls, Guess};
use crate::labs::tally::Tally;

use super::later::{Fetch, KeptFocus};
use super::page::set_title;

/// Writes a lab state (controls, 0-based run, presenter mode, pinned
/// cells, the prediction and the room's hands) to the URL.
type Navigate =
    Box<dyn Fn(Controls, usize, bool, Pinned, Option<Guess>, Option<Tally>) + Send + Sync>;

/// Everything the page's parts read, all derived from the URL.
#[derive(Clone, Copy)]
pub struct Lab {
    pub controls: Memo<Controls>,
    /// The week's runs as the scheduler starts them: named before the
    /// engine has run the week.
    pub planned: Memo<Vec<Planned>>,
    /// Every pipeline's week, once the engine has come (`cell`: it comes
    /// with the pipelines' panels, below the first screen).
    pub outcomes: Memo<Option<Vec<(Cell, Outcome)>>>,
    /// 0-based index of the selected run.
    pub run: Memo<usize>,
    pub runs: Memo<usize>,
    pub notes: Memo<Vec<String>>,
    /// The pipelines that lose orders silently, once the verdicts have
    /// come (`verdicts`: shown only after the prediction).
    pub silent: Memo<Option<Vec<Cell>>>,
    pub verdicts: Fetch<verdicts::Verdicts>,
    /// The engine and the pipelines' panels (`cell`).
    pub cells: Fetch<cell::Cells>,
    /// The cells ticked on the prediction form, before it is locked in.
    pub choosing: RwSignal<Vec<Cell>>,
    /// "None of them" ticked on the form.
    pub choosing_none: RwSignal<bool>,
    /// What the clicker asks of the presenter at the prediction.
    pub cue: RwSignal<Option<String>>,
    /// The prediction locked in or skipped (from the URL): until then the
    /// page shows only the runs in which every cell is the same.
    pub guess: Memo<Option<Guess>>,
    /// How many runs, from the first, look the same in every cell, once
    /// the engine has come.
    pub shared: Memo<Option<usize>>,
    pub present: Memo<bool>,
    /// Presenter mode's side by side: the cells shown alone.
    pub pinned: Memo<Pinned>,
    /// Presenter mode's show of hands at the prediction (from the URL).
    pub room: Memo<Option<Tally>>,
    go: StoredValue<Navigate>,
}

impl Lab {
    /// Shows `controls` at 0-based run `index` (clamped to the runs there
    /// are, and before the prediction to the runs every cell shares).
    pub fn go(&self, controls: Controls, index: usize) {
        let last = run_count(&controls).saturating_sub(1);
        let guess = self.guess.get_untracked();
        // A change of controls asks again: a guess was about the old week.
        // Skipping was not a guess, and holds for every week.
        let same_week = controls == self.controls.get_untracked();
        let guess = guess.filter(|g| *g == Guess::Skipped || same_week);
        // The room's hands were about the old week too.
        let room = self.room.get_untracked().filter(|_| same_week);
        self.navigate(controls, index.min(last), guess, room);
    }

    fn go_to(&self, controls: Controls, index: usize, guess: Option<Guess>) {
        self.navigate(controls, index, guess, self.room.get_untracked());
    }

    fn navigate(
        &self,
        controls: Controls,
        index: usize,
        guess: Option<Guess>,
        room: Option<Tally>,
    ) {
        let present = self.present.get_untracked();
        let pinned = self.pinned.get_untracked();
        self.go
            .with_value(|go| go(controls, index, present, pinned, guess, room));
    }

    /// Keeps the room's show of hands in the address.
    pub fn set_room(&self, room: Tally) {
        self.navigate(
            self.controls.get_untracked(),
            self.run.get_untracked(),
            self.guess.get_untracked(),
            Some(room),
        );
    }

    /// Locks in (or skips) the prediction, staying on the run on show.
    pub fn lock_in(&self, guess: Guess) {
        self.verdicts.start();
        // The judgement reads the engine's week too: asked for again if it
        // failed to come.
        self.cells.start();
        self.go_to(
            self.controls.get_untracked(),
            self.run.get_untracked(),
            Some(guess),
        );
    }

    /// Hides the verdicts again for a new prediction, back to the runs
    /// every cell shares.
    pub fn predict_again(&self) {
        self.choosing.set(Vec::new());
        self.choosing_none.set(false);
        let index = self
            .run
            .get_untracked()
            .min(self.shared.get_untracked().unwrap_or(0).saturating_sub(1));
        self.go_to(self.controls.get_untracked(), index, None);
    }

    pub fn toggle_presenter(&self) {
        let (controls, run, present) = (
            self.controls.get_untracked(),
            self.run.get_untracked(),
            self.present.get_untracked(),
        );
        let (guess, room) = (self.guess.get_untracked(), self.room.get_untracked());
        self.go.with_value(|go| {
            go(
                controls,
                run,
                !present,
                self.pinned.get_untracked(),
                guess,
                room,
            )
        });
    }

    /// Pins or unpins a cell (presenter mode's side by side).
    pub fn set_pinned(&self, pinned: Pinned) {
        let (controls, run) = (self.controls.get_untracked(), self.run.get_untracked());
        let (guess, room) = (self.guess.get_untracked(), self.room.get_untracked());
        self.go.with_value(|go| {
            go(
                controls,
                run,
                self.present.get_untracked(),
                pinned,
                guess,
                room,
            )
        });
    }

    /// Whether the page is still asking: no prediction locked in or skipped.
    pub fn asking(&self) -> bool {
        self.guess.get().is_none()
    }

    /// The last run the page may show now (0-based): before the
    /// prediction, the first alone until the engine has said how many
    /// runs every cell shares.
    pub fn last_open_run(&self) -> usize {
        last_open_run(
            self.runs.get(),
            self.shared.get().unwrap_or(0),
            self.asking(),
        )
    }

    /// Whether the run on show would answer the question: only when the
    /// cells already differ at the first run.
    pub fn sealed(&self) -> bool {
        self.asking() && self.shared.get() == Some(0)
    }

    /// Changes one setting, keeping the selected run where it still exists.
    pub fn update_controls(&self, change: impl FnOnce(&mut Controls)) {
        let mut next = self.controls.get_untracked();
        change(&mut next);
        self.go(next, self.run.get_untracked());
    }

    pub fn set_run(&self, index: usize) {
        self.go(
            self.controls.get_untracked(),
            index.min(self.last_open_run_untracked()),
        );
    }

    pub fn last_open_run_untracked(&self) -> usize {
        last_open_run(
            self.runs.get_untracked(),
            self.shared.get_untracked().unwrap_or(0),
            self.guess.get_untracked().is_none(),
        )
    }

    pub fn at_last_run(&self) -> bool {
        self.run.get() + 1 >= self.runs.get()
    }

    /// Whether the run on show is the last the page may show now.
    pub fn at_last_open_run(&self) -> bool {
        self.run.get() >= self.last_open_run()
    }

    /// Verdicts show once the student has predicted (or skipped) and the
    /// scrubber is on the last run.
    pub fn verdicts_visible(&self) -> bool {
        !self.asking() && self.at_last_run()
    }
}

/// What presenter mode says in the room view's place while a week whose
/// first run already tells the pipelines apart waits for the prediction.
const ROOM_VIEW_SEALED: &str =
    "Every pipeline's silver is shown here once the room has predicted: in this week they differ from the first run.";

#[component]
pub fn StateWriteLab() -> impl IntoView {
    set_title("State x Write lab");
    let query = crate::ui::route::use_query();
    let parsed = Memo::new(move |_| {
        let q = query.read();
        let read = crate::labs::link::Reading::of(&q);
        let (lab, mut notes) = parse(|key| read.get(key));
        notes.extend(read.repeated());
        (lab, notes)
    });
    let controls = Memo::new(move |_| parsed.read().0.controls);
    // The engine and the pipelines' panels lie below the first screen:
    // asked for as soon as the lab is live. Until they come the week and
    // its runs are the schedule's.
    let cells = Fetch::new(&cell::LATER);
    cells.drawn_or_start(cell::AT_ONCE);
    let planned = Memo::new(move |_| planned_runs(&controls.get()));
    let outcomes = Memo::new(move |_| cells.ready.get().map(|it| (it.run)(&controls.get())));
    let runs = Memo::new(move |_| planned.read().len());
    let guess = Memo::new(move |_| parsed.read().0.guess.clone());
    let shared = Memo::new(move |_| outcomes.read().as_deref().map(shared_runs));
    // Before the prediction the week opens at its first run, and goes no
    // further than the runs every cell shares; after it, a link without a
    // run opens at the last.
    let resolved = Memo::new(move |_| {
        let asked = parsed.read().0.run;
        let asking = guess.read().is_none();
        let (index, note) = match (asked, asking) {
            (None, true) => (0, None),
            _ => resolve_run(asked, runs.get()),
        };
        if asking {
            // Until the engine has said which runs every cell shares, the
            // first alone, and nothing said about the others yet.
            let Some(shared) = shared.get() else {
                return (0, None);
            };
            let open = last_open_run(runs.get(), shared, true);
            if index > open {
                let note = format!(
                    "Run {} is shown once you have predicted (or skipped the prediction): until then the week stops at run {}, the last one every pipeline has in common.",
                    asked.unwrap_or(index + 1),
                    open + 1
                );
                return (open, Some(note));
            }
        }
        (index, note)
    });
    let notes = Memo::new(move |_| {
        let mut notes = parsed.read().1.clone();
        notes.extend(resolved.read().1.clone());
        notes
    });
    let verdicts = Fetch::new(&verdicts::LATER);
    // A link that opens the lab already answered needs them at once.
    if guess.get_untracked().is_some() {
        verdicts.start();
    } else {
        verdicts.soon();
    }
    let silent = Memo::new(move |_| {
        let v = verdicts.ready.get()?;
        Some((v.silent)(outcomes.read().as_deref()?, &controls.read()))
    });
    let present = Memo::new(move |_| parsed.read().0.present);
    let pinned = Memo::new(move |_| parsed.read().0.pinned);
    // Only presenter mode draws the room view: fetched when it is on.
    let room_view = Fetch::new(&room_view::LATER);
    Effect::new(move |_| {
        if present.get() {
            room_view.start();
        }
    });
    let go = move |controls: Controls,
                   index: usize,
                   present: bool,
                   pinned: Pinned,
                   guess: Option<Guess>,
                   room: Option<Tally>| {
        crate::ui::route::replace(&format!(
            "/lab/state-write?{}",
            to_query(
                &controls,
                index + 1,
                present,
                pinned,
                guess.as_ref(),
                room.as_ref()
            )
        ));
    };
    let lab = Lab {
        controls,
        planned,
        outcomes,
        run: Memo::new(move |_| resolved.read().0),
        runs,
        notes,
        silent,
        verdicts,
        cells,
        choosing: RwSignal::new(Vec::new()),
        choosing_none: RwSignal::new(false),
        cue: RwSignal::new(None),
        guess,
        shared,
        present,
        pinned,
        room: Memo::new(move |_| parsed.read().0.room),
        go: StoredValue::new(Box::new(go)),
    };
    provide_context(lab);
    provide_context(super::presenter::Revealed(Signal::derive(move || {
        lab.guess.get().is_some()
    })));
    // At the prediction in presenter mode, keys 1 to 6 tick the room's
    // cells and 0 "none of them".
    super::presenter::on_choice_keys(
        move || lab.present.get_untracked() && lab.guess.get_untracked().is_none(),
        move |key| {
            match key {
                None => {
                    lab.choosing_none.set(true);
                    lab.choosing.set(Vec::new());
                }
                Some(i) => {
                    let Some(cell) = Cell::ALL.get(i).copied() else {
                        return false;
                    };
                    lab.choosing_none.set(false);
                    lab.choosing.update(|cells| {
                        if cells.contains(&cell) {
                            cells.retain(|c| *c != cell);
                        } else {
                            cells.push(cell);
                        }
                    });
                }
            }
            lab.cue.set(None);
            true
        },
    );
    // In presenter mode a clicker's keys step the runs. At the last run
    // every cell shares, PageDown locks in the room's answer, and never
    // skips it: without one it says what to do.
    super::presenter::on_clicker(
        move || lab.present.get_untracked(),
        move |by| {
            let run = lab.run.get_untracked();
            let asking = lab.guess.get_untracked().is_none();
            // Until the engine has said which runs every pipeline shares,
            // the clicker can neither step into them nor ask for the answer.
            let shared = lab.shared.get_untracked();
            if by > 0 && asking && shared.is_none() {
                lab.cue.set(Some(cell::CLICKER_WAITS.to_string()));
                return true;
            }
            if lab.cue.get_untracked().as_deref() == Some(cell::CLICKER_WAITS) {
                lab.cue.set(None);
            }
            if by > 0 && asking && run.saturating_add(1) >= shared.unwrap_or(0).max(1) {
                let cells = lab.choosing.get_untracked();
                if lab.choosing_none.get_untracked() {
                    lab.lock_in(Guess::NoCell);
                } else if !cells.is_empty() {
                    lab.lock_in(Guess::of(&cells));
                } else {
                    lab.cue.set(Some(
                        "Enter the room's answer first: keys 1 to 6 tick the pipelines (0 for none of them), then PageDown.".to_string(),
                    ));
                    super::presenter::bring_heading("predict-heading");
                }
                return true;
            }
            // The week's end, once the prediction is in (before it, the
            // page waits for it, and so does the lesson), or its start.
            let end = lab.guess.get_untracked().is_some()
                && run.saturating_add(1) >= lab.runs.get_untracked();
            if (by > 0 && end) || (by < 0 && run == 0) {
                return false;
            }
            lab.set_run(run.saturating_add_signed(by as isize));
            true
        },
    );

    // A reader on the panels' "Try again" lands on the first panel shown.
    let kept = KeptFocus::new(
        Signal::derive(move || cells.ready.get().is_some()),
        &cell::HEADINGS,
    );
    view! {
        <section class="page lab" class:presenter=move || present.get() aria-labelledby="lab-title">
            <div class="title-row">
                <h1 id="lab-title">"State x Write lab"</h1>
                <super::presenter::PresenterToggle
                    present=present
                    on_toggle=Callback::new(move |()| lab.toggle_presenter())
                    link=super::presenter::this_address()
                />
            </div>
            <p class="lede explain-text">
                "An incremental pipeline remembers how far it got, and writes its rows somehow. Below, five such pipelines and a full refresh replay one week of orders, with a late order and a crashed run. Watch where every order goes."
            </p>
            // What the link held that the lab could not use: said at the
            // top, where a reader who followed it is looking.
            <super::widgets::LinkNotes notes=lab.notes />
            <week::Week />
            <predict::Predict />
            <scrubber::Scrubber />
            // Below a phone's first screen: drawn once that is painted.
            <super::below::Below name="state-write-cells">
                <ul class="legend" aria-label="How to read the partitions">
                    <li><span class="chip">"o-101"</span>" an order"</li>
                    <li><span class="chip new">"+o-201"</span>" new in the selected run"</li>
                    <li><span class="chip dup">"❐ o-301 " <span class="tag">"dup"</span></span>" a second copy"</li>
                    <li><span class="chip missing">"✕ o-101 " <span class="tag">"missing"</span></span>" arrived, not in the table"</li>
                    <li><span class="written-tag">"✎ written"</span>" by the selected run"</li>
                    <li><dfn class="check-name">"reconcile vs bronze"</dfn>": silver's rows counted against bronze, the check most teams lack"</li>
                </ul>
                <Show when=move || present.get() && !pinned.get().is_empty()>
                    <p class="pinned-note">
                        {move || {
                            let p = pinned.get();
                            let names = p.cells().map(Cell::name).collect::<Vec<_>>().join(" and ");
                            if p.is_pair() {
                                format!("Side by side: {names}.")
                            } else {
                                format!("Pinned: {names}. Pin one more to put them side by side.")
                            }
                        }}
                        " "
                        <button type="button" on:click=move |_| lab.set_pinned(Pinned::default())>"Show all cells"</button>
                    </p>
                </Show>
                <Show when=move || present.get() && !pinned.get().is_pair()>
                    // The room view counts the engine's cells: drawn once it
                    // has come, and in a week whose first run already tells
                    // the pipelines apart, once the room has predicted (as
                    // each cell is).
                    {move || {
                        if lab.sealed() {
                            return Some(view! { <p class="muted sealed">{ROOM_VIEW_SEALED}</p> }.into_any());
                        }
                        room_view.ready.get().filter(|_| lab.outcomes.read().is_some()).map(|it| (it.view)())
                    }}
                    {room_view.status(room_view::FETCHING, room_view::NOT_FETCHED)}
                </Show>
                <Show when=move || cells.ready.get().is_none()>
                    {kept.holding("cells-status", cells.status(cell::FETCHING, cell::NOT_FETCHED))}
                </Show>
                <div
                    class="cells"
                    class:pinned=move || present.get() && pinned.get().is_pair()
                    aria-busy=move || cells.fetching.get().then_some("true")
                >
                    {move || cells.ready.get().map(|it| (it.panels)())}
                </div>
                <controls::Controls />
            </super::below::Below>
        </section>
    }
}
