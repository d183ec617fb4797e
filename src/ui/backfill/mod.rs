//! The currency-bug backfill lab page: which partitions, in what order,
//! how fast; then the backfill itself, interruptible, and its commands.

mod answer;
mod data;
mod drift;
pub mod engine;
mod focus;
mod grid;
pub mod outcome;
mod runner;
pub mod shelf;

use leptos::prelude::*;

use crate::labs::backfill::case::Case;
use crate::labs::backfill::case::{Sunday, Writer};
use crate::labs::backfill::clicker::{self, Cue, Stage};
use crate::labs::backfill::query::{parse, parse_moment, to_query_at, Moment};
use crate::labs::backfill::run::Execution;
use crate::labs::backfill::view::summary;
use crate::labs::backfill::{Choices, Concurrency, PlanStart};

use super::below::Below;
use super::later::Fetch;
use super::page::set_title;
use super::widgets::{LinkNotes, RadioGroup};

#[derive(Clone, Copy)]
pub struct Lab {
    /// August as the Sunday choice makes it (rebuilt only when that
    /// changes), once the engine has come: the first screen never reads
    /// it, the page only once the ship date is predicted (and the shelf's
    /// project download, which builds it itself before then).
    pub case: Memo<Option<Case>>,
    /// The engine the case and everything read from it come from: a
    /// chunk of its own (`engine`).
    pub engine: Fetch<engine::Engine>,
    pub choices: Memo<Choices>,
    /// Runs that have ended (finished or interrupted), oldest first.
    pub finished: RwSignal<Vec<Execution>>,
    /// The run under way: its full schedule, and the minutes elapsed.
    pub current: RwSignal<Option<Execution>>,
    pub minute: RwSignal<i64>,
    /// The prediction and the runs since (from the address): `finished`
    /// is these runs replayed.
    pub moment: Memo<Moment>,
    /// A step a clicker asked for, taken by the section it belongs to.
    pub cue: RwSignal<Option<Cue>>,
    /// The clicker has put the prediction to the room.
    asked: RwSignal<bool>,
    /// The ship date ticked (by mouse, or by key in presenter mode), not
    /// yet locked in.
    pub ticked: RwSignal<Option<PlanStart>>,
    /// What the clicker asks of the presenter at the prediction.
    pub answer_note: RwSignal<Option<String>>,
    present_mode: Memo<bool>,
    go: StoredValue<Box<dyn Fn(Choices, Moment) + Send + Sync>>,
}

impl Lab {
    /// A new plan: August untouched again, the prediction kept.
    fn choose(&self, change: impl FnOnce(&mut Choices)) {
        let mut next = self.choices.get_untracked();
        change(&mut next);
        let now = self.moment.get_untracked();
        self.go.with_value(|go| {
            go(
                next,
                Moment {
                    guess: now.guess,
                    ran: Vec::new(),
                    room: now.room,
                },
            )
        });
    }

    /// Records what happened (a prediction, a run) in the address.
    pub fn set_moment(&self, moment: Moment) {
        let choices = self.choices.get_untracked();
        self.go.with_value(|go| go(choices, moment));
    }

    /// Whether the ship date has been predicted (or the prediction skipped).
    pub fn predicted(&self) -> bool {
        self.moment.read().guess.is_some()
    }

    /// The engine, once the page shows what it says: the ship date is
    /// predicted and the engine has come.
    pub fn answering(&self) -> Option<&'static engine::Engine> {
        self.engine.ready.get().filter(|_| self.predicted())
    }

    /// Whether the page shows what the engine says.
    pub fn answered(&self) -> bool {
        self.answering().is_some()
    }
}

impl Lab {
    /// Whether the page is in presenter mode.
    pub fn present(&self) -> bool {
        self.present_mode.get()
    }

    fn predicted_untracked(&self) -> bool {
        self.moment.with_untracked(|m| m.guess.is_some())
    }
}

/// A student with a class code opens the lab on their own August (SPEC
/// 14), as their scenario pages do, unless the link names its data or a
/// moment on the chapter's (a prediction, a run: made on that data).
fn own_data_first(lab: Lab) {
    let query = crate::ui::route::use_query();
    let named = query.with_untracked(|q| {
        ["variant", "guess", "ran"]
            .iter()
            .any(|k| q.get(k).is_some())
    });
    let own = crate::scenarios::student::Student::kept_class_variant(&crate::ui::storage::Local);
    if let (false, Some(own)) = (named, own) {
        lab.start_over(Choices {
            august: crate::labs::backfill::August::of(own),
            from: PlanStart::FIRST,
            ..lab.choices.get_untracked()
        });
    }
}

/// Writes the lab's state to the address (a replace, as every lab does).
fn show(choices: &Choices, present: bool, moment: &Moment) {
    crate::ui::route::replace(&format!(
        "/lab/backfill?{}",
        to_query_at(choices, present, moment)
    ));
}

#[component]
pub fn BackfillLab() -> impl IntoView {
    set_title("Currency-bug backfill lab");
    let query = crate::ui::route::use_query();
    let parsed = Memo::new(move |_| {
        let q = query.read();
        let read = crate::labs::link::Reading::of(&q);
        let (choices, present, mut notes) = parse(|key| read.get(key));
        // The moment's keys are this page's too (its own notes come from
        // `moment_parsed`).
        let _ = parse_moment(choices.august, |key| read.get(key));
        notes.extend(read.repeated());
        (choices, present, notes)
    });
    let choices = Memo::new(move |_| parsed.read().0);
    let present = Memo::new(move |_| parsed.read().1);
    let moment_parsed = Memo::new(move |_| {
        let august = choices.read().august;
        let q = query.read();
        parse_moment(august, |key| q.get(key))
    });
    let moment = Memo::new(move |_| moment_parsed.read().0.clone());
    let august = Memo::new(move |_| choices.read().august);
    // Which August, and its Sunday: what the case is made from.
    let data = Memo::new(move |_| {
        let c = choices.read();
        (c.august, c.sunday)
    });
    let engine = Fetch::new(&engine::LATER);
    let lab = Lab {
        // Never compared: it changes only when what it is made from does,
        // and comparing two Augusts would put their tables' equality in
        // the first load.
        case: Memo::new_with_compare(
            move |_| {
                let (august, sunday) = data.get();
                engine.ready.get().map(|e| (e.case)(august, sunday))
            },
            |_, _| true,
        ),
        engine,
        choices,
        finished: RwSignal::new(Vec::new()),
        current: RwSignal::new(None),
        minute: RwSignal::new(0),
        moment,
        cue: RwSignal::new(None),
        asked: RwSignal::new(false),
        ticked: RwSignal::new(None),
        answer_note: RwSignal::new(None),
        present_mode: present,
        go: StoredValue::new(Box::new(move |c: Choices, m: Moment| {
            show(&c, present.get_untracked(), &m)
        })),
    };
    provide_context(lab);
    own_data_first(lab);
    // The runs are the address's: a new plan starts from the untouched
    // August, and a link to the moment after a run replays it.
    Effect::new(move |_| {
        let choices = choices.get();
        let ran = moment.read().ran.clone();
        // No run to replay needs no August built (the first screen's
        // case); runs wait for the engine, replayed once it has come.
        let finished = match (ran.is_empty(), engine.ready.get()) {
            (false, Some(e)) => lab
                .case
                .with(|case| case.as_ref().map(|case| (e.replay)(case, &choices, &ran)))
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        lab.finished.set(finished);
        lab.current.set(None);
        lab.minute.set(0);
    });
    let notes = Memo::new(move |_| {
        let mut notes = parsed.read().2.clone();
        notes.extend(moment_parsed.read().1.clone());
        notes
    });
    // The lesson's questions here are answered by the prediction's reveal
    // and by a run: the room's question stays up until a run has begun.
    provide_context(super::presenter::Revealed(Signal::derive(move || {
        lab.predicted() && (lab.current.read().is_some() || !lab.finished.read().is_empty())
    })));
    // At the prediction in presenter mode, keys 1 to 3 tick the room's
    // ship date.
    super::presenter::on_choice_keys(
        move || present.get_untracked() && !lab.predicted_untracked(),
        move |key| {
            let guesses = choices.with_untracked(|c| c.august.guesses());
            let Some(pick) = key.and_then(|k| guesses.get(k).copied()) else {
                return false;
            };
            lab.ticked.set(Some(pick));
            lab.answer_note.set(None);
            true
        },
    );
    // A clicker walks the room through the lab's story (predict, reveal,
    // run, interrupt, resume), then its remaining sections; back is a
    // section up, never an undo of what the room saw.
    super::presenter::on_clicker(
        move || present.get_untracked(),
        move |by| {
            if by < 0 {
                return super::presenter::step_section(by);
            }
            let cue = lab.moment.with_untracked(|m| {
                clicker::next(Stage {
                    asked: lab.asked.get_untracked(),
                    chosen: lab.ticked.get_untracked().is_some(),
                    predicted: m.guess.is_some(),
                    running: lab.current.with_untracked(Option::is_some),
                    ran: &m.ran,
                })
            });
            match cue {
                Cue::Section => super::presenter::step_section(by),
                Cue::Ask => {
                    lab.asked.set(true);
                    super::presenter::bring_heading("drift-heading");
                    true
                }
                Cue::Answer => {
                    let keys = drift::clicker_keys(choices.with_untracked(|c| c.august));
                    lab.answer_note.set(Some(format!(
                        "Enter the room's answer first: {keys}; then PageDown."
                    )));
                    true
                }
                _ => {
                    lab.cue.set(Some(cue));
                    true
                }
            }
        },
    );
    let toggle = Callback::new(move |()| {
        show(
            &choices.get_untracked(),
            !present.get_untracked(),
            &moment.get_untracked(),
        )
    });
    let plan_line = Memo::new(move |_| summary(&choices.get()));
    let shelf = Fetch::new(&shelf::LATER);
    shelf.soon();
    // The engine: a moment after the lab is live, or at once when the
    // ship date is predicted (by the student, or in the link).
    engine.soon();
    Effect::new(move |_| {
        if lab.predicted() {
            engine.start();
        }
    });

    view! {
        <section class="page lab backfill" class:presenter=move || present.get() aria-labelledby="backfill-title">
            <div class="title-row">
                <h1 id="backfill-title">"Currency-bug backfill lab"</h1>
                <super::presenter::PresenterToggle
                    present=present
                    on_toggle=toggle
                    link=super::presenter::this_address()
                />
            </div>
            <p class="lede explain-text">
                "Friday 14 August 2026. Finance asks why August looks short. A change to the GBP conversion shipped early in the month: it cut each fx rate to two decimal places before converting, so every euro and dollar order came out a little short. Partitions 1 to 13 exist. Tonight's 02:00 run builds the 14th with the fix, so the backfill leaves it alone."
            </p>
            <LinkNotes notes=notes />
            <data::WhoseAugust />
            <grid::Grid />
            // The drift query's answer is August's: drawn again when the
            // variant or the Sunday changes it.
            {move || {
                // Read, not only tracked: a memo nothing has read yet
                // hears no change of what it is made from (the case,
                // which reads it, waits for the prediction and the
                // engine).
                let _ = data.get();
                view! { <drift::Drift /> }
            }}
            // Below a phone's first screen: drawn once that is painted.
            <Below name="backfill-plan">
                <section aria-labelledby="plan-heading">
                    <h2 id="plan-heading">"2. In what order: the plan"</h2>
                    <div class="control-row">
                        // The August's own days: drawn again with another August.
                        {move || view! {
                            <RadioGroup
                                legend="The plan rebuilds from"
                                name="from"
                                options=august.get().starts().map(|s| (s, s.label())).to_vec()
                                current=Signal::derive(move || choices.get().from)
                                on_pick=move |s| lab.choose(|c| c.from = s)
                            />
                        }}
                        <RadioGroup
                            legend="Partitions rebuilt at once"
                            name="concurrency"
                            options=vec![(Concurrency::One, "1"), (Concurrency::Four, "4"), (Concurrency::Twelve, "12")]
                            current=Signal::derive(move || choices.get().concurrency)
                            on_pick=move |x| lab.choose(|c| c.concurrency = x)
                        />
                        <RadioGroup
                            legend="Completion markers"
                            name="markers"
                            options=vec![(true, "on"), (false, "off")]
                            current=Signal::derive(move || choices.get().markers)
                            on_pick=move |on| lab.choose(|c| c.markers = on)
                        />
                    </div>
                    <ol class="plan-steps">
                        <li><strong>"bronze"</strong>" stays as it is: the source of truth the new silver is computed from."</li>
                        <li><strong>"silver.orders"</strong>" is rebuilt one date at a time, each partition replaced whole, from bronze with the fixed logic."</li>
                        <li><strong>"gold"</strong>" for a date is rebuilt only after that date's silver."</li>
                        <li><strong>"the finance report"</strong>" is restated once, after all gold has landed. Anyone reading a partition before its rebuild finishes still sees the wrong figure."</li>
                    </ol>
                    <p class="plan-line" data-figure="plan">{move || plan_line.get()}</p>
                    <p class="muted">
                        "Cost model: one date takes 4 minutes of silver then 2 of gold, holding one of 4 source connections the whole time; more than 4 at once only queues. "
                        {move || match choices.get().concurrency {
                            Concurrency::One => "One at a time is the slowest, but you can check the first rebuilt partition before the others start.",
                            Concurrency::Four => "Four at a time uses the whole pool.",
                            Concurrency::Twelve => "Twelve at a time is no faster than four (the pool has 4 connections), and a mistake in the fix would reach every partition before anyone looks.",
                        }}
                    </p>
                </section>
                <runner::Runner>
                    // The two settings a run's outcome turns on when a day
                    // comes back empty: here, where the run is.
                    <div class="control-row">
                        <RadioGroup
                            legend="Sunday 9 August in the source"
                            name="sunday"
                            options=vec![(Sunday::Delivered, "as delivered"), (Sunday::Withdrawn, "withdrawn on Thursday")]
                            current=Signal::derive(move || choices.get().sunday)
                            on_pick=move |x| lab.choose(|c| c.sunday = x)
                        />
                        <RadioGroup
                            legend="The rebuild's overwrite replaces"
                            name="writer"
                            options=vec![(Writer::Targeted, "every date it rebuilds"), (Writer::Dynamic, "only dates it writes rows to")]
                            current=Signal::derive(move || choices.get().writer)
                            on_pick=move |x| lab.choose(|c| c.writer = x)
                        />
                    </div>
                    // The day's figures need the August built: until the
                    // prediction (which a run waits for) and the engine
                    // the note tells the story without them.
                    <p class="muted" data-figure="sunday">
                        {move || {
                            let c = choices.get();
                            lab.answering()
                                .and_then(|e| lab.case.with(|case| case.as_ref().map(|case| (e.sunday_note)(case, &c))))
                                .unwrap_or_else(|| c.sunday.note_unbuilt(c.writer))
                        }}
                    </p>
                </runner::Runner>
                // The practitioner's shelf: the same plan in real tools.
                <details class="practitioner" id="commands" on:toggle=move |_| shelf.start()>
                <summary><h2 id="commands-heading">"For practitioners: this plan in real tools"</h2></summary>
                // Its commands and project come in a chunk of their own,
                // fetched a moment after the lab is live or when it is
                // opened first.
                {move || shelf.ready.get().map(|it| (it.section)())}
                {shelf.status(shelf::FETCHING, shelf::NOT_FETCHED)}
                </details>
            </Below>
        </section>
    }
}
