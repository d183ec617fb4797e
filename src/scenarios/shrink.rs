//! The smallest counterexample: delta debugging (Zeller's ddmin) over the
//! scenario's events and faults while the failed rule still fails. The
//! scheduled runs stay, so the case is one a correct design survives; the
//! work is bounded by a count of simulations.

use crate::design::Graph;
use crate::engine::script::{RunKind, Script};

use super::grade::grade_on;
use super::report::Report;

/// One removable piece of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Event(usize),
    /// The crash of run `i` (the run stays, without crashing).
    Crash(usize),
    /// A manual re-run, run `i` of the script.
    Manual(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    pub script: Script,
    /// Simulations spent.
    pub simulations: usize,
    /// True when no single piece can be removed any more (1-minimal);
    /// false when the budget ran out first and the case is only smaller.
    pub minimal: bool,
    pub original_events: usize,
    pub original_faults: usize,
}

impl Shrunk {
    /// Crashes plus manual re-runs left.
    pub fn faults(&self) -> usize {
        faults(&self.script)
    }
}

fn faults(script: &Script) -> usize {
    script
        .runs
        .iter()
        .filter(|r| r.kind == RunKind::Manual || r.crash_then_retry_at.is_some())
        .count()
}

fn pieces(script: &Script) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = (0..script.events.len()).map(Piece::Event).collect();
    for (i, run) in script.runs.iter().enumerate() {
        if run.crash_then_retry_at.is_some() {
            pieces.push(Piece::Crash(i));
        }
        if run.kind == RunKind::Manual {
            pieces.push(Piece::Manual(i));
        }
    }
    pieces
}

/// `script` keeping only `kept` of its pieces.
fn rebuild(script: &Script, kept: &[Piece]) -> Script {
    let mut next = script.clone();
    next.events = kept
        .iter()
        .filter_map(|p| match p {
            Piece::Event(i) => script.events.get(*i).cloned(),
            _ => None,
        })
        .collect();
    let keeps = |piece: Piece| kept.contains(&piece);
    next.runs = script
        .runs
        .iter()
        .enumerate()
        .filter(|(i, run)| run.kind != RunKind::Manual || keeps(Piece::Manual(*i)))
        .map(|(i, run)| {
            let mut run = run.clone();
            if !keeps(Piece::Crash(i)) {
                run.crash_then_retry_at = None;
            }
            run
        })
        .collect();
    next
}

/// Shrinks `script` while rule `rule` still fails for `graph`, spending at
/// most `budget` simulations. `None` if the rule does not fail to begin with.
pub fn shrink(
    number: u8,
    graph: &Graph,
    script: &Script,
    rule: &str,
    budget: usize,
) -> Option<Shrunk> {
    let simulations = std::cell::Cell::new(0usize);
    let fails = |candidate: &Script| {
        simulations.set(simulations.get() + 1);
        match grade_on(number, graph, candidate) {
            Report::Graded(rules) => rules.iter().any(|r| r.rule.id == rule && !r.passed),
            Report::Structural(_) => false,
        }
    };
    if !fails(script) {
        return None;
    }
    let mut current = pieces(script);
    let mut n = 2usize;
    let mut minimal = false;
    'outer: while current.len() >= 2 {
        let chunk = current.len().div_ceil(n);
        let chunks: Vec<Vec<Piece>> = current.chunks(chunk).map(<[Piece]>::to_vec).collect();
        // A chunk alone, then everything but a chunk.
        for subset in &chunks {
            if simulations.get() >= budget {
                break 'outer;
            }
            if fails(&rebuild(script, subset)) {
                current = subset.clone();
                n = 2;
                continue 'outer;
            }
        }
        for i in 0..chunks.len() {
            if simulations.get() >= budget {
                break 'outer;
            }
            let complement: Vec<Piece> = chunks
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .flat_map(|(_, c)| c.iter().copied())
                .collect();
            if fails(&rebuild(script, &complement)) {
                current = complement;
                n = (n - 1).max(2);
                continue 'outer;
            }
        }
        if n >= current.len() {
            minimal = true;
            break;
        }
        n = (n * 2).min(current.len());
    }
    if current.len() < 2 && simulations.get() < budget {
        minimal = true;
    }
    Some(Shrunk {
        script: rebuild(script, &current),
        simulations: simulations.get(),
        minimal,
        original_events: script.events.len(),
        original_faults: faults(script),
    })
}
