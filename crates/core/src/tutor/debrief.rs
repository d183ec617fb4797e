//! A pass as a debrief: why each rule held in this design (`held`), one
//! passing design of the lab's that is built differently, with what it
//! costs beside this one (computed by running it), and the way on.

use crate::counted::{counted, grouped};
use crate::design::graph::NodeConfig;
use crate::design::words::{StateKind, WriteKind};
use crate::design::Graph;
use crate::engine::calendar::{weekday_day_month_time, Instant};
use crate::engine::clock::StepKind;
use crate::scenarios::catalogue::{passing, Known};
use crate::scenarios::grade::Judged;
use crate::scenarios::report::Report;
use crate::scenarios::{Scenario, SCENARIOS};

use super::Case;

/// Why each rule of a passed `report` held, by rule id.
pub fn held(case: &Case, report: &Report) -> Vec<(&'static str, String)> {
    match report {
        Report::Graded(rules) if report.passed() => rules
            .iter()
            .filter_map(|r| super::held::why(case, r.rule.id).map(|why| (r.rule.id, why)))
            .collect(),
        _ => Vec::new(),
    }
}

/// What shapes a design: its state and write kinds, or its backfill's
/// shape, width, yielding and write.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    state: Option<StateKind>,
    write: Option<WriteKind>,
    backfill: Option<(crate::design::graph::BackfillShape, u32, bool)>,
}

fn shape(graph: &Graph) -> Shape {
    let mut shape = Shape {
        state: None,
        write: None,
        backfill: None,
    };
    for node in graph.nodes.values() {
        match &node.config {
            NodeConfig::State { state, .. } => shape.state = Some(state.kind()),
            NodeConfig::Write { mode, .. } => shape.write = Some(mode.kind()),
            NodeConfig::Backfill {
                shape: s,
                max_concurrency,
                yield_to_scheduled,
                ..
            } => shape.backfill = Some((*s, *max_concurrency, *yield_to_scheduled)),
            _ => {}
        }
    }
    shape
}

/// Whether two designs are built differently: another state or write
/// kind for a daily design (a list and a watermark; an overwrite and a
/// merge), another shape, width or yielding for a backfill.
fn differs(a: &Shape, b: &Shape) -> bool {
    match (a.backfill, b.backfill) {
        (Some(x), Some(y)) => x != y || a.write != b.write,
        _ => a.state != b.state || a.write != b.write,
    }
}

/// A passing design of the lab's for `scenario` built differently from
/// `graph`, preferring one that differs in both state and write.
pub fn other_design(scenario: &Scenario, graph: &Graph) -> Option<Known> {
    let mine = shape(graph);
    let candidates: Vec<Known> = passing(scenario)
        .into_iter()
        .filter(|k| differs(&shape(&k.graph), &mine))
        .collect();
    let both = candidates.iter().position(|k| {
        let theirs = shape(&k.graph);
        theirs.state != mine.state && theirs.write != mine.write
    });
    let at = both.unwrap_or(0);
    candidates.into_iter().nth(at)
}

/// What a daily run cost: rows read, partitions written, runs.
struct DailyCost {
    read: usize,
    written: usize,
    runs: usize,
}

/// What a backfill cost: when it finished, the most connections it held
/// at once, and connection-minutes in all.
struct BackfillCost {
    finished: Option<Instant>,
    most: usize,
    minutes: i64,
}

fn daily_cost(judged: &Judged) -> Option<DailyCost> {
    let Judged::Daily(daily) = judged else {
        return None;
    };
    let runs = &daily.outcome.runs;
    Some(DailyCost {
        read: runs.iter().map(|r| r.rows_read).sum(),
        written: runs.iter().map(|r| r.writes.len()).sum(),
        runs: runs.len(),
    })
}

fn backfill_cost(judged: &Judged) -> Option<BackfillCost> {
    let Judged::Backfill(done, _) = judged else {
        return None;
    };
    let steps: Vec<_> = done
        .timeline
        .done
        .iter()
        .chain(&done.timeline.cancelled)
        .filter(|s| s.kind != StepKind::Marker)
        .collect();
    let most = steps
        .iter()
        .map(|s| {
            steps
                .iter()
                .filter(|o| o.start <= s.start && s.start < o.end)
                .map(|o| (o.slot, o.attempt))
                .collect::<crate::lean::sorted::SortedSet<_>>()
                .len()
        })
        .max()
        .unwrap_or(0);
    Some(BackfillCost {
        finished: done.finished_at(),
        most,
        minutes: steps.iter().map(|s| (s.end - s.start).num_minutes()).sum(),
    })
}

/// "about 3 times", "about half", "the same": `a` against `b`.
fn ratio(a: usize, b: usize) -> String {
    if b == 0 || a == b {
        return "the same as".to_string();
    }
    let tenths = a.saturating_mul(10) / b;
    match tenths {
        0..=3 => format!("about a {} of", if tenths <= 2 { "fifth" } else { "third" }),
        4..=6 => "about half".to_string(),
        7..=13 => "about as many as".to_string(),
        n => format!("about {} times", (n + 5) / 10),
    }
}

/// The other design beside this one, by what each cost when it ran.
pub fn compare(other: &Known, theirs: &Judged, mine: &Judged) -> Option<String> {
    if let (Some(t), Some(m)) = (daily_cost(theirs), daily_cost(mine)) {
        return Some(format!(
            "“{}” passes too. Over the same days it read {} bronze rows and wrote {} partitions in {} runs ({} the rows yours read); yours read {} and wrote {}.",
            other.name,
            grouped(t.read),
            grouped(t.written),
            t.runs,
            ratio(t.read, m.read),
            grouped(m.read),
            grouped(m.written),
        ));
    }
    let (t, m) = (backfill_cost(theirs)?, backfill_cost(mine)?);
    let when = |at: Option<Instant>| at.map_or_else(|| "never".to_string(), weekday_day_month_time);
    Some(format!(
        "“{}” passes too. It finished {}, holding up to {} at once, {} in all; yours finished {}, up to {}, {}.",
        other.name,
        when(t.finished),
        counted(t.most, "connection"),
        counted(t.minutes, "connection-minute"),
        when(m.finished),
        counted(m.most, "connection"),
        counted(m.minutes, "connection-minute"),
    ))
}

/// The scenario after `scenario`, or none after the last.
pub fn next(scenario: &Scenario) -> Option<&'static Scenario> {
    SCENARIOS
        .iter()
        .copied()
        .find(|s| s.number == scenario.number.saturating_add(1))
}
