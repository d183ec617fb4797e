//! One run scrubber for all cells: previous / next / play / jump to run N.
//! The range input gives arrow keys, Home and End for free.

use gloo_timers::callback::Interval;
use leptos::prelude::*;

use crate::labs::state_write::view::run_label;

use super::Lab;

/// Time between runs while playing: long enough to read a cell.
const PLAY_STEP_MS: u32 = 1400;

#[component]
pub fn Scrubber() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let labels = Memo::new(move |_| {
        lab.planned
            .read()
            .iter()
            .enumerate()
            .map(|(attempt, run)| run_label(attempt, run))
            .collect::<Vec<_>>()
    });
    let current_label = move || {
        labels
            .read()
            .get(lab.run.get())
            .cloned()
            .unwrap_or_default()
    };
    // Dropping the handle cancels the timer (also when the page goes).
    let timer = StoredValue::new_local(None::<Interval>);
    let playing = RwSignal::new(false);
    let stop = move || {
        timer.set_value(None);
        playing.set(false);
    };
    let play = move || {
        if lab.run.get_untracked() >= lab.last_open_run_untracked() {
            lab.set_run(0);
        }
        let tick = move || {
            let next = lab.run.get_untracked() + 1;
            if next > lab.last_open_run_untracked() {
                stop();
            } else {
                lab.set_run(next);
                if next >= lab.last_open_run_untracked() {
                    stop();
                }
            }
        };
        timer.set_value(Some(Interval::new(PLAY_STEP_MS, tick)));
        playing.set(true);
    };
    on_cleanup(stop);
    let step = move |delta: isize| {
        stop();
        let runs = lab.runs.get_untracked() as isize;
        let next = (lab.run.get_untracked() as isize + delta).clamp(0, (runs - 1).max(0));
        lab.set_run(next as usize);
    };

    view! {
        <section class="scrubber" aria-labelledby="scrubber-heading">
            <h2 id="scrubber-heading">"Runs"</h2>
            <div class="scrub-row">
                <label for="run-slider">"Run"</label>
                <input
                    id="run-slider"
                    type="range"
                    min="1"
                    max=move || lab.runs.get().to_string()
                    step="1"
                    value=move || (lab.run.get() + 1).to_string()
                    prop:value=move || (lab.run.get() + 1).to_string()
                    aria-valuetext=current_label
                    on:input=move |ev| {
                        stop();
                        if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                            lab.set_run(n.saturating_sub(1));
                        }
                    }
                />
                <span class="run-count">{move || format!("{} of {}", lab.run.get() + 1, lab.runs.get())}</span>
            </div>
            <div class="scrub-buttons" role="group" aria-label="Step through the runs">
                <button type="button" on:click=move |_| step(-(lab.runs.get_untracked() as isize)) disabled=move || lab.run.get() == 0>
                    <span aria-hidden="true">"⇤ "</span>"First"
                </button>
                <button type="button" on:click=move |_| step(-1) disabled=move || lab.run.get() == 0>
                    <span aria-hidden="true">"◀ "</span>"Previous"
                </button>
                <button
                    type="button"
                    class="primary"
                    on:click=move |_| if playing.get_untracked() { stop() } else { play() }
                >
                    <span aria-hidden="true">{move || if playing.get() { "‖ " } else { "▶ " }}</span>
                    {move || if playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" on:click=move |_| step(1) disabled=move || lab.at_last_open_run()>
                    "Next"<span aria-hidden="true">" ▶"</span>
                </button>
                <button type="button" on:click=move |_| step(lab.runs.get_untracked() as isize) disabled=move || lab.at_last_open_run()>
                    "Last"<span aria-hidden="true">" ⇥"</span>
                </button>
            </div>
            <p class="current-run" aria-live="polite">{current_label}</p>
            <ol class="run-list" aria-label="Jump to a run">
                {move || {
                    labels
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, label)| {
                            let crashed = label.contains("crashed");
                            let retry = label.contains("(retry)");
                            // The number, marked as the week table marks
                            // it; the whole label is the button's name.
                            let short = format!(
                                "{}{}",
                                i + 1,
                                if crashed { " ⚡" } else if retry { " ↻" } else { "" }
                            );
                            view! {
                                <li>
                                    <button
                                        type="button"
                                        class="run-jump"
                                        class:crashed=crashed
                                        aria-current=move || (lab.run.get() == i).then_some("step")
                                        aria-label=label.clone()
                                        title=label.clone()
                                        aria-disabled=move || (i > lab.last_open_run()).then_some("true")
                                        on:click=move |_| {
                                            // Before the prediction a later run stays closed.
                                            if i <= lab.last_open_run_untracked() {
                                                stop();
                                                lab.set_run(i);
                                            }
                                        }
                                    >
                                        {short}
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
