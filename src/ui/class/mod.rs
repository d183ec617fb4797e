//! The class page (`/class`): the instructor drops the
//! students' work files or pastes their share links; the page grades every
//! design again here, in this browser (`grading`), and shows the class's
//! tallies, a row per student and the gradebook's CSV (`tables`). What was
//! handed in is read by `hand_in`. Nothing leaves the browser and nothing
//! is kept: closing the page forgets the class. Reading, grading and the
//! tables come in a chunk of their own (`marking`) after the page is live;
//! what is handed in before it has come waits for it, and says so.

mod grading;
mod hand_in;
pub mod marking;
mod tables;

use std::collections::VecDeque;

use leptos::prelude::*;

use super::later::Fetch;
use super::page::set_title;
use crate::class::results::Row;
use crate::class::{Skipped, Submission};
use marking::Marking;

/// What the instructor hands in, as the page's controls take it.
pub enum Given {
    Files(Vec<web_sys::File>),
    Links {
        text: String,
        code: String,
        /// The links box, given back the lines that could not be read.
        left: RwSignal<String>,
    },
}

/// How far the grading has got, in designs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub done: usize,
    pub total: usize,
    /// What is being graded now: "Ada Lovelace, scenario 4".
    pub now: String,
}

/// The page's state: what waits to be graded, what has been, what was
/// skipped and why.
#[derive(Clone, Copy)]
pub struct Class {
    waiting: StoredValue<VecDeque<Submission>>,
    pub rows: RwSignal<Vec<Row>>,
    pub skipped: RwSignal<Vec<Skipped>>,
    pub count: RwSignal<Count>,
    /// Whether grading is under way.
    pub running: RwSignal<bool>,
    /// Set by Stop; read between two slices of work.
    pub stop: RwSignal<bool>,
    /// Reading, grading and the tables: a chunk of their own.
    pub marking: Fetch<Marking>,
    /// What was handed in before the marking came.
    given: RwSignal<Vec<Given>, LocalStorage>,
}

impl Class {
    fn new() -> Self {
        Class {
            waiting: StoredValue::new(VecDeque::new()),
            rows: RwSignal::new(Vec::new()),
            skipped: RwSignal::new(Vec::new()),
            count: RwSignal::new(Count::default()),
            running: RwSignal::new(false),
            stop: RwSignal::new(false),
            marking: Fetch::new(&marking::LATER),
            given: RwSignal::new_local(Vec::new()),
        }
    }

    /// Reads what was handed in now, or once the marking has come
    /// (fetching it if it is not on its way). Links leave the box as they
    /// are taken, so pressing again cannot hand them in twice; the lines
    /// that cannot be read come back to it.
    pub fn take(self, given: Given) {
        if let Given::Links { left, .. } = &given {
            left.set(String::new());
        }
        match self.marking.ready.get_untracked() {
            Some(marking) => leptos::task::spawn_local(self.read(marking, given)),
            None => {
                self.given.update(|g| g.push(given));
                self.marking.start();
            }
        }
    }

    /// Reads what waited, in the order it was handed in, once the marking
    /// has come.
    fn read_given(self, marking: &'static Marking) {
        let given = self.given.try_update(std::mem::take).unwrap_or_default();
        leptos::task::spawn_local(async move {
            for g in given {
                self.read(marking, g).await;
            }
        });
    }

    async fn read(self, marking: &'static Marking, given: Given) {
        match given {
            Given::Files(files) => (marking.files)(self, files).await,
            Given::Links { text, code, left } => {
                let unread = (marking.links)(self, &text, &code);
                // After whatever was typed into the box meanwhile.
                left.try_update(|typed| {
                    if !typed.is_empty() && !unread.is_empty() {
                        typed.push('\n');
                    }
                    typed.push_str(&unread);
                });
            }
        }
    }

    /// Queues `submission` for grading and starts grading if it is not
    /// under way (a stopped class waits for "Carry on").
    pub fn hand_in(self, submission: Submission) {
        let designs = submission.works.len();
        self.count
            .update(|c| c.total = c.total.saturating_add(designs));
        self.waiting.update_value(|w| w.push_back(submission));
        if !self.running.get_untracked() && !self.stop.get_untracked() {
            grading::start(self);
        }
    }

    pub fn skip(self, skipped: Skipped) {
        self.skipped.update(|s| s.push(skipped));
    }

    /// Submissions not yet graded.
    pub fn waiting(self) -> usize {
        self.waiting.with_value(VecDeque::len)
    }

    /// Forgets the whole class, once grading has stopped.
    fn clear(self) {
        self.waiting.update_value(VecDeque::clear);
        self.given.update(Vec::clear);
        self.rows.set(Vec::new());
        self.skipped.set(Vec::new());
        self.count.set(Count::default());
        self.stop.set(false);
    }
}

#[component]
pub fn ClassPage() -> impl IntoView {
    set_title("Your class's results");
    let class = Class::new();
    class.marking.soon();
    Effect::new(move || {
        if let Some(marking) = class.marking.ready.get() {
            class.read_given(marking);
        }
    });
    view! {
        <section class="page class-page" aria-labelledby="class-title">
            <p class="breadcrumb"><a href="/scenarios">"All scenarios"</a></p>
            <h1 id="class-title">"Your class's results"</h1>
            <p class="lede">
                "Drop your students' work files here, or paste their share links. The page grades every design again, in this browser. It shows how the class did on each scenario, which requirements failed most and why, and a row per student to sort and download for your gradebook."
            </p>
            <p class="privacy">
                "Nothing leaves this browser: the files are read and graded on this computer, nothing is uploaded, and nothing is kept once you close the page. The names are the ones the files give."
            </p>
            <p class="muted">
                "Students put their name and class code on their work on the scenario list (\"Your name on your work\"), then use \"Download my work\" and send you the file. A verdict saved in a file is never trusted: every design is graded again."
            </p>
            <hand_in::HandIn class=class />
            // On the page from the start, so a change of its words is said.
            {class.marking.status(
                "Fetching the grader: what you hand in meanwhile is read and graded once it has come.",
                "The grader could not be fetched (check the connection). What you hand in is kept, and graded once it comes.",
            )}
            <grading::Progress class=class />
            {move || class.marking.ready.get().map(|marking| (marking.results)(class))}
            <Show when=move || !class.rows.read().is_empty() || !class.skipped.read().is_empty()>
                <p>
                    <button
                        type="button"
                        disabled=move || class.running.get()
                        on:click=move |_| class.clear()
                    >"Start again with another class"</button>
                </p>
            </Show>
        </section>
    }
}
