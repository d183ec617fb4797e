//! Scenario 4, "The currency bug": the broken conversion built silver and
//! gold for 3..13 August (a variant's own ship date to the 13th); the backfill launched at 01:30 on Saturday the
//! 15th must repair exactly those partitions, in order, while tonight's
//! 02:00 run builds the 14th with the fixed code and needs a connection.

use crate::counted::{counted, grouped};
use crate::lean::sorted::{SortedMap, SortedSet};

use crate::design::{Graph, NodeKind};
use crate::engine::calendar::{at, day_month, hh_mm, shift, weekday_day_month_time, Day, Instant};
use crate::engine::clock::StepKind;
use crate::engine::drift::{gold_drift, silver_drift, DriftRow};
use crate::engine::generate::{daily_runs, fx_rates, orders, CurrencyMix, DelayProfile, OrderSpec};
use crate::engine::money::Money;
use crate::engine::rebuild::Reads;
use crate::engine::script::{Deploy, RunSpec, Script};
use crate::engine::LogicVersion;

use crate::design::choose::Palette;
use crate::scenarios::grading::backfilled::{Backfilled, Setting};
use crate::scenarios::grading::judge::BackfillRule;
use crate::scenarios::grading::report::{
    capped, nodes_of, result, Evidence, Rule, RuleResult, SHOWN,
};
use crate::scenarios::scenario::{Judge, Judges, Remake, Running, Scenario, Text, Vary};
use crate::variant::Variant;
use std::sync::OnceLock;

/// The scenario as its page states it: story, numbers, palette and rules.
pub static SCENARIO: Scenario = Scenario {
    number: 4,
    title: "The currency bug",
    brief: "A conversion bug wrote short GBP totals for part of August: find which days from the drift query, rebuild exactly those, in the right order, without starving tonight's scheduled run.",
    idea: "blast radius",
    source: "bronze.orders",
    story: Text::Fixed(&[
        "A change to the currency conversion truncated exchange rates to two decimals. It went out early in August and the nightly runs built silver and gold with it until the fix went live on the 14th; tonight's run will build the 14th correctly. Nobody is sure of the deploy date.",
        "The evidence is the drift query below. It recomputes each day of silver from bronze with the fixed logic, from the look-back date you choose, and lists the days more than a penny out. Plan the backfill from what it finds: which dates, from which layer, in which order, how many at a time, without taking the connection tonight's scheduled run needs.",
    ]),
    facts: Text::Fixed(&[
        "Orders 1 to 14 August, 120 a day: 50 % GBP, 30 % EUR, 20 % USD; daily rates to 6 decimals.",
        "The backfill starts Saturday 15 August at 01:30; per partition silver takes 25 min and gold 10 min.",
        "The source pool has 4 connections; tonight's 02:00 run needs one for 15 minutes.",
        "On the canvas a backfill job drives the transform it connects to: each date runs that transform's logic, reads the layer it reads and writes with its write target's mode.",
    ]),
    history: false,
    drift_query: true,
    palette: Palette {
        table: "silver.orders",
        first: crate::engine::calendar::date(2026, 8, 1),
        last: crate::engine::calendar::date(2026, 8, 14),
        logic_matters: true,
        outage: false,
    },
    rules: &RULES,
    vary: Some(Vary {
        chapter_tells: "the chapter says which days to rebuild",
        data_tells: "the bug shipped on a day only the drift query tells, and \"Check my design\" runs your design on this data",
        fresh_moves: "Fresh data changes them, so only the data can tell you.",
    }),
};

/// What runs and judges it (`Scenario::running`): the grader's, the
/// exporters' and the class page's, kept out of the page's first load.
pub static RUNNING: Running = Running {
    number: 4,
    judges: Judges::Backfill {
        judges: &JUDGES,
        setting,
    },
    make: script,
    remake: Some(Remake {
        script: script_for,
        design: for_variant,
    }),
    made: OnceLock::new(),
};

pub const SEED: u64 = 4;
pub const ORDERS_PER_DAY: u32 = 120;
pub const POOL: u32 = 4;
pub const SILVER_MINUTES: i64 = 25;
pub const GOLD_MINUTES: i64 = 10;
/// Tonight's run holds one connection this long.
pub const TONIGHT_MINUTES: i64 = 15;

/// The rules, as the page states them; `JUDGES` decides each.
pub const RULES: [Rule; 6] = [
    Rule {
        id: "R1",
        text: "Afterwards the drift query returns no partition, in silver or in gold.",
        concept: "blast radius",
    },
    Rule {
        id: "R2",
        text: "No partition outside the blast radius (the partitions the drift query returned before the backfill) is rewritten.",
        concept: "blast radius",
    },
    Rule {
        id: "R3",
        text: "The rebuild reads bronze, not the silver the broken code wrote.",
        concept: "partition reprocess",
    },
    Rule {
        id: "R4",
        text: "Gold for a date is rebuilt after its silver, and the finance report is restated after all gold has landed.",
        concept: "restatement",
    },
    Rule {
        id: "R5",
        text: "Tonight's 02:00 run gets its source connection on time.",
        concept: "source pool",
    },
    Rule {
        id: "R6",
        text: "The backfill runs the fixed logic.",
        concept: "logic version",
    },
];

/// Each rule's judge, in the rules' order; a judge reads the one run of
/// the design's backfill (the check panel draws the same run).
pub const JUDGES: [Judge<BackfillRule>; 6] = [
    Judge {
        id: "R1",
        judge: no_drift_afterwards,
    },
    Judge {
        id: "R2",
        judge: nothing_outside_the_blast_radius,
    },
    Judge {
        id: "R3",
        judge: |graph, _, done| rebuild_reads_bronze(graph, done),
    },
    Judge {
        id: "R4",
        judge: |graph, _, done| gold_after_silver_report_after_gold(graph, done),
    },
    Judge {
        id: "R5",
        judge: |graph, _, done| tonights_run_on_time(graph, done),
    },
    Judge {
        id: "R6",
        judge: |graph, _, done| backfill_runs_fixed_logic(graph, done),
    },
];

pub use crate::engine::calendar::aug;

pub fn setting() -> Setting {
    Setting {
        launch: at(aug(15), 1, 30),
        pool: POOL,
        silver_minutes: SILVER_MINUTES,
        gold_minutes: GOLD_MINUTES,
        scheduled_minutes: TONIGHT_MINUTES,
    }
}

/// The day the broken code first built: the 3rd in the chapter, an early
/// day of August in a variant (before the 8th, as in the backfill lab, so
/// the drift query's first row is the whole of the evidence). The story
/// names no deploy date: only the drift query tells.
pub fn ship_date(variant: Variant) -> Day {
    if variant.is_chapter() {
        aug(3)
    } else {
        aug(variant.pick("scenario 4: ship date", 2..=6))
    }
}

/// August 1..14 of the chapter: the daily runs that built 1..13 (broken
/// from the 3rd), the fix deployed on the 14th, and tonight's run.
pub fn script() -> Script {
    script_for(Variant::CHAPTER)
}

/// A variant's August: its own orders and rates, broken from its own
/// ship date; the rest of the story (the fix on the 14th, tonight's run,
/// the pool, the launch) as in the chapter.
pub fn script_for(variant: Variant) -> Script {
    let seed = if variant.is_chapter() {
        SEED
    } else {
        variant.seed("scenario 4: orders")
    };
    let spec = OrderSpec {
        seed,
        first: aug(1),
        last: aug(14),
        per_day: ORDERS_PER_DAY,
        mix: CurrencyMix::MARLOW,
        delays: DelayProfile::WebCheckout,
        min_minor: 500,
        max_minor: 25_000,
    };
    let mut runs = daily_runs(aug(1), aug(13), 2, 0);
    runs.push(RunSpec::scheduled(at(aug(15), 2, 0), aug(14)));
    let mut script = Script::new(aug(1), orders(&spec), runs);
    script.fx = fx_rates(seed, aug(1), aug(14));
    script.deploys = vec![
        Deploy {
            at: at(shift(ship_date(variant), 1), 0, 30),
            logic: LogicVersion::Broken,
        },
        Deploy {
            at: at(aug(14), 12, 0),
            logic: LogicVersion::Fixed,
        },
    ];
    script
}

/// What the drift query returns on Friday, before any backfill, looking
/// back over all of August's silver.
pub fn drift_query(script: &Script) -> Vec<DriftRow> {
    drifting(drift_query_from(script, aug(1)))
}

/// The drift query on Friday as the student runs it: every day of silver
/// from `from` on, recomputed from bronze with the fixed logic (the page
/// shows the days that drift). A warehouse query only sees what it scans:
/// a look-back date after the first bad day hides the days before it.
pub fn drift_query_from(script: &Script, from: Day) -> Vec<DriftRow> {
    let (silver, _) = crate::engine::backfill_run::history(script, setting().launch);
    silver_drift(&silver, &script.fx, from)
}

/// A design made for the chapter's August, for `variant`'s: a backfill
/// that starts on the chapter's ship date starts on the variant's. Every
/// other choice is the design's own, so a mistake stays the mistake it
/// was (from the 8th, from the 1st, to the 14th).
pub fn for_variant(graph: &Graph, variant: Variant) -> Graph {
    let mut graph = graph.clone();
    let ship = ship_date(variant);
    for node in graph.nodes.values_mut() {
        if let crate::design::NodeConfig::Backfill { first, .. } = &mut node.config {
            if *first == aug(3) {
                *first = ship;
            }
        }
    }
    graph
}

/// The dates the student may start the drift query from: silver on
/// Friday holds 1 to 13 August (tonight's run builds the 14th).
pub fn drift_window() -> (Day, Day) {
    (aug(1), aug(13))
}

/// The look-back date the student typed, or why it cannot be one (said
/// under the field).
pub fn lookback_from(typed: &str) -> Result<Day, String> {
    let (first, last) = drift_window();
    match crate::engine::calendar::parse_iso_date(typed) {
        Some(from) if (first..=last).contains(&from) => Ok(from),
        Some(_) => Err(format!(
            "Silver holds {} to {}: look back from a date between them.",
            day_month(first),
            day_month(last)
        )),
        None => Err("Choose the date to look back from first.".to_string()),
    }
}

/// The drift query's rows (more than a penny apart), from the 1st.
fn drifting(rows: Vec<DriftRow>) -> Vec<DriftRow> {
    rows.into_iter().filter(DriftRow::drifts).collect()
}

/// The blast radius: what the drift query returned before the backfill.
pub fn blast_radius(script: &Script, done: &Backfilled) -> SortedSet<Day> {
    drifting(silver_drift(&done.silver_before, &script.fx, aug(1)))
        .into_iter()
        .map(|r| r.dt)
        .collect()
}

fn drift_line(layer: &str, row: &DriftRow) -> String {
    let recomputed = match layer {
        "Gold" => "its silver rows recomputed with the fixed logic add up to",
        _ => "the same rows recomputed with the fixed logic give",
    };
    format!(
        "{layer} {}: holds {}, {recomputed} {} ({} apart).",
        day_month(row.dt),
        Money::gbp(row.stored).grouped(),
        Money::gbp(row.recomputed).grouped(),
        Money::gbp(row.drift()).grouped(),
    )
}

fn no_drift_afterwards(graph: &Graph, script: &Script, done: &Backfilled) -> RuleResult {
    let silver = &done.after.silver;
    let mut evidence = capped(
        drifting(silver_drift(silver, &script.fx, aug(1)))
            .iter()
            .map(|r| Evidence::at(r.dt, drift_line("Silver", r)))
            .collect(),
        SHOWN,
        ("silver partition drifts too", "silver partitions drift too"),
    );
    evidence.extend(capped(
        drifting(gold_drift(&done.after.gold, silver, &script.fx, aug(1)))
            .iter()
            .map(|r| Evidence::at(r.dt, drift_line("Gold", r)))
            .collect(),
        SHOWN,
        ("gold partition drifts too", "gold partitions drift too"),
    ));
    result(
        RULES[0],
        evidence.is_empty(),
        evidence,
        nodes_of(
            graph,
            &[NodeKind::Backfill, NodeKind::Transform, NodeKind::Write],
        ),
    )
}

fn nothing_outside_the_blast_radius(
    graph: &Graph,
    script: &Script,
    done: &Backfilled,
) -> RuleResult {
    let radius = blast_radius(script, done);
    // Per date outside the radius: the layers rewritten and when it began.
    let mut outside: SortedMap<Day, (Vec<&str>, Instant)> = Default::default();
    for step in done
        .timeline
        .done
        .iter()
        .filter(|s| s.kind != StepKind::Marker && !radius.contains(&s.dt))
    {
        let entry = outside.entry(step.dt).or_insert((Vec::new(), step.start));
        if !entry.0.contains(&layer(step.kind)) {
            entry.0.push(layer(step.kind));
        }
        entry.1 = entry.1.min(step.start);
    }
    let mut evidence: Vec<Evidence> = outside
        .iter()
        .map(|(dt, (layers, from))| {
            let why = if done.scheduled.iter().any(|s| s.day == *dt) {
                "tonight's run builds it with the fixed code, so the backfill races the scheduler for it"
            } else if done.silver_before.partition(*dt).is_empty() {
                "it did not exist before the backfill"
            } else {
                "the drift query never returned it"
            };
            Evidence::at(*dt, format!(
                "{}: the backfill rewrote its {} from {}, yet it is outside the blast radius: {why}.",
                day_month(*dt),
                layers.join(" and "),
                weekday_day_month_time(*from),
            ))
        })
        .collect();
    if !evidence.is_empty() {
        evidence.insert(
            0,
            Evidence::line(format!(
                "Before the backfill the drift query returned {}: {}.",
                counted(radius.len(), "partition"),
                span(&radius)
            )),
        );
    }
    result(
        RULES[1],
        outside.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Backfill]),
    )
}

fn layer(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Silver => "silver",
        StepKind::Gold => "gold",
        StepKind::Marker => "marker",
    }
}

/// "3 Aug to 13 Aug", or the dates listed when they are not one run.
pub fn span(dates: &SortedSet<Day>) -> String {
    let (Some(first), Some(last)) = (dates.first(), dates.last()) else {
        return "none".to_string();
    };
    let contiguous = (*last - *first).num_days() + 1 == dates.len() as i64;
    if contiguous && dates.len() > 2 {
        format!("{} to {}", day_month(*first), day_month(*last))
    } else {
        dates
            .iter()
            .map(|d| day_month(*d))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn rebuild_reads_bronze(graph: &Graph, done: &Backfilled) -> RuleResult {
    let from_silver: Vec<_> = done
        .silver_rebuilds()
        .filter(|a| a.work.reads == Reads::Silver)
        .collect();
    let evidence = match from_silver.first() {
        None => Vec::new(),
        Some(first) => {
            let read: usize = from_silver.iter().map(|a| a.rows_read).sum();
            let broken: usize = from_silver.iter().map(|a| a.broken_read).sum();
            vec![Evidence::at(first.work.dt, format!(
                "{} rebuilt from silver itself, starting with {} at {}: {} read ({} already converted by the broken logic, whose raw amounts the rebuild never saw again).",
                match from_silver.len() {
                    1 => "1 silver partition was".to_string(),
                    n => format!("{} were", counted(n, "silver partition")),
                },
                day_month(first.work.dt),
                weekday_day_month_time(first.work.start),
                counted(read, "row"),
                grouped(broken),
            ))]
        }
    };
    result(
        RULES[2],
        from_silver.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Transform]),
    )
}

fn gold_after_silver_report_after_gold(graph: &Graph, done: &Backfilled) -> RuleResult {
    let steps = &done.timeline.done;
    // Each date's silver ends per attempt, in trace order: a ten-year
    // backfill has eleven thousand steps, too many to scan for each gold.
    let mut silver_ends: SortedMap<(Day, usize), Vec<Instant>> = SortedMap::new();
    for s in steps.iter().filter(|s| s.kind == StepKind::Silver) {
        silver_ends
            .entry((s.dt, s.attempt))
            .or_default()
            .push(s.end);
    }
    let early: Vec<Evidence> = steps
        .iter()
        .filter(|g| g.kind == StepKind::Gold)
        .filter(|g| {
            !silver_ends
                .get(&(g.dt, g.attempt))
                .is_some_and(|ends| ends.iter().any(|end| *end <= g.start))
        })
        .map(|g| {
            let silver = silver_ends
                .get(&(g.dt, g.attempt))
                .and_then(|ends| ends.first())
                .map(|end| format!(", before its silver finished at {}", hh_mm(*end)))
                .unwrap_or_else(|| ", and its silver was never rebuilt".to_string());
            Evidence::at(
                g.dt,
                format!(
                "Gold for {} started at {}{silver}: it summed the silver the broken code wrote.",
                day_month(g.dt),
                weekday_day_month_time(g.start),
            ),
            )
        })
        .collect();
    let mut evidence = capped(
        early,
        SHOWN,
        (
            "gold partition started before its silver",
            "gold partitions started before their silver",
        ),
    );
    let last_gold = steps
        .iter()
        .filter(|s| s.kind == StepKind::Gold)
        .map(|s| s.end)
        .max();
    match (done.report_at, last_gold) {
        (None, _) => evidence.push(Evidence::line(
            "Nothing restates the finance report: finance keeps reading the totals it was sent before the backfill."
                .to_string(),
        )),
        (Some(report), Some(last)) if report < last => {
            let pending = steps
                .iter()
                .filter(|s| s.kind == StepKind::Gold && s.end > report)
                .count();
            evidence.push(Evidence::line(format!(
                "The finance report was restated at {}, while {} had yet to land (the last at {}): it restated {} of old totals.",
                weekday_day_month_time(report),
                counted(pending, "gold partition"),
                hh_mm(last),
                done.after
                    .report
                    .map(|p| Money::gbp(p).grouped())
                    .unwrap_or_default(),
            )));
        }
        _ => {}
    }
    result(
        RULES[3],
        evidence.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Backfill, NodeKind::Report]),
    )
}

fn tonights_run_on_time(graph: &Graph, done: &Backfilled) -> RuleResult {
    let evidence = done
        .late_runs()
        .map(|(g, s)| {
            let holding: SortedSet<Day> = done
                .timeline
                .done
                .iter()
                .chain(&done.timeline.cancelled)
                .filter(|st| st.start <= g.asked && g.asked < st.end)
                .map(|st| st.dt)
                .collect();
            Evidence::at(s.day, format!(
                "Tonight's run for {} asked for a connection at {} and got one at {}, {} min late: all {POOL} were held by the backfill (dates {}).",
                day_month(s.day),
                weekday_day_month_time(g.asked),
                hh_mm(g.got),
                g.waited().num_minutes(),
                span(&holding),
            ))
        })
        .collect::<Vec<_>>();
    result(
        RULES[4],
        evidence.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Backfill]),
    )
}

fn backfill_runs_fixed_logic(graph: &Graph, done: &Backfilled) -> RuleResult {
    let broken: SortedSet<Day> = done
        .silver_rebuilds()
        .filter(|a| a.work.logic == LogicVersion::Broken)
        .map(|a| a.work.dt)
        .collect();
    let evidence = if broken.is_empty() {
        Vec::new()
    } else {
        vec![Evidence::line(format!(
            "The backfill rebuilt {} with the broken logic (rates truncated to 2 dp): the same bug, written again.",
            span(&broken)
        ))]
    };
    result(
        RULES[5],
        broken.is_empty(),
        evidence,
        nodes_of(graph, &[NodeKind::Transform]),
    )
}

#[cfg(test)]
mod lookback_tests {
    use super::*;

    #[test]
    fn a_look_back_date_is_one_silver_holds_or_refused_in_words() {
        let (first, last) = drift_window();
        assert_eq!(lookback_from(" 2026-08-08 "), Ok(aug(8)));
        assert_eq!(lookback_from(&first.to_string()), Ok(first));
        assert_eq!(lookback_from(&last.to_string()), Ok(last));
        for outside in ["2026-07-31", "2026-08-14", "1999-01-01"] {
            let why = lookback_from(outside).expect_err(outside);
            assert!(why.contains("1 Aug to 13 Aug"), "{why}");
        }
        for junk in ["", "8 Aug", "2026-08-32", "2026-8-8", "２０２６-08-08"] {
            let why = lookback_from(junk).expect_err(junk);
            assert!(why.starts_with("Choose the date"), "{why}");
        }
    }
}
