//! The allowed-lateness lab page. The URL query holds the settings; the
//! month of events is generated once per profile and every figure is read
//! off the engine's lateness study, so the slider only triggers sums.

mod calendar;
pub mod charts;
mod compare;
mod curve;
mod dagster;
mod figures;
mod histogram;
mod late_rows;
mod lookback;
mod predict;
mod project;
pub mod shelf;
mod streaming;
pub mod your_data;

use leptos::prelude::*;

use crate::engine::lateness::{Lateness, LatenessFigures, LatenessStudy};
use crate::labs::lateness::query::{parse, to_query};
use crate::labs::lateness::{study, Profile, Settings, MAX_DAYS};

use super::below::Below;
use super::later::{Fetch, KeptFocus};
use super::page::set_title;
use super::widgets::{LinkNotes, RadioGroup};

#[derive(Clone, Copy)]
pub struct Lab {
    pub settings: Memo<Settings>,
    /// The slider's value while it moves; the URL catches up when it is
    /// released, so a drag never waits for a navigation.
    pub live: RwSignal<Lateness>,
    pub study: Memo<LatenessStudy>,
    pub figures: Memo<LatenessFigures>,
    /// The answer ticked before it is locked in (by mouse, or by key in
    /// presenter mode).
    pub picking: RwSignal<Option<crate::labs::lateness::guess::Share>>,
    /// What the clicker asks of the presenter, where the room's answer is due.
    pub cue: RwSignal<Option<String>>,
    /// The month's charts (`charts`), asked for as soon as the lab is live.
    charts: Fetch<charts::Charts>,
    notes: Memo<Vec<String>>,
    go: StoredValue<Box<dyn Fn(Settings) + Send + Sync>>,
}

impl Lab {
    /// Whether the charts have come, or could not (tracked).
    fn charts_came(self) -> bool {
        self.charts.ready.read().is_some() || self.charts.failed.get()
    }

    /// One of the charts, or what the lab says while they download; a
    /// reader on its "Try again" lands on its heading once they come.
    fn chart(
        self,
        draw: fn(&charts::Charts) -> AnyView,
        heading: &'static [&'static str],
    ) -> impl IntoView {
        let charts = self.charts;
        let kept = KeptFocus::new(
            Signal::derive(move || charts.ready.get().is_some()),
            heading,
        );
        view! {
            {move || charts.ready.get().map(draw)}
            <Show when=move || charts.ready.get().is_none()>
                {kept.holding("charts-status", charts.status(charts::FETCHING, charts::NOT_FETCHED))}
            </Show>
        }
    }

    pub fn update(&self, change: impl FnOnce(&mut Settings)) {
        let mut next = self.settings.get_untracked();
        next.lateness = self.live.get_untracked();
        change(&mut next);
        self.go.with_value(|go| go(next));
    }
}

/// The slider position for a lateness: 0..=14 days, then 15 for never.
fn slider_value(lateness: Lateness) -> u32 {
    match lateness {
        Lateness::Days(n) => n,
        Lateness::Never => MAX_DAYS + 1,
    }
}

fn lateness_from_slider(value: u32) -> Lateness {
    if value > MAX_DAYS {
        Lateness::Never
    } else {
        Lateness::Days(value)
    }
}

pub fn lateness_text(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(1) => "1 day".to_string(),
        Lateness::Days(n) => format!("{n} days"),
        Lateness::Never => "never finalise".to_string(),
    }
}

#[component]
pub fn LatenessLab() -> impl IntoView {
    set_title("Allowed-lateness lab");
    let query = crate::ui::route::use_query();
    let parsed = Memo::new(move |_| {
        let q = query.read();
        let read = crate::labs::link::Reading::of(&q);
        let (settings, mut notes) = parse(|key| read.get(key));
        notes.extend(read.repeated());
        (settings, notes)
    });
    let settings = Memo::new(move |_| parsed.read().0);
    let profile = Memo::new(move |_| settings.read().profile);
    let study = Memo::new(move |_| study(profile.get()));
    let live = RwSignal::new(settings.get_untracked().lateness);
    // A new URL (a link, back/forward, a released slider) moves the slider.
    Effect::new(move |_| live.set(settings.read().lateness));
    let lateness = Memo::new(move |_| live.get());
    let figures = Memo::new(move |_| study.read().figures(lateness.get()));
    let go = move |s: Settings| {
        crate::ui::route::replace(&format!("/lab/lateness?{}", to_query(&s)));
    };
    let charts = Fetch::new(&charts::LATER);
    charts.drawn_or_start(charts::AT_ONCE);
    let lab = Lab {
        settings,
        live,
        study,
        figures,
        picking: RwSignal::new(None),
        cue: RwSignal::new(None),
        charts,
        notes: Memo::new(move |_| parsed.read().1.clone()),
        go: StoredValue::new(Box::new(go)),
    };
    provide_context(lab);
    provide_context(your_data::YourData::new());
    your_data::LATER.soon();
    let yours = Memo::new(move |_| profile.get() == Profile::Yours);
    let present = move || settings.read().present;
    // Whether the lab's question waits for its answer (a built-in
    // profile's only: your own data is your own question).
    let asking = Memo::new(move |_| {
        let s = settings.read();
        s.guess.is_none() && s.profile != Profile::Yours
    });
    provide_context(super::presenter::Revealed(Signal::derive(move || {
        !asking.get()
    })));
    // In presenter mode, keys 1 to 4 (or A to D) enter the room's answer.
    super::presenter::on_choice_keys(
        move || settings.read_untracked().present && asking.get_untracked(),
        move |i| {
            let Some(share) = i.and_then(|i| {
                <crate::labs::lateness::guess::Share as crate::vocabulary::Choice>::ALL
                    .get(i)
                    .copied()
            }) else {
                return false;
            };
            lab.picking.set(Some(share));
            lab.cue.set(None);
            true
        },
    );
    // In presenter mode a clicker's keys move the slider, once the
    // question is answered: before that, PageDown reveals the answer
    // entered, and never skips it.
    super::presenter::on_clicker(
        move || settings.read_untracked().present,
        move |by| {
            if asking.get_untracked() {
                if by < 0 {
                    return true;
                }
                match lab.picking.get_untracked() {
                    Some(share) => lab.update(|s| {
                        s.guess = Some(crate::labs::lateness::guess::Guess::Picked {
                            share,
                            at: s.lateness,
                        })
                    }),
                    None => {
                        lab.cue.set(Some(
                            "Enter the room's answer first: keys 1 to 4 (or A to D), then PageDown."
                                .to_string(),
                        ));
                        super::presenter::bring_heading("predict-heading");
                    }
                }
                return true;
            }
            let now = i64::from(slider_value(live.get_untracked()));
            let next = (now + i64::from(by)).clamp(0, i64::from(MAX_DAYS) + 1);
            if next == now {
                return false;
            }
            lab.update(|s| s.lateness = lateness_from_slider(next as u32));
            true
        },
    );

    view! {
        <section class="page lab lateness" class:presenter=present aria-labelledby="lateness-title">
            <div class="title-row">
                <h1 id="lateness-title">"Allowed-lateness lab"</h1>
                <super::presenter::PresenterToggle
                    present=Signal::derive(present)
                    on_toggle=Callback::new(move |()| lab.update(|s| s.present = !s.present))
                    link=super::presenter::this_address()
                />
            </div>
            <details class="explain" open=move || !present()>
                <summary>"What this lab shows"</summary>
                <p>
                    "Late events can only reach their own day while that day's partition is still open. Allowed lateness is how many extra days each partition stays open: every run rebuilds the open ones, and after that the partition is final. Waiting longer catches more late events, but keeps more partitions changing and pushes back the day finance can close the month. Here the daily run is at 02:00: on day d+1 it first builds partition d, and with allowed lateness L the run on d+1+L is the last to touch d."
                </p>
            </details>
            <LinkNotes notes=lab.notes />
            <div class="lateness-controls">
                <div>
                    <RadioGroup
                        legend="Arrival profile"
                        name="profile"
                        options=profiles()
                        current=Signal::derive(move || profile.get())
                        on_pick=move |p| {
                            // New data, a new question.
                            lab.picking.set(None);
                            // A skip holds for every profile; an answer
                            // was about the old one's data.
                            lab.update(|s| {
                                s.profile = p;
                                s.guess = s.guess.filter(|g| *g == crate::labs::lateness::guess::Guess::Skipped);
                            })
                        }
                    />
                    <p class="muted explain-text">{move || profile.get().description()}</p>
                </div>
                <div class="slider-box">
                    <label for="lateness-slider">"Allowed lateness"</label>
                    <div class="slider-row">
                        <input
                            id="lateness-slider"
                            type="range"
                            min="0"
                            max=(MAX_DAYS + 1).to_string()
                            step="1"
                            value=move || slider_value(lateness.get()).to_string()
                            prop:value=move || slider_value(lateness.get()).to_string()
                            aria-valuetext=move || lateness_text(lateness.get())
                            on:input=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                                    live.set(lateness_from_slider(v));
                                }
                            }
                            on:change=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                                    lab.update(|s| s.lateness = lateness_from_slider(v));
                                }
                            }
                        />
                        <output for="lateness-slider" class="slider-value">{move || lateness_text(lateness.get())}</output>
                    </div>
                    <div class="slider-scale" aria-hidden="true">
                        <span class="at-0">"0 days"</span>
                        <span class="at-never">"never"</span>
                    </div>
                </div>
            </div>
            // Built only when the kind of data changes: between profiles
            // every section follows the study, and keeps what is open.
            {move || if yours.get() {
                view! { <your_data::YourDataSection /> }.into_any()
            } else if asking.get() {
                view! { <Asking /> }.into_any()
            } else {
                view! { <predict::Answered /> <Generated /> }.into_any()
            }}
        </section>
    }
}

/// The profiles the radio group offers: every one the vocabulary lists.
fn profiles() -> Vec<(Profile, &'static str)> {
    use crate::vocabulary::Choice;
    Profile::ALL.iter().map(|p| (*p, p.label())).collect()
}

/// The question, and beside it only what it may be reasoned from: the
/// month's delays, which answer nothing by themselves.
#[component]
fn Asking() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <predict::Predict />
        // The page drawn ahead holds the default profile's delays: kept in
        // place until the live ones come, unless this is another month.
        <Below
            name="lateness-delays"
            after=Signal::derive(move || {
                lab.charts_came() || lab.settings.read().profile != Settings::default().profile
            })
        >
            {lab.chart(|it| (it.delays)(), &["histogram-heading"])}
        </Below>
    }
}

/// The figures for a generated profile's month.
#[component]
fn Generated() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let present = Memo::new(move |_| lab.settings.read().present);
    let comparing = move || present.get() && lab.settings.read().compare.is_some();
    let shelf = super::later::Fetch::new(&shelf::LATER);
    shelf.soon();
    view! {
        <Show when=move || present.get()>
            <compare::Comparison />
        </Show>
        <Show when=move || !comparing()>
            <figures::Figures />
        </Show>
        // Below a phone's first screen: drawn once that is painted (no
        // page drawn ahead has it: each is the question's).
        <Below name="lateness-figures">
            {lab.chart(|it| (it.month)(), &["curve-heading"])}
            // The practitioner's shelf: the same lateness in real tools.
            // Its code and projects come in a chunk of their own, fetched a
            // moment after the lab is live or when it is opened first.
            <details class="practitioner" id="tools" on:toggle=move |_| shelf.start()>
                <summary><h2 id="tools-heading">"For practitioners: this lateness in real tools"</h2></summary>
                {move || shelf.ready.get().map(|it| (it.section)())}
                {shelf.status(shelf::FETCHING, shelf::NOT_FETCHED)}
            </details>
        </Below>
    }
}
