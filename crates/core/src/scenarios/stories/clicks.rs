//! Scenario 1, "Clicks, forward": two weeks of immutable clicks, a crash
//! retried at 02:05 and a manual re-run, graded on what the engine did.

use crate::counted::counted;
use crate::lean::sorted::SortedMap;

use rustc_hash::FxHashMap as HashMap;

use chrono::Duration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::design::choose::Palette;
use crate::design::{Graph, NodeKind};
use crate::engine::calendar::{
    at, day_month_long, days, mm_dd, shift, weekday_day_month_long, weekday_day_month_time, Day,
    Instant,
};
use crate::engine::event::Event;
use crate::engine::generate::daily_runs;
use crate::engine::money::Money;
use crate::engine::script::{RunKind, RunSpec, Script};
use crate::engine::trace::Outcome;
use crate::scenarios::grading::judge::DailyRule;
use crate::scenarios::scenario::{
    Judge, Judges, Remake, Running, Scenario, Text, Vary, FRESH_MOVES_FIGURES,
};
use crate::variant::Variant;
use std::sync::OnceLock;

use crate::scenarios::grading::replay::Silver;
use crate::scenarios::grading::report::{
    capital, lines, nodes_of, reads_at_most, result, run_name, some_ids, Evidence, Rule, RuleResult,
};

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 1,
    title: "Clicks, forward",
    brief: "Two weeks of immutable click events, some of them hours late, one crashed run and one manual re-run: load them incrementally without losing or doubling a click.",
    idea: "append-style incremental",
    source: "bronze.clicks",
    story: Text::Fixed(&[
        "Marlow's web shop logs every click on a product page into bronze.clicks. A click never changes once written, but the logging pipeline sometimes holds a batch back for hours, so some clicks land long after they happened.",
        "Build the daily job that fills silver.clicks, one partition per event date. The job runs at 02:00 for the day before. This fortnight, one night's run dies after writing and the scheduler retries it five minutes later, and an engineer re-runs one day by hand the next afternoon.",
    ]),
    facts: Text::Made(facts),
    history: false,
    drift_query: false,
    palette: Palette {
        table: "silver.clicks",
        first: first(),
        last: last(),
        logic_matters: false,
        outage: false,
    },
    rules: &RULES,
    vary: Some(Vary {
        chapter_tells: "the chapter says which run crashes and which day is re-run by hand",
        data_tells: "its own clicks, crash and re-run, and \"Check my design\" runs your design on them",
        fresh_moves: FRESH_MOVES_FIGURES,
    }),
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 1,
    judges: Judges::Daily(&JUDGES),
    make: script,
    remake: Some(Remake {
        script: script_for,
        // A design names no day of the fortnight: it is the chapter's in
        // every variant.
        design: |graph, _| graph.clone(),
    }),
    made: OnceLock::new(),
};

pub const SEED: u64 = 1;
pub const CLICKS_PER_DAY: u32 = 300;
/// A partition is final once the run for D+2 has run.
pub const FINAL_AFTER_DAYS: i64 = 2;
/// R3's bound on bronze partitions read by one run.
pub const MOST_PARTITIONS_READ: usize = 3;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 3] = [
    Rule {
        id: "R1",
        text: "Every click that arrived before its partition was final is in its event-date partition.",
        concept: "lookback window",
    },
    Rule {
        id: "R2",
        text: "A re-run (the scheduler's retry, the manual re-run) never duplicates or removes a row.",
        concept: "idempotent write",
    },
    Rule {
        id: "R3",
        text: "No run reads more than 3 bronze partitions (for a watermark run: the distinct event dates it read).",
        concept: "incremental read",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one simulation.
pub const JUDGES: [Judge<DailyRule>; 3] = [
    Judge {
        id: "R1",
        judge: |graph, script, ran| arrived_clicks_in_their_partition(graph, script, &ran.outcome),
    },
    Judge {
        id: "R2",
        judge: |graph, _, ran| reruns_neither_duplicate_nor_remove(graph, &ran.outcome),
    },
    Judge {
        id: "R3",
        judge: |graph, _, ran| reads_at_most(RULES[2], MOST_PARTITIONS_READ, graph, &ran.outcome),
    },
];

pub const fn first() -> Day {
    const { crate::engine::calendar::date(2026, 6, 1) }
}

pub const fn last() -> Day {
    const { crate::engine::calendar::date(2026, 6, 14) }
}

/// The run for `day` (at 02:00 the next morning).
fn run_time(day: Day) -> Instant {
    at(shift(day, 1), 2, 0)
}

/// When partition `dt` becomes final: the run for D+2.
pub fn final_at(dt: Day) -> Instant {
    run_time(shift(dt, FINAL_AFTER_DAYS))
}

/// Arrival delay: 88 % within 10 min, 9 % 10 min - 6 h, 3 % 6 h - 25 h 50 min.
fn delay(rng: &mut ChaCha8Rng) -> Duration {
    let seconds = match rng.random_range(0..1000u32) {
        0..880 => rng.random_range(5..=600),
        880..970 => rng.random_range(600..=6 * 3600),
        _ => rng.random_range(6 * 3600..=25 * 3600 + 50 * 60),
    };
    Duration::seconds(seconds)
}

/// What a variant moves in scenario 1 (SPEC 14): the clicks themselves,
/// how many a day, the night whose run crashes and the day re-run by
/// hand. The delays' shape, when a partition is final and R3's bound stay
/// as they are: they are the rules' meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fortnight {
    pub seed: u64,
    pub per_day: u32,
    /// The day whose run crashes after writing (retried at 02:05).
    pub crash: Day,
    /// The day re-run by hand, the next afternoon at 14:00.
    pub rerun: Day,
}

impl Fortnight {
    pub const CHAPTER: Fortnight = Fortnight {
        seed: SEED,
        per_day: CLICKS_PER_DAY,
        crash: crate::engine::calendar::date(2026, 6, 3),
        rerun: crate::engine::calendar::date(2026, 6, 8),
    };

    /// `variant`'s fortnight: the chapter's for the chapter's data.
    pub fn of(variant: Variant) -> Fortnight {
        if variant.is_chapter() {
            return Fortnight::CHAPTER;
        }
        let june = |n: u32| shift(first(), i64::from(n) - 1);
        // Both faults fall between the 2nd and the 12th, on two different
        // days, so each re-run has a run before it to repeat and late
        // clicks after it to miss.
        let crash = variant.pick("scenario 1: crash", 2..=12);
        let rerun = variant.pick("scenario 1: re-run", 2..=11);
        Fortnight {
            seed: variant.seed("scenario 1: clicks"),
            per_day: variant.pick("scenario 1: clicks a day", 24..=36) * 10,
            crash: june(crash),
            rerun: june(if rerun >= crash { rerun + 1 } else { rerun }),
        }
    }

    /// When the day re-run by hand is re-run.
    pub fn rerun_at(&self) -> Instant {
        at(shift(self.rerun, 1), 14, 0)
    }
}

/// The numbers the page gives, in `variant`'s fortnight.
fn facts(variant: Variant) -> Vec<String> {
    let f = Fortnight::of(variant);
    vec![
        format!("Clicks from 1 to 14 June 2026, {} a day; they never change.", f.per_day),
        "Arrival delay: 88 % within 10 minutes, 9 % between 10 minutes and 6 hours, 3 % between 6 hours and 25 h 50 min.".to_string(),
        "Runs daily at 02:00 for the day before. A day's partition is final after the run for the day two days later, at 02:00 three days after it.".to_string(),
        format!(
            "Faults: the run for {} crashes after writing and is retried at 02:05; the run for {} is re-run by hand on {} at 14:00.",
            day_month_long(f.crash),
            day_month_long(f.rerun),
            weekday_day_month_long(f.rerun_at().date()),
        ),
    ]
}

/// The chapter's week and a half: clicks, daily runs through the day every
/// partition is final, the crash of the run for 06-03 (retried at 02:05)
/// and the manual re-run of 06-08 on Tue 9 Jun at 14:00.
pub fn script() -> Script {
    script_for(Variant::CHAPTER)
}

/// `variant`'s week and a half, its faults on its own days.
pub fn script_for(variant: Variant) -> Script {
    let f = Fortnight::of(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(f.seed);
    let mut events = Vec::new();
    for day in days(first(), last()) {
        for n in 0..f.per_day {
            let event_time = at(day, 0, 0) + Duration::seconds(rng.random_range(0..86_400));
            let arrived = event_time + delay(&mut rng);
            let id = format!("c-{}-{:03}", mm_dd(day).replace('-', ""), n + 1);
            events.push(Event::immutable(&id, event_time, arrived, Money::gbp(0)));
        }
    }
    let mut runs = daily_runs(first(), shift(last(), FINAL_AFTER_DAYS), 2, 0);
    for run in runs.iter_mut().filter(|r| r.day == f.crash) {
        run.crash_then_retry_at = Some(run.at + Duration::minutes(5));
    }
    runs.push(RunSpec::manual(f.rerun_at(), f.rerun));
    Script::new(first(), events, runs)
}

fn arrived_clicks_in_their_partition(
    graph: &Graph,
    script: &Script,
    outcome: &Outcome,
) -> RuleResult {
    let mut missing: SortedMap<Day, Vec<&Event>> = SortedMap::new();
    for event in &script.events {
        let dt = event.event_date();
        if event.arrived_at < final_at(dt)
            && !outcome
                .silver
                .partition(dt)
                .iter()
                .any(|r| r.id == event.id)
        {
            missing.entry(dt).or_default().push(event);
        }
    }
    let found_in: HashMap<&str, Day> = outcome
        .silver
        .rows()
        .map(|r| (r.id.as_ref(), r.dt))
        .collect();
    let evidence = missing
        .iter()
        .map(|(dt, events)| {
            let ids: Vec<&str> = events.iter().map(|e| e.id.as_ref()).collect();
            let first = events[0];
            let elsewhere = found_in
                .get(first.id.as_ref())
                .map(|d| format!(" It sits in {d} instead."))
                .unwrap_or_default();
            Evidence::at(*dt, format!(
                "Partition {dt}: {} missing ({}). Expected {}, found {}. For example {} happened {} and arrived {}, before the partition was final ({}).{elsewhere}",
                counted(events.len(), "click"),
                some_ids(&ids),
                script.events.iter().filter(|e| e.event_date() == *dt && e.arrived_at < final_at(*dt)).count(),
                outcome.silver.partition(*dt).len(),
                first.id,
                weekday_day_month_time(first.event_time),
                weekday_day_month_time(first.arrived_at),
                weekday_day_month_time(final_at(*dt)),
            ))
        })
        .collect();
    result(
        RULES[0],
        missing.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::State, NodeKind::Write]),
    )
    .about(missing.values().flatten().map(|e| e.id.clone()))
}

fn reruns_neither_duplicate_nor_remove(graph: &Graph, outcome: &Outcome) -> RuleResult {
    let mut evidence = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    let mut silver = Silver::default();
    for run in &outcome.runs {
        if run.kind == RunKind::Scheduled {
            silver.apply(run);
            continue;
        }
        let before: HashMap<String, usize> = silver
            .counts()
            .into_iter()
            .map(|(id, n)| (id.to_string(), n))
            .collect();
        silver.apply(run);
        let after = silver.counts();
        let mut removed: Vec<&str> = before
            .keys()
            .filter(|id| !after.contains_key(id.as_str()))
            .map(String::as_str)
            .collect();
        let mut doubled: Vec<&str> = after
            .iter()
            .filter(|(id, n)| **n > before.get(**id).copied().unwrap_or(0).max(1))
            .map(|(id, _)| *id)
            .collect();
        crate::lean::order::sort(&mut removed);
        crate::lean::order::sort(&mut doubled);
        rows.extend(doubled.iter().chain(&removed).map(|id| id.to_string()));
        if !doubled.is_empty() {
            let dts: Vec<String> = silver
                .partitions
                .iter()
                .filter(|(_, part)| {
                    doubled
                        .iter()
                        .any(|id| part.get(*id).is_some_and(|n| *n > 1))
                })
                .map(|(dt, _)| dt.to_string())
                .collect();
            evidence.push(format!(
                "{} wrote a second copy of {} already there, in {} {}: {}.",
                capital(&run_name(run)),
                counted(doubled.len(), "row"),
                if dts.len() == 1 {
                    "partition"
                } else {
                    "partitions"
                },
                dts.join(", "),
                some_ids(&doubled)
            ));
        }
        if !removed.is_empty() {
            evidence.push(format!(
                "{} removed {} that {} there before it: {}.",
                capital(&run_name(run)),
                counted(removed.len(), "row"),
                if removed.len() == 1 { "was" } else { "were" },
                some_ids(&removed)
            ));
        }
    }
    result(
        RULES[1],
        evidence.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State, NodeKind::Write]),
    )
    .about(rows)
}
