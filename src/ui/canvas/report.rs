//! A check's report: each rule's verdict, the tutor's cause, the evidence,
//! the smallest case stepped through and, after a pass, the debrief. Drawn
//! only once a check has finished, so it travels in the grader's chunk
//! (`Grader::report`): a scenario's first screen never waits for it.

use leptos::prelude::*;

use crate::design::Graph;
use crate::engine::calendar::weekday_day_month_time;
use crate::labs::pool::PoolPicture;
use crate::scenarios::grading::grade::{BackfillTrace, Judged};
use crate::scenarios::grading::panel::{self, SmallestView};
use crate::scenarios::grading::report::{Evidence, Report, RuleResult};
use crate::scenarios::grading::shrink::Shrunk;
use crate::tutor::{self, debrief, Diagnosis};
use crate::ui::pool_timeline::PoolTimeline;
use crate::ui::slices::{Halt, Slices};

use super::check::{focus_back, Other};
use super::grader::{grader, Causes, Grader, Held, NOT_FETCHED};
use super::Designer;

/// Simulations one "smallest case" may spend.
const SHRINK_BUDGET: usize = 400;

/// A finished check, as the panel hands it to be drawn.
pub struct Shown {
    pub report: Report,
    pub causes: Causes,
    pub held: Held,
    /// The source pool over the run the rules judged (scenarios 4 and 5).
    pub picture: Option<PoolPicture>,
    /// After a pass, the other passing design's run.
    pub other: RwSignal<Option<Other>>,
}

/// The report of a finished check, and the pool it held where there is one.
pub fn shown(s: Shown) -> AnyView {
    view! {
        <ReportView report=s.report causes=s.causes held=s.held other=s.other />
        {s.picture.map(|picture| view! {
            <PoolTimeline
                picture=picture
                id="pool"
                title="The source pool during your backfill: who held each connection, and who waited"
            />
        })}
    }
    .into_any()
}

/// The source pool over a judged backfill's run, where it has one.
pub fn picture(judged: &Judged) -> Option<PoolPicture> {
    judged.trace().as_ref().map(pool_picture)
}

/// The source pool over a backfill's run, as the check panel draws it.
fn pool_picture(t: &BackfillTrace) -> PoolPicture {
    crate::labs::pool::from_timeline(&t.timeline, &t.scheduled, t.pool, t.launch)
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
            let original = (*d.script(g.make_script)).clone();
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
                        <PoolTimeline
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
