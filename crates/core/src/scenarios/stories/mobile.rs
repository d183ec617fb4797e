//! Scenario 3, "Late mobile events and month close": a month of in-app
//! purchases, a long offline tail, a crash, and finance closing August on
//! Thursday 3 September at 09:00.

use crate::counted::counted;
use crate::lean::sorted::SortedMap;

use rustc_hash::FxHashMap as HashMap;

use chrono::Duration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::design::choose::Palette;
use crate::design::{Graph, NodeKind};
use crate::engine::calendar::{
    at, day_month_long, days, mm_dd, shift, weekday_day_month_time, Day, Instant,
};
use crate::engine::event::Event;
use crate::engine::generate::{daily_runs, DelayProfile};
use crate::engine::money::Money;
use crate::engine::script::Script;
use crate::engine::trace::Outcome;
use crate::scenarios::grading::judge::DailyRule;
use crate::scenarios::scenario::{
    Judge, Judges, Remake, Running, Scenario, Text, Vary, FRESH_MOVES_FIGURES,
};
use crate::variant::Variant;
use std::sync::OnceLock;

use crate::scenarios::grading::replay::Silver;
use crate::scenarios::grading::report::{
    lines, nodes_of, result, run_name, some_ids, Rule, RuleResult,
};

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 3,
    title: "Late mobile events and month close",
    brief: "In-app purchases trickle in from phones that were offline for days, and finance closes August on Thursday 3 September: choose how long to wait and what to do with what comes later.",
    idea: "allowed lateness",
    source: "bronze.purchases",
    story: Text::Fixed(&[
        "The mobile app records in-app purchases on the phone and uploads them when it can. Most arrive within minutes; phones that were offline upload days later.",
        "Finance closes August on Thursday 3 September at 09:00 and wants every August partition final by then, holding nearly all of August's value. Whatever arrives afterwards must still be counted, once, somewhere.",
    ]),
    facts: Text::Made(facts),
    history: false,
    drift_query: false,
    palette: Palette {
        table: "silver.purchases",
        first: first(),
        last: last(),
        logic_matters: false,
        outage: false,
    },
    rules: &RULES,
    vary: Some(Vary {
        chapter_tells: "the chapter says which run crashes",
        data_tells: "its own purchases, their delays and its own crash, and \"Check my design\" runs your design on them",
        fresh_moves: FRESH_MOVES_FIGURES,
    }),
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 3,
    judges: Judges::Daily(&JUDGES),
    make: script,
    remake: Some(Remake {
        script: script_for,
        // A design names no day of August: it is the chapter's in every
        // variant.
        design: |graph, _| graph.clone(),
    }),
    made: OnceLock::new(),
};

pub const SEED: u64 = 3;
pub const PURCHASES_PER_DAY: u32 = 400;
/// R1: share of August's value that must be in place at finalisation, in
/// basis points (99 %).
pub const SHARE_BP: i64 = 9_900;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 4] = [
    Rule {
        id: "R1",
        text: "At least 99 % of August's value is in its partition when the partition is finalised, none of it counted twice.",
        concept: "allowed lateness",
    },
    Rule {
        id: "R2",
        text: "Every August partition is final by the close (Thursday 3 September, 09:00).",
        concept: "finalisation",
    },
    Rule {
        id: "R3",
        text: "Purchases arriving after their partition is final are in the adjustments table exactly once, none dropped, and no final partition is ever written again.",
        concept: "adjustments table",
    },
    Rule {
        id: "R4",
        text: "Each run writes at most L + 1 of the partitions dated up to its own day (L: the allowed lateness).",
        concept: "bounded rewrite",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one simulation.
pub const JUDGES: [Judge<DailyRule>; 4] = [
    Judge {
        id: "R1",
        judge: |graph, script, ran| value_in_place_when_final(graph, script, &ran.outcome),
    },
    Judge {
        id: "R2",
        judge: |graph, _, ran| final_by_the_close(graph, &ran.outcome),
    },
    Judge {
        id: "R3",
        judge: |graph, script, ran| late_purchases_adjusted_once(graph, script, &ran.outcome),
    },
    Judge {
        id: "R4",
        // From the compiled pipeline: a finaliser the write does not pass
        // through finalises nothing, so it sets no bound either.
        judge: |graph, _, ran| {
            let lateness = ran.config.finaliser.map(|f| f.allowed_lateness_days);
            runs_write_at_most_lateness_plus_one(graph, &ran.outcome, lateness)
        },
    },
];

pub const fn first() -> Day {
    const { crate::engine::calendar::date(2026, 8, 1) }
}

pub const fn last() -> Day {
    const { crate::engine::calendar::date(2026, 8, 31) }
}

pub fn close() -> Instant {
    at(const { crate::engine::calendar::date(2026, 9, 3) }, 9, 0)
}

/// What a variant moves in scenario 3 (SPEC 14): the purchases and their
/// delays (drawn from the same profile), how many a day, and the night
/// whose run crashes. The close, the profile's shape and the rules'
/// bounds stay: they are the rules' meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct August {
    pub seed: u64,
    pub per_day: u32,
    /// The day whose run crashes after writing (retried at 02:05).
    pub crash: Day,
}

impl August {
    pub const CHAPTER: August = August {
        seed: SEED,
        per_day: PURCHASES_PER_DAY,
        crash: crate::engine::calendar::date(2026, 8, 18),
    };

    /// `variant`'s: the chapter's for the chapter's data.
    pub fn of(variant: Variant) -> August {
        if variant.is_chapter() {
            return August::CHAPTER;
        }
        let crash = variant.pick("scenario 3: crash", 2..=30);
        August {
            seed: variant.seed("scenario 3: purchases"),
            per_day: variant.pick("scenario 3: purchases a day", 14..=20) * 25,
            crash: shift(first(), i64::from(crash) - 1),
        }
    }
}

/// The numbers the page gives, in `variant`'s August.
fn facts(variant: Variant) -> Vec<String> {
    let a = August::of(variant);
    vec![
        format!("Purchases 1 to 31 August, {} a day, £0.99 to £49.99.", a.per_day),
        "Delay: 88 % within 5 minutes, 6 % 5 minutes to 8 hours, 6 % offline (median 24 hours, up to 20 days).".to_string(),
        format!(
            "Runs daily at 02:00 through 24 September; the run for {} crashes and is retried.",
            day_month_long(a.crash)
        ),
        "Close: Thursday 3 September 2026, 09:00.".to_string(),
    ]
}

/// The chapter's August.
pub fn script() -> Script {
    script_for(Variant::CHAPTER)
}

/// `variant`'s purchases with the mobile delay profile; runs at 02:00
/// through 24 September; its crash retried five minutes later.
pub fn script_for(variant: Variant) -> Script {
    let a = August::of(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut events = Vec::new();
    for day in days(first(), last()) {
        for n in 0..a.per_day {
            let event_time = at(day, 0, 0) + Duration::seconds(rng.random_range(0..86_400));
            let arrived = DelayProfile::MobileOffline.arrival(&mut rng, event_time);
            let id = format!("p-{}-{:03}", mm_dd(day).replace('-', ""), n + 1);
            let amount = Money::gbp(rng.random_range(99..=4_999));
            events.push(Event::immutable(&id, event_time, arrived, amount));
        }
    }
    let last_run = const { crate::engine::calendar::date(2026, 9, 23) };
    let mut runs = daily_runs(first(), last_run, 2, 0);
    for run in runs.iter_mut().filter(|r| r.day == a.crash) {
        run.crash_then_retry_at = Some(run.at + Duration::minutes(5));
    }
    Script::new(first(), events, runs)
}

fn percent(bp: i64) -> String {
    format!("{}.{:02} %", bp / 100, bp % 100)
}

fn august(day: Day) -> bool {
    (first()..=last()).contains(&day)
}

fn value_in_place_when_final(graph: &Graph, script: &Script, outcome: &Outcome) -> RuleResult {
    let total: i64 = script
        .events
        .iter()
        .filter(|e| august(e.event_date()))
        .map(|e| e.amount.minor)
        .sum();
    // Silver as each partition was when it became final (or at the end).
    let amount: HashMap<&str, i64> = script
        .events
        .iter()
        .map(|e| (e.id.as_ref(), e.amount.minor))
        .collect();
    let mut at_final: SortedMap<Day, (i64, Vec<String>)> = SortedMap::new();
    // The ids each August partition held when it became final.
    let mut held: HashMap<Day, rustc_hash::FxHashSet<crate::engine::event::Id>> =
        HashMap::default();
    let mut silver = Silver::default();
    for run in &outcome.runs {
        silver.apply(run);
        for dt in run.finalised.iter().filter(|d| august(**d)) {
            let part = silver.partition(*dt);
            held.insert(
                *dt,
                part.map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            );
            let value = part.map_or(0, |p| {
                p.iter()
                    .map(|(id, n)| amount.get(id.as_ref()).copied().unwrap_or(0) * *n as i64)
                    .sum()
            });
            let mut doubled: Vec<String> = part
                .map(|p| {
                    p.iter()
                        .filter(|(_, n)| **n > 1)
                        .map(|(id, _)| id.to_string())
                        .collect()
                })
                .unwrap_or_default();
            crate::lean::order::sort(&mut doubled);
            at_final.insert(*dt, (value, doubled));
        }
    }
    for dt in days(first(), last()) {
        at_final
            .entry(dt)
            .or_insert_with(|| partition_value(outcome.silver.partition(dt)));
    }
    let kept: i64 = at_final.values().map(|(v, _)| *v).sum();
    let share = if total == 0 {
        10_000
    } else {
        kept * 10_000 / total
    };
    let doubled: Vec<String> = at_final
        .values()
        .flat_map(|(_, d)| d.iter().cloned())
        .collect();
    let mut evidence = Vec::new();
    if share < SHARE_BP {
        let worst = at_final
            .iter()
            .map(|(dt, (v, _))| {
                let day_total: i64 = script
                    .events
                    .iter()
                    .filter(|e| e.event_date() == *dt)
                    .map(|e| e.amount.minor)
                    .sum();
                (
                    *dt,
                    if day_total == 0 {
                        10_000
                    } else {
                        v * 10_000 / day_total
                    },
                )
            })
            .min_by_key(|(_, bp)| *bp);
        evidence.push(format!(
            "When August's partitions became final they held {} of August's value ({} of {}); at least {} is required.{}",
            percent(share),
            Money::gbp(kept).grouped(),
            Money::gbp(total).grouped(),
            percent(SHARE_BP),
            worst
                .map(|(dt, bp)| format!(" The thinnest was {dt}, with {} of its value.", percent(bp)))
                .unwrap_or_default()
        ));
    }
    if !doubled.is_empty() {
        evidence.push(format!(
            "{} counted twice in {} final partition: {}.",
            match doubled.len() {
                1 => "1 purchase was".to_string(),
                n => format!("{} were", counted(n, "purchase")),
            },
            if doubled.len() == 1 { "its" } else { "their" },
            some_ids(&doubled)
        ));
    }
    // Short of the share: the purchases their partition lacked when it
    // became final (or at the end, for one never final).
    let absent: Vec<crate::engine::event::Id> = if share < SHARE_BP {
        script
            .events
            .iter()
            .filter(|e| august(e.event_date()))
            .filter(|e| match held.get(&e.event_date()) {
                Some(ids) => !ids.contains(&e.id),
                None => !outcome
                    .silver
                    .partition(e.event_date())
                    .iter()
                    .any(|r| r.id == e.id),
            })
            .map(|e| e.id.clone())
            .collect()
    } else {
        Vec::new()
    };
    result(
        RULES[0],
        share >= SHARE_BP && doubled.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State, NodeKind::Finaliser]),
    )
    .about(absent.iter().map(|id| id.to_string()).chain(doubled))
}

/// A partition's value and its doubled ids.
fn partition_value(rows: &[crate::engine::table::Row]) -> (i64, Vec<String>) {
    let mut seen: HashMap<&str, usize> = HashMap::default();
    for r in rows {
        *seen.entry(r.id.as_ref()).or_insert(0) += 1;
    }
    let mut doubled: Vec<String> = seen
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, _)| id.to_string())
        .collect();
    crate::lean::order::sort(&mut doubled);
    (rows.iter().map(|r| r.raw.minor).sum(), doubled)
}

fn final_by_the_close(graph: &Graph, outcome: &Outcome) -> RuleResult {
    let late: Vec<(Day, Option<Instant>)> = days(first(), last())
        .map(|dt| (dt, outcome.finalised.get(&dt).copied()))
        .filter(|(_, at)| at.is_none_or(|t| t > close()))
        .collect();
    let evidence = match late.first() {
        None => Vec::new(),
        Some((dt, when)) => {
            let dts: Vec<String> = late.iter().map(|(d, _)| d.to_string()).collect();
            vec![format!(
                "{} not final by {}: {}. For example {dt} {}.",
                match late.len() {
                    1 => "1 August partition was".to_string(),
                    n => format!("{} were", counted(n, "August partition")),
                },
                weekday_day_month_time(close()),
                some_ids(&dts),
                match when {
                    Some(t) => format!("became final only at {}", weekday_day_month_time(*t)),
                    None => "never became final".to_string(),
                }
            )]
        }
    };
    result(
        RULES[1],
        late.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::Finaliser]),
    )
}

fn late_purchases_adjusted_once(graph: &Graph, script: &Script, outcome: &Outcome) -> RuleResult {
    let mut booked: HashMap<&str, usize> = HashMap::default();
    for a in &outcome.adjustments {
        *booked.entry(a.id.as_ref()).or_insert(0) += 1;
    }
    let after_final: Vec<&Event> = script
        .events
        .iter()
        .filter(|e| outcome.arrived_after_final(e))
        .collect();
    let last_run = outcome.runs.last().map(|r| r.at);
    let missing: Vec<&str> = after_final
        .iter()
        .filter(|e| last_run.is_some_and(|t| e.arrived_at <= t))
        .filter(|e| !booked.contains_key(e.id.as_ref()))
        .map(|e| e.id.as_ref())
        .collect();
    let twice: Vec<&str> = booked
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, _)| *id)
        .collect();
    let mut evidence = Vec::new();
    if !outcome.dropped.is_empty() {
        let ids: Vec<&str> = outcome.dropped.iter().map(|id| id.as_ref()).collect();
        evidence.push(format!(
            "{} dropped: {}.",
            match ids.len() {
                1 => "1 late purchase was".to_string(),
                n => format!("{} were", counted(n, "late purchase")),
            },
            some_ids(&ids)
        ));
    } else if !missing.is_empty() {
        evidence.push(format!(
            "{}: {}.",
            match missing.len() {
                1 => "1 purchase arrived after its partition was final but is not in the adjustments table".to_string(),
                n => format!("{} arrived after their partition was final but are not in the adjustments table", counted(n, "purchase")),
            },
            some_ids(&missing)
        ));
    }
    if !twice.is_empty() {
        evidence.push(format!(
            "{} in the adjustments table more than once: {}.",
            match twice.len() {
                1 => "1 purchase is".to_string(),
                n => format!("{} are", counted(n, "purchase")),
            },
            some_ids(&twice)
        ));
    }
    // A write into a partition finalised before the run started.
    let rewritten = |r: &crate::engine::trace::RunTrace| -> Vec<String> {
        r.writes
            .iter()
            .filter(|w| outcome.finalised.get(&w.dt).is_some_and(|f| *f < r.at))
            .map(|w| w.dt.to_string())
            .collect()
    };
    if let Some(run) = outcome.runs.iter().find(|r| !rewritten(r).is_empty()) {
        let count = outcome
            .runs
            .iter()
            .filter(|r| !rewritten(r).is_empty())
            .count();
        let dts = rewritten(run);
        evidence.push(format!(
            "{} partitions that were already final. For example {} rewrote {}.",
            match count {
                1 => "1 run wrote".to_string(),
                n => format!("{} wrote", counted(n, "run")),
            },
            run_name(run),
            some_ids(&dts)
        ));
    }
    let rows: Vec<&str> = outcome
        .dropped
        .iter()
        .map(|id| id.as_ref())
        .chain(missing.iter().copied())
        .chain(twice.iter().copied())
        .collect();
    result(
        RULES[2],
        evidence.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::Finaliser, NodeKind::Write]),
    )
    .about(rows)
}

fn runs_write_at_most_lateness_plus_one(
    graph: &Graph,
    outcome: &Outcome,
    lateness: Option<u32>,
) -> RuleResult {
    let Some(most) = lateness.map(|l| usize::try_from(l).unwrap_or(usize::MAX).saturating_add(1))
    else {
        // Without a finaliser there is no L to hold a run to (R2 says so).
        return result(RULES[3], true, Vec::new(), Vec::new());
    };
    let upto =
        |r: &&crate::engine::trace::RunTrace| r.writes.iter().filter(|w| w.dt <= r.day).count();
    let wide: Vec<_> = outcome.runs.iter().filter(|r| upto(r) > most).collect();
    let evidence = match wide.first() {
        None => Vec::new(),
        Some(run) => {
            let dts: Vec<String> = run
                .writes
                .iter()
                .filter(|w| w.dt <= run.day)
                .map(|w| w.dt.to_string())
                .collect();
            vec![format!(
                "{} more than {} dated up to {} own day. For example {} wrote {}: {}.",
                match wide.len() {
                    1 => "1 run wrote".to_string(),
                    n => format!("{} wrote", counted(n, "run")),
                },
                counted(most, "partition"),
                if wide.len() == 1 { "its" } else { "their" },
                run_name(run),
                dts.len(),
                some_ids(&dts)
            )]
        }
    };
    result(
        RULES[3],
        wide.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State, NodeKind::Finaliser]),
    )
}
