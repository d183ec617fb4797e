//! The lesson plan page (`/teach`): the steps of `content::lesson`, each a
//! link to the lab state to project, the question for the room and, folded
//! until the instructor opens it, what the answer shows.

use leptos::prelude::*;

use super::page::set_title;
use crate::content::lesson::{LESSON, LESSON_MINUTES};

#[component]
pub fn Teach() -> impl IntoView {
    set_title("Lesson plan");
    // Presenter mode: the room sees the plan large, and a clicker walks it
    // step by step.
    let (present, notes, toggle) = super::presenter::plain_page("/teach".to_string());
    let mut clock = 0_u32;
    let steps = LESSON
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let from = clock;
            clock = clock.saturating_add(step.minutes);
            let heading = format!("step-{}", i + 1);
            view! {
                <li class="lesson-step">
                    <h2 id=heading>
                        <span class="step" aria-hidden="true">{i + 1}</span>
                        {step.title}
                    </h2>
                    <p class="muted">{format!("Minutes {from} to {clock} ({} min)", step.minutes)}</p>
                    <p><a class="button-link" href=crate::content::lesson::step_href(i + 1).unwrap_or_else(|| step.href.to_string())>"Open the lab state to project"</a></p>
                    <p><strong>"Ask the room: "</strong>{step.ask}</p>
                    <p><strong>"Then: "</strong>{step.reveal}</p>
                    <details>
                        <summary>"What the answer shows"</summary>
                        <p>{step.shows}</p>
                    </details>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="page" class:presenter=move || present.get() aria-labelledby="teach-title">
            <div class="title-row">
                <h1 id="teach-title">"Lesson plan: one 50-minute session"</h1>
                <super::presenter::PresenterToggle present=present on_toggle=toggle link=super::presenter::this_address() />
            </div>
            <super::widgets::LinkNotes notes=notes />
            <p class="lede">
                {format!("A session of {LESSON_MINUTES} minutes built from the labs, in the chapter's order. Each step opens the exact state to put on the projector, in presenter mode (large type; a clicker's arrow keys step the lab; \"Copy link to this state\" saves a moment for next time). Ask before you reveal: the labs are at their best when the room has committed to an answer. At each prediction, enter the room's show of hands in its form; the reveal draws the spread beside the answer, and the link keeps it.")}
            </p>
            <ol class="lesson">{steps}</ol>
            <h2 id="after-the-session">"After the session"</h2>
            <p>
                "Set the design scenarios as homework. Students put their name and class code on their work on the scenario list, then send you their work file or share links. "
                <a href="/class">"Your class's results"</a>
                " grades every design again in your browser. It shows who passed, which requirements failed most and why, with a CSV for your gradebook."
            </p>
        </section>
    }
}
