//! The grader: structural validation first, then the design run through
//! the engine on the scenario's script, then every rule.

use crate::design::{compile, Graph, Problem};
use crate::engine::calendar::Instant;
use crate::engine::script::Script;
use crate::engine::PipelineConfig;

use super::backfilled::{Backfilled, Setting};
use super::report::{Report, Rule, RuleResult};
use super::{clicks, currency, history, mobile, orders};
use crate::labs::pool::{from_timeline, PoolPicture};

/// How a scenario judges a design.
#[derive(Clone, Copy)]
pub enum Judge {
    /// Daily runs only: the rules read a simulation of the compiled pipeline.
    Daily(fn(&Graph, &PipelineConfig, &Script) -> Vec<RuleResult>),
    /// A backfill beside the daily runs: the rules read the whole compiled
    /// design run in its setting (launch, pool, faults).
    Backfill {
        judge: fn(&Graph, &Backfilled, &Script) -> Vec<RuleResult>,
        setting: fn() -> Setting,
    },
}

/// Everything the grader knows about one scenario.
#[derive(Clone, Copy)]
pub struct Scenario {
    pub number: u8,
    pub rules: &'static [Rule],
    /// Its event script, faults included.
    pub script: fn() -> Script,
    pub judge: Judge,
}

/// The five scenarios, in order: the one place a new one is added.
pub const SCENARIOS: [Scenario; 5] = [
    Scenario {
        number: 1,
        rules: &clicks::RULES,
        script: clicks::script,
        judge: Judge::Daily(clicks::judge),
    },
    Scenario {
        number: 2,
        rules: &orders::RULES,
        script: orders::script,
        judge: Judge::Daily(orders::judge),
    },
    Scenario {
        number: 3,
        rules: &mobile::RULES,
        script: mobile::script,
        judge: Judge::Daily(mobile::judge),
    },
    Scenario {
        number: 4,
        rules: &currency::RULES,
        script: currency::script,
        judge: Judge::Backfill {
            judge: currency::judge,
            setting: currency::setting,
        },
    },
    Scenario {
        number: 5,
        rules: &history::RULES,
        script: history::script,
        judge: Judge::Backfill {
            judge: history::judge,
            setting: history::setting,
        },
    },
];

pub fn scenario(number: u8) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.number == number)
}

/// Whether scenario `number` can be checked.
pub fn gradable(number: u8) -> bool {
    scenario(number).is_some()
}

/// The rules of scenario `number`.
pub fn rules(number: u8) -> &'static [Rule] {
    scenario(number).map_or(&[], |s| s.rules)
}

/// The scenario's event script, faults included.
pub fn script(number: u8) -> Option<Script> {
    scenario(number).map(|s| (s.script)())
}

/// The backfill setting of scenario `number`, if it has one.
pub fn setting(number: u8) -> Option<Setting> {
    match scenario(number)?.judge {
        Judge::Backfill { setting, .. } => Some(setting()),
        Judge::Daily(_) => None,
    }
}

/// When scenario `number`'s backfill is launched, if it has one.
pub fn launch(number: u8) -> Option<Instant> {
    setting(number).map(|s| s.launch)
}

/// Grades `graph` for scenario `number` on `script` (the scenario's own,
/// or a smaller one while shrinking).
pub fn grade_on(number: u8, graph: &Graph, script: &Script) -> Report {
    graded(number, graph, script).0
}

/// The report, and for a backfill scenario (4 and 5) the source pool over
/// the same run the rules judged: what the check panel draws beside them.
pub fn graded(number: u8, graph: &Graph, script: &Script) -> (Report, Option<PoolPicture>) {
    let Some(scenario) = scenario(number) else {
        return (Report::Graded(Vec::new()), None);
    };
    let compiled = match compile(graph) {
        Ok(compiled) => compiled,
        Err(problems) => return (Report::Structural(problems), None),
    };
    match scenario.judge {
        Judge::Daily(judge) => (Report::Graded(judge(graph, &compiled.pipeline, script)), None),
        Judge::Backfill { .. } if compiled.backfill.is_none() => (
            Report::Structural(vec![Problem {
                node: None,
                message: "This scenario is a backfill: add a backfill job and connect it to the transform it runs.".to_string(),
            }]),
            None,
        ),
        Judge::Backfill { judge, setting } => {
            let setting = setting();
            let Some(done) = super::backfilled::run(&setting, &compiled, script) else {
                return (Report::Graded(Vec::new()), None);
            };
            let picture = from_timeline(&done.timeline, &done.scheduled, setting.pool, setting.launch);
            (Report::Graded(judge(graph, &done, script)), Some(picture))
        }
    }
}

/// Grades `graph` for scenario `number` on the scenario's script.
pub fn grade(number: u8, graph: &Graph) -> Report {
    match script(number) {
        Some(script) => grade_on(number, graph, &script),
        None => Report::Graded(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry is consistent with the catalogue the pages list.
    #[test]
    fn every_listed_scenario_is_registered_once_with_rules() {
        for (i, s) in SCENARIOS.iter().enumerate() {
            assert_eq!(usize::from(s.number), i + 1);
            assert!(!s.rules.is_empty());
            assert!(super::super::catalog::find(&s.number.to_string()).is_some());
        }
        assert!(scenario(0).is_none() && scenario(6).is_none());
        assert!(gradable(5) && !gradable(6));
        assert!(launch(4).is_some());
        assert!(launch(3).is_none());
    }

    /// Verdicts are the judges' own, and a failure always says why.
    #[test]
    fn every_failed_rule_carries_evidence() {
        use crate::design::graph::WriteChoice;
        use crate::engine::MergeKey;
        use crate::scenarios::sample::{failing, sample};
        for s in &SCENARIOS {
            let mut designs = vec![
                sample(s.number, WriteChoice::Append),
                sample(s.number, WriteChoice::OverwritePartition),
                sample(
                    s.number,
                    WriteChoice::Merge {
                        key: Some(MergeKey::Key),
                    },
                ),
            ];
            designs.extend(failing(s.number).map(|(g, _, _)| g));
            let mut failures = 0;
            for graph in designs {
                if let Report::Graded(results) = grade(s.number, &graph) {
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
}
