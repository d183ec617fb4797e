//! "Check my design": the grader's report next to the canvas, each failed
//! rule with its evidence, the nodes involved, the idea to revisit and the
//! smallest case that still breaks it.

use leptos::prelude::*;

use crate::design::files::saves;
use crate::design::Graph;
use crate::engine::calendar::weekday_day_month_time;
use crate::scenarios::grading::grade::{Doing, Judged};
use crate::scenarios::grading::panel::{self, SmallestView};
use crate::scenarios::grading::report::{Evidence, Report, RuleResult};
use crate::scenarios::grading::shrink::Shrunk;
use crate::scenarios::progress::Progress;
use crate::tutor::{self, debrief, Diagnosis};
use crate::ui::slices::{self, Halt, Slices};
use crate::ui::storage;

use super::grader::{grader, Causes, Grader, Held, NOT_FETCHED};
use super::Designer;

/// Simulations one "smallest case" may spend.
const SHRINK_BUDGET: usize = 400;

#[derive(Clone)]
struct Checked {
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

/// The source pool over a backfill's run, as the check panel draws it.
fn pool_picture(
    t: &crate::scenarios::grading::grade::BackfillTrace,
) -> crate::labs::pool::PoolPicture {
    crate::labs::pool::from_timeline(&t.timeline, &t.scheduled, t.pool, t.launch)
}

/// Before the progress box matching `progress` goes: keyboard focus in it
/// (on its Stop button) moves to `button`, the one that started the work.
fn focus_back(progress: &str, button: NodeRef<leptos::html::Button>) {
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
        let picture = judged
            .as_ref()
            .and_then(Judged::trace)
            .as_ref()
            .map(pool_picture);
        let script = d.script.get_value();
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
            let script = d.script.get_value();
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
            {move || checked.get().map(|c| {
                view! {
                    <ReportView report=c.report causes=c.causes held=c.held other=other />
                    {c.picture.map(|picture| view! {
                        <crate::ui::pool_timeline::PoolTimeline
                            picture=picture
                            id="pool"
                            title="The source pool during your backfill: who held each connection, and who waited"
                        />
                    })}
                }
            })}
        </section>
    }
}

/// Another passing design, run after a pass: its name and what it cost
/// beside the student's, or why there is none.
#[derive(Clone, Debug, PartialEq)]
enum Other {
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
        let script = d.script.get_value();
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

#[component]
fn ReportView(
    report: Report,
    causes: Causes,
    held: Held,
    other: RwSignal<Option<Other>>,
) -> impl IntoView {
    let d = expect_context::<Designer>();
    let (headline, bad) = panel::headline(&report);
    let passed = report.passed();
    match report {
        Report::Structural(_) => view! {
            <div class="report" role="status">
                <p class="verdict verdict-bad">{headline}</p>
            </div>
        }
        .into_any(),
        Report::Graded(rules) => view! {
            <div class="report">
                <p class="verdict" class:verdict-bad=bad role="status">{headline}</p>
                {passed.then(|| view! { <p>"Why each requirement held in your design, from the run:"</p> })}
                <ul class="rules">
                    {rules.into_iter().map(|r| {
                        let cause = causes.iter().find(|(id, _)| *id == r.rule.id).and_then(|(_, c)| c.clone());
                        let why = held.iter().find(|(id, _)| *id == r.rule.id).map(|(_, w)| w.clone());
                        view! { <RuleView result=r cause=cause held=why /> }
                    }).collect_view()}
                </ul>
                {passed.then(|| view! { <Debrief scenario=d.scenario other=other /> })}
            </div>
        }
        .into_any(),
    }
}

/// After a pass: another design that passes, what it costs beside this
/// one, and the way on.
#[component]
fn Debrief(
    scenario: &'static crate::scenarios::Scenario,
    other: RwSignal<Option<Other>>,
) -> impl IntoView {
    let next = debrief::next(scenario);
    view! {
        <div class="debrief">
            <h3>"Another design that passes"</h3>
            <p role="status">
                {move || match other.get() {
                    Some(Other::Running(_, name)) => format!("Running “{name}” over the same days…"),
                    Some(Other::Ran(said)) => said,
                    Some(Other::None) | None => "The lab knows no other passing design built differently from yours.".to_string(),
                }}
            </p>
            <p class="next">
                {match next {
                    Some(n) => view! {
                        <a class="button-link" href=format!("/scenarios/{}", n.number)>
                            {format!("Next: scenario {}, {}", n.number, n.title)}
                            <span aria-hidden="true">" →"</span>
                        </a>
                    }.into_any(),
                    None => view! {
                        <a class="button-link" href="/scenarios">"Back to all the scenarios"</a>
                    }.into_any(),
                }}
            </p>
        </div>
    }
}

#[component]
fn RuleView(result: RuleResult, cause: Option<Diagnosis>, held: Option<String>) -> impl IntoView {
    let d = expect_context::<Designer>();
    let id = result.rule.id;
    // The node whose choice caused it first, then the rest the rule is about.
    let mut nodes = result.nodes.clone();
    if let Some(c) = &cause {
        nodes.retain(|n| *n != c.node);
        nodes.insert(0, c.node);
    }
    // The case found, with the design it was found for: the student may
    // edit the canvas while the search runs.
    let shrunk = RwSignal::new(None::<Result<(Shrunk, Graph, &'static Grader), String>>);
    let working = RwSignal::new(false);
    // (cases tried, at most): the search's progress while it runs.
    let tried = RwSignal::new((0_usize, SHRINK_BUDGET));
    let stop = RwSignal::new(false);
    let show_nodes = move |_| {
        d.highlight.set(nodes.clone());
        if let Some(first) = nodes.first() {
            d.selected.set(Some(*first));
            d.focus_request.set(Some(*first));
        }
    };
    let smallest_button = NodeRef::<leptos::html::Button>::new();
    // As with the check: focus on "Stop the search" goes back to the
    // button that started it when the search ends.
    let done_searching = move || {
        focus_back(".search-progress", smallest_button);
        working.set(false);
    };
    let smallest = move |_| {
        if working.get_untracked() {
            return;
        }
        let original = (*d.script.get_value()).clone();
        let searched = d.graph.get_untracked();
        working.set(true);
        stop.set(false);
        shrunk.set(None);
        tried.set((0, SHRINK_BUDGET));
        // Each candidate is judged a step at a time (`Grading`), in slices:
        // after each, the browser paints and handles input (the Stop
        // button), so not even one large simulation freezes the page.
        let scenario = d.scenario;
        leptos::task::spawn_local(async move {
            // Loaded by the check that drew this rule.
            let Ok(g) = grader().await else {
                done_searching();
                shrunk.try_set(Some(Err(NOT_FETCHED.to_string())));
                return;
            };
            let mut search = (g.search)(scenario, searched.clone(), original, id, SHRINK_BUDGET);
            let mut slices = Slices::from_now();
            while let Some(candidate) = search.ask() {
                let mut grading = (g.fails)(scenario, &searched, &candidate, id);
                let ran = slices
                    .run(
                        &mut *grading,
                        // The rule's view may be gone (a new check): then so is the search.
                        |_| tried.try_set((search.tried(), search.budget())).is_none(),
                        || stop.try_get_untracked(),
                    )
                    .await;
                match ran {
                    Ok(()) => search.answer(grading.fails()),
                    Err(Halt::Gone) => return,
                    Err(Halt::Stopped) => {
                        done_searching();
                        shrunk.set(Some(Err(panel::stopped_search(
                            search.tried(),
                            search.budget(),
                        ))));
                        return;
                    }
                }
            }
            if tried.try_set((search.tried(), search.budget())).is_some() {
                return;
            }
            let found = search
                .result()
                .map(|s| (s, searched, g))
                .ok_or_else(|| panel::RULE_PASSES_NOW.to_string());
            shrunk.set(Some(found));
            done_searching();
        });
    };
    view! {
        <li class="rule" class:rule-failed=!result.passed data-rule=id>
            <p class="rule-head">
                <strong>{panel::rule_head(&result)}</strong>
                ": " {result.rule.text}
            </p>
            {held.map(|why| view! { <p class="held">{why}</p> })}
            {(!result.passed).then(|| view! {
                {match &cause {
                    Some(c) => view! {
                        <div class="cause">
                            <p><strong>"Why, in your design: "</strong>{c.mechanism.clone()}</p>
                            <p class="muted">"The choice: " {c.node_name.clone()} ", " {c.choice.clone()} "."</p>
                        </div>
                    }.into_any(),
                    None => view! { <p class="cause muted">{tutor::CANNOT_TELL}</p> }.into_any(),
                }}
                <p class="evidence-head">"What the run showed:"</p>
                <ul class="evidence">
                    {result.evidence.iter().map(evidence_line).collect_view()}
                </ul>
                {cause.as_ref().map(|c| view! {
                    <p class="hint">"Idea to revisit: " <em>{c.revisit()}</em></p>
                })}
                <div class="button-row">
                    <button type="button" on:click=show_nodes>"Show the nodes involved"</button>
                    <button type="button" node_ref=smallest_button on:click=smallest aria-disabled=move || working.get().then_some("true")>
                        "Show me the smallest case"
                    </button>
                </div>
                <Show when=move || working.get()>
                    <div class="search-progress">
                        <label for=format!("search-{id}")>
                            {move || {
                                let (n, of) = tried.get();
                                panel::searching(n, of)
                            }}
                        </label>
                        <progress id=format!("search-{id}") max=move || tried.get().1.to_string() value=move || tried.get().0.to_string()></progress>
                        <button type="button" on:click=move |_| stop.set(true)>"Stop the search"</button>
                    </div>
                </Show>
                {move || shrunk.get().map(|found| match found {
                    Ok((s, graph, g)) => view! { <SmallestCase shrunk=s graph=graph rule=id grader=g /> }.into_any(),
                    Err(message) => view! { <p class="notice">{message}</p> }.into_any(),
                })}
            })}
        </li>
    }
}

/// One finding; a finding about a partition names it for the page's
/// scripts and styles (`data-partition`), its text says it for everyone.
fn evidence_line(e: &Evidence) -> impl IntoView {
    let partition = e.partition.map(|dt| dt.to_string());
    view! { <li data-partition=partition>{e.text.clone()}</li> }
}

#[component]
fn SmallestCase(
    shrunk: Shrunk,
    graph: Graph,
    rule: &'static str,
    grader: &'static Grader,
) -> impl IntoView {
    let d = expect_context::<Designer>();
    let SmallestView {
        heading,
        summary,
        events,
        changes,
        replay_heading,
        times,
        replay,
        trace,
        evidence_heading,
        evidence,
    } = (grader.smallest)(d.scenario, &shrunk, &graph, rule);
    // The step on show, shared by the stepper and the pool's picture.
    let at = RwSignal::new(0usize);
    let picture = StoredValue::new(trace.as_ref().map(pool_picture));
    let times = StoredValue::new(times);
    view! {
        <div class="smallest" data-smallest=rule>
            <h3>{heading}</h3>
            <p>{summary}</p>
            {if events.is_empty() {
                view! { <p>{panel::NO_EVENT_NEEDED}</p> }.into_any()
            } else {
                view! {
                    <table class="small-events">
                        <caption>"Events left"</caption>
                        <thead><tr>
                            <th scope="col">"Id"</th>
                            <th scope="col">"Happened"</th>
                            {changes.then(|| view! { <th scope="col">"Changed (updated_at)"</th> })}
                            <th scope="col">"Arrived"</th>
                        </tr></thead>
                        <tbody>
                            {events.iter().map(|e| view! {
                                <tr>
                                    <td>{e.id.to_string()}</td>
                                    <td>{weekday_day_month_time(e.event_time)}</td>
                                    {changes.then(|| view! { <td>{weekday_day_month_time(e.updated_at)}</td> })}
                                    <td>{weekday_day_month_time(e.arrived_at)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            }}
            <h4>{replay_heading}</h4>
            <ReplaySteps lines=replay at=at />
            {move || {
                let now = times.with_value(|t| t.get(at.get()).copied().flatten());
                picture.with_value(|p| p.as_ref().map(|p| {
                    let shown = now.map_or_else(|| p.clone(), |t| p.until(p.minutes_to(t)));
                    view! {
                        <crate::ui::pool_timeline::PoolTimeline
                            picture=shown
                            id=format!("pool-smallest-{rule}")
                            title="The source pool in the smallest case, up to the step on show"
                        />
                    }
                }))
            }}
            <h4>{evidence_heading}</h4>
            <ul class="evidence">{evidence.iter().map(evidence_line).collect_view()}</ul>
        </div>
    }
}

/// Replay lines drawn at once: a ten-year backfill at 64 in flight has
/// thousands of moments, and a page of them is all anyone reads at a time.
const WINDOW: usize = 40;

/// The smallest case step by step: the current line marked, its page of
/// lines readable around it, Previous / Next to walk through.
#[component]
fn ReplaySteps(lines: Vec<String>, at: RwSignal<usize>) -> impl IntoView {
    let count = lines.len();
    let last = count.saturating_sub(1);
    let lines = StoredValue::new(lines);
    let current = move || lines.with_value(|l| l.get(at.get()).cloned().unwrap_or_default());
    let at_start = move || at.get() == 0;
    let at_end = move || at.get() >= last;
    let page = move || {
        let i = at.get();
        let first = i - i % WINDOW;
        lines.with_value(|l| {
            let shown: Vec<_> = l
                .iter()
                .enumerate()
                .skip(first)
                .take(WINDOW)
                .map(|(n, line)| {
                    view! {
                        <li aria-current=(n == i).then_some("step") class:later={i < n}>{line.clone()}</li>
                    }
                })
                .collect();
            let end = first.saturating_add(shown.len());
            view! {
                {(count > WINDOW).then(|| view! {
                    <p class="muted">{panel::moments_shown(first, end, count)}</p>
                })}
                <ol class="replay" start=first + 1>{shown}</ol>
            }
        })
    };
    view! {
        <div class="button-row" role="group" aria-label="Step through the smallest case">
            <button type="button" on:click=move |_| at.update(|i| *i = i.saturating_sub(1)) disabled=at_start>
                <span aria-hidden="true">"◀ "</span>"Previous step"
            </button>
            <span class="run-count">{move || panel::step_of(at.get(), count)}</span>
            <button type="button" on:click=move |_| at.update(|i| *i = (*i + 1).min(last)) disabled=at_end>
                "Next step"<span aria-hidden="true">" ▶"</span>
            </button>
        </div>
        // The step is marked in the list on screen; this line only tells a
        // screen reader, so nothing is printed twice.
        <p class="visually-hidden" aria-live="polite">{current}</p>
        {page}
    }
}
