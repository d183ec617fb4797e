//! A pass as a debrief: why each rule held in this design (`held`), one
//! passing design of the lab's that is built differently, with what it
//! costs beside this one (computed by running it), and the way on.

use crate::counted::{counted, grouped};
use crate::design::graph::NodeConfig;
use crate::design::inspector::words::{StateKind, WriteKind};
use crate::design::Graph;
use crate::engine::calendar::{weekday_day_month_time, Instant};
use crate::engine::clock::StepKind;
use crate::scenarios::catalogue::Known;
use crate::scenarios::grading::grade::Judged;
use crate::scenarios::grading::report::Report;
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
    other_design_in(scenario, crate::variant::Variant::CHAPTER, graph)
}

/// `other_design` made for `variant`'s numbers (a known design keeps its
/// verdict in every variant: `catalogue::designs_in`).
pub fn other_design_in(
    scenario: &Scenario,
    variant: crate::variant::Variant,
    graph: &Graph,
) -> Option<Known> {
    let mine = shape(graph);
    let candidates: Vec<Known> = crate::scenarios::catalogue::passing_in(scenario, variant)
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
    let most = most_at_once(&steps);
    Some(BackfillCost {
        finished: done.finished_at(),
        most,
        minutes: steps.iter().map(|s| (s.end - s.start).num_minutes()).sum(),
    })
}

/// The most connections held at once: a sweep over the steps' starts and
/// ends (an end frees its connection before a start at the same minute
/// takes one), counting distinct holders, as a retried step's attempts
/// hold a connection each.
fn most_at_once(steps: &[&crate::engine::clock::ClockStep]) -> usize {
    let mut edges: Vec<(Instant, bool, (u32, usize))> = steps
        .iter()
        .flat_map(|s| {
            [
                (s.end, false, (s.slot, s.attempt)),
                (s.start, true, (s.slot, s.attempt)),
            ]
        })
        .collect();
    // At one instant, ends (false) before starts (true).
    crate::lean::order::sort_by_key(&mut edges, |e| (e.0, e.1));
    let mut holding: rustc_hash::FxHashMap<(u32, usize), usize> = Default::default();
    let mut most = 0;
    for (_, starts, who) in edges {
        if starts {
            *holding.entry(who).or_default() += 1;
            most = most.max(holding.len());
        } else if let Some(n) = holding.get_mut(&who) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                holding.remove(&who);
            }
        }
    }
    most
}

/// How many rows `a` read beside `b`, rounded to the nearest tenth of
/// `b`: "about 3 times the rows yours read", "about half the rows yours
/// read", "as many rows as yours".
fn ratio(a: usize, b: usize) -> String {
    if a == b {
        return "as many rows as yours".to_string();
    }
    if b == 0 {
        return "where yours read none".to_string();
    }
    let tenths = a.saturating_mul(10).saturating_add(b / 2) / b;
    match tenths {
        0 => "under a twentieth of the rows yours read".to_string(),
        1 => "about a tenth of the rows yours read".to_string(),
        2 => "about a fifth of the rows yours read".to_string(),
        3 => "about a third of the rows yours read".to_string(),
        4..=6 => "about half the rows yours read".to_string(),
        7..=9 => "fewer rows than yours".to_string(),
        10 if a < b => "slightly fewer rows than yours".to_string(),
        10 => "slightly more rows than yours".to_string(),
        11..=14 => "more rows than yours".to_string(),
        15..=19 => "about one and a half times the rows yours read".to_string(),
        n => format!(
            "about {} times the rows yours read",
            n.saturating_add(5) / 10
        ),
    }
}

/// The other design beside this one, by what each cost when it ran.
pub fn compare(other: &Known, theirs: &Judged, mine: &Judged) -> Option<String> {
    if let (Some(t), Some(m)) = (daily_cost(theirs), daily_cost(mine)) {
        return Some(format!(
            "“{}” passes too. Over the same days it read {} ({}) and wrote {} in {}; yours read {} and wrote {}.",
            other.name,
            counted(t.read, "bronze row"),
            ratio(t.read, m.read),
            counted(t.written, "partition"),
            counted(t.runs, "run"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::{at, Day};
    use crate::engine::clock::{ClockStep, StepKind};
    use proptest::prelude::*;

    /// The definition the sweep replaces: at each step's start, the
    /// distinct holders of steps under way then.
    fn most_by_definition(steps: &[&ClockStep]) -> usize {
        steps
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
            .unwrap_or(0)
    }

    proptest! {
        #[test]
        fn the_sweep_counts_what_the_definition_counts(
            raw in prop::collection::vec((0u32..40, 1u32..30, 0u32..4, 0usize..2), 0..24)
        ) {
            let day = Day::from_ymd_opt(2026, 3, 1).unwrap();
            let steps: Vec<ClockStep> = raw
                .iter()
                .map(|&(start, long, slot, attempt)| ClockStep {
                    dt: day,
                    kind: StepKind::Silver,
                    start: at(day, start / 60, start % 60),
                    end: at(day, (start + long) / 60, (start + long) % 60),
                    slot,
                    attempt,
                    unit: StepKind::Silver,
                })
                .collect();
            let refs: Vec<&ClockStep> = steps.iter().collect();
            prop_assert_eq!(most_at_once(&refs), most_by_definition(&refs));
        }
    }

    #[test]
    fn ratios_round_to_the_nearest_tenth_and_say_equal_only_when_equal() {
        assert_eq!(ratio(10, 10), "as many rows as yours");
        assert_eq!(ratio(99, 100), "slightly fewer rows than yours");
        assert_eq!(ratio(101, 100), "slightly more rows than yours");
        assert_eq!(ratio(50, 100), "about half the rows yours read");
        assert_eq!(ratio(29, 100), "about a third of the rows yours read");
        assert_eq!(ratio(1, 100), "under a twentieth of the rows yours read");
        assert_eq!(ratio(250, 100), "about 3 times the rows yours read");
        assert_eq!(ratio(240, 100), "about 2 times the rows yours read");
        assert_eq!(ratio(5, 0), "where yours read none");
        assert!(ratio(usize::MAX, 1).ends_with(" times the rows yours read"));
    }
}
