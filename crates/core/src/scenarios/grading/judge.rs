//! What a scenario's judges read: the run the grader made. The scenario
//! modules write their judges against these types (`scenario::Judge`
//! names each one's rule) and the grader calls them; neither needs the
//! other's module.

use crate::design::Graph;
use crate::engine::script::Script;
use crate::engine::{Outcome, PipelineConfig};

use crate::scenarios::grading::backfilled::Backfilled;
use crate::scenarios::grading::report::RuleResult;

/// What a daily scenario's rules read: the compiled pipeline and one
/// simulation of it on the script.
pub struct Daily {
    pub config: PipelineConfig,
    pub outcome: Outcome,
}

/// One rule of a daily scenario, judged on its one simulation.
pub type DailyRule = fn(&Graph, &Script, &Daily) -> RuleResult;
/// One rule of a backfill scenario, judged on the design's backfill run in
/// the scenario's setting (launch, pool, faults).
pub type BackfillRule = fn(&Graph, &Script, &Backfilled) -> RuleResult;
