//! The check panel's view model: every sentence the panel says about a
//! check, a search and the smallest case, and the one run of the smallest
//! case it shows, so the components only draw (and the words are tested
//! here, natively).

use crate::design::Graph;
use crate::engine::calendar::Instant;
use crate::engine::Event;

use crate::counted::{counted, grouped};
use crate::scenarios::grading::grade::{at_once, BackfillTrace, Doing};
use crate::scenarios::grading::report::{Evidence, Report, RuleResult};
use crate::scenarios::grading::shrink::{lines, Shrunk};
use crate::scenarios::Scenario;

/// What a check's next step does, in the student's words.
pub fn doing_text(doing: Doing) -> String {
    match doing {
        Doing::Compiling => "reading the design".to_string(),
        Doing::Simulating { of: 0, .. } => {
            "running the scenario's scheduled runs (none to run)".to_string()
        }
        Doing::Simulating { run, of } => {
            format!("running the scenario's scheduled runs (run {run} of {of})")
        }
        Doing::History => "building the tables as they stood at the launch".to_string(),
        Doing::Clock => "putting the backfill's steps on the clock".to_string(),
        Doing::Tables => "rewriting the partitions the steps touched".to_string(),
        Doing::Rule(id) => format!("checking requirement {id}"),
        Doing::Done => "writing the report".to_string(),
    }
}

/// The progress line: the step under way (the next to run) and what it
/// does; before the scenario's days are made, no count yet.
pub fn progress_text(taken: usize, steps: usize, doing: Doing) -> String {
    if steps == 0 {
        return "Preparing the scenario's days".to_string();
    }
    let now = taken.saturating_add(1).min(steps);
    format!("Step {now} of {steps}: {}", doing_text(doing))
}

/// What a check stopped part-way says: nothing was judged or saved.
pub fn stopped_check(taken: usize, steps: usize) -> String {
    format!("Stopped after {taken} of {steps} steps: no verdict was given or saved.")
}

/// The stopped check's notice on the panel: the announcement, and what to
/// do next.
pub fn stopped_check_notice(stopped: &str) -> String {
    format!("{stopped} Check again when you are ready.")
}

/// A rule's head in the report: its mark, id and verdict in words, so
/// colour is never the only signal.
pub fn rule_head(result: &RuleResult) -> String {
    let (mark, status) = if result.passed {
        ("✓", "passed")
    } else {
        ("✗", "failed")
    };
    format!("{mark} {} {status}", result.rule.id)
}

/// Which of a long replay's moments the page shows (0-based `first`,
/// exclusive `end`), in 1-based words.
pub fn moments_shown(first: usize, end: usize, count: usize) -> String {
    format!("Moments {} to {end} of {count}.", first.saturating_add(1))
}

/// The replay's step on show (0-based `at`), in 1-based words.
pub fn step_of(at: usize, count: usize) -> String {
    format!("Step {} of {count}", at.saturating_add(1))
}

/// What the page announces when a check ends.
pub fn announcement(report: &Report) -> String {
    match report {
        Report::Structural(p) => format!(
            "Not run: the design has {}.",
            counted(p.len(), "structural problem")
        ),
        r if r.passed() => "Every requirement is met.".to_string(),
        r => format!("Failed: {}.", r.failed().join(", ")),
    }
}

/// The report's headline, and whether it is bad news.
pub fn headline(report: &Report) -> (String, bool) {
    match report {
        Report::Structural(problems) => (
            format!(
                "✗ Not run: the design has {}. Fix them first; they are listed under the canvas.",
                counted(problems.len(), "structural problem")
            ),
            true,
        ),
        Report::Graded(rules) => {
            let met = rules.iter().filter(|r| r.passed).count();
            let total = rules.len();
            if met == total {
                (format!("✓ Passed: all {total} requirements met."), false)
            } else {
                (format!("✗ {met} of {total} requirements met."), true)
            }
        }
    }
}

/// The search's progress line.
pub fn searching(tried: usize, budget: usize) -> String {
    format!("Searching for the smallest case: {tried} of at most {budget} cases tried")
}

/// What a search stopped part-way says.
pub fn stopped_search(tried: usize, budget: usize) -> String {
    format!("Stopped after {tried} of at most {budget} cases. Ask again to search from the start.")
}

/// What a search says when the rule no longer fails for the design.
pub const RULE_PASSES_NOW: &str = "This rule passes for the design as it is now: check again.";

/// The smallest case as the panel shows it, from one run of it.
pub struct SmallestView {
    pub heading: String,
    /// How much smaller it is than the scenario, and whether it is minimal.
    pub summary: String,
    /// The events left (none: the schedule and faults alone break the rule).
    pub events: Vec<Event>,
    /// Whether the events are changes to a record (a column for when each
    /// change was made, which a watermark on `updated_at` reads).
    pub changes: bool,
    /// The heading of the replay: run by run, or moment by moment for a
    /// backfill.
    pub replay_heading: &'static str,
    /// The replay's lines, each with its moment for a backfill.
    pub times: Vec<Option<Instant>>,
    pub replay: Vec<String>,
    /// The backfill's run, for the source pool's picture.
    pub trace: Option<BackfillTrace>,
    pub evidence_heading: String,
    /// What the rule saw in the smallest case.
    pub evidence: Vec<Evidence>,
}

/// What the panel says when the smallest case needs no event.
pub const NO_EVENT_NEEDED: &str =
    "No event is needed: the schedule and the faults left break the rule on their own.";

impl SmallestView {
    /// One run of `shrunk` for `graph` gives the verdict's evidence, the
    /// replay and the pool's picture.
    pub fn of(scenario: &Scenario, shrunk: &Shrunk, graph: &Graph, rule: &str) -> Self {
        let (report, judged) = at_once(scenario, graph, &shrunk.script);
        let (times, replay) = judged
            .as_ref()
            .map(|j| lines(j, &shrunk.script))
            .unwrap_or_default()
            .into_iter()
            .unzip();
        let evidence = match report {
            Report::Graded(rules) => rules
                .into_iter()
                .find(|r| r.rule.id == rule)
                .map(|r| r.evidence)
                .unwrap_or_default(),
            Report::Structural(_) => Vec::new(),
        };
        let how = if shrunk.minimal {
            "minimal: removing any one event or fault makes the rule pass"
        } else {
            "smaller, not proven minimal: the search stopped at its budget"
        };
        SmallestView {
            heading: format!("The smallest case that breaks {rule}"),
            summary: format!(
                "{} instead of {}, {} instead of {}; {how} ({} simulations).",
                counted(shrunk.script.events.len(), "event"),
                grouped(shrunk.original_events),
                counted(shrunk.faults(), "fault"),
                grouped(shrunk.original_faults),
                grouped(shrunk.simulations),
            ),
            events: shrunk.script.events.clone(),
            changes: shrunk
                .script
                .events
                .iter()
                .any(|e| e.updated_at != e.event_time),
            replay_heading: if scenario.launch().is_some() {
                "Moment by moment (the backfill, the scheduled runs, the faults)"
            } else {
                "Run by run (runs that touched these events)"
            },
            times,
            replay,
            trace: judged.and_then(|j| j.trace()),
            evidence_heading: format!("What {rule} saw"),
            evidence,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::WriteChoice;
    use crate::scenarios::grading::grade::{grade, Doing};
    use crate::scenarios::grading::shrink::shrink;
    use crate::scenarios::sample::{failing, sample};
    use crate::scenarios::stories::{clicks, history};

    #[test]
    fn the_progress_line_counts_the_step_under_way_and_never_past_the_last() {
        assert_eq!(
            progress_text(0, 0, Doing::Compiling),
            "Preparing the scenario's days"
        );
        assert_eq!(
            progress_text(0, 60, Doing::Compiling),
            "Step 1 of 60: reading the design"
        );
        assert_eq!(
            progress_text(60, 60, Doing::Done),
            "Step 60 of 60: writing the report"
        );
        assert_eq!(
            progress_text(3, 60, Doing::Simulating { run: 3, of: 55 }),
            "Step 4 of 60: running the scenario's scheduled runs (run 3 of 55)"
        );
    }

    /// The announcement and the headline say what the report holds: the
    /// failed rules by id, the count met, or the structural problems.
    #[test]
    fn the_verdict_sentences_come_from_the_report() {
        let s = &clicks::SCENARIO;
        let append = grade(s, &sample(s, WriteChoice::Append));
        let failed = append.failed();
        assert!(!failed.is_empty());
        assert_eq!(
            announcement(&append),
            format!("Failed: {}.", failed.join(", "))
        );
        let Report::Graded(rules) = &append else {
            panic!("graded")
        };
        let met = rules.len() - failed.len();
        assert_eq!(
            headline(&append),
            (
                format!("✗ {met} of {} requirements met.", rules.len()),
                true
            )
        );
        let structural = grade(s, &Graph::with_source(s.source));
        let Report::Structural(problems) = &structural else {
            panic!("an empty design is structural")
        };
        assert!(announcement(&structural).contains(&counted(problems.len(), "structural problem")));
        assert!(headline(&structural).1);
    }

    #[test]
    fn a_rule_head_says_its_verdict_in_words_and_steps_count_from_one() {
        let s = &clicks::SCENARIO;
        let Report::Graded(rules) = grade(s, &sample(s, WriteChoice::Append)) else {
            panic!("graded")
        };
        for r in &rules {
            let head = rule_head(r);
            assert!(head.contains(r.rule.id));
            assert_eq!(head.ends_with("passed"), r.passed, "{head}");
            assert_eq!(head.ends_with("failed"), !r.passed, "{head}");
        }
        assert_eq!(step_of(0, 7), "Step 1 of 7");
        assert_eq!(moments_shown(40, 80, 95), "Moments 41 to 80 of 95.");
        assert_eq!(
            stopped_check_notice(&stopped_check(3, 60)),
            "Stopped after 3 of 60 steps: no verdict was given or saved. Check again when you are ready."
        );
    }

    /// The smallest case's sentences count what the search left, and its
    /// replay and evidence come from the one run of it; a backfill's case
    /// walks moment by moment and has a pool to draw.
    #[test]
    fn the_smallest_case_is_described_from_its_one_run() {
        for scenario in [&clicks::SCENARIO, &history::SCENARIO] {
            let (graph, rule, _) = failing(scenario).expect("a failing design");
            let shrunk = shrink(scenario, &graph, scenario.script(), rule, 400).expect("fails");
            let view = SmallestView::of(scenario, &shrunk, &graph, rule);
            assert_eq!(
                view.heading,
                format!("The smallest case that breaks {rule}")
            );
            assert!(view.summary.starts_with(&format!(
                "{} instead of {}",
                counted(shrunk.script.events.len(), "event"),
                grouped(scenario.script().events.len())
            )));
            assert_eq!(view.summary.contains("minimal: removing"), shrunk.minimal);
            assert_eq!(view.events, shrunk.script.events);
            assert_eq!(view.times.len(), view.replay.len());
            assert!(!view.replay.is_empty() && !view.evidence.is_empty());
            let backfill = scenario.launch().is_some();
            assert_eq!(view.trace.is_some(), backfill);
            assert_eq!(
                view.replay_heading.starts_with("Moment by moment"),
                backfill
            );
        }
    }
}
