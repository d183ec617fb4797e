//! Running the backfill: animated waves, pause, interrupt, re-run; then
//! what is left.

use crate::labs::backfill::outcome::outcome as outcome_of;
use crate::ui::copy::CopyButton;

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use crate::labs::backfill::query::Ran;
use crate::labs::backfill::session::{
    clock_line, next_start, run_gate, run_label, tick as next_minute,
};

use super::Lab;

/// Real time per simulated minute while animating.
const TICK_MS: u32 = 150;

fn reduced_motion() -> bool {
    crate::ui::widgets::media_matches("(prefers-reduced-motion: reduce)")
}

#[component]
pub fn Runner(
    /// What the step offers before its buttons: the settings a run uses.
    children: Children,
) -> impl IntoView {
    let lab = expect_context::<Lab>();
    // Dropping the handle cancels the timer (also when the page goes).
    let timer = StoredValue::new_local(None::<Interval>);
    let playing = RwSignal::new(false);
    let stop_timer = move || {
        timer.set_value(None);
        playing.set(false);
    };
    on_cleanup(stop_timer);
    // A run that ends goes into the address; the lab replays it from there.
    let record = move |ran: Ran| {
        let mut moment = lab.moment.get_untracked();
        moment.ran.push(ran);
        lab.current.set(None);
        lab.minute.set(0);
        lab.set_moment(moment);
    };
    let gate = move || lab.moment.with(run_gate);
    let can_run = move || gate().is_none();
    let can_run_now = move || lab.moment.with_untracked(run_gate).is_none();
    let finish = move || {
        stop_timer();
        if lab.current.get_untracked().is_some() {
            record(Ran::ToTheEnd);
        }
    };
    let tick = move || {
        let Some(exec) = lab.current.get_untracked() else {
            stop_timer();
            return;
        };
        match next_minute(&exec, lab.minute.get_untracked()) {
            Some(next) => lab.minute.set(next),
            None => finish(),
        }
    };
    let play = move || {
        timer.set_value(Some(Interval::new(TICK_MS, tick)));
        playing.set(true);
    };
    let start = move || {
        let choices = lab.choices.get_untracked();
        let finished = lab.finished.get_untracked();
        let exec = lab
            .case
            .with_untracked(|case| case.execute(&choices, &finished, next_start(&finished), None));
        lab.current.set(Some(exec));
        lab.minute.set(0);
        if reduced_motion() {
            finish();
        } else {
            play();
        }
    };
    let interrupt = move || {
        stop_timer();
        if lab.current.get_untracked().is_none() {
            return;
        }
        let minute = u32::try_from(lab.minute.get_untracked()).unwrap_or(0);
        record(Ran::InterruptedAt(minute));
    };
    let reset = move || {
        stop_timer();
        lab.current.set(None);
        lab.minute.set(0);
        let now = lab.moment.get_untracked();
        lab.set_moment(crate::labs::backfill::query::Moment {
            guess: now.guess,
            ran: Vec::new(),
            room: now.room,
        });
    };
    // The clicker's steps that belong to the run.
    Effect::new(move |_| {
        use crate::labs::backfill::clicker::Cue;
        let Some(cue) = lab.cue.get() else {
            return;
        };
        if !matches!(cue, Cue::Run | Cue::Resume | Cue::Interrupt | Cue::Finish) {
            return;
        }
        lab.cue.set(None);
        match cue {
            Cue::Run | Cue::Resume if can_run_now() => {
                crate::ui::presenter::bring_heading("run-heading");
                start();
            }
            Cue::Interrupt => interrupt(),
            Cue::Finish => finish(),
            _ => {}
        }
    });
    let clock = move || {
        lab.current
            .read()
            .as_ref()
            .map(|exec| clock_line(exec, lab.minute.get()))
    };
    let outcome = Memo::new(move |_| {
        let runs = lab.finished.get();
        if runs.is_empty() || lab.current.read().is_some() {
            return None;
        }
        let choices = lab.choices.get_untracked();
        Some(lab.case.with(|case| outcome_of(case, &runs, &choices)))
    });

    view! {
        <section aria-labelledby="run-heading">
            <h2 id="run-heading">"3. How fast: run it"</h2>
            {children()}
            <div class="button-row">
                <Show
                    when=move || lab.current.read().is_some()
                    fallback=move || {
                        view! {
                            <button
                                type="button"
                                class="primary"
                                aria-disabled=move || (!can_run()).then_some("true")
                                aria-describedby="run-gate"
                                on:click=move |_| if can_run() { start() }
                            >
                                {move || run_label(lab.finished.read().len())}
                            </button>
                            <button type="button" on:click=move |_| reset() disabled=move || lab.finished.read().is_empty()>
                                "Reset August"
                            </button>
                        }
                    }
                >
                    <button type="button" on:click=move |_| if playing.get_untracked() { stop_timer() } else { play() }>
                        {move || if playing.get() { "Pause" } else { "Continue" }}
                    </button>
                    <button type="button" class="danger" on:click=move |_| interrupt()>
                        "Interrupt (the source fails over)"
                    </button>
                </Show>
            </div>
            <p class="muted" id="run-gate" hidden=can_run>
                {move || gate().unwrap_or_default()}
            </p>
            <p class="clock" role="status">{clock}</p>
            {move || {
                outcome
                    .get()
                    .map(|o| {
                        view! {
                            <div class="run-outcome">
                                <p class="outcome-headline">{o.headline()}</p>
                                {lab.finished.with(|runs| crate::labs::pool::from_executions(runs, crate::labs::backfill::case::SOURCE_POOL)).map(|picture| view! {
                                    <crate::ui::pool_timeline::PoolTimeline picture=picture id="pool" title="The source pool's 4 connections during the runs so far" />
                                })}
                                <dl class="facts">
                                    <dt>"Remaining drift"</dt>
                                    <dd data-figure="remaining">{o.remaining()}</dd>
                                    {(!o.kept.is_empty()).then(|| view! {
                                        <dt>"Rebuilt from no rows, still full"</dt>
                                        <dd data-figure="kept">{o.kept.join(" ")}</dd>
                                    })}
                                    <dt>"Gold partitions still old"</dt>
                                    <dd>{o.gold_left}</dd>
                                    <dt>"Rebuilt but needed no rebuild"</dt>
                                    <dd data-figure="needless">{o.needless}</dd>
                                    <dt>"Partitions rebuilt more than once"</dt>
                                    <dd data-figure="twice">{o.rebuilt_twice}</dd>
                                    <dt>"Finance total, 1–13 Aug"</dt>
                                    <dd data-figure="finance">{o.finance()}</dd>
                                    <dt>"Finance report"</dt>
                                    <dd>{o.report()}</dd>
                                </dl>
                                {o.shows_note().then(|| {
                                    let text = o.note.join("\n");
                                    view! {
                                        <section class="restatement" aria-labelledby="restatement-heading">
                                            <h3 id="restatement-heading">"What finance receives"</h3>
                                            <ul data-figure="restatement">
                                                {o.note.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}
                                            </ul>
                                            <CopyButton text=text what="The restatement note".to_string() />
                                        </section>
                                    }
                                })}
                            </div>
                        }
                    })
            }}
        </section>
    }
}
