//! The class at a glance: a row per submission with each scenario's mark,
//! and per scenario how many passed, failed or had not started, how often
//! each rule failed and the causes the tutor saw most. Counts are per
//! submission; two from the same student are flagged on both rows, never
//! merged, so the instructor decides which counts.

use super::mark::Mark;
use super::Submission;
use crate::scenarios::progress::Progress;
use crate::scenarios::student::Student;
use crate::scenarios::{Scenario, SCENARIOS};
use crate::tutor::Cause;

/// One submission, graded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub from: String,
    pub student: Option<Student>,
    /// One per scenario the submission holds, in scenario order.
    pub marks: Vec<Mark>,
}

impl Row {
    pub fn new(submission: &Submission, mut marks: Vec<Mark>) -> Row {
        crate::lean::order::sort_by_key(&mut marks, |m| m.scenario);
        Row {
            from: submission.from.clone(),
            student: submission.student.clone(),
            marks,
        }
    }

    /// The name it is listed under.
    pub fn name(&self) -> String {
        super::listed_as(self.student.as_ref(), &self.from)
    }

    pub fn mark(&self, scenario: u8) -> Option<&Mark> {
        self.marks.iter().find(|m| m.scenario == scenario)
    }

    /// Scenario `scenario`'s state on this row (not started when absent).
    pub fn verdict(&self, scenario: u8) -> Progress {
        self.mark(scenario)
            .map_or(Progress::NotStarted, |m| m.verdict.clone())
    }

    pub fn passed(&self) -> usize {
        self.marks.iter().filter(|m| m.passed()).count()
    }

    /// The marks whose file said another verdict.
    pub fn disagreements(&self) -> Vec<&Mark> {
        self.marks.iter().filter(|m| m.disagrees()).collect()
    }
}

/// For each row, the other rows from the same student.
pub fn same_student(rows: &[Row]) -> Vec<Vec<usize>> {
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            let Some(me) = &row.student else {
                return Vec::new();
            };
            rows.iter()
                .enumerate()
                .filter(|(j, other)| {
                    *j != i && other.student.as_ref().is_some_and(|o| o.same_as(me))
                })
                .map(|(j, _)| j)
                .collect()
        })
        .collect()
}

/// One scenario across the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub scenario: &'static Scenario,
    pub passed: usize,
    /// Failing a rule, or not compiling.
    pub failed: usize,
    pub not_started: usize,
    /// Each rule with how many designs failed it, in the scenario's order.
    pub rules: Vec<(&'static str, usize)>,
    /// The causes the tutor saw, most common first, with how many failed
    /// rules each explains.
    pub causes: Vec<(Cause, usize)>,
    /// Failed rules the tutor saw no cause for.
    pub unexplained: usize,
}

/// Every scenario's tally over `rows`.
pub fn tally(rows: &[Row]) -> Vec<Tally> {
    SCENARIOS
        .iter()
        .map(|s| {
            let marks: Vec<&Mark> = rows.iter().filter_map(|r| r.mark(s.number)).collect();
            let count = |p: fn(&Progress) -> bool| marks.iter().filter(|m| p(&m.verdict)).count();
            let passed = count(|v| *v == Progress::Passed);
            let failed = count(|v| matches!(v, Progress::Failing(_) | Progress::Structural));
            let rules = s
                .rules()
                .iter()
                .map(|rule| {
                    let failing = |m: &&&Mark| matches!(&m.verdict, Progress::Failing(ids) if ids.iter().any(|id| id == rule.id));
                    (rule.id, marks.iter().filter(failing).count())
                })
                .collect();
            let mut causes: Vec<(Cause, usize)> = Vec::new();
            let mut unexplained = 0;
            for (_, cause) in marks.iter().flat_map(|m| &m.causes) {
                match cause {
                    Some(c) => match causes.iter_mut().find(|(seen, _)| seen == c) {
                        Some((_, n)) => *n = n.saturating_add(1),
                        None => causes.push((*c, 1)),
                    },
                    None => unexplained += 1,
                }
            }
            crate::lean::order::sort_by(&mut causes, |a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            Tally {
                scenario: s,
                passed,
                failed,
                not_started: rows.len().saturating_sub(passed + failed),
                rules,
                causes,
                unexplained,
            }
        })
        .collect()
}

/// What the student table is sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    Name,
    Passed,
    Scenario(u8),
}

/// How far a verdict got, for sorting: passed highest.
fn rank(verdict: &Progress) -> u8 {
    match verdict {
        Progress::Passed => 3,
        Progress::Failing(_) => 2,
        Progress::Structural => 1,
        Progress::NotStarted | Progress::Unreadable => 0,
    }
}

/// The rows' indexes in the order `by` gives (`descending` reverses it;
/// ties keep the order the files were added in).
pub fn order(rows: &[Row], by: SortBy, descending: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    crate::lean::order::sort_by(&mut order, |&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        let by_key = match by {
            SortBy::Name => ra.name().to_lowercase().cmp(&rb.name().to_lowercase()),
            SortBy::Passed => ra.passed().cmp(&rb.passed()),
            SortBy::Scenario(n) => rank(&ra.verdict(n)).cmp(&rank(&rb.verdict(n))),
        };
        if descending {
            by_key.reverse()
        } else {
            by_key
        }
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::mark::mark;
    use crate::scenarios::catalogue::designs;
    use crate::scenarios::work::Work;

    /// A submission of the `pick`-th known design of each scenario listed.
    pub(crate) fn handed_in(name: &str, picks: &[(u8, usize)]) -> (Submission, Vec<Mark>) {
        let works: Vec<Work> = picks
            .iter()
            .map(|&(n, pick)| Work {
                scenario: n,
                graph: designs(crate::scenarios::numbered(n).expect("scenario"))[pick]
                    .graph
                    .clone(),
                progress: Progress::NotStarted,
                saved_at: None,
                variant: None,
            })
            .collect();
        let marks = works
            .iter()
            .map(|w| {
                let s = crate::scenarios::numbered(w.scenario).expect("scenario");
                mark(s, w, crate::variant::Variant::CHAPTER)
            })
            .collect();
        let submission = Submission {
            from: format!("{name}.json"),
            student: Some(Student::new(name, "CS 101").expect("name")),
            works,
        };
        (submission, marks)
    }

    fn rows(class: &[(&str, &[(u8, usize)])]) -> Vec<Row> {
        class
            .iter()
            .map(|(name, picks)| {
                let (s, m) = handed_in(name, picks);
                Row::new(&s, m)
            })
            .collect()
    }

    #[test]
    fn a_tally_counts_each_verdict_rule_and_cause_from_the_marks() {
        let s1 = crate::scenarios::numbered(1).expect("one");
        let known = designs(s1);
        let failing = known.iter().position(|k| !k.passes()).expect("a mistake");
        let class = rows(&[
            ("Ada", &[(1, 0), (2, 0)]),
            ("Grace", &[(1, failing)]),
            ("Alan", &[(1, failing), (2, 0)]),
            ("Edsger", &[]),
        ]);
        let tallies = tally(&class);
        let t1 = &tallies[0];
        assert_eq!((t1.passed, t1.failed, t1.not_started), (1, 2, 1));
        for (rule, n) in &t1.rules {
            let expected = if known[failing].fails.contains(rule) {
                2
            } else {
                0
            };
            assert_eq!(*n, expected, "{rule}");
        }
        let explained: usize = t1.causes.iter().map(|(_, n)| n).sum();
        assert_eq!(explained + t1.unexplained, 2 * known[failing].fails.len());
        let t2 = &tallies[1];
        assert_eq!((t2.passed, t2.failed, t2.not_started), (2, 0, 2));
        assert!(tallies[2..]
            .iter()
            .all(|t| t.not_started == 4 && t.passed == 0));
    }

    #[test]
    fn rows_sort_by_name_passes_or_a_scenario_and_twins_are_flagged() {
        let class = rows(&[
            ("grace", &[(1, 0)]),
            ("Ada", &[(1, 0), (2, 0)]),
            ("Alan", &[]),
            ("ada", &[(2, 0)]),
        ]);
        assert_eq!(order(&class, SortBy::Name, false), vec![1, 3, 2, 0]);
        assert_eq!(order(&class, SortBy::Passed, true), vec![1, 0, 3, 2]);
        assert_eq!(order(&class, SortBy::Scenario(1), true), vec![0, 1, 2, 3]);
        assert_eq!(same_student(&class), vec![vec![], vec![3], vec![], vec![1]]);
    }
}
