//! One design of a student's, graded again: the verdict the grader gives
//! it now, the verdict its file carried (kept only to say where the two
//! differ) and, for each failed rule, the tutor's cause where a detector
//! sees one.

use std::borrow::Cow;

use crate::design::Graph;
use crate::engine::Script;
use crate::scenarios::grading::grade::{Grading, Judged};
use crate::scenarios::grading::report::Report;
use crate::scenarios::progress::Progress;
use crate::scenarios::work::Work;
use crate::scenarios::Scenario;
use crate::tutor::{diagnoses, Case, Cause};
use crate::variant::Variant;

/// A design's grade on the class page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub scenario: u8,
    /// What grading the design now says (not started: no design, or the
    /// scenario's empty canvas).
    pub verdict: Progress,
    /// What the file said.
    pub stored: Progress,
    /// Each failed rule, with its cause where the tutor sees one.
    pub causes: Vec<(&'static str, Option<Cause>)>,
    /// Its share link named other data than the student's own, which it
    /// was graded on (`Submission::linked_elsewhere`).
    pub linked_elsewhere: bool,
}

impl Mark {
    /// A design not begun: nothing to grade.
    pub fn not_started(scenario: u8, stored: Progress) -> Mark {
        Mark {
            scenario,
            verdict: Progress::NotStarted,
            stored,
            causes: Vec::new(),
            linked_elsewhere: false,
        }
    }

    /// The mark of a finished check of `graph`, run on `script`.
    pub fn of(
        scenario: &Scenario,
        script: &Script,
        graph: &Graph,
        stored: Progress,
        report: &Report,
        judged: Option<&Judged>,
    ) -> Mark {
        let causes = match judged {
            Some(judged) => diagnoses(
                &Case {
                    scenario,
                    graph,
                    script,
                    judged,
                },
                report,
            )
            .into_iter()
            .map(|(rule, diagnosis)| (rule, diagnosis.map(|d| d.cause)))
            .collect(),
            None => Vec::new(),
        };
        Mark {
            scenario: scenario.number,
            verdict: Progress::of(report),
            stored,
            causes,
            linked_elsewhere: false,
        }
    }

    /// The mark of `work` once its `grading` on `script` has run to its
    /// end.
    pub fn finished(scenario: &Scenario, script: &Script, work: &Work, grading: Grading) -> Mark {
        let (report, judged) = grading.finish_judged();
        Mark::of(
            scenario,
            script,
            &work.graph,
            work.progress.clone(),
            &report,
            judged.as_ref(),
        )
    }

    /// Whether the file's own verdict says something else than grading
    /// does now. A file that never recorded a check disagrees with nothing.
    pub fn disagrees(&self) -> bool {
        !matches!(self.stored, Progress::NotStarted) && self.stored != self.verdict
    }

    pub fn passed(&self) -> bool {
        self.verdict == Progress::Passed
    }
}

/// Whether `work` holds a design begun: more than the scenario's canvas
/// as it starts.
pub fn begun(scenario: &Scenario, work: &Work) -> bool {
    work.graph != Graph::with_source(scenario.source)
}

/// The script a student's `work` is graded on: the scenario's in the
/// student's variant (SPEC 14), the chapter's for a student with no class
/// code and for a scenario no variant moves.
pub fn script_for<'a>(scenario: &'a Scenario, variant: Variant) -> Cow<'a, Script> {
    scenario.script_in(scenario.variant(variant))
}

/// The check of `work` on `script`, a step at a time (the page drives it
/// between paints); `None` for a design not begun.
pub fn grading<'a>(
    scenario: &'a Scenario,
    work: &'a Work,
    script: &'a Script,
) -> Option<Grading<'a>> {
    begun(scenario, work).then(|| Grading::new(scenario, &work.graph, script))
}

/// `work` marked in one go in `variant` (the tests' and the benchmark's
/// way; the page steps the same `grading`).
pub fn mark(scenario: &Scenario, work: &Work, variant: Variant) -> Mark {
    use crate::engine::Stepwise;
    let script = script_for(scenario, variant);
    match grading(scenario, work, &script) {
        None => Mark::not_started(scenario.number, work.progress.clone()),
        Some(mut g) => {
            g.run_to_end();
            Mark::finished(scenario, &script, work, g)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::catalogue::designs;
    use crate::scenarios::grading::grade::grade;
    use crate::scenarios::SCENARIOS;

    fn work(scenario: u8, graph: Graph, progress: Progress) -> Work {
        Work {
            scenario,
            graph,
            progress,
            saved_at: None,
            variant: None,
        }
    }

    /// A student's design is graded in their own variant (SPEC 14): the
    /// chapter's passing backfill of scenario 4 (from the 3rd) fails in a
    /// class variant whose bug shipped on another day, and the same
    /// design made for that variant passes, with the class page's mark.
    #[test]
    fn a_student_is_graded_in_their_own_variant() {
        use crate::scenarios::catalogue::designs_in;
        use crate::scenarios::stories::currency::{ship_date, SCENARIO as CURRENCY};
        let chapter = designs(&CURRENCY).remove(0);
        assert!(chapter.passes());
        let (student, variant) = ["Ada", "Grace", "Alan", "Edsger", "Barbara"]
            .iter()
            .map(|n| crate::scenarios::student::Student::new(n, "DATA-101").expect("a name"))
            .map(|s| {
                let v = s.variant();
                (s, v)
            })
            .find(|(_, v)| ship_date(*v) != ship_date(Variant::CHAPTER))
            .expect("a student whose bug shipped on another day");
        let copied = mark(
            &CURRENCY,
            &work(4, chapter.graph.clone(), Progress::Passed),
            variant,
        );
        assert!(
            !copied.passed(),
            "{student:?}: the chapter's dates are not theirs"
        );
        assert!(copied.disagrees());
        let own = designs_in(&CURRENCY, variant).remove(0);
        let m = mark(&CURRENCY, &work(4, own.graph, Progress::Passed), variant);
        assert!(m.passed() && !m.disagrees(), "{student:?}: {m:?}");
        // Every scenario's known designs, made for the student's data,
        // keep their verdicts in the class page's mark; a scenario no
        // variant moves grades the same in any variant.
        for s in SCENARIOS {
            for known in designs_in(s, variant) {
                let w = work(s.number, known.graph.clone(), Progress::NotStarted);
                let m = mark(s, &w, variant);
                let expected = if known.fails.is_empty() {
                    Progress::Passed
                } else {
                    Progress::Failing(known.fails.iter().map(|r| r.to_string()).collect())
                };
                assert_eq!(m.verdict, expected, "{student:?}, {}", known.name);
                if !s.varies() {
                    assert_eq!(m, mark(s, &w, Variant::CHAPTER));
                }
            }
        }
    }

    /// The page's mark is the grader's verdict on the design, whatever the
    /// file said: every known design, each told it passed.
    #[test]
    fn a_mark_is_the_grader_s_verdict_not_the_file_s() {
        for s in SCENARIOS {
            for known in designs(s) {
                let m = mark(
                    s,
                    &work(s.number, known.graph.clone(), Progress::Passed),
                    Variant::CHAPTER,
                );
                assert_eq!(
                    m.verdict,
                    Progress::of(&grade(s, &known.graph)),
                    "{}",
                    known.name
                );
                assert_eq!(m.passed(), known.passes(), "{}", known.name);
                assert_eq!(m.disagrees(), !known.passes(), "{}", known.name);
                let failed: Vec<&str> = m.causes.iter().map(|(r, _)| *r).collect();
                assert_eq!(failed, known.fails, "{}", known.name);
            }
        }
    }

    #[test]
    fn an_empty_canvas_is_not_started_and_never_graded() {
        let s = SCENARIOS[0];
        let m = mark(
            s,
            &work(s.number, Graph::with_source(s.source), Progress::Passed),
            Variant::CHAPTER,
        );
        assert_eq!(m.verdict, Progress::NotStarted);
        assert!(m.disagrees(), "the file claimed a pass for an empty canvas");
        let quiet = mark(
            s,
            &work(s.number, Graph::with_source(s.source), Progress::NotStarted),
            Variant::CHAPTER,
        );
        assert!(!quiet.disagrees());
    }

    /// Causes come from the tutor's detectors: a classic mistake the tutor
    /// names is named on the class page too.
    #[test]
    fn a_failed_rule_carries_the_tutor_s_cause_where_it_sees_one() {
        let named = SCENARIOS
            .iter()
            .flat_map(|s| {
                designs(s).into_iter().map(move |k| {
                    mark(
                        s,
                        &work(s.number, k.graph, Progress::NotStarted),
                        Variant::CHAPTER,
                    )
                })
            })
            .flat_map(|m| m.causes)
            .filter(|(_, cause)| cause.is_some())
            .count();
        assert!(
            named >= 10,
            "only {named} causes named across the catalogue"
        );
    }
}
