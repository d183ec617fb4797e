//! The grader: structural validation first, then the design run through
//! the engine on the scenario's script, then every rule.

use crate::design::{compile, Graph};
use crate::engine::script::Script;

use super::clicks;
use super::report::{Report, Rule};

/// Whether scenario `number` can be checked yet.
pub fn gradable(number: u8) -> bool {
    number == 1
}

/// The rules of scenario `number`.
pub fn rules(number: u8) -> &'static [Rule] {
    match number {
        1 => &clicks::RULES,
        _ => &[],
    }
}

/// The scenario's event script, faults included.
pub fn script(number: u8) -> Option<Script> {
    match number {
        1 => Some(clicks::script()),
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
