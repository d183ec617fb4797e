//! Scenario 5, "Two years of history, interrupted": a new pipeline's 730
//! partitions backfilled over a weekend, the source failing over in the
//! small hours of Saturday, nightly runs wanting a slot each night.

use crate::counted::{counted, grouped};
use crate::lean::sorted::{SortedMap, SortedSet};

use rustc_hash::FxHashMap as HashMap;

use std::sync::Arc;

use chrono::Duration;

use crate::design::graph::BackfillShape;
use crate::design::{Graph, NodeKind};
use crate::engine::calendar::{at, days, hh_mm, shift, weekday_day_month_time, Day, Instant};
use crate::engine::clock::StepKind;
use crate::engine::generate::{orders, CurrencyMix, DelayProfile, OrderSpec};
use crate::engine::money::Money;
use crate::engine::script::{Interruption, RunSpec, Script};
use crate::engine::table::DailyTotal;

use crate::design::choose::Palette;
use crate::scenarios::grading::backfilled::{Backfilled, Setting};
use crate::scenarios::grading::judge::BackfillRule;
use crate::scenarios::grading::report::{
    capped, lines, nodes_of, result, some_ids, Evidence, Rule, RuleResult, SHOWN,
};
use crate::scenarios::scenario::{Judge, Judges, Running, Scenario, Text};
use std::sync::OnceLock;

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 5,
    title: "Two years of history, interrupted",
    brief: "Populate 730 daily partitions for a new pipeline over a weekend while the source fails over once: resume rather than restart, and never delay a nightly run.",
    idea: "completion marker",
    source: "bronze.events",
    story: Text::Fixed(&[
        "A new pipeline needs two years of history: 730 daily partitions. The backfill starts on Friday evening and must be done before Monday morning.",
        "In the small hours of Saturday the source database fails over, killing the backfill; it is started again half an hour later. Nightly runs must not wait for it.",
    ]),
    facts: Text::Fixed(&[
        "Partitions 1 June 2024 to 31 May 2026, 12 events a day; launched Friday 5 June 2026 at 18:00.",
        "Per partition silver takes 9 min and gold 3 min, holding one slot; the pool has 4 slots; nightly 02:00 runs need one for 20 minutes.",
        "The source fails over on Saturday 6 June at 00:10; the backfill is re-run 30 minutes later. Budget: done by Monday 8 June 06:00.",
        "On the canvas a backfill job drives the transform it connects to: each date runs that transform's logic, reads the layer it reads and writes with its write target's mode.",
    ]),
    history: true,
    drift_query: false,
    palette: Palette {
        table: "silver.events",
        first: first(),
        last: last(),
        logic_matters: false,
        outage: false,
    },
    rules: &RULES,
    // No variants (SPEC 14): the known designs' verdicts hang on the minute
    // the failover lands within a partition's twelve (measured over the
    // small hours, most minutes change one of them: an appending backfill
    // doubles rows only if a write was in flight), so the failover stays
    // the chapter's; its events alone would change nothing a student reads.
    vary: None,
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 5,
    judges: Judges::Backfill {
        judges: &JUDGES,
        setting,
    },
    make: script,
    remake: None,
    made: OnceLock::new(),
};

pub const SEED: u64 = 5;
pub const EVENTS_PER_DAY: u32 = 12;
pub const POOL: u32 = 4;
pub const SILVER_MINUTES: i64 = 9;
pub const GOLD_MINUTES: i64 = 3;
pub const NIGHTLY_MINUTES: i64 = 20;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 4] = [
    Rule {
        id: "R1",
        text: "Afterwards every partition matches bronze: the same events, none twice, and gold that adds up to them.",
        concept: "idempotent write",
    },
    Rule {
        id: "R2",
        text: "Work completed before the interruption is not redone (what was in flight may be); in two phases a date's finished silver counts as completed work.",
        concept: "completion marker",
    },
    Rule {
        id: "R3",
        text: "No nightly run during the backfill waits for a slot.",
        concept: "source pool",
    },
    Rule {
        id: "R4",
        text: "Everything finishes by Monday 8 June 06:00.",
        concept: "concurrency",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one run of
/// the design's backfill (the check panel draws the same run).
pub const JUDGES: [Judge<BackfillRule>; 4] = [
    Judge {
        id: "R1",
        judge: every_partition_matches_bronze,
    },
    Judge {
        id: "R2",
        judge: |graph, _, done| finished_work_not_redone(graph, done),
    },
    Judge {
        id: "R3",
        judge: |graph, _, done| nightly_runs_never_wait(graph, done),
    },
    Judge {
        id: "R4",
        judge: |graph, _, done| finished_by_monday_six(graph, done),
    },
];

pub const fn first() -> Day {
    const { crate::engine::calendar::date(2024, 6, 1) }
}

pub const fn last() -> Day {
    const { crate::engine::calendar::date(2026, 5, 31) }
}

fn june(day: u32) -> Day {
    const JUNE_1: Day = crate::engine::calendar::date(2026, 6, 1);
    chrono::Datelike::with_day(&JUNE_1, day.clamp(1, 30)).unwrap_or(JUNE_1)
}

/// Monday 8 June 06:00.
pub fn budget() -> Instant {
    at(june(8), 6, 0)
}

pub fn setting() -> Setting {
    Setting {
        launch: at(june(5), 18, 0),
        pool: POOL,
        silver_minutes: SILVER_MINUTES,
        gold_minutes: GOLD_MINUTES,
        scheduled_minutes: NIGHTLY_MINUTES,
    }
}

/// Two years of events, the nightly runs of the weekend and the failover.
pub fn script() -> Script {
    let spec = OrderSpec {
        seed: SEED,
        first: first(),
        last: last(),
        per_day: EVENTS_PER_DAY,
        mix: CurrencyMix::GBP_ONLY,
        delays: DelayProfile::WebCheckout,
        min_minor: 100,
        max_minor: 20_000,
    };
    let events = orders(&spec)
        .into_iter()
        .map(|mut e| {
            let id: Arc<str> = Arc::from(e.id.replacen("o-", "e-", 1));
            e.key = id.clone();
            e.id = id;
            e
        })
        .collect();
    let runs = days(june(5), june(7))
        .map(|day| RunSpec::scheduled(at(shift(day, 1), 2, 0), day))
        .collect();
    let mut script = Script::new(first(), events, runs);
    let failover = at(june(6), 0, 10);
    script.interruptions = vec![Interruption {
        at: failover,
        rerun_at: failover + Duration::minutes(30),
    }];
    script
}

fn every_partition_matches_bronze(graph: &Graph, script: &Script, done: &Backfilled) -> RuleResult {
    let mut bronze: SortedMap<Day, Vec<&str>> = SortedMap::new();
    let mut totals: SortedMap<Day, i64> = SortedMap::new();
    for e in &script.events {
        bronze.entry(e.event_date()).or_default().push(&e.id);
        *totals.entry(e.event_date()).or_default() += e.amount.minor;
    }
    let mut problems = Vec::new();
    for dt in days(first(), last()) {
        let expected = bronze.get(&dt).map(Vec::as_slice).unwrap_or(&[]);
        let rows = done.after.silver.partition(dt);
        let mut seen: HashMap<&str, usize> = HashMap::default();
        for r in rows {
            *seen.entry(&r.id).or_default() += 1;
        }
        let mut twice: Vec<&str> = seen
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(id, _)| *id)
            .collect();
        crate::lean::order::sort(&mut twice);
        let missing: Vec<&str> = expected
            .iter()
            .filter(|id| !seen.contains_key(*id))
            .copied()
            .collect();
        let total = totals.get(&dt).copied().unwrap_or(0);
        let gold = done.after.gold.get(&dt).copied().unwrap_or_default();
        let mut wrong = Vec::new();
        if !twice.is_empty() {
            wrong.push(format!(
                "{} twice ({})",
                counted(twice.len(), "event"),
                some_ids(&twice)
            ));
        }
        if !missing.is_empty() {
            wrong.push(format!(
                "{} missing ({})",
                counted(missing.len(), "event"),
                some_ids(&missing)
            ));
        }
        let want = DailyTotal {
            rows: expected.len(),
            gbp: total,
            unconverted: 0,
        };
        if gold != want {
            wrong.push(format!(
                "gold holds {} worth {} where bronze has {} worth {}",
                counted(gold.rows, "row"),
                Money::gbp(gold.gbp).grouped(),
                grouped(want.rows),
                Money::gbp(want.gbp).grouped()
            ));
        }
        if !wrong.is_empty() {
            problems.push((dt, wrong.join("; ")));
        }
    }
    let evidence = capped(
        problems
            .iter()
            .map(|(dt, what)| Evidence::at(*dt, format!("Partition {dt}: {what}.")))
            .collect(),
        SHOWN,
        (
            "partition does not match bronze either",
            "partitions do not match bronze either",
        ),
    );
    result(
        RULES[0],
        problems.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Backfill, NodeKind::Write]),
    )
}

/// A unit of the backfill's work: a date, or in two phases one layer of a
/// date, which is finished work on its own.
type UnitKey = (Day, Option<StepKind>);

fn unit_of(shape: BackfillShape, dt: Day, kind: StepKind) -> UnitKey {
    match shape {
        BackfillShape::TwoPhases => (dt, Some(kind)),
        BackfillShape::PerDate | BackfillShape::Together => (dt, None),
    }
}

/// Units whose every step finished in the first attempt.
fn completed_first(done: &Backfilled) -> SortedSet<UnitKey> {
    let shape = done.design.shape;
    let finished: SortedSet<(Day, StepKind)> = done
        .timeline
        .rebuilt_in(0)
        .map(|s| (s.dt, s.kind))
        .collect();
    let layers = [StepKind::Silver, StepKind::Gold];
    finished
        .iter()
        .map(|(dt, kind)| unit_of(shape, *dt, *kind))
        .filter(|(dt, layer)| match layer {
            Some(kind) => finished.contains(&(*dt, *kind)),
            None => layers.iter().all(|k| finished.contains(&(*dt, *k))),
        })
        .collect()
}

fn finished_work_not_redone(graph: &Graph, done: &Backfilled) -> RuleResult {
    let shape = done.design.shape;
    let completed = completed_first(done);
    let mut evidence = Vec::new();
    for (n, attempt) in done.attempts.iter().enumerate().skip(1) {
        let again: SortedSet<UnitKey> = done
            .timeline
            .rebuilt_in(n)
            .map(|s| unit_of(shape, s.dt, s.kind))
            .filter(|unit| completed.contains(unit))
            .collect();
        let dates: SortedSet<Day> = again.iter().map(|(dt, _)| *dt).collect();
        if let (Some(first), Some(last)) = (dates.first(), dates.last()) {
            let cut = n
                .checked_sub(1)
                .and_then(|p| done.attempts.get(p))
                .and_then(|a| a.interrupt);
            let what = match shape {
                BackfillShape::TwoPhases => format!(
                    "{} (a date's silver or gold)",
                    counted(again.len(), "finished partition layer")
                ),
                BackfillShape::PerDate | BackfillShape::Together => {
                    counted(again.len(), "partition")
                }
            };
            evidence.push(format!(
                "The re-run launched {} rebuilt {what} that {} complete before the failover{}: {}.",
                weekday_day_month_time(attempt.start),
                if again.len() == 1 { "was" } else { "were" },
                cut.map(|c| format!(" at {}", hh_mm(c))).unwrap_or_default(),
                if first == last {
                    format!("date {first}")
                } else {
                    format!("dates {first} to {last}")
                },
            ));
        }
    }
    result(
        RULES[1],
        evidence.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::Backfill]),
    )
}

fn nightly_runs_never_wait(graph: &Graph, done: &Backfilled) -> RuleResult {
    let evidence = done
        .late_runs()
        .map(|(g, s)| {
            Evidence::at(s.day, format!(
                "The nightly run for {} asked for a slot at {} and got one at {}, {} min late: the backfill held all {POOL}.",
                s.day,
                weekday_day_month_time(g.asked),
                hh_mm(g.got),
                g.waited().num_minutes(),
            ))
        })
        .collect::<Vec<_>>();
    result(
        RULES[2],
        evidence.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Backfill]),
    )
}

fn finished_by_monday_six(graph: &Graph, done: &Backfilled) -> RuleResult {
    let on_time = done.finished_at().is_some_and(|end| end <= budget());
    let evidence = match done.finished_at() {
        Some(end) if end <= budget() => Vec::new(),
        Some(end) => {
            let late = end - budget();
            vec![format!(
                "The last partition landed {}, {} h {} min after the budget ({}).",
                weekday_day_month_time(end),
                late.num_hours(),
                late.num_minutes() % 60,
                weekday_day_month_time(budget()),
            )]
        }
        None => vec!["The backfill finished nothing.".to_string()],
    };
    result(
        RULES[3],
        on_time,
        lines(evidence),
        nodes_of(graph, &[NodeKind::Backfill]),
    )
}
