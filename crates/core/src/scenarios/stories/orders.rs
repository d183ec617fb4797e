//! Scenario 2, "Orders that change": orders paid, shipped, delivered and
//! sometimes returned and refunded for weeks; bronze holds one row per
//! change, silver the latest version of each order by order date.

use crate::counted::{counted, grouped};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use chrono::Duration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::design::choose::Palette;
use crate::design::{Graph, NodeKind};
use crate::engine::calendar::{
    at, day_month_long, days, mm_dd, shift, weekday_day_month_time, Day, Instant,
};
use crate::engine::event::{Event, Id, OrderStatus};
use crate::engine::generate::daily_runs;
use crate::engine::money::Money;
use crate::engine::script::{RunKind, Script};
use crate::engine::trace::Outcome;
use crate::scenarios::grading::judge::DailyRule;
use crate::scenarios::scenario::{
    Judge, Judges, Remake, Running, Scenario, Text, Vary, FRESH_MOVES_FIGURES,
};
use crate::variant::Variant;
use std::sync::OnceLock;

use crate::scenarios::grading::replay::Silver;
use crate::scenarios::grading::report::{
    capital, lines, nodes_of, result, run_name, some_ids, Rule, RuleResult,
};

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 2,
    title: "Orders that change",
    brief: "Orders are paid, shipped, delivered and sometimes refunded for weeks after they are placed: keep exactly the latest version of each, reading only what changed.",
    idea: "merge-style incremental",
    source: "bronze.order_changes",
    story: Text::Fixed(&[
        "Orders are placed, paid, shipped, delivered, and one in eight is returned and refunded weeks later. Every change lands in bronze.order_changes as a new row.",
        "Silver must hold exactly one row per order, its latest version, filed under the date the order was placed. Reading everything every night is not an option.",
    ]),
    facts: Text::Made(facts),
    history: false,
    drift_query: false,
    palette: Palette {
        table: "silver.orders",
        first: first(),
        last: last(),
        logic_matters: false,
        outage: false,
    },
    rules: &RULES,
    vary: Some(Vary {
        chapter_tells: "the chapter says which run crashes",
        data_tells: "its own orders, their changes and its own crash, and \"Check my design\" runs your design on them",
        fresh_moves: FRESH_MOVES_FIGURES,
    }),
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 2,
    judges: Judges::Daily(&JUDGES),
    make: script,
    remake: Some(Remake {
        script: script_for,
        // A design names no day of the month: it is the chapter's in every
        // variant.
        design: |graph, _| graph.clone(),
    }),
    made: OnceLock::new(),
};

pub const SEED: u64 = 2;
pub const ORDERS_PER_DAY: u32 = 40;
/// R3: what one run re-reads may span at most this much change time.
pub const MOST_REREAD_HOURS: i64 = 24;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 4] = [
    Rule {
        id: "R1",
        text: "Silver holds the latest version of every order.",
        concept: "merge on the business key",
    },
    Rule {
        id: "R2",
        text: "No order id appears twice in silver.",
        concept: "merge key",
    },
    Rule {
        id: "R3",
        text: "A run reads only the changes since the last successful run, plus at most one day of overlap (what it re-reads spans 24 hours of changes or less).",
        concept: "watermark overlap",
    },
    Rule {
        id: "R4",
        text: "After the retry, every change the crashed run had read is in silver.",
        concept: "commit order",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one simulation.
pub const JUDGES: [Judge<DailyRule>; 4] = [
    Judge {
        id: "R1",
        judge: |graph, script, ran| silver_holds_the_latest_version(graph, script, &ran.outcome),
    },
    Judge {
        id: "R2",
        judge: |graph, _, ran| no_order_id_twice(graph, &ran.outcome),
    },
    Judge {
        id: "R3",
        judge: |graph, script, ran| {
            reads_only_changes_since_last_success(graph, &ran.outcome, &by_id(script))
        },
    },
    Judge {
        id: "R4",
        judge: |graph, script, ran| {
            retry_keeps_what_the_crash_read(graph, &ran.outcome, &by_id(script))
        },
    },
];

pub const fn first() -> Day {
    const { crate::engine::calendar::date(2026, 6, 1) }
}

pub const fn last() -> Day {
    const { crate::engine::calendar::date(2026, 6, 21) }
}

/// The last run's day: runs go on at 02:00 through 20 July.
pub fn last_run_day() -> Day {
    const { crate::engine::calendar::date(2026, 7, 19) }
}

fn minutes(rng: &mut ChaCha8Rng, lo: i64, hi: i64) -> Duration {
    Duration::seconds(rng.random_range(lo * 60..=hi * 60))
}

/// Change capture lag: 30 s to 8 min, 6 % 40 to 180 min.
fn lag(rng: &mut ChaCha8Rng) -> Duration {
    if rng.random_range(0..100u32) < 6 {
        minutes(rng, 40, 180)
    } else {
        Duration::seconds(rng.random_range(30..=480))
    }
}

/// What a variant moves in scenario 2 (SPEC 14): the orders and their
/// changes, how many a day, and the night whose run crashes. The lags,
/// the return rate and R3's overlap stay: they are the rules' meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Month {
    pub seed: u64,
    pub per_day: u32,
    /// The day whose run crashes after writing (retried at 02:05).
    pub crash: Day,
}

impl Month {
    pub const CHAPTER: Month = Month {
        seed: SEED,
        per_day: ORDERS_PER_DAY,
        crash: crate::engine::calendar::date(2026, 6, 10),
    };

    /// `variant`'s: the chapter's for the chapter's data.
    pub fn of(variant: Variant) -> Month {
        if variant.is_chapter() {
            return Month::CHAPTER;
        }
        // A crash on a day whose run reads orders' last changes (the first
        // are delivered two days after they are placed), so saving the
        // watermark before the write loses some for good, as it does on
        // the chapter's 10th.
        let crash = variant.pick("scenario 2: crash", 8..=20);
        Month {
            seed: variant.seed("scenario 2: orders"),
            per_day: variant.pick("scenario 2: orders a day", 7..=10) * 5,
            crash: shift(first(), i64::from(crash) - 1),
        }
    }

    /// The same month with the orders drawn again (`draw` > 0).
    fn redrawn(self, variant: Variant, draw: u32) -> Month {
        Month {
            seed: variant.seed(&format!("scenario 2: orders, draw {draw}")),
            ..self
        }
    }
}

/// How many times a variant's orders are drawn at most before one shows
/// the capture lag R1 tests (one in fifteen draws does not).
const DRAWS: u32 = 8;

/// Whether a watermark on updated_at with no overlap loses a change for
/// good on `script`: some order's last change is captured after a run
/// that had already read a change updated later than it, so every run
/// after skips it. The chapter's data does; a variant's is drawn until
/// it does (SPEC 14: each rule's hazard is in every variant).
pub fn loses_a_late_capture(script: &Script) -> bool {
    let mut captured: Vec<(Instant, Instant)> = script
        .events
        .iter()
        .map(|e| (e.arrived_at, e.updated_at))
        .collect();
    crate::lean::order::sort(&mut captured);
    // The latest update captured by each arrival, in arrival order.
    let mut newest = Vec::with_capacity(captured.len());
    let mut high = None::<Instant>;
    for (_, updated) in &captured {
        high = high.max(Some(*updated));
        newest.push(high);
    }
    // The runs that move the watermark on: a crashed run saves none, its
    // retry does.
    let mut runs: Vec<Instant> = script
        .runs
        .iter()
        .map(|r| r.crash_then_retry_at.unwrap_or(r.at))
        .collect();
    crate::lean::order::sort(&mut runs);
    let mut last: HashMap<&str, &Event> = HashMap::default();
    for e in &script.events {
        let slot = last.entry(e.key.as_ref()).or_insert(e);
        if e.updated_at > slot.updated_at {
            *slot = e;
        }
    }
    last.values().any(|change| {
        let Some(run) = runs.iter().rev().find(|t| **t < change.arrived_at) else {
            return false;
        };
        let by_run = captured.partition_point(|(arrived, _)| arrived <= run);
        by_run
            .checked_sub(1)
            .and_then(|i| newest.get(i).copied().flatten())
            .is_some_and(|mark| mark > change.updated_at)
    })
}

/// The numbers the page gives, in `variant`'s month.
fn facts(variant: Variant) -> Vec<String> {
    let m = Month::of(variant);
    vec![
        format!(
            "Orders placed 1 to 21 June, {} a day; changes for up to about six weeks.",
            m.per_day
        ),
        "Change capture lags 30 s to 8 min, 6 % of changes 40 to 180 min.".to_string(),
        format!(
            "Runs daily at 02:00 through 20 July; the run for {} crashes after writing and is retried.",
            day_month_long(m.crash)
        ),
    ]
}

/// The chapter's orders and runs.
pub fn script() -> Script {
    script_for(Variant::CHAPTER)
}

/// `variant`'s orders, their changes and runs, its crash on its own day,
/// the orders drawn again (at most `DRAWS` times in all) until a capture
/// lag loses a change (`loses_a_late_capture`; the fairness test checks
/// every variant's does).
pub fn script_for(variant: Variant) -> Script {
    let month = Month::of(variant);
    let mut script = drawn(month);
    for draw in 1..DRAWS {
        if variant.is_chapter() || loses_a_late_capture(&script) {
            break;
        }
        script = drawn(month.redrawn(variant, draw));
    }
    script
}

/// The month's orders, their changes and its runs.
fn drawn(m: Month) -> Script {
    let mut rng = ChaCha8Rng::seed_from_u64(m.seed);
    let mut events = Vec::new();
    for day in days(first(), last()) {
        for n in 0..m.per_day {
            let key: Id = format!("o-{}-{:02}", mm_dd(day).replace('-', ""), n + 1).into();
            let placed = at(day, 0, 0) + Duration::seconds(rng.random_range(0..86_400));
            let amount = Money::gbp(rng.random_range(500..=25_000));
            let paid = placed + minutes(&mut rng, 5, 90);
            let shipped = paid + minutes(&mut rng, 18 * 60, 72 * 60);
            let delivered = shipped + minutes(&mut rng, 20 * 60, 96 * 60);
            let mut steps = vec![
                (OrderStatus::Placed, placed),
                (OrderStatus::Paid, paid),
                (OrderStatus::Shipped, shipped),
                (OrderStatus::Delivered, delivered),
            ];
            if rng.random_range(0..100u32) < 12 {
                let returned = delivered + minutes(&mut rng, 2 * 24 * 60, 14 * 24 * 60);
                let refunded = returned + minutes(&mut rng, 24 * 60, 4 * 24 * 60);
                steps.push((OrderStatus::Returned, returned));
                steps.push((OrderStatus::Refunded, refunded));
            }
            for (i, (status, updated_at)) in steps.into_iter().enumerate() {
                events.push(Event {
                    id: format!("{key}-c{}", i + 1).into(),
                    key: key.clone(),
                    event_time: placed,
                    updated_at,
                    arrived_at: updated_at + lag(&mut rng),
                    amount,
                    status: Some(status),
                    withdrawn_at: None,
                });
            }
        }
    }
    let mut runs = daily_runs(first(), last_run_day(), 2, 0);
    for run in runs.iter_mut().filter(|r| r.day == m.crash) {
        run.crash_then_retry_at = Some(run.at + Duration::minutes(5));
    }
    Script::new(first(), events, runs)
}

fn status_name(status: Option<OrderStatus>) -> &'static str {
    match status {
        Some(OrderStatus::Placed) => "placed",
        Some(OrderStatus::Paid) => "paid",
        Some(OrderStatus::Shipped) => "shipped",
        Some(OrderStatus::Delivered) => "delivered",
        Some(OrderStatus::Returned) => "returned",
        Some(OrderStatus::Refunded) => "refunded",
        None => "no status",
    }
}

fn by_id(script: &Script) -> HashMap<&str, &Event> {
    script.events.iter().map(|e| (e.id.as_ref(), e)).collect()
}

/// The latest change of each order that arrived before `until`.
fn latest(script: &Script, until: Instant) -> HashMap<&str, &Event> {
    let mut latest: HashMap<&str, &Event> = HashMap::default();
    for e in script.events.iter().filter(|e| e.arrived_at <= until) {
        let slot = latest.entry(e.key.as_ref()).or_insert(e);
        if e.updated_at > slot.updated_at {
            *slot = e;
        }
    }
    latest
}

fn silver_holds_the_latest_version(
    graph: &Graph,
    script: &Script,
    outcome: &Outcome,
) -> RuleResult {
    let Some(end) = outcome.runs.last().map(|r| r.at) else {
        // No run, nothing to compare: nothing is out of date either.
        return result(RULES[0], true, Vec::new(), Vec::new());
    };
    let mut in_silver: HashMap<&str, Vec<&crate::engine::table::Row>> = HashMap::default();
    for row in outcome.silver.rows() {
        in_silver.entry(row.key.as_ref()).or_default().push(row);
    }
    let mut stale = Vec::new();
    let mut missing = Vec::new();
    for (key, want) in latest(script, end) {
        match in_silver.get(key) {
            None => missing.push((key, want)),
            Some(rows) if !rows.iter().any(|r| r.updated_at == want.updated_at) => {
                let have = rows.iter().max_by_key(|r| r.updated_at).map(|r| r.status);
                stale.push((key, want, have.flatten()));
            }
            Some(_) => {}
        }
    }
    // Listed in key order, whatever order the map kept them in.
    crate::lean::order::sort_by_key(&mut missing, |(key, _)| *key);
    crate::lean::order::sort_by_key(&mut stale, |(key, _, _)| *key);
    // The change silver should hold, for each order it does not.
    let rows: Vec<crate::engine::event::Id> = missing
        .iter()
        .map(|(_, want)| want.id.clone())
        .chain(stale.iter().map(|(_, want, _)| want.id.clone()))
        .collect();
    let mut evidence = Vec::new();
    if !missing.is_empty() {
        let keys: Vec<&str> = missing.iter().map(|(key, _)| *key).collect();
        evidence.push(format!(
            "{} not in silver at all: {}.",
            match missing.len() {
                1 => "1 order is".to_string(),
                n => format!("{} are", counted(n, "order")),
            },
            some_ids(&keys)
        ));
    }
    if let Some((key, want, have)) = stale.first() {
        let keys: Vec<&str> = stale.iter().map(|(k, _, _)| *k).collect();
        evidence.push(format!(
            "{} out of date: {}. For example {key} should be {} (changed {}, arrived {}) but silver says {}.",
            match stale.len() {
                1 => "1 order is".to_string(),
                n => format!("{} are", counted(n, "order")),
            },
            some_ids(&keys),
            status_name(want.status),
            weekday_day_month_time(want.updated_at),
            weekday_day_month_time(want.arrived_at),
            status_name(*have),
        ));
    }
    result(
        RULES[0],
        missing.is_empty() && stale.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State, NodeKind::Write]),
    )
    .about(rows)
}

fn no_order_id_twice(graph: &Graph, outcome: &Outcome) -> RuleResult {
    let mut count: HashMap<&str, usize> = HashMap::default();
    for row in outcome.silver.rows() {
        *count.entry(row.key.as_ref()).or_insert(0) += 1;
    }
    let mut doubled: Vec<(&str, usize)> = count.into_iter().filter(|(_, n)| *n > 1).collect();
    crate::lean::order::sort(&mut doubled);
    // Every silver row of an order that has more than one.
    let twice: rustc_hash::FxHashSet<&str> = doubled.iter().map(|(key, _)| *key).collect();
    let rows: Vec<crate::engine::event::Id> = outcome
        .silver
        .rows()
        .filter(|r| twice.contains(r.key.as_ref()))
        .map(|r| r.id.clone())
        .collect();
    let evidence = match doubled.first() {
        None => Vec::new(),
        Some((key, n)) => {
            let keys: Vec<&str> = doubled.iter().map(|(k, _)| *k).collect();
            vec![format!(
                "{} more than once in silver: {}. For example {key} has {n} rows; expected 1.",
                match doubled.len() {
                    1 => "1 order id appears".to_string(),
                    n => format!("{} appear", counted(n, "order id")),
                },
                some_ids(&keys)
            )]
        }
    };
    result(
        RULES[1],
        doubled.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::Write]),
    )
    .about(rows)
}

fn reads_only_changes_since_last_success(
    graph: &Graph,
    outcome: &Outcome,
    by_id: &HashMap<&str, &Event>,
) -> RuleResult {
    let mut read_before: HashSet<&str> = HashSet::default();
    let mut evidence = Vec::new();
    let mut offenders = 0;
    for run in &outcome.runs {
        let reread: Vec<&Event> = run
            .read_ids
            .iter()
            .filter(|id| read_before.contains(id.as_ref()))
            .filter_map(|id| by_id.get(id.as_ref()).copied())
            .collect();
        let span = reread
            .iter()
            .map(|e| e.updated_at)
            .max()
            .zip(reread.iter().map(|e| e.updated_at).min())
            .map(|(hi, lo)| hi - lo);
        if span.is_some_and(|s| s > Duration::hours(MOST_REREAD_HOURS)) {
            offenders += 1;
            if evidence.is_empty() {
                let hours = span.map(|s| s.num_hours()).unwrap_or_default();
                evidence.push(format!(
                    "{} re-read {} it had already read, spanning {} of changes (at most {MOST_REREAD_HOURS} allowed).",
                    capital(&run_name(run)),
                    counted(reread.len(), "change"),
                    counted(hours, "hour"),
                ));
            }
        }
        // What was read counts once a run succeeds: a crashed run that saved
        // its state still leaves its changes to be read again (SPEC 7, R3).
        if !run.crashed {
            read_before.extend(
                run.read_ids
                    .iter()
                    .filter_map(|id| by_id.get_key_value(id.as_ref()).map(|(k, _)| *k)),
            );
        }
    }
    if offenders > 1 {
        evidence.push(format!(
            "{offenders} runs in all re-read more than a day of changes."
        ));
    }
    result(
        RULES[2],
        offenders == 0,
        lines(evidence),
        nodes_of(graph, &[NodeKind::State]),
    )
}

fn retry_keeps_what_the_crash_read(
    graph: &Graph,
    outcome: &Outcome,
    by_id: &HashMap<&str, &Event>,
) -> RuleResult {
    let mut evidence = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    let mut silver = Silver::default();
    let mut crashed: Vec<&crate::engine::trace::RunTrace> = Vec::new();
    for run in &outcome.runs {
        silver.apply(run);
        if run.crashed {
            crashed.push(run);
            continue;
        }
        let Some(pos) = crashed
            .iter()
            .position(|c| run.kind == RunKind::Retry && c.day == run.day)
        else {
            continue;
        };
        let crash = crashed.remove(pos);
        // The newest version of each order in silver once the retry ran.
        let mut newest: HashMap<&str, Instant> = HashMap::default();
        for id in silver.partitions.values().flat_map(|p| p.keys()) {
            if let Some(e) = by_id.get(id.as_ref()) {
                let slot = newest.entry(e.key.as_ref()).or_insert(e.updated_at);
                if e.updated_at > *slot {
                    *slot = e.updated_at;
                }
            }
        }
        let lost: Vec<&str> = crash
            .read_ids
            .iter()
            .filter_map(|id| by_id.get(id.as_ref()))
            .filter(|e| newest.get(e.key.as_ref()).is_none_or(|t| *t < e.updated_at))
            .map(|e| e.id.as_ref())
            .collect();
        rows.extend(lost.iter().map(|id| id.to_string()));
        if !lost.is_empty() {
            evidence.push(format!(
                "{} read {} and crashed; after {} {} still not in silver: {}.",
                capital(&run_name(crash)),
                counted(crash.read_ids.len(), "change"),
                run_name(run),
                match (lost.len(), crash.read_ids.len()) {
                    (1, 1) => "it is".to_string(),
                    (1, _) => "1 of them is".to_string(),
                    (n, _) => format!("{} of them are", grouped(n)),
                },
                some_ids(&lost)
            ));
        }
    }
    result(
        RULES[3],
        evidence.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State]),
    )
    .about(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::script::RunSpec;

    fn change(key: &str, n: u32, updated: Instant, arrived: Instant) -> Event {
        Event {
            id: format!("{key}-c{n}").into(),
            key: key.into(),
            event_time: updated,
            updated_at: updated,
            arrived_at: arrived,
            amount: Money::gbp(100),
            status: Some(OrderStatus::Delivered),
            withdrawn_at: None,
        }
    }

    /// A's last change (01:00) is captured at 02:30, after the 02:00 run
    /// had read B's change of 01:30: a watermark with no overlap starts
    /// the next run after 01:30 and never reads A's. Without B's change,
    /// or with a later change of A's, nothing is lost for good.
    #[test]
    fn a_late_capture_is_lost_only_behind_a_newer_one_and_only_if_last() {
        let day = first();
        let runs = vec![
            RunSpec::scheduled(at(day, 2, 0), day),
            RunSpec::scheduled(at(shift(day, 1), 2, 0), day),
        ];
        let late = change("a", 1, at(day, 1, 0), at(day, 2, 30));
        let newer = change("b", 1, at(day, 1, 30), at(day, 1, 35));
        let script = |events: Vec<Event>| Script::new(day, events, runs.clone());
        assert!(loses_a_late_capture(&script(vec![
            late.clone(),
            newer.clone()
        ])));
        assert!(!loses_a_late_capture(&script(vec![late.clone()])));
        let after = change("a", 2, at(day, 9, 0), at(day, 9, 1));
        assert!(!loses_a_late_capture(&script(vec![late, newer, after])));
        assert!(
            loses_a_late_capture(SCENARIO.script()),
            "the chapter's does"
        );
    }
}
