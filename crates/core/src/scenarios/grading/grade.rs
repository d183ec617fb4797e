//! The grader: structural validation first, then the design run through
//! the engine on the scenario's script, then every rule. A check is a
//! `Grading` taken one step at a time (compile, each part of the run, each
//! rule), so that the page can show its progress, paint between steps and
//! stop it; `graded` takes every step at once.

use crate::design::{compile, CompiledDesign, Graph, Problem};
use crate::engine::calendar::Instant;
use crate::engine::script::Script;
use crate::engine::simulate::Simulation;
use crate::engine::Stepwise;
use crate::engine::{Detail, PipelineConfig};

use crate::engine::clock::Timeline;
use crate::scenarios::grading::backfilled::{self, Backfilled, Clocked, Launched, Setting};
use crate::scenarios::grading::report::{Report, RuleResult};

pub use crate::scenarios::grading::judge::{BackfillRule, Daily, DailyRule};
pub use crate::scenarios::scenario::{Judges, Scenario};

/// Grades `graph` for `scenario` on `script` (the scenario's own, or a
/// smaller one while shrinking).
pub fn grade_on(scenario: &Scenario, graph: &Graph, script: &Script) -> Report {
    graded(scenario, graph, script).0
}

/// A backfill scenario's run as the rules judged it: the clock's trace,
/// the scheduled runs and the scenario's source pool. The check panel
/// draws the pool's picture from it; the grader draws nothing.
#[derive(Clone, Debug)]
pub struct BackfillTrace {
    pub timeline: Timeline,
    pub scheduled: Vec<backfilled::Scheduled>,
    /// The source pool's connections.
    pub pool: u32,
    pub launch: Instant,
}

impl BackfillTrace {
    fn of(done: Backfilled, setting: &Setting) -> Self {
        BackfillTrace {
            timeline: done.timeline,
            scheduled: done.scheduled,
            pool: setting.pool,
            launch: setting.launch,
        }
    }
}

/// The report, and for a backfill scenario (4 and 5) the run the rules
/// judged: what the check panel draws the source pool from.
pub fn graded(
    scenario: &Scenario,
    graph: &Graph,
    script: &Script,
) -> (Report, Option<BackfillTrace>) {
    let mut grading = Grading::new(scenario, graph, script);
    grading.run_to_end();
    grading.finish()
}

/// The run a check made in one go judged, kept for what the page shows
/// of it (the smallest case's replay and the pool's picture).
pub enum Judged {
    Daily(Daily),
    Backfill(Backfilled, Setting),
}

impl Judged {
    /// A backfill's trace, for the pool's picture.
    pub fn trace(&self) -> Option<BackfillTrace> {
        match self {
            Judged::Backfill(done, setting) => Some(BackfillTrace {
                timeline: done.timeline.clone(),
                scheduled: done.scheduled.clone(),
                pool: setting.pool,
                launch: setting.launch,
            }),
            Judged::Daily(_) => None,
        }
    }
}

/// A check made in one go (a simulation with silver after every run, or
/// the backfill run whole), every judge on it, and the run: one simulation gives the
/// smallest case its verdict, its replay and its picture. The check taken
/// a step at a time reaches the same report (a test holds them equal).
pub fn at_once(scenario: &Scenario, graph: &Graph, script: &Script) -> (Report, Option<Judged>) {
    let compiled = match compile(graph) {
        Ok(compiled) => compiled,
        Err(problems) => return (Report::Structural(problems), None),
    };
    match scenario.running().judges {
        Judges::Daily(judges) => {
            let daily = Daily {
                config: compiled.pipeline,
                // The replay of the smallest case reads silver after each
                // run; no rule reads the engine's comparison with the truth.
                outcome: crate::engine::simulate_with(
                    &compiled.pipeline,
                    script,
                    Detail {
                        ids: true,
                        snapshots: true,
                        compared: false,
                    },
                ),
            };
            let results = judges
                .iter()
                .map(|j| (j.judge)(graph, script, &daily))
                .collect();
            (Report::Graded(results), Some(Judged::Daily(daily)))
        }
        Judges::Backfill { judges, setting } => {
            let setting = setting();
            let Some(done) = backfilled::run(&setting, &compiled, script) else {
                return (Report::Structural(vec![no_backfill()]), None);
            };
            let results = judges
                .iter()
                .map(|j| (j.judge)(graph, script, &done))
                .collect();
            (
                Report::Graded(results),
                Some(Judged::Backfill(done, setting)),
            )
        }
    }
}

/// Whether rule `id` of `scenario` fails for `graph` on `script`, judging
/// that rule alone (false for a design that cannot run).
pub fn rule_fails(scenario: &Scenario, graph: &Graph, script: &Script, id: &str) -> bool {
    let mut grading = Grading::only(scenario, graph, script, id);
    grading.run_to_end();
    fails_in(&grading.finish().0, id)
}

/// Whether `report` has rule `id` failed.
pub fn fails_in(report: &Report, id: &str) -> bool {
    match report {
        Report::Graded(rules) => rules.iter().any(|r| r.rule.id == id && !r.passed),
        Report::Structural(_) => false,
    }
}

/// Grades `graph` for `scenario` on the scenario's script.
pub fn grade(scenario: &Scenario, graph: &Graph) -> Report {
    grade_on(scenario, graph, scenario.script())
}

/// One check, a step at a time. Every step is a bounded piece of work: the
/// design compiled, one scheduled run of the daily simulation (or the
/// backfill's history, its clock, its tables), then one rule.
pub struct Grading<'a> {
    scenario: &'a Scenario,
    graph: &'a Graph,
    script: &'a Script,
    stage: Stage<'a>,
    /// Judge only the rule at this index (the smallest-case search asks
    /// about one rule).
    only: Option<usize>,
    results: Vec<RuleResult>,
    taken: usize,
    /// The daily simulation's attempts, once the design has compiled:
    /// whether the pipeline catches up decides which runs happen.
    attempts: Option<usize>,
}

enum Stage<'a> {
    Compile,
    Simulate(PipelineConfig, Simulation<'a>),
    Launch(Setting, CompiledDesign),
    Clock(Setting, Launched),
    Rebuild(Setting, Clocked),
    Judge(Judged),
    Done(Report, Option<Judged>),
}

/// What a check is doing, for its progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doing {
    Compiling,
    /// The daily runs: the next is `run` of `of` (retries included).
    Simulating {
        run: usize,
        of: usize,
    },
    /// The tables the scheduler built before the launch.
    History,
    Clock,
    Tables,
    /// The rule with this id.
    Rule(&'static str),
    /// Nothing left to do (or, asked about a rule the scenario does not
    /// have, nothing to judge).
    Done,
}

impl<'a> Grading<'a> {
    pub fn new(scenario: &'a Scenario, graph: &'a Graph, script: &'a Script) -> Self {
        Grading {
            scenario,
            graph,
            script,
            stage: Stage::Compile,
            only: None,
            results: Vec::new(),
            taken: 0,
            attempts: None,
        }
    }

    /// A check of the one rule `id`, on the same run.
    pub fn only(scenario: &'a Scenario, graph: &'a Graph, script: &'a Script, id: &str) -> Self {
        let mut grading = Grading::new(scenario, graph, script);
        grading.only = Some(
            scenario
                .rules()
                .iter()
                .position(|r| r.id == id)
                .unwrap_or(usize::MAX),
        );
        grading
    }

    /// The index in the rules of the next rule to judge.
    fn next_rule(&self) -> usize {
        self.only.unwrap_or(self.results.len())
    }

    /// Rules this check judges.
    fn to_judge(&self) -> usize {
        match self.only {
            Some(_) => 1,
            None => self.scenario.rule_count(),
        }
    }

    fn next(&mut self, stage: Stage<'a>) -> Stage<'a> {
        let scenario = self.scenario;
        match stage {
            Stage::Compile => {
                let compiled = match compile(self.graph) {
                    Ok(compiled) => compiled,
                    Err(problems) => return Stage::Done(Report::Structural(problems), None),
                };
                self.attempts = Some(
                    crate::engine::simulate::planned(self.script, compiled.pipeline.catch_up).len(),
                );
                match scenario.running().judges {
                    Judges::Daily(_) => Stage::Simulate(
                        compiled.pipeline,
                        // The judges read ids and replay silver from the
                        // writes: no snapshots, no comparison.
                        Simulation::new(
                            compiled.pipeline,
                            self.script,
                            Detail {
                                ids: true,
                                ..Detail::TABLES
                            },
                        ),
                    ),
                    Judges::Backfill { .. } if compiled.backfill.is_none() => {
                        Stage::Done(Report::Structural(vec![no_backfill()]), None)
                    }
                    Judges::Backfill { setting, .. } => Stage::Launch(setting(), compiled),
                }
            }
            Stage::Simulate(config, mut simulation) => {
                if !simulation.step() {
                    return Stage::Simulate(config, simulation);
                }
                let outcome = simulation.finish();
                self.judged(Judged::Daily(Daily { config, outcome }))
            }
            Stage::Launch(setting, compiled) => {
                match backfilled::launch(&setting, &compiled, self.script) {
                    Some(launched) => Stage::Clock(setting, launched),
                    None => Stage::Done(Report::Graded(Vec::new()), None),
                }
            }
            Stage::Clock(setting, launched) => Stage::Rebuild(setting, launched.clock()),
            Stage::Rebuild(setting, clocked) => {
                let done = clocked.rebuild(self.script);
                self.judged(Judged::Backfill(done, setting))
            }
            Stage::Judge(ran) => {
                let n = self.next_rule();
                let result = match (&ran, scenario.running().judges) {
                    (Judged::Daily(daily), Judges::Daily(judges)) => judges
                        .get(n)
                        .map(|j| (j.judge)(self.graph, self.script, daily)),
                    (Judged::Backfill(done, _), Judges::Backfill { judges, .. }) => judges
                        .get(n)
                        .map(|j| (j.judge)(self.graph, self.script, done)),
                    _ => None,
                };
                match result {
                    Some(result) => {
                        self.results.push(result);
                        self.judged(ran)
                    }
                    None => self.report(ran),
                }
            }
            done @ Stage::Done(..) => done,
        }
    }

    /// Judging `ran` next, or the report when every rule has been judged.
    fn judged(&mut self, ran: Judged) -> Stage<'a> {
        let judged = self.results.len() >= self.to_judge();
        if judged {
            self.report(ran)
        } else {
            Stage::Judge(ran)
        }
    }

    fn report(&mut self, ran: Judged) -> Stage<'a> {
        Stage::Done(Report::Graded(std::mem::take(&mut self.results)), Some(ran))
    }

    /// Steps a whole check takes when it runs to the end: the progress
    /// bar's length (a structural problem ends it sooner).
    pub fn steps(&self) -> usize {
        let run = match self.scenario.running().judges {
            // Each attempt (one step even with none to run).
            Judges::Daily(_) => self.attempts().max(1),
            Judges::Backfill { .. } => 3,
        };
        1 + run + self.to_judge()
    }

    /// Steps taken so far.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// The daily simulation's attempts: the compiled pipeline's once the
    /// design has compiled, the graph's until then.
    fn attempts(&self) -> usize {
        self.attempts
            .unwrap_or_else(|| attempts(self.script, self.graph))
    }

    /// What the next step does.
    pub fn doing(&self) -> Doing {
        match &self.stage {
            Stage::Compile => Doing::Compiling,
            Stage::Simulate(_, simulation) => Doing::Simulating {
                run: simulation
                    .attempts_run()
                    .saturating_add(1)
                    .min(self.attempts()),
                of: self.attempts(),
            },
            Stage::Launch(..) => Doing::History,
            Stage::Clock(..) => Doing::Clock,
            Stage::Rebuild(..) => Doing::Tables,
            Stage::Judge(_) => self
                .scenario
                .rule(self.next_rule())
                .map_or(Doing::Done, |r| Doing::Rule(r.id)),
            Stage::Done(..) => Doing::Done,
        }
    }

    /// The report (and a backfill's trace), once `step` has said it is
    /// ready; before that, whatever has been judged so far.
    pub fn finish(self) -> (Report, Option<BackfillTrace>) {
        let (report, judged) = self.finish_judged();
        let trace = match judged {
            Some(Judged::Backfill(done, setting)) => Some(BackfillTrace::of(done, &setting)),
            _ => None,
        };
        (report, trace)
    }

    /// The report and the run it judged (what the tutor explains), once
    /// `step` has said it is ready.
    pub fn finish_judged(self) -> (Report, Option<Judged>) {
        match self.stage {
            Stage::Done(report, judged) => (report, judged),
            _ => (Report::Graded(self.results), None),
        }
    }
}

/// A step is the design compiled, one scheduled run (or one part of the
/// backfill), or one rule; true once the report is ready.
impl Stepwise for Grading<'_> {
    fn step(&mut self) -> bool {
        if matches!(self.stage, Stage::Done(..)) {
            return true;
        }
        let stage = std::mem::replace(&mut self.stage, Stage::Compile);
        self.stage = self.next(stage);
        self.taken = self.taken.saturating_add(1);
        matches!(self.stage, Stage::Done(..))
    }
}

/// What a backfill scenario says of a design without a backfill job.
fn no_backfill() -> Problem {
    Problem {
        node: None,
        field: None,
        message: "This scenario is a backfill: add a backfill job and connect it to the transform it runs.".to_string(),
    }
}

/// The attempts a daily simulation of `script` makes for `graph` before
/// it has compiled (the progress bar's first length): each run the
/// scheduler starts (an outage skips some, a catch-up runs them later),
/// and a retry for each run that crashes.
fn attempts(script: &Script, graph: &Graph) -> usize {
    let catch_up = graph.nodes.values().any(|n| {
        matches!(
            n.config,
            crate::design::NodeConfig::State { catch_up: true, .. }
        )
    });
    crate::engine::simulate::planned(script, catch_up).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scenarios::SCENARIOS;

    /// The backfill scenarios have a launch; the daily ones do not.
    #[test]
    fn the_backfill_scenarios_launch_a_backfill() {
        for s in SCENARIOS {
            let backfill = s.is_backfill();
            assert_eq!(s.launch().is_some(), backfill, "{s:?}");
            assert_eq!(backfill, [4, 5].contains(&s.number), "{s:?}");
        }
    }

    /// Verdicts are the judges' own, and a failure always says why.
    #[test]
    fn every_failed_rule_carries_evidence() {
        use crate::design::graph::WriteChoice;
        use crate::engine::MergeKey;
        use crate::scenarios::sample::{failing, sample};
        for s in SCENARIOS {
            let mut designs = vec![
                sample(s, WriteChoice::Append),
                sample(s, WriteChoice::OverwritePartition),
                sample(
                    s,
                    WriteChoice::Merge {
                        key: Some(MergeKey::Key),
                    },
                ),
            ];
            designs.extend(failing(s).map(|(g, _, _)| g));
            let mut failures = 0;
            for graph in designs {
                if let Report::Graded(results) = grade(s, &graph) {
                    for r in results.iter().filter(|r| !r.passed) {
                        failures += 1;
                        assert!(
                            !r.evidence.is_empty(),
                            "scenario {} {}",
                            s.number,
                            r.rule.id
                        );
                    }
                }
            }
            assert!(
                failures > 0,
                "scenario {}: no failing design tried",
                s.number
            );
        }
    }

    /// Designs of every kind for `scenario`: the samples with each write,
    /// and the classic mistakes.
    fn designs(scenario: &Scenario) -> Vec<Graph> {
        use crate::design::graph::WriteChoice;
        use crate::engine::MergeKey;
        use crate::scenarios::sample::{failing, sample};
        let mut designs: Vec<Graph> = [
            WriteChoice::Append,
            WriteChoice::OverwritePartition,
            WriteChoice::Merge {
                key: Some(MergeKey::Key),
            },
        ]
        .into_iter()
        .map(|mode| sample(scenario, mode))
        .collect();
        designs.extend(failing(scenario).map(|(g, _, _)| g));
        designs
    }

    /// Taking a check a step at a time, on the grader's lighter simulation,
    /// reaches exactly the verdicts, evidence and picture of the run made
    /// in one go with snapshots; and the progress bar ends full.
    #[test]
    fn a_check_step_by_step_is_the_check_made_at_once() {
        for s in SCENARIOS {
            let script = s.script();
            for graph in designs(s) {
                let mut grading = Grading::new(s, &graph, script);
                let steps = grading.steps();
                let mut seen = Vec::new();
                while !grading.step() {
                    seen.push(grading.doing());
                    assert!(grading.taken() < steps, "scenario {}", s.number);
                }
                assert_eq!(grading.taken(), steps, "scenario {}: {seen:?}", s.number);
                let picture = |t: BackfillTrace| {
                    crate::labs::pool::from_timeline(&t.timeline, &t.scheduled, t.pool, t.launch)
                };
                let (report, trace) = grading.finish();
                let (whole, judged) = at_once(s, &graph, script);
                assert_eq!(
                    (report, trace.map(picture)),
                    (whole, judged.and_then(|j| j.trace()).map(picture)),
                    "scenario {}",
                    s.number
                );
            }
        }
    }

    /// The search's question about one rule gets the answer the whole
    /// report gives, in fewer steps.
    #[test]
    fn judging_one_rule_agrees_with_the_whole_report() {
        for s in SCENARIOS {
            let script = s.script();
            for graph in designs(s) {
                let Report::Graded(all) = grade_on(s, &graph, script) else {
                    continue;
                };
                for want in &all {
                    let mut one = Grading::only(s, &graph, script, want.rule.id);
                    while !one.step() {}
                    assert_eq!(one.taken(), one.steps());
                    assert_eq!(
                        one.taken() + s.rule_count(),
                        Grading::new(s, &graph, script).steps() + 1
                    );
                    assert_eq!(one.finish().0, Report::Graded(vec![want.clone()]));
                    assert_eq!(rule_fails(s, &graph, script, want.rule.id), !want.passed);
                }
            }
        }
    }

    /// The progress line walks forward: the design read, each scheduled
    /// run in turn (or the backfill's history, clock and tables), then
    /// each requirement in the rules' order.
    #[test]
    fn a_check_says_what_it_does_in_order() {
        use crate::design::graph::WriteChoice;
        use crate::scenarios::sample::sample;
        for s in SCENARIOS {
            let script = s.script();
            let graph = sample(s, WriteChoice::OverwritePartition);
            let mut grading = Grading::new(s, &graph, script);
            let mut seen = vec![grading.doing()];
            while !grading.step() {
                seen.push(grading.doing());
            }
            let mut want = vec![Doing::Compiling];
            match s.running().judges {
                Judges::Daily(_) => {
                    let of = attempts(script, &graph);
                    want.extend((1..=of).map(|run| Doing::Simulating { run, of }));
                }
                Judges::Backfill { .. } => {
                    want.extend([Doing::History, Doing::Clock, Doing::Tables])
                }
            }
            want.extend(s.rules().iter().map(|r| Doing::Rule(r.id)));
            assert_eq!(seen, want, "scenario {}", s.number);
        }
    }

    /// A script with no runs: the simulation is one step that finds
    /// nothing to run, the bar is as long as the steps taken, and a step
    /// after the end takes none.
    #[test]
    fn a_check_of_a_script_without_runs_still_ends_full() {
        use crate::design::graph::WriteChoice;
        use crate::scenarios::sample::sample;
        use crate::scenarios::stories::clicks::SCENARIO as CLICKS;
        let mut script = CLICKS.script().clone();
        script.runs.clear();
        let graph = sample(&CLICKS, WriteChoice::OverwritePartition);
        let mut grading = Grading::new(&CLICKS, &graph, &script);
        grading.run_to_end();
        assert_eq!(grading.taken(), 2 + CLICKS.rule_count());
        assert_eq!(grading.taken(), grading.steps());
        assert!(grading.step(), "finished");
        assert_eq!(
            grading.taken(),
            grading.steps(),
            "a step after the end takes none"
        );
    }

    /// A design that cannot run stops after reading it, with its problems:
    /// one that does not compile, and a backfill scenario's design without
    /// a backfill. An unknown rule has nothing to judge.
    #[test]
    fn a_structural_problem_ends_the_check_at_the_first_step() {
        use crate::design::graph::WriteChoice;
        use crate::scenarios::sample::sample;
        use crate::scenarios::stories::{clicks, currency};
        let (clicks, currency) = (&clicks::SCENARIO, &currency::SCENARIO);
        let script = currency.script();
        let daily = sample(clicks, WriteChoice::Append);
        let mut unconnected = sample(currency, WriteChoice::Append);
        unconnected.edges = Default::default();
        assert!(compile(&unconnected).is_err());
        for (scenario, graph) in [
            (currency, &daily),
            (currency, &unconnected),
            (clicks, &unconnected),
        ] {
            let mut grading = Grading::new(scenario, graph, script);
            assert!(grading.step(), "one step");
            assert_eq!(grading.doing(), Doing::Done);
            assert!(matches!(grading.finish().0, Report::Structural(p) if !p.is_empty()));
        }
        // No such rule: the run is made, nothing is judged, nothing fails.
        let graph = sample(currency, WriteChoice::OverwritePartition);
        let mut no_rule = Grading::only(currency, &graph, script, "R9");
        while !no_rule.step() {}
        assert_eq!(no_rule.taken(), no_rule.steps());
        assert_eq!(no_rule.finish().0, Report::Graded(Vec::new()));
        assert!(!rule_fails(currency, &graph, script, "R9"));
    }
}
