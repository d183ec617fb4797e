//! What a scenario runs and is judged with, found from the scenario: the
//! one place that knows each story's `Running` (a seventh scenario adds an
//! arm to `running`). Above the stories, so they and `scenario` need not
//! know it.

use std::borrow::Cow;

use crate::design::Graph;
use crate::engine::calendar::Instant;
use crate::engine::script::Script;
use crate::variant::Variant;

use super::grading::backfilled::Setting;
use super::scenario::{Judges, Running, Scenario};
use super::stories::{clicks, currency, history, mobile, orders, outage};

/// What runs and judges scenario `number`. Found by number, not held by
/// the `Scenario`: a page's first screen reads the scenarios, and this way
/// its code reaches no script maker and no judge.
fn running(number: u8) -> &'static Running {
    match number {
        1 => &clicks::RUNNING,
        2 => &orders::RUNNING,
        3 => &mobile::RUNNING,
        4 => &currency::RUNNING,
        5 => &history::RUNNING,
        // Only the six scenario modules make a `Scenario`, numbered 1 to
        // 6 (a test holds every scenario to its own `Running`).
        _ => &outage::RUNNING,
    }
}

impl Scenario {
    /// What runs and judges it. Only the grader, the exporters and the
    /// class page's marking call this (and the methods below that do), so
    /// a page's first screen and its canvas reach none of it.
    pub fn running(&self) -> &'static Running {
        running(self.number)
    }

    /// Its event script, faults included: made on first use, then kept
    /// (a check, a link's replay and an export all read the same one).
    pub fn script(&self) -> &'static Script {
        let running = self.running();
        running.made.get_or_init(running.make)
    }

    /// The script of `variant`: the kept one for the chapter's data (and
    /// for a scenario no variant moves), else made anew.
    pub fn script_in(&self, variant: Variant) -> Cow<'static, Script> {
        match self.running().remake {
            Some(remake) if !variant.is_chapter() => Cow::Owned((remake.script)(variant)),
            _ => Cow::Borrowed(self.script()),
        }
    }

    /// A design made for the chapter's numbers, made for `variant`'s.
    pub fn design_in(&self, graph: &Graph, variant: Variant) -> Graph {
        match self.running().remake {
            Some(remake) if !variant.is_chapter() => (remake.design)(graph, variant),
            _ => graph.clone(),
        }
    }

    /// Whether a backfill is its design's run (scenarios 4 and 5).
    pub fn is_backfill(&self) -> bool {
        matches!(self.running().judges, Judges::Backfill { .. })
    }

    /// The backfill setting, for a backfill scenario.
    pub fn setting(&self) -> Option<Setting> {
        match self.running().judges {
            Judges::Backfill { setting, .. } => Some(setting()),
            Judges::Daily(_) => None,
        }
    }

    /// When its backfill is launched, for a backfill scenario.
    pub fn launch(&self) -> Option<Instant> {
        self.setting().map(|s| s.launch)
    }
}
