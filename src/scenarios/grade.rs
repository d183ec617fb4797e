//! The grader: structural validation first, then the design run through
//! the engine on the scenario's script, then every rule.

use crate::design::{compile, Graph, Problem};
use crate::engine::calendar::Instant;
use crate::engine::script::Script;

use super::backfilled::Setting;
use super::report::{Report, Rule};
use super::{clicks, currency, history, mobile, orders};

/// Whether scenario `number` can be checked yet.
pub fn gradable(number: u8) -> bool {
    matches!(number, 1..=5)
}

/// The rules of scenario `number`.
pub fn rules(number: u8) -> &'static [Rule] {
    match number {
        1 => &clicks::RULES,
        2 => &orders::RULES,
        3 => &mobile::RULES,
        4 => &currency::RULES,
        5 => &history::RULES,
        _ => &[],
    }
}

/// The scenario's event script, faults included.
pub fn script(number: u8) -> Option<Script> {
    match number {
        1 => Some(clicks::script()),
        2 => Some(orders::script()),
        3 => Some(mobile::script()),
        4 => Some(currency::script()),
        5 => Some(history::script()),
        _ => None,
    }
}

/// The backfill setting of scenario `number`, if it has one.
pub fn setting(number: u8) -> Option<Setting> {
    match number {
        4 => Some(currency::setting()),
        5 => Some(history::setting()),
        _ => None,
    }
}

/// When scenario `number`'s backfill is launched, if it has one.
pub fn launch(number: u8) -> Option<Instant> {
    setting(number).map(|s| s.launch)
}

/// Grades `graph` for scenario `number` on `script` (the scenario's own,
/// or a smaller one while shrinking).
pub fn grade_on(number: u8, graph: &Graph, script: &Script) -> Report {
    let compiled = match compile(graph) {
        Ok(compiled) => compiled,
        Err(problems) => return Report::Structural(problems),
    };
    match number {
        1 => Report::Graded(clicks::judge(graph, &compiled.pipeline, script)),
        2 => Report::Graded(orders::judge(graph, &compiled.pipeline, script)),
        3 => Report::Graded(mobile::judge(graph, &compiled.pipeline, script)),
        4 | 5 if compiled.backfill.is_none() => Report::Structural(vec![Problem {
            node: None,
            message: "This scenario is a backfill: add a backfill job and connect it to the transform it runs.".to_string(),
        }]),
        4 => Report::Graded(currency::judge(graph, &compiled, script)),
        5 => Report::Graded(history::judge(graph, &compiled, script)),
        _ => Report::Graded(Vec::new()),
    }
}

/// Grades `graph` for scenario `number` on the scenario's script.
pub fn grade(number: u8, graph: &Graph) -> Report {
    match script(number) {
        Some(script) => grade_on(number, graph, &script),
        None => Report::Graded(Vec::new()),
    }
}
