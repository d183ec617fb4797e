//! Running the backfill: animated waves, pause, interrupt, re-run; then
//! what is left.

use crate::ui::later::Fetch;

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use crate::labs::backfill::query::Ran;
use crate::labs::backfill::session::{clock_line, run_gate, run_label, tick as next_minute};

use super::engine::run_waits;

use super::{outcome, Lab};

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
    // A run needs the prediction, and the engine to run it.
    let gate = move || {
        lab.moment
            .with(run_gate)
            // A failure is said only while no retry is under way.
            .or_else(|| {
                run_waits(
                    lab.engine.ready.read().is_some(),
                    lab.engine.failed.get() && !lab.engine.fetching.get(),
                )
            })
    };
    let can_run = move || gate().is_none();
    let can_run_now = move || {
        lab.moment.with_untracked(run_gate).is_none()
            && lab.engine.ready.with_untracked(Option::is_some)
    };
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
        let Some(engine) = lab.engine.ready.get_untracked() else {
            return;
        };
        let Some(exec) = lab.case.with_untracked(|case| {
            case.as_ref()
                .map(|case| (engine.execute)(case, &choices, &finished))
        }) else {
            return;
        };
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
        // A run asked for before the engine has come: the room sees the
        // line saying it waits, and the run starts when it comes (this
        // effect hears it).
        if matches!(cue, Cue::Run | Cue::Resume) && lab.engine.ready.read().is_none() {
            crate::ui::presenter::bring_heading("run-heading");
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
    // A run's outcome comes in a chunk of its own (`outcome`): fetched a
    // moment after the lab is live, or at once when a run has ended (a
    // link to the moment after one, or a run finished before it came).
    let after = Fetch::new(&outcome::LATER);
    after.soon();
    // The address's runs, not the replayed ones: a link to the moment
    // after a run asks for the outcome while the engine that replays the
    // run is still on its way.
    let ended = move || !lab.moment.read().ran.is_empty() && lab.current.read().is_none();
    Effect::new(move |_| {
        if ended() {
            after.start();
        }
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
                                // The address's runs: replayed only once the
                                // engine has come, they count before.
                                {move || run_label(lab.moment.read().ran.len())}
                            </button>
                            <button type="button" on:click=move |_| reset() disabled=move || lab.moment.read().ran.is_empty()>
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
            {move || after.ready.get().map(|o| (o.view)())}
            {move || ended().then(|| after.status(outcome::FETCHING, outcome::NOT_FETCHED))}
        </section>
    }
}
