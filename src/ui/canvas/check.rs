//! "Check my design": the check run in slices beside the canvas, with its
//! progress and a Stop button, the verdict saved, and after a pass another
//! passing design run beside it. The report itself (`super::report`) is
//! drawn by the grader's chunk.

use leptos::prelude::*;

use crate::design::files::saves;
use crate::design::Graph;
use crate::scenarios::grading::grade::{Doing, Judged};
use crate::scenarios::grading::panel;
use crate::scenarios::grading::report::Report;
use crate::scenarios::progress::Progress;
use crate::ui::slices::{self, Halt, Slices};
use crate::ui::storage;

use super::grader::{grader, Causes, Grader, Held, NOT_FETCHED};
use super::report::Shown;
use super::Designer;

#[derive(Clone)]
struct Checked {
    /// The grader that judged it, which also draws its report.
    grader: &'static Grader,
    graph: Graph,
    report: Report,
    /// The source pool over the run the rules judged (scenarios 4 and 5).
    picture: Option<crate::labs::pool::PoolPicture>,
    /// Each failed rule's cause in this design, where the tutor sees one.
    causes: Causes,
    /// After a pass, why each rule held.
    held: Held,
}

/// A check under way: how far it has got, and what it is doing.
#[derive(Clone, Copy, PartialEq)]
struct Checking {
    /// The grader is still downloading (a first check soon after the
    /// page opened).
    fetching: bool,
    taken: usize,
    steps: usize,
    doing: Doing,
}

/// What the progress line says while the grader downloads.
const FETCHING: &str = "Fetching the grader (the first check only)";
/// What a check stopped while the grader downloaded says.
const STOPPED_BEFORE: &str = "Stopped before the check began: nothing was judged or saved.";

/// The progress line of a check under way.
fn progress_text(c: Checking) -> String {
    if c.fetching {
        return FETCHING.to_string();
    }
    panel::progress_text(c.taken, c.steps, c.doing)
}

/// Before the progress box matching `progress` goes: keyboard focus in it
/// (on its Stop button) moves to `button`, the one that started the work.
pub(super) fn focus_back(progress: &str, button: NodeRef<leptos::html::Button>) {
    let in_progress = document()
        .active_element()
        .is_some_and(|e| e.closest(progress).ok().flatten().is_some());
    if in_progress {
        if let Some(button) = button.try_get_untracked().flatten() {
            let _ = button.focus();
        }
    }
}

#[component]
pub fn CheckPanel() -> impl IntoView {
    let d = expect_context::<Designer>();
    super::grader::LATER.soon();
    let checked = RwSignal::new(None::<Checked>);
    let checking = RwSignal::new(None::<Checking>);
    let stop = RwSignal::new(false);
    let stopped = RwSignal::new(None::<String>);
    let check_button = NodeRef::<leptos::html::Button>::new();
    // The Stop button goes when the check ends: keyboard focus on it goes
    // back to "Check my design" (which stays focusable throughout).
    let done_checking = move || {
        focus_back(".check-progress", check_button);
        checking.set(None);
    };
    // A check that ends without a report: `said` to a screen reader,
    // `shown` in the panel, and the Stop button gone.
    let end_with = move |said: String, shown: String| {
        d.announcement.set(said);
        stopped.set(Some(shown));
        done_checking();
    };
    // After a pass: another passing design, run beside this one.
    let other = RwSignal::new(None::<Other>);
    let finish = move |g: &'static Grader, graph: Graph, report: Report, judged: Option<Judged>| {
        let picture = judged.as_ref().and_then(g.picture);
        let script = d.script(g.make_script);
        let (causes, held) = (g.explained)(d.scenario, &script, &graph, &report, judged.as_ref());
        let progress = Progress::of(&report);
        // The verdict was reached on the page's data: the work file says which.
        if let Err(e) =
            saves::save_progress(&mut storage::Local, d.scenario.number, &progress.to_text())
                .and_then(|()| {
                    saves::put_variant(&mut storage::Local, d.scenario.number, Some(d.variant))
                })
        {
            d.notice
                .set(Some(super::Notice::Error(e.message().to_string())));
        }
        d.announcement.set(panel::announcement(&report));
        let passed = report.passed();
        checked.set(Some(Checked {
            grader: g,
            graph: graph.clone(),
            report,
            picture,
            causes,
            held,
        }));
        done_checking();
        other.set(None);
        if let (true, Some(mine)) = (passed, judged) {
            run_other(g, d, graph, mine, other);
        }
    };
    // The check runs in slices, as the smallest-case search does: a large
    // design takes a while, and the page keeps painting, answering and
    // offering Stop meanwhile.
    let check = move |_| {
        if checking.with_untracked(Option::is_some) {
            return;
        }
        let graph = d.graph.get_untracked();
        let scenario = d.scenario;
        // The last pass's other design belongs to the last check.
        other.set(None);
        stop.set(false);
        stopped.set(None);
        // Steps not known yet: the first check makes the scenario's days
        // after a paint (a scenario keeps them once made).
        checking.set(Some(Checking {
            fetching: true,
            taken: 0,
            steps: 0,
            doing: Doing::Compiling,
        }));
        leptos::task::spawn_local(async move {
            let Ok(g) = grader().await else {
                if checking.try_get_untracked().is_none() {
                    return; // the student left the page meanwhile
                }
                end_with(NOT_FETCHED.to_string(), NOT_FETCHED.to_string());
                return;
            };
            // Stop pressed while the grader downloaded.
            if stop.try_get_untracked() == Some(true) {
                end_with(STOPPED_BEFORE.to_string(), STOPPED_BEFORE.to_string());
                return;
            }
            if checking
                .try_update(|c| {
                    if let Some(c) = c {
                        c.fetching = false;
                    }
                })
                .is_none()
            {
                return; // the student left the page meanwhile
            }
            slices::yield_to_browser().await;
            let script = d.script(g.make_script);
            let mut grading = (g.check)(scenario, &graph, &script);
            let ran = Slices::from_now()
                .run(
                    &mut *grading,
                    |g| {
                        let now = Checking {
                            fetching: false,
                            taken: g.taken(),
                            steps: g.steps(),
                            doing: g.doing(),
                        };
                        // The panel may be gone (the student left the page).
                        checking.try_set(Some(now)).is_none()
                    },
                    || stop.try_get_untracked(),
                )
                .await;
            match ran {
                Ok(()) => {}
                Err(Halt::Gone) => return,
                Err(Halt::Stopped) => {
                    let what = panel::stopped_check(grading.taken(), grading.steps());
                    let shown = panel::stopped_check_notice(&what);
                    end_with(what, shown);
                    return;
                }
            }
            // The last slice ends with the last rule: the browser gets a
            // turn before the tutor reads the run and the report is drawn.
            slices::yield_to_browser().await;
            if checking.try_get_untracked().is_none() {
                return; // the student left the page meanwhile
            }
            let (report, judged) = grading.finish_judged();
            finish(g, graph, report, judged);
        });
    };
    let stale =
        move || checked.with(|c| c.as_ref().is_some_and(|c| d.graph.with(|g| *g != c.graph)));
    let busy = move || checking.with(Option::is_some);
    view! {
        <section class="check" aria-labelledby="check-title">
            <h2 id="check-title">"Check my design"</h2>
            <p class="muted">
                "The lab runs your design through the scenario's days, faults included, and checks each requirement against what actually happened. Any design that meets them passes."
            </p>
            // Marked busy rather than disabled while it runs: a disabled
            // button drops keyboard focus.
            <button type="button" class="primary" node_ref=check_button on:click=check aria-disabled=move || busy().then_some("true")>
                "Check my design"
            </button>
            <p role="status" class="muted">{move || busy().then_some("Checking your design…")}</p>
            // Drawn once per check, its text and bar updated in place, so
            // that the Stop button keeps keyboard focus while it runs.
            <Show when=busy>
                <div class="check-progress">
                    <label for="check-progress">
                        {move || checking.get().map(progress_text)}
                    </label>
                    <progress
                        id="check-progress"
                        max=move || checking.get().map_or(1, |c| c.steps.max(1)).to_string()
                        // No value while the grader downloads: a bar that
                        // moves without saying how far.
                        value=move || checking.get().filter(|c| !c.fetching).map(|c| c.taken.min(c.steps).to_string())
                    ></progress>
                    <button type="button" on:click=move |_| stop.set(true)>"Stop checking"</button>
                </div>
            </Show>
            // Announced through the page's live region, shown here.
            {move || stopped.get().map(|message| view! { <p class="notice">{message}</p> })}
            <Show when=stale>
                <p class="notice" role="status">"Your design has changed since this check: check again to see the new verdict."</p>
            </Show>
            // Drawn by the grader's chunk, which has come by now.
            {move || checked.get().map(|c| (c.grader.report)(Shown {
                report: c.report,
                causes: c.causes,
                held: c.held,
                picture: c.picture,
                other,
            }))}
        </section>
    }
}

/// Another passing design, run after a pass: its name and what it cost
/// beside the student's, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Other {
    /// The check it belongs to (each check counts one up), and the name.
    Running(u32, &'static str),
    Ran(String),
    None,
}

/// How many other designs this page has started running.
static OTHER_RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Runs a passing design of the lab's, built differently from `graph`,
/// in slices, and says what it cost beside `mine`.
fn run_other(
    g: &'static Grader,
    d: Designer,
    graph: Graph,
    mine: Judged,
    other: RwSignal<Option<Other>>,
) {
    let scenario = d.scenario;
    let Some(known) = (g.other_design)(scenario, d.variant, &graph) else {
        other.set(Some(Other::None));
        return;
    };
    // Numbered, so a run overtaken by a later check of the same other
    // design never writes its figures under the later one's.
    let run = OTHER_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    other.set(Some(Other::Running(run, known.name)));
    leptos::task::spawn_local(async move {
        let script = d.script(g.make_script);
        let mut grading = (g.check)(scenario, &known.graph, &script);
        // Gone, or overtaken by a new check: nothing to say.
        let still =
            move || other.try_get_untracked().flatten() == Some(Other::Running(run, known.name));
        let ran = Slices::from_now()
            .run(&mut *grading, |_| still(), || Some(false))
            .await;
        if ran.is_err() || !still() {
            return;
        }
        let said = match grading.finish_judged() {
            (report, Some(theirs)) if report.passed() => (g.compare)(&known, &theirs, &mine),
            _ => None,
        };
        other.set(Some(said.map_or(Other::None, Other::Ran)));
    });
}
