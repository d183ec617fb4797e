//! Scenario 6, "The scheduler was down": a fortnight of sales, the
//! scheduler down for four nights (in the chapter, from Tuesday night to
//! Friday morning; a variant moves them), graded on whether
//! every day is whole once it is back. A partition list and a watermark
//! catch up by themselves; a trailing window only if the scheduler runs
//! what it missed (SPEC 11).

use crate::counted::counted;
use crate::lean::sorted::SortedMap;

use chrono::{Datelike, Duration};
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
use crate::engine::script::{Outage, Script};
use crate::engine::trace::{Outcome, RunTrace};
use crate::scenarios::grading::judge::DailyRule;
use crate::scenarios::scenario::{
    Judge, Judges, Remake, Running, Scenario, Text, Vary, FRESH_MOVES_FIGURES,
};
use crate::variant::Variant;
use std::sync::OnceLock;

use crate::scenarios::grading::report::{
    lines, nodes_of, reads_at_most, result, run_name, some_ids, Evidence, Rule, RuleResult,
};

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 6,
    title: "The scheduler was down",
    brief: "The scheduler's database failed in the small hours, and nothing ran for three and a half days. Design the daily sales load so that every day is whole again once it is back, whatever it missed.",
    idea: "catch-up after an outage",
    source: "bronze.sales",
    story: Text::Made(story),
    facts: Text::Made(facts),
    history: false,
    drift_query: false,
    palette: Palette {
        table: "silver.sales",
        first: first(),
        last: last(),
        logic_matters: false,
        outage: true,
    },
    rules: &RULES,
    vary: Some(Vary {
        chapter_tells: "the chapter says which nights the scheduler missed",
        data_tells: "its own sales and its own nights without a scheduler, and \"Check my design\" runs your design on them",
        fresh_moves: FRESH_MOVES_FIGURES,
    }),
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 6,
    judges: Judges::Daily(&JUDGES),
    make: script,
    remake: Some(Remake {
        script: script_for,
        // A design names no day of the fortnight, and every outage misses
        // four nights: it is the chapter's in every variant.
        design: |graph, _| graph.clone(),
    }),
    made: OnceLock::new(),
};

pub const SEED: u64 = 6;
pub const SALES_PER_DAY: u32 = 60;
/// R3's bound on bronze partitions read by one run: a catch-up by a list
/// or a watermark reads the missed days at once and stays under it; a full
/// refresh reads the whole fortnight.
pub const MOST_PARTITIONS_READ: usize = 7;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 3] = [
    Rule {
        id: "R1",
        text: "Once the scheduler is back, every sale that arrived by the last run is in its sale-date partition.",
        concept: "catch-up",
    },
    Rule {
        id: "R2",
        text: "No sale is stored twice.",
        concept: "idempotent write",
    },
    Rule {
        id: "R3",
        text: "No run reads more than 7 bronze partitions (for a watermark run: the distinct sale dates it read).",
        concept: "incremental read",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one simulation.
pub const JUDGES: [Judge<DailyRule>; 3] = [
    Judge {
        id: "R1",
        judge: |graph, script, ran| every_day_whole(graph, script, ran),
    },
    Judge {
        id: "R2",
        judge: |graph, _, ran| no_sale_twice(graph, &ran.outcome),
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

/// What a variant moves in scenario 6 (SPEC 14): the sales, how many a
/// day, and which nights the scheduler is down. The outage is always four
/// nights long, from 01:30 to 11:00 three days later, and over by Friday
/// 12 June (finance reads on Monday): the known designs keep their
/// verdicts and R3's bound its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Downtime {
    pub seed: u64,
    pub per_day: u32,
    /// The day the database fails, at 01:30, before that night's run.
    pub down: Day,
}

impl Downtime {
    pub const CHAPTER: Downtime = Downtime {
        seed: SEED,
        per_day: SALES_PER_DAY,
        down: crate::engine::calendar::date(2026, 6, 9),
    };

    /// `variant`'s: the chapter's for the chapter's data.
    pub fn of(variant: Variant) -> Downtime {
        if variant.is_chapter() {
            return Downtime::CHAPTER;
        }
        // From Wednesday 3 June (the run for the 1st ran before it) to the
        // chapter's Tuesday 9 June.
        let down = variant.pick("scenario 6: down", 3..=9);
        Downtime {
            seed: variant.seed("scenario 6: sales"),
            per_day: variant.pick("scenario 6: sales a day", 8..=16) * 5,
            down: shift(first(), i64::from(down) - 1),
        }
    }

    /// The scheduler's time down: 01:30 on `down` to 11:00 three days
    /// later, so the runs at 02:00 on those four mornings never start.
    pub fn outage(&self) -> Outage {
        Outage {
            from: at(self.down, 1, 30),
            until: at(shift(self.down, 3), 11, 0),
        }
    }

    /// The days whose runs it misses: the day before it to the day
    /// before it ends.
    pub fn missed(&self) -> (Day, Day) {
        (shift(self.down, -1), shift(self.down, 2))
    }
}

/// The chapter's outage: down on Tuesday 9 June at 01:30, back on Friday
/// 12 June at 11:00, the runs at 02:00 on the 9th to the 12th never start.
pub fn outage() -> Outage {
    Downtime::CHAPTER.outage()
}

/// The situation in `variant`'s numbers.
fn story(variant: Variant) -> Vec<String> {
    let d = Downtime::of(variant);
    let outage = d.outage();
    vec![
        "Marlow's till system writes every sale into bronze.sales; a few reach bronze hours late, never more than a day. A daily job at 02:00 builds the day before into silver.sales, one partition per sale date.".to_string(),
        format!(
            "On {} at 01:30 the scheduler's metadata database failed. Nothing was scheduled until {} at 11:00: four nightly runs never started. Finance reads silver.sales on Monday and expects every day of the fortnight to be whole.",
            weekday_day_month_long(outage.from.date()),
            weekday_day_month_long(outage.until.date()),
        ),
    ]
}

/// The numbers the page gives, in `variant`'s fortnight.
fn facts(variant: Variant) -> Vec<String> {
    let d = Downtime::of(variant);
    let outage = d.outage();
    let (first_missed, last_missed) = d.missed();
    vec![
        format!("Sales 1 to 14 June 2026, {} a day; a sale never changes once written.", d.per_day),
        "Arrival: 90 % within 10 minutes, 10 % between 10 minutes and 20 hours after the sale.".to_string(),
        "Runs daily at 02:00 for the day before, the last at 02:00 on 16 June (for the 15th, which picks up the 14th's late sales).".to_string(),
        format!(
            "Outage: the scheduler is down from {} 01:30 to {} 11:00, so the runs for {} to {} are missed. The processing state node asks whether the scheduler catches up (Airflow's catchup=True) when it is back.",
            weekday_day_month_long(outage.from.date()),
            weekday_day_month_long(outage.until.date()),
            first_missed.day(),
            day_month_long(last_missed),
        ),
    ]
}

/// Arrival delay: 90 % within 10 minutes, 10 % from 10 minutes to 20 hours.
fn delay(rng: &mut ChaCha8Rng) -> Duration {
    let seconds = match rng.random_range(0..100u32) {
        0..90 => rng.random_range(5..=600),
        _ => rng.random_range(600..=20 * 3600),
    };
    Duration::seconds(seconds)
}

/// The chapter's fortnight of sales, daily runs at 02:00 through the 15th
/// (for the 14th's late sales) and the outage.
pub fn script() -> Script {
    script_for(Variant::CHAPTER)
}

/// `variant`'s fortnight: its own sales and its own nights down.
pub fn script_for(variant: Variant) -> Script {
    let d = Downtime::of(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(d.seed);
    let mut events = Vec::new();
    for day in days(first(), last()) {
        for n in 0..d.per_day {
            let sold = at(day, 8, 0) + Duration::seconds(rng.random_range(0..14 * 3600));
            let arrived = sold + delay(&mut rng);
            let id = format!("s-{}-{:02}", mm_dd(day).replace('-', ""), n + 1);
            let pence = rng.random_range(150..=4_999i64);
            events.push(Event::immutable(
                &id,
                sold,
                arrived,
                Money::new(pence, crate::engine::money::Currency::Gbp),
            ));
        }
    }
    let runs = daily_runs(first(), shift(last(), 1), 2, 0);
    let mut script = Script::new(first(), events, runs);
    script.outages.push(d.outage());
    script
}

/// The scheduled run for `dt`, if the script has one.
fn due(script: &Script, dt: Day) -> Option<Instant> {
    script.runs.iter().find(|r| r.day == dt).map(|r| r.at)
}

fn every_day_whole(
    graph: &Graph,
    script: &Script,
    ran: &crate::scenarios::grading::judge::Daily,
) -> RuleResult {
    let outcome = &ran.outcome;
    let end = outcome.runs.last().map(|r| r.at);
    let mut missing: SortedMap<Day, Vec<&Event>> = SortedMap::new();
    for event in &script.events {
        let dt = event.event_date();
        if end.is_some_and(|end| event.arrived_at <= end)
            && !outcome
                .silver
                .partition(dt)
                .iter()
                .any(|r| r.id == event.id)
        {
            missing.entry(dt).or_default().push(event);
        }
    }
    let evidence = missing
        .iter()
        .map(|(dt, events)| {
            let ids: Vec<&str> = events.iter().map(|e| e.id.as_ref()).collect();
            let read_by: Vec<&RunTrace> = outcome
                .runs
                .iter()
                .filter(|r| r.partitions_read.contains(dt))
                .collect();
            let why = match (read_by.last(), due(script, *dt)) {
                (None, Some(at)) if script.outage_at(at).is_some() => format!(
                    "No run ever read it: its run was due {}, while the scheduler was down, and no run after it reached back to {dt}.",
                    weekday_day_month_time(at)
                ),
                (None, _) => format!("No run ever read {dt}."),
                (Some(run), _) => format!(
                    "The last run to read it was {}; the missing sales arrived after it (for example {} at {}).{}",
                    run_name(run),
                    events[0].id,
                    weekday_day_month_time(events[0].arrived_at),
                    next_night_missed(script, ran, *dt),
                ),
            };
            Evidence::at(
                *dt,
                format!(
                    "Partition {dt}: {} of {} sales missing ({}). {why}",
                    events.len(),
                    script.events.iter().filter(|e| e.event_date() == *dt).count(),
                    some_ids(&ids),
                ),
            )
        })
        .collect();
    result(
        RULES[0],
        missing.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::State]),
    )
    .about(missing.values().flatten().map(|e| e.id.clone()))
}

/// The night after `dt` is when a pipeline that re-reads the day before
/// (a lookback or a window of a day or more) picks up `dt`'s late sales:
/// say so when that run fell in the outage and never ran.
fn next_night_missed(
    script: &Script,
    ran: &crate::scenarios::grading::judge::Daily,
    dt: Day,
) -> String {
    use crate::engine::ProcessingState;
    let rereads = match ran.config.state {
        ProcessingState::PartitionList { lookback, .. } => lookback >= 1,
        ProcessingState::TrailingWindow { days } => days >= 1,
        _ => false,
    };
    let next = shift(dt, 1);
    let happened = ran.outcome.runs.iter().any(|r| r.day == next);
    match due(script, next) {
        Some(at) if rereads && !happened && script.outage_at(at).is_some() => format!(
            " The run for {next}, the night after, which re-reads the day before it, was due {} while the scheduler was down, and never ran.",
            weekday_day_month_time(at)
        ),
        _ => String::new(),
    }
}

fn no_sale_twice(graph: &Graph, outcome: &Outcome) -> RuleResult {
    let mut copies: SortedMap<&str, Vec<&crate::engine::table::Row>> = SortedMap::new();
    for row in outcome.silver.rows() {
        copies.entry(row.key.as_ref()).or_default().push(row);
    }
    let twice: Vec<(&str, Vec<&crate::engine::table::Row>)> = copies
        .into_iter()
        .filter(|(_, rows)| rows.len() > 1)
        .collect();
    let evidence = twice
        .first()
        .map(|(_, rows)| {
            let ids: Vec<&str> = twice.iter().map(|(id, _)| *id).collect();
            let writers: Vec<String> = rows
                .iter()
                .filter_map(|r| outcome.runs.get(r.written_by))
                .map(run_name)
                .collect();
            vec![format!(
                "{} {} stored more than once: {}. The first was written by {}.",
                counted(twice.len(), "sale"),
                if twice.len() == 1 { "is" } else { "are" },
                some_ids(&ids),
                writers.join(" and again by "),
            )]
        })
        .unwrap_or_default();
    let rows: Vec<crate::engine::event::Id> = twice
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|r| r.id.clone()))
        .collect();
    result(
        RULES[1],
        twice.is_empty(),
        lines(evidence),
        nodes_of(graph, &[NodeKind::State, NodeKind::Write]),
    )
    .about(rows)
}
