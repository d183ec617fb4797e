//! The grader, the tutor, the smallest-case search and the report's views,
//! reached only through `grader()`: a chunk of the scenarios part's wasm of
//! its own (`ui::later`), so a scenario's canvas answers before the grader
//! has downloaded.

use leptos::prelude::AnyView;

use crate::design::Graph;
use crate::engine::calendar::Day;
use crate::engine::drift::DriftRow;
use crate::engine::stepwise::Stepwise;
use crate::engine::Script;
use crate::labs::pool::PoolPicture;
use crate::scenarios::catalogue::Known;
use crate::scenarios::grading::grade::{fails_in, Doing, Grading, Judged};
use crate::scenarios::grading::panel::SmallestView;
use crate::scenarios::grading::report::Report;
use crate::scenarios::grading::shrink::{Search, Shrunk};
use crate::scenarios::Scenario;
use crate::tutor::{self, debrief, Diagnosis};
use crate::ui::later::{Later, Unfetched};
use crate::variant::Variant;

use super::report::Shown;

/// Each failed rule's id and cause, where the tutor sees one.
pub type Causes = Vec<(&'static str, Option<Diagnosis>)>;
/// Each rule's id and why it held.
pub type Held = Vec<(&'static str, String)>;

/// What the tutor makes of a finished check: each failed rule's cause,
/// and after a pass why each rule held.
pub type Explained =
    fn(&'static Scenario, &Script, &Graph, &Report, Option<&Judged>) -> (Causes, Held);

/// A design's run through its scenario's days, a step at a time.
pub trait CheckRun: Stepwise {
    fn taken(&self) -> usize;
    fn steps(&self) -> usize;
    fn doing(&self) -> Doing;
    fn finish_judged(self: Box<Self>) -> (Report, Option<Judged>);
}

impl CheckRun for Grading<'_> {
    fn taken(&self) -> usize {
        Grading::taken(self)
    }
    fn steps(&self) -> usize {
        Grading::steps(self)
    }
    fn doing(&self) -> Doing {
        Grading::doing(self)
    }
    fn finish_judged(self: Box<Self>) -> (Report, Option<Judged>) {
        Grading::finish_judged(*self)
    }
}

/// The smallest-case search: asks for candidates, is told each verdict.
pub trait SearchRun {
    fn ask(&mut self) -> Option<Script>;
    fn answer(&mut self, fails: bool);
    fn tried(&self) -> usize;
    fn budget(&self) -> usize;
    fn result(&self) -> Option<Shrunk>;
}

impl SearchRun for Search {
    fn ask(&mut self) -> Option<Script> {
        Search::ask(self)
    }
    fn answer(&mut self, fails: bool) {
        Search::answer(self, fails)
    }
    fn tried(&self) -> usize {
        Search::tried(self)
    }
    fn budget(&self) -> usize {
        Search::budget(self)
    }
    fn result(&self) -> Option<Shrunk> {
        Search::result(self)
    }
}

/// What the check panel asks of the grader and the tutor.
pub struct Grader {
    /// Every rule of the scenario over `graph`'s run of `script`.
    pub check: for<'a> fn(&'static Scenario, &'a Graph, &'a Script) -> Box<dyn CheckRun + 'a>,
    /// Only the rule `id`, and whether it fails (a smallest-case candidate).
    pub fails: for<'a> fn(&'static Scenario, &'a Graph, &'a Script, &'a str) -> Box<dyn Fails + 'a>,
    /// Each failed rule's cause, and after a pass why each rule held.
    pub explained: Explained,
    pub search: fn(&'static Scenario, Graph, Script, &str, usize) -> Box<dyn SearchRun>,
    pub smallest: fn(&Scenario, &Shrunk, &Graph, &str) -> SmallestView,
    /// Another passing design, built differently from the student's.
    pub other_design: fn(&Scenario, Variant, &Graph) -> Option<Known>,
    /// What the other design cost beside the student's.
    pub compare: fn(&Known, &Judged, &Judged) -> Option<String>,
    /// The source pool over a judged backfill's run, where it has one.
    pub picture: fn(&Judged) -> Option<PoolPicture>,
    /// A finished check's report drawn: its views are in this chunk too.
    pub report: fn(Shown) -> AnyView,
    /// Scenario 4's drift query over `script`'s silver from a day on: it
    /// runs the week, so it comes with the grader's engine.
    pub drift: fn(&Script, Day) -> Vec<DriftRow>,
    /// Makes the script a check or the drift query runs
    /// (`Designer::script`).
    pub make_script: super::ScriptMaker,
}

/// One rule's run over a smallest-case candidate.
pub trait Fails: Stepwise {
    fn fails(self: Box<Self>) -> bool;
}

struct OnlyRule<'a> {
    grading: Grading<'a>,
    rule: &'a str,
}

impl Stepwise for OnlyRule<'_> {
    fn step(&mut self) -> bool {
        self.grading.step()
    }
}

impl Fails for OnlyRule<'_> {
    fn fails(self: Box<Self>) -> bool {
        fails_in(&self.grading.finish().0, self.rule)
    }
}

fn explained(
    scenario: &'static Scenario,
    script: &Script,
    graph: &Graph,
    report: &Report,
    judged: Option<&Judged>,
) -> (Causes, Held) {
    let Some(judged) = judged else {
        return (Vec::new(), Vec::new());
    };
    let case = tutor::Case {
        scenario,
        graph,
        script,
        judged,
    };
    (
        tutor::diagnoses(&case, report),
        debrief::held(&case, report),
    )
}

/// The grader itself. Only the scenarios part's own `#[lazy]` loader
/// names it (src/bin/partition-lab-scenarios.rs): named here, in the
/// library, it would be in the main module of every part.
pub static GRADER: Grader = Grader {
    check: |scenario, graph, script| Box::new(Grading::new(scenario, graph, script)),
    fails: |scenario, graph, script, rule| {
        Box::new(OnlyRule {
            grading: Grading::only(scenario, graph, script, rule),
            rule,
        })
    },
    explained,
    search: |scenario, graph, script, rule, budget| {
        Box::new(Search::new(scenario, graph, script, rule, budget))
    },
    smallest: SmallestView::of,
    other_design: debrief::other_design_in,
    compare: debrief::compare,
    picture: super::report::picture,
    report: super::report::shown,
    drift: crate::scenarios::stories::currency::drift_query_from,
    make_script: |scenario, variant| scenario.script_in(variant).into_owned(),
};

/// The grader, in the scenarios part a chunk of its own.
pub static LATER: Later<Grader> = Later::new();

/// The grader, fetched on first use.
pub async fn grader() -> Result<&'static Grader, Unfetched> {
    LATER.get().await
}

/// What the check says when the grader could not be fetched.
pub const NOT_FETCHED: &str =
    "The grader could not be fetched: check the connection, then check your design again.";
