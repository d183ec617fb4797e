//! How a scenario judges a design: one judge per rule over the run the
//! grader made. The scenario modules write their judges against these
//! types and the grader calls them; neither needs the other's module.

use crate::design::Graph;
use crate::engine::script::Script;
use crate::engine::{Outcome, PipelineConfig};

use super::backfilled::{Backfilled, Setting};
use super::report::RuleResult;

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

/// How a scenario judges a design: one judge per rule, in the rules' order.
#[derive(Clone, Copy)]
pub enum Judge {
    /// Daily runs only.
    Daily(&'static [DailyRule]),
    /// A backfill beside the daily runs.
    Backfill {
        rules: &'static [BackfillRule],
        setting: fn() -> Setting,
    },
}

impl Judge {
    pub(super) fn len(&self) -> usize {
        match self {
            Judge::Daily(rules) => rules.len(),
            Judge::Backfill { rules, .. } => rules.len(),
        }
    }
}
