//! Causes in a daily pipeline's design, each seen in the one simulation
//! the grader judged: a detector fires only when the design has its choice
//! and a row, run or partition the rule failed on shows its mechanism.

use std::cell::OnceCell;

use rustc_hash::FxHashMap as HashMap;

use crate::counted::{counted, grouped};
use crate::design::NodeKind;
use crate::engine::calendar::{day_month, shift, weekday_day_month_time};
use crate::engine::config::{AfterFinal, CommitOrder, ListDate, PartitionKey, WatermarkColumn};
use crate::engine::event::Event;
use crate::engine::state::StateValue;
use crate::engine::trace::{Outcome, RunTrace};
use crate::engine::{ProcessingState, WriteMode};
use crate::scenarios::grading::grade::Daily;
use crate::scenarios::grading::report::{capital, run_name, some_ids, RuleResult};

use super::{Case, Cause, Diagnosis};

/// The causes that can explain each daily rule, most specific first.
fn candidates(scenario: u8, rule: &str) -> &'static [Cause] {
    use Cause::*;
    match (scenario, rule) {
        (1 | 2 | 6, "R1") => &[
            WindowWithoutCatchUp,
            StateSavedFirst,
            OverwriteWithPart,
            WatermarkPassedArrival,
            ProcessingDate,
            LookbackTooShort,
        ],
        (1, "R2") => &[AppendReadAgain, OverwriteWithPart],
        (2, "R2") => &[MergeOnChangeId, AppendKeepsEveryChange, AppendReadAgain],
        (6, "R2") => &[AppendReadAgain, AppendKeepsEveryChange],
        (1 | 2 | 6, "R3") => &[FullRefresh, LookbackTooLong],
        (2, "R4") => &[StateSavedFirst],
        (3, "R1") => &[
            LookbackUnderLateness,
            FinalTooSoon,
            AppendReadAgain,
            OverwriteWithPart,
            StateSavedFirst,
            WatermarkPassedArrival,
        ],
        (3, "R2") => &[NeverFinal, FinalTooLate],
        (3, "R3") => &[FinaliserDrops, FinaliserReopens, FullRefresh],
        (3, "R4") => &[FinaliserReopens, FullRefresh],
        _ => &[],
    }
}

/// What the detectors share: the design's run, and its rows by id.
struct Ran<'a> {
    case: &'a Case<'a>,
    daily: &'a Daily,
    events: HashMap<&'a str, &'a Event>,
    /// For each row id, the attempts that read it, in order. Made when a
    /// detector first asks: a long lookback's runs read tens of thousands
    /// of ids, most of the tutor's time, and most detectors never ask.
    reads: OnceCell<HashMap<&'a str, Vec<usize>>>,
    failed: &'a RuleResult,
}

impl<'a> Ran<'a> {
    fn outcome(&self) -> &'a Outcome {
        &self.daily.outcome
    }

    /// The failed rows that are bronze events, in the rule's order.
    fn rows(&self) -> impl Iterator<Item = &'a Event> + '_ {
        self.failed
            .rows
            .iter()
            .filter_map(|id| self.events.get(id.as_ref()).copied())
    }

    fn read_by(&self, id: &str) -> &[usize] {
        let reads = self.reads.get_or_init(|| {
            let mut reads: HashMap<&str, Vec<usize>> = HashMap::default();
            for run in &self.daily.outcome.runs {
                for id in &run.read_ids {
                    reads.entry(id.as_ref()).or_default().push(run.attempt);
                }
            }
            reads
        });
        reads.get(id).map_or(&[], Vec::as_slice)
    }

    fn run(&self, attempt: usize) -> Option<&'a RunTrace> {
        self.outcome().runs.get(attempt)
    }

    /// "and 12 more" after the first of `n` rows.
    fn more(n: usize) -> String {
        match n {
            0 | 1 => String::new(),
            n => format!(" (and {} more like it)", grouped(n - 1)),
        }
    }
}

pub fn diagnose(case: &Case, daily: &Daily, failed: &RuleResult) -> Option<Diagnosis> {
    let ran = Ran {
        case,
        daily,
        events: case
            .script
            .events
            .iter()
            .map(|e| (e.id.as_ref(), e))
            .collect(),
        reads: OnceCell::new(),
        failed,
    };
    candidates(case.scenario.number, failed.rule.id)
        .iter()
        .find_map(|cause| detect(&ran, *cause))
}

fn detect(ran: &Ran, cause: Cause) -> Option<Diagnosis> {
    use Cause::*;
    match cause {
        WindowWithoutCatchUp => window_without_catch_up(ran),
        StateSavedFirst => state_saved_first(ran),
        OverwriteWithPart => overwrite_with_part(ran),
        WatermarkPassedArrival => watermark_passed_arrival(ran),
        ProcessingDate => processing_date(ran),
        LookbackTooShort => lookback_too_short(ran, false),
        LookbackUnderLateness => lookback_too_short(ran, true),
        AppendReadAgain => append_read_again(ran),
        AppendKeepsEveryChange => one_row_per_change(ran, false),
        MergeOnChangeId => one_row_per_change(ran, true),
        FullRefresh => full_refresh(ran),
        LookbackTooLong => lookback_too_long(ran),
        FinalTooSoon => final_too_soon(ran),
        FinalTooLate => final_too_late(ran),
        NeverFinal => never_final(ran),
        FinaliserDrops => finaliser_drops(ran),
        FinaliserReopens => finaliser_reopens(ran),
        _ => None,
    }
}

/// A watermark's value, as the page writes instants.
fn mark(state: &StateValue) -> Option<String> {
    match state {
        StateValue::Watermark(Some(at)) => Some(weekday_day_month_time(*at)),
        _ => None,
    }
}

fn state_saved_first(ran: &Ran) -> Option<Diagnosis> {
    if ran.daily.config.commit != CommitOrder::StateBeforeWrite {
        return None;
    }
    let outcome = ran.outcome();
    let (crash, row) = outcome
        .runs
        .iter()
        .filter(|r| r.crashed && r.state_saved && !r.wrote)
        .find_map(|crash| {
            ran.rows()
                .find(|e| {
                    crash.read_ids.contains(&e.id)
                        && ran.read_by(&e.id).iter().all(|a| *a <= crash.attempt)
                })
                .map(|e| (crash, e))
        })?;
    let lost = ran
        .rows()
        .filter(|e| {
            crash.read_ids.contains(&e.id) && ran.read_by(&e.id).iter().all(|a| *a <= crash.attempt)
        })
        .count();
    let saved = match &crash.state_after {
        StateValue::Watermark(_) => format!(
            "moved its watermark to {}",
            mark(&crash.state_after).unwrap_or_default()
        ),
        other => format!("saved its state ({other})"),
    };
    ran.case.at(
        Cause::StateSavedFirst,
        NodeKind::State,
        &["commit"],
        format!(
            "Your state is saved before the write. {} read {}{} and {saved}, then crashed before writing it. The retry started from the saved state, so no run ever read {} again.",
            capital(&run_name(crash)),
            row.id,
            Ran::more(lost),
            if lost == 1 { "it" } else { "them" },
        ),
    )
}

fn overwrite_with_part(ran: &Ran) -> Option<Diagnosis> {
    if !matches!(
        ran.daily.config.write,
        WriteMode::OverwritePartition | WriteMode::OverwritePresent
    ) {
        return None;
    }
    let outcome = ran.outcome();
    // The overwrite that lost the row is the last to remove it (an earlier
    // one's loss a later run may have put back), and it did not read it.
    let (run, write, row) = ran.rows().find_map(|e| {
        let run = outcome.deleted_by(&e.id)?;
        if run.read_ids.contains(&e.id) {
            return None;
        }
        let write = run.writes.iter().find(|w| w.removed.contains(&e.id))?;
        Some((run, write, e))
    })?;
    // What the partition held after it: exactly what the run wrote there.
    let kept = write.rows_after;
    let why = match ran.daily.config.state {
        ProcessingState::Watermark { .. } => {
            " A watermark reads only the rows past it, so an overwrite keeps only part of a day."
        }
        _ => " The run read only part of the day, so the overwrite kept only that part.",
    };
    ran.case.at(
        Cause::OverwriteWithPart,
        NodeKind::Write,
        &["mode"],
        format!(
            "Your write target overwrites each partition it writes. {} replaced the whole of {} with the {} it had read for it. That deleted {}{}, which an earlier run had written.{why}",
            capital(&run_name(run)),
            day_month(write.dt),
            counted(kept, "row"),
            row.id,
            Ran::more(write.removed.len()),
        ),
    )
}

fn watermark_passed_arrival(ran: &Ran) -> Option<Diagnosis> {
    let ProcessingState::Watermark {
        column,
        overlap_minutes,
    } = ran.daily.config.state
    else {
        return None;
    };
    let value = |e: &Event| match column {
        WatermarkColumn::UpdatedAt => Some(e.updated_at),
        WatermarkColumn::EventTime => Some(e.event_time),
        WatermarkColumn::ArrivedAt => None,
    };
    let overlap = chrono::Duration::minutes(i64::from(overlap_minutes));
    let outcome = ran.outcome();
    let (row, passed, at) = ran.rows().find_map(|e| {
        let at = value(e)?;
        if !ran.read_by(&e.id).is_empty() {
            return None;
        }
        // The last run that had saved its state before the row arrived.
        let run = outcome
            .runs
            .iter()
            .rev()
            .find(|r| r.state_saved && r.at < e.arrived_at)?;
        match run.state_after {
            StateValue::Watermark(Some(w)) if w.checked_sub_signed(overlap)? > at => {
                Some((e, run, at))
            }
            _ => None,
        }
    })?;
    let name = column_name(column);
    // Stale when silver holds the order as an earlier change left it;
    // missing when it holds nothing of it.
    let changing = row.key != row.id;
    let stale = changing && outcome.silver.rows().any(|r| r.key == row.key);
    let thing = match (changing, column) {
        (true, WatermarkColumn::EventTime) => {
            format!("Order {} was placed (its change {})", row.key, row.id)
        }
        (true, _) => format!("Order {} changed", row.key),
        (false, _) => format!("Row {} happened", row.id),
    };
    // The arrival on the same day as the change needs no date again.
    let arrived = if row.arrived_at.date() == at.date() {
        crate::engine::calendar::hh_mm(row.arrived_at)
    } else {
        weekday_day_month_time(row.arrived_at)
    };
    let overlap_words = if overlap_minutes == 0 {
        String::new()
    } else {
        format!(
            " minus its overlap of {}",
            counted(overlap_minutes, "minute")
        )
    };
    ran.case.at(
        Cause::WatermarkPassedArrival,
        NodeKind::State,
        &["column", "overlap"],
        format!(
            "Your watermark is on {name}. {thing} at {}, but {} reached bronze only at {arrived}. By then {} had moved the watermark to {}. No later run reads a row older than the watermark{overlap_words}, so {}.",
            weekday_day_month_time(at),
            if changing {
                format!("the change ({})", row.id)
            } else {
                "it".to_string()
            },
            run_name(passed),
            mark(&passed.state_after).unwrap_or_default(),
            if stale {
                "silver still holds the order as it was before that change".to_string()
            } else if changing {
                format!("order {} never reached silver", row.key)
            } else {
                "it never reached silver".to_string()
            },
        ),
    )
}

fn column_name(column: WatermarkColumn) -> &'static str {
    use crate::vocabulary::Choice;
    column.label()
}

fn processing_date(ran: &Ran) -> Option<Diagnosis> {
    if ran.daily.config.partition_key != PartitionKey::ProcessingDate {
        return None;
    }
    let outcome = ran.outcome();
    let filed_under: HashMap<&str, crate::engine::calendar::Day> = outcome
        .silver
        .rows()
        .map(|r| (r.id.as_ref(), r.dt))
        .collect();
    let (row, filed) = ran.rows().find_map(|e| {
        let dt = *filed_under.get(e.id.as_ref())?;
        (dt != e.event_date()).then_some((e, dt))
    })?;
    ran.case.at(
        Cause::ProcessingDate,
        NodeKind::Transform,
        &["partition_key"],
        format!(
            "Your transform files each row under the day of the run that wrote it. {} happened on {} but arrived {}, so the run for {filed} filed it under {filed}: its own day never has it.",
            row.id,
            day_month(row.event_date()),
            weekday_day_month_time(row.arrived_at),
        ),
    )
}

/// The days a list or window re-reads before the run's own: `None` for
/// any other state.
fn reach(state: ProcessingState) -> Option<(u32, &'static str)> {
    match state {
        ProcessingState::PartitionList { lookback, .. } => Some((lookback, "lookback")),
        ProcessingState::TrailingWindow { days } => Some((days, "window")),
        _ => None,
    }
}

fn lookback_too_short(ran: &Ran, under_lateness: bool) -> Option<Diagnosis> {
    let (days, key) = reach(ran.daily.config.state)?;
    let lateness = ran.daily.config.finaliser.map(|f| f.allowed_lateness_days);
    if under_lateness != lateness.is_some_and(|l| days < l) {
        return None;
    }
    let outcome = ran.outcome();
    // The bronze partition a row lands in: its change's date when the
    // list runs over change dates.
    let over_changes = matches!(
        ran.daily.config.state,
        ProcessingState::PartitionList {
            over: ListDate::ChangeDate,
            ..
        }
    );
    let landed = |e: &Event| {
        if over_changes {
            e.change_date()
        } else {
            e.event_date()
        }
    };
    let (row, last) = ran.rows().find_map(|e| {
        let dt = landed(e);
        if !ran.read_by(&e.id).is_empty() {
            return None;
        }
        let readers: Vec<&RunTrace> = outcome
            .runs
            .iter()
            .filter(|r| r.partitions_read.contains(&dt))
            .collect();
        let last = readers.last()?;
        // Still open when it arrived: a row that came after its day was
        // final is the finaliser's business, not the lookback's.
        let open = outcome
            .finalised
            .get(&e.event_date())
            .is_none_or(|f| e.arrived_at < *f);
        (last.at < e.arrived_at && open).then_some((e, *last))
    })?;
    let dt = landed(row);
    let day = day_month(dt);
    let reaches = match (key, days) {
        ("window", 0) => "Your window rebuilds only the run's own day".to_string(),
        ("window", n) => format!(
            "Your window rebuilds the run's day and the {} before it",
            counted(n, "day")
        ),
        (_, 0) => {
            "Your partition list has no lookback: each run reads only its own day".to_string()
        }
        (_, n) => format!(
            "Your partition list re-reads the {} before each run's own",
            counted(n, "day")
        ),
    };
    let still_open = match lateness {
        Some(l) if under_lateness => format!(
            ", though {day} stays open for {} after its day",
            counted(l, "day")
        ),
        _ => String::new(),
    };
    let missed = ran.rows().filter(|e| ran.read_by(&e.id).is_empty()).count();
    ran.case.at(
        if under_lateness {
            Cause::LookbackUnderLateness
        } else {
            Cause::LookbackTooShort
        },
        NodeKind::State,
        &[key],
        format!(
            "{reaches}. Row {} for {day} arrived {}, after {}, the last run to read {day}. The runs after it no longer reach back to {day}{still_open}, so no run read it{}.",
            row.id,
            weekday_day_month_time(row.arrived_at),
            run_name(last),
            Ran::more(missed),
        ),
    )
}

fn window_without_catch_up(ran: &Ran) -> Option<Diagnosis> {
    let ProcessingState::TrailingWindow { days } = ran.daily.config.state else {
        return None;
    };
    if ran.daily.config.catch_up {
        return None;
    }
    let script = ran.case.script;
    let outcome = ran.outcome();
    let (row, due) = ran.rows().find_map(|e| {
        let dt = e.event_date();
        let never_read = !outcome.runs.iter().any(|r| r.partitions_read.contains(&dt));
        let due = script.runs.iter().find(|r| r.day == dt)?.at;
        (never_read && script.outage_at(due).is_some()).then_some((e, due))
    })?;
    let day = day_month(row.event_date());
    let back = outcome.runs.iter().find(|r| r.at > due)?;
    ran.case.at(
        Cause::WindowWithoutCatchUp,
        NodeKind::State,
        &["window", "catch_up"],
        format!(
            "Your window rebuilds the run's day and the {} before it, and the scheduler does not catch up. The run for {day} was due {}, while the scheduler was down. The first run back, {}, reached back only to {}. So no run ever built {day} ({} is missing from it).",
            counted(days, "day"),
            weekday_day_month_time(due),
            run_name(back),
            day_month(shift(back.day, -i64::from(days))),
            row.id,
        ),
    )
}

fn append_read_again(ran: &Ran) -> Option<Diagnosis> {
    if ran.daily.config.write != WriteMode::Append {
        return None;
    }
    let outcome = ran.outcome();
    // For each row, the attempts that added it, in order: one pass.
    let mut added: HashMap<&str, Vec<usize>> = HashMap::default();
    for r in &outcome.runs {
        for id in r.writes.iter().flat_map(|w| &w.added) {
            let by = added.entry(id.as_ref()).or_default();
            if by.last() != Some(&r.attempt) {
                by.push(r.attempt);
            }
        }
    }
    let (row, first, again, copies) = ran.rows().find_map(|e| {
        let writers = added.get(e.id.as_ref())?;
        let first = ran.run(*writers.first()?)?;
        let again = ran.run(*writers.get(1)?)?;
        again
            .read_ids
            .contains(&e.id)
            .then_some((e, first, again, writers.len()))
    })?;
    let why = match again.kind {
        crate::engine::script::RunKind::Retry if first.crashed => {
            "the run before it had written the row, then crashed before saving its state"
        }
        crate::engine::script::RunKind::Manual => "a re-run by hand reads its day again",
        _ => match reach(ran.daily.config.state) {
            Some((n, _)) if n > 0 => "its lookback re-reads the days before its own",
            _ => "nothing in its state said the row was done",
        },
    };
    ran.case.at(
        Cause::AppendReadAgain,
        NodeKind::Write,
        &["mode"],
        format!(
            "Your write target appends. {} read {} again, because {why}. It appended the row beside the copy {} had written, so {} is stored {}.",
            capital(&run_name(again)),
            row.id,
            run_name(first),
            row.id,
            match copies {
                2 => "twice".to_string(),
                n => format!("{} times", grouped(n)),
            },
        ),
    )
}

/// An order with one silver row per change: a merge on the change id
/// (`on_change_id`), or an append.
fn one_row_per_change(ran: &Ran, on_change_id: bool) -> Option<Diagnosis> {
    let write = ran.daily.config.write;
    let matches = if on_change_id {
        write
            == WriteMode::Merge {
                key: crate::engine::MergeKey::RowId,
            }
    } else {
        write == WriteMode::Append
    };
    if !matches {
        return None;
    }
    let outcome = ran.outcome();
    let mut by_key: HashMap<&str, Vec<&crate::engine::table::Row>> = HashMap::default();
    for r in outcome.silver.rows() {
        by_key.entry(r.key.as_ref()).or_default().push(r);
    }
    let (key, rows) = ran.rows().find_map(|e| {
        let rows = by_key.get(e.key.as_ref())?;
        let distinct = rows.iter().any(|r| r.id != rows[0].id);
        (rows.len() > 1 && distinct).then_some((e.key.clone(), rows))
    })?;
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_ref()).collect();
    // Each run once, in the order they wrote, the first few named.
    let mut by: Vec<usize> = rows.iter().map(|r| r.written_by).collect();
    crate::lean::order::sort(&mut by);
    by.dedup();
    let mut writers: Vec<String> = by
        .iter()
        .take(WRITERS)
        .filter_map(|a| ran.run(*a))
        .map(run_name)
        .collect();
    let rest = by.len().saturating_sub(WRITERS);
    if rest > 0 {
        writers.push(counted(rest, "other run"));
    }
    let (cause, keys, how) = if on_change_id {
        (
            Cause::MergeOnChangeId,
            &["key"][..],
            "Your merge matches rows on the change id, and each change of an order has an id of its own, so each change was inserted as a new row",
        )
    } else {
        (
            Cause::AppendKeepsEveryChange,
            &["mode"][..],
            "Your write target appends, so each change of an order became a row of its own",
        )
    };
    ran.case.at(
        cause,
        NodeKind::Write,
        keys,
        format!(
            "{how}. Order {key} has {} in silver ({}). {} wrote them.",
            counted(rows.len(), "row"),
            some_ids(&ids),
            capital(&crate::counted::listed(&writers)),
        ),
    )
}

/// Runs named in one sentence at most: each name is a date and a time.
const WRITERS: usize = 3;

/// The run that read the most bronze partitions.
fn widest(outcome: &Outcome) -> Option<&RunTrace> {
    outcome.runs.iter().max_by_key(|r| r.partitions_read.len())
}

fn full_refresh(ran: &Ran) -> Option<Diagnosis> {
    if ran.daily.config.state != ProcessingState::None {
        return None;
    }
    let outcome = ran.outcome();
    let mechanism = if let Some(run) = outcome.runs.iter().find(|r| !r.final_written.is_empty()) {
        let dt = run.final_written[0];
        format!(
            "Your pipeline remembers nothing and replaces the whole table on every run (a full refresh). {} rewrote {} already final, {} among them{}.",
            capital(&run_name(run)),
            counted(run.final_written.len(), "partition"),
            day_month(dt),
            outcome
                .finalised
                .get(&dt)
                .map(|f| format!(", final since {}", weekday_day_month_time(*f)))
                .unwrap_or_default(),
        )
    } else {
        let run = widest(outcome).filter(|r| r.partitions_read.len() > 1)?;
        let (first, last) = (run.partitions_read.first()?, run.partitions_read.last()?);
        format!(
            "Your pipeline remembers nothing (a full refresh), so every run reads all of history. {} read {}, {} to {}.",
            capital(&run_name(run)),
            counted(run.partitions_read.len(), "bronze partition"),
            day_month(*first),
            day_month(*last),
        )
    };
    ran.case
        .at(Cause::FullRefresh, NodeKind::State, &["state"], mechanism)
}

fn lookback_too_long(ran: &Ran) -> Option<Diagnosis> {
    let (days, key) = reach(ran.daily.config.state)?;
    if days == 0 {
        return None;
    }
    let outcome = ran.outcome();
    let run = widest(outcome)?;
    let (first, last) = (run.partitions_read.first()?, run.partitions_read.last()?);
    // The widest run read its lookback's days, and no further back: the
    // choice is the cause (a catch-up reading further is another story).
    if run.partitions_read.len() < usize::try_from(days).unwrap_or(usize::MAX)
        || *first < shift(run.day, -i64::from(days))
    {
        return None;
    }
    let again = run
        .partitions_read
        .iter()
        .filter(|dt| {
            outcome.runs[..run.attempt.min(outcome.runs.len())]
                .iter()
                .any(|r| r.partitions_read.contains(dt))
        })
        .count();
    let what = if key == "window" {
        "window rebuilds"
    } else {
        "partition list re-reads"
    };
    ran.case.at(
        Cause::LookbackTooLong,
        NodeKind::State,
        &[key],
        format!(
            "Your {what} the {} before each run's own, on every run. {} read {}, {} to {}, {} of them already read by the runs before it.",
            counted(days, "day"),
            capital(&run_name(run)),
            counted(run.partitions_read.len(), "bronze partition"),
            day_month(*first),
            day_month(*last),
            grouped(again),
        ),
    )
}

fn final_too_soon(ran: &Ran) -> Option<Diagnosis> {
    let finaliser = ran.daily.config.finaliser?;
    let outcome = ran.outcome();
    let after: Vec<&Event> = ran
        .rows()
        .filter(|e| outcome.arrived_after_final(e))
        .collect();
    let row = after.first()?;
    let dt = row.event_date();
    let final_at = outcome.finalised.get(&dt)?;
    let value: i64 = after.iter().map(|e| e.amount.minor).sum();
    // What arrived after its day was final must be what broke the rule:
    // worth more than the share of the month the rule lets go.
    let total: i64 = ran
        .case
        .script
        .events
        .iter()
        .filter(|e| outcome.finalised.contains_key(&e.event_date()))
        .map(|e| e.amount.minor)
        .sum();
    let allowed =
        total.saturating_mul(10_000 - crate::scenarios::stories::mobile::SHARE_BP) / 10_000;
    if value <= allowed {
        return None;
    }
    ran.case.at(
        Cause::FinalTooSoon,
        NodeKind::Finaliser,
        &["lateness"],
        format!(
            "Your finaliser closes each partition {} after its day. {} became final at {}; {} ({}) arrived {}, after that, so it was booked as an adjustment instead of counted in its day. {} worth {} arrived after their day was final, more than the {} of the month the rule lets go.",
            counted(finaliser.allowed_lateness_days, "day"),
            day_month(dt),
            weekday_day_month_time(*final_at),
            row.id,
            row.amount.grouped(),
            weekday_day_month_time(row.arrived_at),
            capital(&counted(after.len(), "purchase")),
            crate::engine::money::Money::gbp(value).grouped(),
            let_go(),
        ),
    )
}

/// The share of a month the rule lets arrive after its day is final, as
/// the rule's own basis points say: "1 %", "0.5 %".
fn let_go() -> String {
    let bp = 10_000i64.saturating_sub(crate::scenarios::stories::mobile::SHARE_BP);
    match bp % 100 {
        0 => format!("{} %", bp / 100),
        r if r % 10 == 0 => format!("{}.{} %", bp / 100, r / 10),
        r => format!("{}.{r:02} %", bp / 100),
    }
}

fn final_too_late(ran: &Ran) -> Option<Diagnosis> {
    let finaliser = ran.daily.config.finaliser?;
    let close = crate::scenarios::stories::mobile::close();
    let outcome = ran.outcome();
    let (dt, at) = outcome
        .finalised
        .iter()
        .find(|(dt, at)| crate::scenarios::stories::mobile::last() >= **dt && **at > close)?;
    ran.case.at(
        Cause::FinalTooLate,
        NodeKind::Finaliser,
        &["lateness"],
        format!(
            "Your finaliser keeps each partition open for {} after its day: {} became final only at {}, after finance closed August at {}.",
            counted(finaliser.allowed_lateness_days, "day"),
            day_month(*dt),
            weekday_day_month_time(*at),
            weekday_day_month_time(close),
        ),
    )
}

fn never_final(ran: &Ran) -> Option<Diagnosis> {
    if ran.daily.config.finaliser.is_some() || !ran.outcome().finalised.is_empty() {
        return None;
    }
    let last = crate::scenarios::stories::mobile::last();
    ran.case.at(
        Cause::NeverFinal,
        NodeKind::Write,
        &[],
        format!(
            "Nothing in your design finalises a partition: no finaliser follows the write, so no August day, {} included, ever becomes final, and finance cannot close the month.",
            day_month(last),
        ),
    )
}

fn finaliser_drops(ran: &Ran) -> Option<Diagnosis> {
    let finaliser = ran.daily.config.finaliser?;
    if finaliser.after_final != AfterFinal::Drop {
        return None;
    }
    let outcome = ran.outcome();
    let row = ran.rows().find(|e| outcome.dropped.contains(&e.id))?;
    let dt = row.event_date();
    let day = day_month(dt);
    ran.case.at(
        Cause::FinaliserDrops,
        NodeKind::Finaliser,
        &["after_final"],
        format!(
            "Your finaliser drops the rows that arrive after their partition is final. {} for {day} arrived {}, after {day} was final{}, and was dropped. Its {} is counted nowhere ({} dropped in all).",
            row.id,
            weekday_day_month_time(row.arrived_at),
            outcome
                .finalised
                .get(&dt)
                .map(|f| format!(" at {}", weekday_day_month_time(*f)))
                .unwrap_or_default(),
            row.amount.grouped(),
            counted(outcome.dropped.len(), "row"),
        ),
    )
}

fn finaliser_reopens(ran: &Ran) -> Option<Diagnosis> {
    let finaliser = ran.daily.config.finaliser?;
    if finaliser.after_final != AfterFinal::Reopen {
        return None;
    }
    let outcome = ran.outcome();
    // The engine's own record of a write into a final partition.
    let written = outcome
        .runs
        .iter()
        .find_map(|r| r.final_written.first().map(|dt| (r, *dt)));
    let mechanism = match written {
        Some((run, dt)) => format!(
            "Your finaliser reopens a final partition for a late row. {} wrote {} again, final since {}: a day finance had closed changed under it.",
            capital(&run_name(run)),
            day_month(dt),
            outcome
                .finalised
                .get(&dt)
                .map(|f| weekday_day_month_time(*f))
                .unwrap_or_default(),
        ),
        None => {
            let row = ran.rows().find(|e| {
                outcome.arrived_after_final(e)
                    && !outcome.adjustments.iter().any(|a| a.id == e.id)
            })?;
            format!(
                "Your finaliser sends a late row back to its final partition instead of to the adjustments table. Row {} arrived {}, after {} was final. No run re-reads a final day, so it is counted nowhere.",
                row.id,
                weekday_day_month_time(row.arrived_at),
                day_month(row.event_date()),
            )
        }
    };
    ran.case.at(
        Cause::FinaliserReopens,
        NodeKind::Finaliser,
        &["after_final"],
        mechanism,
    )
}
