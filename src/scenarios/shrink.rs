//! The smallest counterexample: delta debugging (Zeller's ddmin) over the
//! scenario's events and faults while the failed rule still fails. The
//! scheduled runs stay, so the case is one a correct design survives; the
//! work is bounded by a count of simulations.

use crate::design::Graph;
use crate::engine::calendar::Instant;
use crate::engine::script::{RunKind, RunSpec, Script};

use super::grade::{grade_on, launch, setting};
use super::report::{capital, run_name, Report};

/// One removable piece of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Event(usize),
    /// The crash of run `i` (the run stays, without crashing).
    Crash(usize),
    /// A manual re-run, run `i` of the script.
    Manual(usize),
    /// A scheduled run beside a backfill (tonight's run, a nightly run),
    /// run `i` of the script: a fault for the backfill it competes with.
    Beside(usize),
    /// Interruption `i` of the backfill.
    Interruption(usize),
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
    /// The backfill's launch, for scenarios that have one.
    pub launch: Option<Instant>,
}

impl Shrunk {
    /// Crashes plus manual re-runs left.
    pub fn faults(&self) -> usize {
        faults(&self.script, self.launch)
    }
}

fn faults(script: &Script, launch: Option<Instant>) -> usize {
    pieces(script, launch)
        .iter()
        .filter(|p| !matches!(p, Piece::Event(_)))
        .count()
}

/// The runs at or after a backfill's launch compete with it: they are
/// faults of the scenario, not the schedule a design must survive.
fn beside(launch: Option<Instant>, run: &RunSpec) -> bool {
    launch.is_some_and(|l| run.at >= l)
}

fn pieces(script: &Script, launch: Option<Instant>) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = (0..script.events.len()).map(Piece::Event).collect();
    for (i, run) in script.runs.iter().enumerate() {
        if run.crash_then_retry_at.is_some() {
            pieces.push(Piece::Crash(i));
        }
        if run.kind == RunKind::Manual {
            pieces.push(Piece::Manual(i));
        } else if beside(launch, run) {
            pieces.push(Piece::Beside(i));
        }
    }
    pieces.extend((0..script.interruptions.len()).map(Piece::Interruption));
    pieces
}

/// `script` keeping only `kept` of its pieces.
fn rebuild(script: &Script, kept: &[Piece], launch: Option<Instant>) -> Script {
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
        .filter(|(i, run)| match run.kind {
            RunKind::Manual => keeps(Piece::Manual(*i)),
            _ if beside(launch, run) => keeps(Piece::Beside(*i)),
            _ => true,
        })
        .map(|(i, run)| {
            let mut run = run.clone();
            if !keeps(Piece::Crash(i)) {
                run.crash_then_retry_at = None;
            }
            run
        })
        .collect();
    next.interruptions = script
        .interruptions
        .iter()
        .enumerate()
        .filter(|(i, _)| keeps(Piece::Interruption(*i)))
        .map(|(_, cut)| *cut)
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
    let launch = launch(number);
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
    let mut current = pieces(script, launch);
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
            if fails(&rebuild(script, subset, launch)) {
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
            if fails(&rebuild(script, &complement, launch)) {
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
        script: rebuild(script, &current, launch),
        simulations: simulations.get(),
        minimal,
        original_events: script.events.len(),
        original_faults: faults(script, launch),
        launch,
    })
}

/// One line per run that read, wrote, crashed or was a fault: what it read
/// and what silver held afterwards. For a backfill scenario, one line per
/// moment of the backfill instead.
pub fn replay(number: u8, graph: &Graph, script: &Script) -> Vec<String> {
    let Ok(compiled) = crate::design::compile(graph) else {
        return Vec::new();
    };
    if let Some(setting) = setting(number) {
        return super::backfilled::run(&setting, &compiled, script)
            .map(|done| super::backfilled::replay(&done, script))
            .unwrap_or_default();
    }
    let outcome = crate::engine::simulate(&compiled.pipeline, script);
    outcome
        .runs
        .iter()
        .filter(|r| {
            r.rows_read > 0
                || !r.writes.is_empty()
                || r.crashed
                || r.kind != crate::engine::script::RunKind::Scheduled
        })
        .map(|run| {
            let read: Vec<String> = run.read_ids.iter().map(|id| id.to_string()).collect();
            let after = run
                .snapshot
                .as_ref()
                .map(|s| {
                    let rows: Vec<String> = s
                        .silver
                        .rows()
                        .map(|r| format!("{} in {}", r.id, r.dt))
                        .collect();
                    if rows.is_empty() {
                        "silver is empty".to_string()
                    } else {
                        format!("silver holds {}", rows.join(", "))
                    }
                })
                .unwrap_or_default();
            format!(
                "{}: read {}{}; {}.",
                capital(&run_name(run)),
                if read.is_empty() {
                    "nothing".to_string()
                } else {
                    read.join(", ")
                },
                if run.crashed {
                    ", then crashed before saving its state"
                } else {
                    ""
                },
                after
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::graph::{StateChoice, WriteChoice};
    use crate::design::{Edit, History, NodeConfig, NodeId, NodeKind};
    use crate::engine::ListDate;

    #[test]
    fn the_smallest_case_replays_the_second_copy_run_by_run() {
        let mut h = History::new(Graph::with_source("bronze.clicks"));
        let mut add = |config: NodeConfig| {
            h.edit(&Edit::Add { config, x: 0, y: 0 }).expect("add");
            NodeId(h.current.next_id - 1)
        };
        let s = add(NodeConfig::State {
            state: StateChoice::PartitionList {
                lookback: 1,
                over: ListDate::EventDate,
            },
            commit: Default::default(),
        });
        let t = add(NodeConfig::default_for(NodeKind::Transform));
        let w = add(NodeConfig::Write {
            table: "silver.clicks".into(),
            mode: WriteChoice::Append,
        });
        for (from, to) in [(NodeId(0), s), (s, t), (t, w)] {
            h.edit(&Edit::Connect { from, to }).expect("connect");
        }
        let script = super::super::grade::script(1).expect("script");
        let shrunk = shrink(1, &h.current, &script, "R2", 400).expect("append fails R2");
        let lines = replay(1, &h.current, &shrunk.script);
        assert!(!lines.is_empty() && lines.len() <= 4, "{lines:?}");
        let id = shrunk.script.events[0].id.to_string();
        assert!(
            lines
                .iter()
                .any(|l| l.contains(&format!("{id} in"))
                    && l.matches(&format!("{id} in")).count() >= 2),
            "a line shows the second copy: {lines:?}"
        );
    }
}
