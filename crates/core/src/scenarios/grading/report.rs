//! What grading a design says: every rule with pass or fail, and for a
//! failure the evidence from the engine's trace, the nodes involved and the
//! concept to revisit. Never the right design.

use crate::design::{Graph, NodeId, NodeKind, Problem};
use crate::engine::calendar::{day_month, weekday_day_month_time, Day};
use crate::engine::script::RunKind;
use crate::engine::trace::RunTrace;

/// A requirement of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// "R1".
    pub id: &'static str,
    /// The requirement in plain words.
    pub text: &'static str,
    /// The idea to revisit when it fails (a glossary term).
    pub concept: &'static str,
}

/// One finding from the engine's trace that a rule reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The partition it is about, when it is about one.
    pub partition: Option<Day>,
    /// What the trace showed, in words: ids, runs, expected against actual.
    pub text: String,
}

impl Evidence {
    /// A finding about partition `dt`.
    pub fn at(dt: Day, text: String) -> Self {
        Evidence {
            partition: Some(dt),
            text,
        }
    }

    /// A finding about no one partition (a run, the report, a count).
    pub fn line(text: String) -> Self {
        Evidence {
            partition: None,
            text,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleResult {
    pub rule: Rule,
    /// The judge's verdict, stated by the judge.
    pub passed: bool,
    /// What the simulation showed.
    pub evidence: Vec<Evidence>,
    /// The nodes the rule is about, to highlight on the canvas.
    pub nodes: Vec<NodeId>,
    /// The bronze rows a failure is about, every one (the evidence names
    /// a few): the tutor looks for its cause in what happened to them.
    /// Empty for a rule about runs, partitions or time.
    pub rows: Vec<crate::engine::event::Id>,
}

impl RuleResult {
    /// The same result, about these bronze rows.
    pub fn about<I, S>(mut self, rows: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.rows = rows.into_iter().map(|id| id.as_ref().into()).collect();
        self
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// The design does not compile: nothing was run.
    Structural(Vec<Problem>),
    Graded(Vec<RuleResult>),
}

impl Report {
    pub fn passed(&self) -> bool {
        matches!(self, Report::Graded(rules) if rules.iter().all(|r| r.passed))
    }

    /// Ids of the rules that failed (all of them for a structural report).
    pub fn failed(&self) -> Vec<&'static str> {
        match self {
            Report::Structural(_) => Vec::new(),
            Report::Graded(rules) => rules
                .iter()
                .filter(|r| !r.passed)
                .map(|r| r.rule.id)
                .collect(),
        }
    }
}

/// At most this many ids are listed in one line of evidence.
pub const LISTED: usize = 5;

/// "c-1, c-2, c-3 and 4 more".
pub fn some_ids<S: AsRef<str>>(ids: &[S]) -> String {
    let shown: Vec<&str> = ids.iter().take(LISTED).map(AsRef::as_ref).collect();
    let rest = ids.len().saturating_sub(LISTED);
    if rest == 0 {
        shown.join(", ")
    } else {
        format!(
            "{} and {} more",
            shown.join(", "),
            crate::counted::grouped(rest)
        )
    }
}

/// "the retry of the run for 3 Jun (Thu 4 Jun 02:05)".
pub fn run_name(run: &RunTrace) -> String {
    let what = match run.kind {
        RunKind::Scheduled => "the run",
        RunKind::Retry => "the retry of the run",
        RunKind::Manual => "the manual re-run",
        RunKind::CatchUp => "the catch-up run",
    };
    format!(
        "{what} for {} ({})",
        day_month(run.day),
        weekday_day_month_time(run.at)
    )
}

pub fn nodes_of(graph: &Graph, kinds: &[NodeKind]) -> Vec<NodeId> {
    graph
        .nodes
        .values()
        .filter(|n| kinds.contains(&n.kind()))
        .map(|n| n.id)
        .collect()
}

/// Lines of evidence one rule shows at most: a ten-year backfill must not
/// print a line per date (the page would hold megabytes of text).
pub const MOST_EVIDENCE: usize = 12;

/// Findings that are each about no one partition.
pub fn lines(texts: Vec<String>) -> Vec<Evidence> {
    texts.into_iter().map(Evidence::line).collect()
}

/// A rule's result: `passed` as the judge decided it, with at most
/// `MOST_EVIDENCE` findings.
pub fn result(rule: Rule, passed: bool, evidence: Vec<Evidence>, nodes: Vec<NodeId>) -> RuleResult {
    RuleResult {
        rule,
        passed,
        evidence: capped(
            evidence,
            MOST_EVIDENCE - 1,
            (
                "line of evidence like these",
                "lines of evidence like these",
            ),
        ),
        nodes,
        rows: Vec::new(),
    }
}

/// Lines of one kind a rule shows before "n more like them".
pub const SHOWN: usize = 4;

/// The first `shown` findings, then one saying how many more were like them,
/// in the words for one (`more.0`) or for several (`more.1`).
pub fn capped(mut lines: Vec<Evidence>, shown: usize, more: (&str, &str)) -> Vec<Evidence> {
    if lines.len() > shown {
        let rest = lines.len().saturating_sub(shown);
        lines.truncate(shown);
        let words = if rest == 1 { more.0 } else { more.1 };
        let rest = crate::counted::grouped(rest);
        lines.push(Evidence::line(format!("And {rest} more {words}.")));
    }
    lines
}

/// `text` with its first letter capitalised. ASCII only: every text it is
/// given is the app's own English, and Unicode case tables cost the bundle.
pub fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| {
            std::iter::once(c.to_ascii_uppercase())
                .chain(chars)
                .collect()
        })
        .unwrap_or_default()
}

/// A rule bounding the bronze partitions one run reads (for a watermark
/// run: the distinct event dates it read), judged on the trace, with the
/// first run over the bound as its evidence.
pub fn reads_at_most(
    rule: Rule,
    most: usize,
    graph: &Graph,
    outcome: &crate::engine::trace::Outcome,
) -> RuleResult {
    let too_many: Vec<&RunTrace> = outcome
        .runs
        .iter()
        .filter(|r| r.partitions_read.len() > most)
        .collect();
    let evidence = match too_many.first() {
        None => Vec::new(),
        Some(run) => vec![format!(
            "{} of {} runs read more than {most} bronze partitions. For example {} read {}: {} to {}.",
            too_many.len(),
            outcome.runs.len(),
            run_name(run),
            run.partitions_read.len(),
            run.partitions_read.first().map(|d| d.to_string()).unwrap_or_default(),
            run.partitions_read.last().map(|d| d.to_string()).unwrap_or_default(),
        )],
    };
    result(
        rule,
        too_many.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(n: usize) -> Vec<String> {
        let found: Vec<Evidence> = (0..n)
            .map(|i| Evidence::line(format!("finding {i}")))
            .collect();
        capped(found, 2, ("partition drifts too", "partitions drift too"))
            .into_iter()
            .map(|e| e.text)
            .collect()
    }

    #[test]
    fn capped_shows_the_first_findings_then_counts_the_rest_in_its_own_number() {
        assert_eq!(texts(2), ["finding 0", "finding 1"]);
        assert_eq!(
            texts(3),
            ["finding 0", "finding 1", "And 1 more partition drifts too."]
        );
        assert_eq!(texts(5)[2], "And 3 more partitions drift too.");
    }

    #[test]
    fn some_ids_lists_the_first_and_counts_the_rest_grouped() {
        let ids: Vec<String> = (0..1_205).map(|i| format!("p-{i}")).collect();
        assert_eq!(some_ids(&ids[..2]), "p-0, p-1");
        assert_eq!(
            some_ids(&ids),
            format!("{} and 1,200 more", ids[..LISTED].join(", "))
        );
    }
}
