//! The grader: structural validation first, then the design run through
//! the engine on the scenario's script, then every rule.

use crate::design::{compile, Graph};
use crate::engine::script::Script;

use super::report::{Report, Rule};
use super::{clicks, mobile, orders};

/// Whether scenario `number` can be checked yet.
pub fn gradable(number: u8) -> bool {
    matches!(number, 1..=3)
}

/// The rules of scenario `number`.
pub fn rules(number: u8) -> &'static [Rule] {
    match number {
        1 => &clicks::RULES,
        2 => &orders::RULES,
        3 => &mobile::RULES,
        _ => &[],
    }
}

/// The scenario's event script, faults included.
pub fn script(number: u8) -> Option<Script> {
    match number {
        1 => Some(clicks::script()),
        2 => Some(orders::script()),
        3 => Some(mobile::script()),
        _ => None,
    }
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
