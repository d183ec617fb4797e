//! Why each rule held, in a design that passed: one sentence per rule,
//! each naming a row, a run or a date of the run the grader judged that
//! shows the mechanism at work (the debrief's first part).

use rustc_hash::FxHashMap as HashMap;

use crate::counted::{counted, grouped};
use crate::engine::calendar::{day_month, hh_mm, weekday_day_month_time, Day, Instant};
use crate::engine::clock::StepKind;
use crate::engine::event::Event;
use crate::engine::rebuild::Reads;
use crate::engine::script::RunKind;
use crate::engine::trace::Outcome;
use crate::engine::{LogicVersion, ProcessingState, WatermarkColumn, WriteMode};
use crate::lean::sorted::SortedSet;
use crate::scenarios::grading::backfilled::{Backfilled, Setting};
use crate::scenarios::grading::grade::{Daily, Judged};
use crate::scenarios::grading::replay::Silver;
use crate::scenarios::grading::report::{capital, run_name};

use super::Case;

/// Why rule `id` held in `case`'s run, if the lab can say.
pub fn why(case: &Case, id: &str) -> Option<String> {
    match case.judged {
        Judged::Daily(daily) => daily_rule(case, daily, id),
        Judged::Backfill(done, setting) => backfill_rule(case, done, setting, id),
    }
}

fn daily_rule(case: &Case, daily: &Daily, id: &str) -> Option<String> {
    let outcome = &daily.outcome;
    match (case.scenario.number, id) {
        (1, "R1") => latest_in_time(case, daily, |e| {
            e.arrived_at < crate::scenarios::stories::clicks::final_at(e.event_date())
        }),
        (6, "R1") => {
            let end = outcome.runs.last()?.at;
            latest_in_time(case, daily, |e| e.arrived_at <= end)
        }
        (2, "R1") => latest_in_time(case, daily, |_| true),
        (1 | 6, "R2") => read_twice_kept_once(daily),
        (2, "R2") => one_row_per_order(case, outcome),
        (1 | 6, "R3") => widest(outcome),
        (2, "R3") => widest(outcome),
        (2, "R4") => retry_read_again(daily),
        (3, "R1") => share_at_final(case, outcome),
        (3, "R2") => {
            let (dt, at) = outcome
                .finalised
                .iter()
                .filter(|(dt, _)| **dt <= crate::scenarios::stories::mobile::last())
                .max_by_key(|(_, at)| **at)?;
            Some(format!(
                "The last August partition to close, {}, became final at {}, before finance closed the month at {}.",
                day_month(*dt),
                weekday_day_month_time(*at),
                weekday_day_month_time(crate::scenarios::stories::mobile::close()),
            ))
        }
        (3, "R3") => late_booked_once(outcome),
        (3, "R4") => {
            let l = daily.config.finaliser?.allowed_lateness_days;
            let run = outcome
                .runs
                .iter()
                .max_by_key(|r| r.writes.iter().filter(|w| w.dt <= r.day).count())?;
            let n = run.writes.iter().filter(|w| w.dt <= run.day).count();
            Some(format!(
                "The run that wrote the most, {}, wrote {} dated up to its own day: within L + 1 = {}.",
                run_name(run),
                counted(n, "partition"),
                l.saturating_add(1),
            ))
        }
        _ => None,
    }
}

/// The latest row to arrive among those the rule asks for, and the run
/// that read it, in the state's own terms.
fn latest_in_time(case: &Case, daily: &Daily, counts: impl Fn(&Event) -> bool) -> Option<String> {
    let outcome = &daily.outcome;
    let latest = case
        .script
        .events
        .iter()
        .filter(|e| counts(e))
        .max_by_key(|e| e.arrived_at.signed_duration_since(event_clock(e)))?;
    let reader = outcome
        .runs
        .iter()
        .find(|r| r.read_ids.contains(&latest.id))?;
    let how = match daily.config.state {
        ProcessingState::PartitionList { lookback, .. } => format!(
            "whose lookback of {} still reached {}",
            counted(lookback, "day"),
            day_month(latest.event_date())
        ),
        ProcessingState::TrailingWindow { days } => format!(
            "whose window of {} before its day still reached {}",
            counted(days, "day"),
            day_month(latest.event_date())
        ),
        ProcessingState::Watermark {
            column: WatermarkColumn::ArrivedAt,
            ..
        } => "the first run after it arrived (a watermark on arrival never passes a row not yet arrived)".to_string(),
        ProcessingState::Watermark {
            overlap_minutes: 0, ..
        } => "before the watermark passed it".to_string(),
        ProcessingState::Watermark {
            overlap_minutes, ..
        } => format!(
            "before the watermark, less its overlap of {}, passed it",
            counted(overlap_minutes, "minute")
        ),
        ProcessingState::None => "which read everything, as every run did".to_string(),
    };
    let write = match daily.config.write {
        WriteMode::Merge { .. } => " The merge put it in its place.",
        WriteMode::OverwritePartition | WriteMode::OverwritePresent => {
            " The overwrite rebuilt its day whole, with it."
        }
        _ => "",
    };
    Some(format!(
        "The most delayed row the rule counts is {} for {}, arriving {}, {} after it happened. {} read it, {how}.{write}",
        latest.id,
        day_month(latest.event_date()),
        weekday_day_month_time(latest.arrived_at),
        late_by(latest),
        capital(&run_name(reader)),
    ))
}

/// When a row's version came to be: its change for a changing record.
fn event_clock(e: &Event) -> Instant {
    e.updated_at.max(e.event_time)
}

fn late_by(e: &Event) -> String {
    let late = e.arrived_at.signed_duration_since(event_clock(e));
    match late.num_hours() {
        0 => counted(late.num_minutes(), "minute"),
        h => counted(h, "hour"),
    }
}

/// Rows read by more than one run, and the write that kept one copy.
fn read_twice_kept_once(daily: &Daily) -> Option<String> {
    let outcome = &daily.outcome;
    let mut reads: HashMap<&str, usize> = HashMap::default();
    for run in outcome.runs.iter().filter(|r| !r.crashed) {
        for id in &run.read_ids {
            *reads.entry(id.as_ref()).or_default() += 1;
        }
    }
    let again = reads.values().filter(|n| **n > 1).count();
    let rerun = outcome
        .runs
        .iter()
        .find(|r| r.kind != RunKind::Scheduled && !r.read_ids.is_empty());
    let how = match daily.config.write {
        WriteMode::Merge { .. } => "the merge on the key updated the row already there",
        WriteMode::OverwritePartition | WriteMode::OverwritePresent => {
            "the overwrite replaced each partition whole"
        }
        WriteMode::ReplaceTable => "the whole table was replaced each time",
        WriteMode::Append => return None,
    };
    let rows = match again {
        1 => "1 row was".to_string(),
        n => format!("{} rows were", grouped(n)),
    };
    Some(match (again, rerun) {
        (0, _) => "No row was read twice by runs that finished.".to_string(),
        (_, Some(run)) => format!(
            "{rows} read more than once, by {} among others. Each time {how}, so every row is stored once.",
            run_name(run),
        ),
        (_, None) => format!("{rows} read more than once, and each time {how}: every row is stored once."),
    })
}

/// The order with the most changes, merged into one row.
fn one_row_per_order(case: &Case, outcome: &Outcome) -> Option<String> {
    // From the source, not silver: a change the merge replaced is gone
    // from silver, and it is the one that shows the merge at work.
    let key_of: HashMap<&str, &str> = case
        .script
        .events
        .iter()
        .map(|e| (e.id.as_ref(), e.key.as_ref()))
        .collect();
    let mut changes: HashMap<&str, usize> = HashMap::default();
    for run in outcome.runs.iter().filter(|r| !r.crashed) {
        for id in run.writes.iter().flat_map(|w| &w.added) {
            if let Some(key) = key_of.get(id.as_ref()) {
                *changes.entry(key).or_default() += 1;
            }
        }
    }
    let mut most: Vec<(&str, usize)> = changes.into_iter().collect();
    crate::lean::order::sort(&mut most);
    let (key, n) = most.into_iter().max_by_key(|(_, n)| *n)?;
    let rows = outcome
        .silver
        .rows()
        .filter(|r| r.key.as_ref() == key)
        .count();
    Some(format!(
        "Each change was merged on its order id: order {key} was written {} and has {} in silver.",
        counted(n, "time"),
        counted(rows, "row"),
    ))
}

fn widest(outcome: &Outcome) -> Option<String> {
    let run = outcome
        .runs
        .iter()
        .max_by_key(|r| r.partitions_read.len())?;
    Some(format!(
        "The run that read the most, {}, read {}.",
        run_name(run),
        counted(run.partitions_read.len(), "bronze partition"),
    ))
}

fn retry_read_again(daily: &Daily) -> Option<String> {
    let runs = &daily.outcome.runs;
    let crash = runs.iter().find(|r| r.crashed)?;
    let retry = runs
        .iter()
        .find(|r| r.kind == RunKind::Retry && r.day == crash.day && !r.crashed)?;
    let again = crash
        .read_ids
        .iter()
        .filter(|id| retry.read_ids.contains(id))
        .count();
    let so = if again == crash.read_ids.len() {
        ", so each reached silver"
    } else {
        ""
    };
    Some(format!(
        "{} read {} and crashed before saving its state. {} started from the state saved before it and read {} of them again{so}.",
        capital(&run_name(crash)),
        counted(crash.read_ids.len(), "change"),
        capital(&run_name(retry)),
        grouped(again),
    ))
}

fn share_at_final(case: &Case, outcome: &Outcome) -> Option<String> {
    let august = |d: Day| {
        (crate::scenarios::stories::mobile::first()..=crate::scenarios::stories::mobile::last())
            .contains(&d)
    };
    let amount: HashMap<&str, i64> = case
        .script
        .events
        .iter()
        .map(|e| (e.id.as_ref(), e.amount.minor))
        .collect();
    let total: i64 = case
        .script
        .events
        .iter()
        .filter(|e| august(e.event_date()))
        .map(|e| e.amount.minor)
        .sum();
    let mut silver = Silver::default();
    let mut kept = 0i64;
    for run in &outcome.runs {
        silver.apply(run);
        for dt in run.finalised.iter().filter(|d| august(**d)) {
            kept += silver.partition(*dt).map_or(0, |p| {
                p.iter()
                    .map(|(id, n)| amount.get(id.as_ref()).copied().unwrap_or(0) * *n as i64)
                    .sum()
            });
        }
    }
    if total == 0 {
        return None;
    }
    // Basis points, rounded down: never more complete than it was.
    let bp = kept.checked_mul(10_000)?.checked_div(total)?;
    let rest = if kept < total {
        ": the rest arrived after its day was final"
    } else {
        ": nothing arrived after its day was final"
    };
    Some(format!(
        "When August's partitions became final they held {}.{:02} % of its value ({} of {}){rest}.",
        bp / 100,
        bp % 100,
        crate::engine::money::Money::gbp(kept).grouped(),
        crate::engine::money::Money::gbp(total).grouped(),
    ))
}

fn late_booked_once(outcome: &Outcome) -> Option<String> {
    let first = outcome.adjustments.first()?;
    Some(format!(
        "{} arrived after their partition was final, and each was booked once to the adjustments table (the first, {} for {}, at {}); no run wrote a final partition.",
        capital(&counted(outcome.adjustments.len(), "purchase")),
        first.id,
        day_month(first.dt),
        weekday_day_month_time(first.booked_at),
    ))
}

fn backfill_rule(case: &Case, done: &Backfilled, setting: &Setting, id: &str) -> Option<String> {
    let design = &done.design;
    let silver: SortedSet<Day> = done.silver_rebuilds().map(|a| a.work.dt).collect();
    match (case.scenario.number, id) {
        (4, "R1") => Some(format!(
            "The backfill rebuilt {} from bronze with the fixed logic, silver then gold: afterwards the drift query returns nothing.",
            crate::scenarios::stories::currency::span(&silver),
        )),
        (4, "R2") => Some(format!(
            "It rewrote only the {} the drift query returned before it ({}).",
            counted(silver.len(), "date"),
            crate::scenarios::stories::currency::span(&crate::scenarios::stories::currency::blast_radius(case.script, done)),
        )),
        (4, "R3") => Some(format!(
            "Each of its {} read bronze.",
            counted(done.silver_rebuilds().filter(|a| a.work.reads == Reads::Bronze).count(), "silver rebuild"),
        )),
        (4, "R4") => gold_after_silver(done),
        (4, "R5") | (5, "R3") => on_time(done, setting),
        (4, "R6") => Some(format!(
            "Each of its {} ran the fixed logic.",
            counted(done.silver_rebuilds().filter(|a| a.work.logic == LogicVersion::Fixed).count(), "silver rebuild"),
        )),
        (5, "R1") => Some(format!(
            "Afterwards each of the {} from {} to {} holds exactly bronze's events, none twice, and gold adds up to them.",
            counted((design.last - design.first).num_days().saturating_add(1), "partition"),
            day_month(design.first),
            day_month(design.last),
        )),
        (5, "R2") => {
            let skipped: SortedSet<Day> = done
                .timeline
                .skipped
                .get(1)
                .map(|units| units.iter().map(|(dt, _)| *dt).collect())
                .unwrap_or_default();
            let redone = done.timeline.rebuilt_in(1).filter(|s| s.kind == StepKind::Silver).count();
            let start = done.attempts.get(1)?.start;
            Some(format!(
                "The re-run launched {} skipped {} its completion markers said were done, and rebuilt {}: those in flight at the failover and those never started.",
                weekday_day_month_time(start),
                counted(skipped.len(), "date"),
                counted(redone, "date"),
            ))
        }
        (5, "R4") => {
            let end = done.finished_at()?;
            let spare = crate::scenarios::stories::history::budget() - end;
            Some(format!(
                "The last partition landed {}, {} h {} min before the budget.",
                weekday_day_month_time(end),
                spare.num_hours(),
                spare.num_minutes() % 60,
            ))
        }
        _ => None,
    }
}

fn gold_after_silver(done: &Backfilled) -> Option<String> {
    let steps = &done.timeline.done;
    // The gold that started soonest after its silver finished.
    let (gap, gold, silver) = steps
        .iter()
        .filter(|g| g.kind == StepKind::Gold)
        .filter_map(|g| {
            steps
                .iter()
                .filter(|s| s.kind == StepKind::Silver && s.dt == g.dt && s.attempt == g.attempt)
                .map(|s| (g.start - s.end, g, s))
                .min_by_key(|(gap, _, _)| *gap)
        })
        .min_by_key(|(gap, _, _)| *gap)?;
    let last = steps
        .iter()
        .filter(|s| s.kind == StepKind::Gold)
        .map(|s| s.end)
        .max()?;
    let report = done.report_at?;
    Some(format!(
        "Every gold started after its silver (the closest, {}: silver done at {}, gold from {}, {} min later). The report was restated at {}, after the last gold landed at {}.",
        day_month(gold.dt),
        hh_mm(silver.end),
        hh_mm(gold.start),
        gap.num_minutes(),
        weekday_day_month_time(report),
        hh_mm(last),
    ))
}

fn on_time(done: &Backfilled, setting: &Setting) -> Option<String> {
    let (grant, scheduled) = done
        .timeline
        .grants
        .iter()
        .zip(&done.scheduled)
        .find(|(g, _)| g.slot.is_some())?;
    let held = done
        .timeline
        .done
        .iter()
        .chain(&done.timeline.cancelled)
        .filter(|s| s.kind != StepKind::Marker && s.start <= grant.asked && grant.asked < s.end)
        .count();
    Some(format!(
        "The scheduled run for {} asked for a connection at {} and got it at once: the backfill held {} of the {} then.",
        day_month(scheduled.day),
        weekday_day_month_time(grant.asked),
        held,
        setting.pool,
    ))
}
