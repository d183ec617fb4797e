//! The class graded a design at a time, between paints: one `Slices`
//! driver steps every check, so the page answers (a click on Stop, a
//! scroll, a sort) throughout. The loop and its progress are on the first
//! screen; a submission's checks (`row`) come with the marking chunk.

use leptos::prelude::*;

use super::{Class, Count};
use crate::class::mark::{grading, script_for, Mark};
use crate::class::results::Row;
use crate::class::Submission;
use crate::scenarios::numbered;
use crate::ui::slices::{Halt, Slices};

/// Starts grading what waits.
pub fn start(class: Class) {
    class.running.set(true);
    class.stop.set(false);
    leptos::task::spawn_local(async move {
        let halted = run(class).await;
        if halted != Some(Halt::Gone) {
            class.running.set(false);
            class.count.update(|c| c.now.clear());
        }
        // A Stop pressed as the last check ended was never read: it must
        // not hold back the next files handed in.
        if halted.is_none() {
            class.stop.set(false);
        }
    });
}

/// Grades every waiting submission; `Some` when stopped or gone first.
async fn run(class: Class) -> Option<Halt> {
    // Work is handed in only once the marking has come (`Class::take`);
    // without it (or with the page gone) there is nothing to grade.
    let marking = class.marking.ready.try_get_untracked().flatten()?;
    let mut slices = Slices::from_now();
    loop {
        let Some(next) = class.waiting.try_update_value(|w| w.pop_front()) else {
            return Some(Halt::Gone);
        };
        let submission = next?;
        match (marking.row)(class, &submission, &mut slices).await {
            Ok(row) => class.rows.update(|r| r.push(row)),
            Err((halt, graded)) => {
                // Graded again whole on "Carry on": a row is all of a file.
                let _ = class
                    .count
                    .try_update(|c| c.done = c.done.saturating_sub(graded));
                class.waiting.try_update_value(|w| w.push_front(submission));
                return Some(halt);
            }
        }
    }
}

/// A row of `submission`, each of its designs graded; on a halt, how many
/// it had done.
pub async fn row(
    class: Class,
    submission: &Submission,
    slices: &mut Slices,
) -> Result<Row, (Halt, usize)> {
    let marks = marks(class, submission, slices).await?;
    Ok(Row::new(submission, marks))
}

async fn marks(
    class: Class,
    submission: &Submission,
    slices: &mut Slices,
) -> Result<Vec<Mark>, (Halt, usize)> {
    let mut marks = Vec::new();
    for work in &submission.works {
        let Some(scenario) = numbered(work.scenario) else {
            continue;
        };
        let now = format!("{}, scenario {}", submission.name(), work.scenario);
        let _ = class.count.try_update(|c| c.now = now);
        // In the student's own variant, as their page checked it.
        let script = script_for(scenario, submission.variant(work.scenario));
        let mark = match grading(scenario, work, &script) {
            None => Mark::not_started(scenario.number, work.progress.clone()),
            Some(mut check) => {
                let alive = |_: &_| class.count.try_get_untracked().is_some();
                let stopped = || class.stop.try_get_untracked();
                if let Err(halt) = slices.run(&mut check, alive, stopped).await {
                    return Err((halt, marks.len()));
                }
                Mark::finished(scenario, &script, work, check)
            }
        };
        let mark = Mark {
            linked_elsewhere: submission.linked_elsewhere(work.scenario),
            ..mark
        };
        marks.push(mark);
        let _ = class
            .count
            .try_update(|c| c.done = c.done.saturating_add(1));
    }
    Ok(marks)
}

/// The progress bar with Stop, and after a stop what waits and "Carry on".
/// Its parts are drawn once and only their words and value follow the
/// count, so keyboard focus stays on the button while the class is graded.
#[component]
pub fn Progress(class: Class) -> impl IntoView {
    let words = move || {
        let Count { done, total, now } = class.count.get();
        if class.running.get() {
            format!("Graded {done} of {total} designs; now {now}.")
        } else if class.waiting() > 0 {
            format!(
                "Stopped: graded {done} of {total} designs; {} waiting.",
                crate::counted::counted(class.waiting(), "submission")
            )
        } else {
            format!("Graded all {total} designs.")
        }
    };
    let stopped = move || !class.running.get() && class.count.with(|c| c.done < c.total);
    view! {
        <Show when=move || class.count.with(|c| c.total > 0)>
            <div class="class-progress">
                <label for="class-progress-bar">{words}</label>
                <progress
                    id="class-progress-bar"
                    max=move || class.count.with(|c| c.total.to_string())
                    value=move || class.count.with(|c| c.done.to_string())
                ></progress>
                // One button that turns from Stop to Carry on and back, so
                // keyboard focus stays on it.
                <Show when=move || class.running.get() || stopped()>
                    <button
                        type="button"
                        on:click=move |_| {
                            if class.running.get_untracked() {
                                class.stop.set(true);
                            } else {
                                start(class);
                            }
                        }
                    >
                        {move || if class.running.get() { "Stop grading" } else { "Carry on grading" }}
                    </button>
                </Show>
            </div>
            // Said once when grading ends or stops, not at every design.
            <p class="visually-hidden" role="status">
                {move || (!class.running.get()).then(words)}
            </p>
        </Show>
    }
}
