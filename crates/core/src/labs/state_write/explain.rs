//! Verdicts in words, generated from the trace so they stay true for every
//! combination of controls: what went wrong, which run did it, and whether
//! any future run could still repair it.

use crate::lean::sorted::{SortedMap, SortedSet};

use crate::engine::calendar::{shift, weekday_short, Day};
use crate::engine::{
    CheckKind, Outcome, PipelineConfig, ProcessingState, Script, StateValue, Verdict,
};

use super::view::day_label;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    Correct,
    /// Wrong, and a usual check fails.
    Loud,
    /// Wrong, and every usual check passes.
    Silent,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictView {
    pub kind: VerdictKind,
    pub headline: String,
    pub details: Vec<String>,
    pub rows_read_total: usize,
}

fn list(ids: &[String]) -> String {
    match ids {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The verdict for one cell's finished week.
pub fn verdict(outcome: &Outcome, config: &PipelineConfig, script: &Script) -> VerdictView {
    let rows_read_total = outcome.rows_read_total();
    let lost: Vec<String> = outcome.lost().iter().map(|id| id.to_string()).collect();
    let duplicates = outcome.duplicates();
    match outcome.verdict() {
        Verdict::Correct => VerdictView {
            kind: VerdictKind::Correct,
            headline: "Correct: every order is in its own day, exactly once.".to_string(),
            details: Vec::new(),
            rows_read_total,
        },
        Verdict::Loud { failing } => {
            let names: Vec<&str> = failing.iter().map(|k| k.name()).collect();
            let mut details = Vec::new();
            if !duplicates.is_empty() {
                details.push(duplicate_story(outcome));
            }
            if !lost.is_empty() {
                details.extend(loss_story(outcome, config, script, &lost));
            }
            let what = match (duplicates.is_empty(), lost.is_empty()) {
                (false, true) => format!(
                    "{} extra cop{}",
                    duplicates.len(),
                    if duplicates.len() == 1 { "y" } else { "ies" }
                ),
                (true, false) => format!("{} lost", lost.len()),
                _ => format!("{} extra copies and {} lost", duplicates.len(), lost.len()),
            };
            VerdictView {
                kind: VerdictKind::Loud,
                headline: format!(
                    "Wrong, but loud: {what}, and {} fail{}.",
                    names.join(" and "),
                    if names.len() == 1 { "s" } else { "" }
                ),
                details,
                rows_read_total,
            }
        }
        Verdict::Silent => {
            let mut details = loss_story(outcome, config, script, &lost);
            if !outcome.checks.passed(CheckKind::ReconcileVsBronze) {
                details.push(
                    "Only reconcile vs bronze notices: its row counts no longer match the source."
                        .to_string(),
                );
            }
            let headline = if lost.is_empty() {
                "Silently wrong: rows are out of place and every usual check passes.".to_string()
            } else {
                format!(
                    "Silent, permanent loss: {} gone, and every usual check passes.",
                    list(&lost)
                )
            };
            VerdictView {
                kind: VerdictKind::Silent,
                headline,
                details,
                rows_read_total,
            }
        }
    }
}

/// Which runs wrote the extra copies, in one sentence.
fn duplicate_story(outcome: &Outcome) -> String {
    // For each duplicated key: the attempts that wrote its copies.
    let mut writers: SortedMap<String, Vec<usize>> = SortedMap::new();
    for row in outcome.silver.rows() {
        writers
            .entry(row.key.to_string())
            .or_default()
            .push(row.written_by);
    }
    writers.retain(|_, runs| runs.len() > 1);
    let retried = writers.values().any(|runs| {
        runs.iter().any(|r| {
            outcome
                .runs
                .get(*r)
                .is_some_and(|t| t.kind == crate::engine::RunKind::Retry)
        })
    });
    let by_lookback = writers.values().any(|runs| {
        let days: SortedSet<Day> = runs
            .iter()
            .filter_map(|r| outcome.runs.get(*r))
            .map(|t| t.day)
            .collect();
        days.len() > 1
    });
    let keys: Vec<String> = writers.keys().take(4).cloned().collect();
    let more = writers.len().saturating_sub(keys.len());
    let examples = if more > 0 {
        format!("{} and {more} more", keys.join(", "))
    } else {
        list(&keys)
    };
    let cause = match (retried, by_lookback) {
        (true, true) => "a retry re-read rows its crashed attempt had already appended, and later runs re-read their lookback days and appended them again",
        (true, false) => "the retry re-read rows its crashed attempt had already appended, and append adds, it never replaces",
        (false, true) => "each run re-read its lookback days and appended rows that were already there",
        (false, false) => "rows were appended more than once",
    };
    format!("{examples} are stored more than once: {cause}.")
}

/// How the lost orders were lost and why no future run brings them back,
/// one sentence per distinct story (orders that share one are listed together).
fn loss_story(
    outcome: &Outcome,
    config: &PipelineConfig,
    script: &Script,
    lost: &[String],
) -> Vec<String> {
    // Stories are written with placeholders for the ids and their grammar,
    // so that orders lost the same way group under one sentence.
    let mut stories: Vec<(String, Vec<String>)> = Vec::new();
    for id in lost {
        let Some(event) = script.events.iter().find(|e| &*e.key == id.as_str()) else {
            continue;
        };
        let dt = event.event_date();
        // A day the outage kept from ever being built is its own story.
        let story = if let Some(missed) = never_built(outcome, script, dt) {
            missed
        } else {
            lost_after_built(outcome, config, script, event, id)
        };
        match stories.iter_mut().find(|(s, _)| *s == story) {
            Some((_, ids)) => ids.push(id.clone()),
            None => stories.push((story, vec![id.clone()])),
        }
    }
    stories
        .into_iter()
        .map(|(story, ids)| {
            let one = ids.len() == 1;
            story
                .replace("{IDS}", &list(&ids))
                .replace("{WAS}", if one { "was" } else { "were" })
                .replace("{IT}", if one { "it" } else { "them" })
                .replace("{ITS}", if one { "its" } else { "their" })
        })
        .collect()
}

/// How an order of a day that was built came to be lost, which runs that
/// would have re-read it never ran, and why none will.
fn lost_after_built(
    outcome: &Outcome,
    config: &PipelineConfig,
    script: &Script,
    event: &crate::engine::Event,
    id: &str,
) -> String {
    let dt = event.event_date();
    let how = if let Some(run) = outcome.deleted_by(id) {
        let kept = run
            .writes
            .iter()
            .find(|w| w.dt == dt)
            .map_or(0, |w| w.rows_after);
        format!(
            "{{IDS}} {{WAS}} written, then run {} (for {}) overwrote {} with only the {} it had just read, deleting {{IT}}.",
            run.attempt + 1,
            day_label(run.day),
            weekday_short(dt),
            crate::counted::counted(kept, "row"),
        )
    } else if let Some(run) = outcome
        .runs
        .iter()
        .find(|r| r.crashed && !r.wrote && r.read_ids.iter().any(|r| &**r == id))
    {
        format!(
            "{{IDS}} {{WAS}} read by run {} (for {}), which saved its state and then crashed before writing.",
            run.attempt + 1,
            day_label(run.day),
        )
    } else {
        format!(
            "{{IDS}} arrived {} {}, after the run that built {} had finished, and no run read {} again.",
            weekday_short(event.arrived_at.date()),
            crate::engine::calendar::hh_mm(event.arrived_at),
            day_label(dt),
            weekday_short(dt),
        )
    };
    let skipped = skipped_rereads(outcome, config, script, event.arrived_at, dt);
    format!(
        "{how}{skipped} {}",
        never_again(outcome, config, event.arrived_at, dt)
    )
}

/// A trailing window's reach in words.
fn window_words(days: u32) -> String {
    match days {
        0 => "its own day only".to_string(),
        1 => "its day and the one before".to_string(),
        n => format!("its day and the {n} before"),
    }
}

/// "Mon 10:00" for an instant.
fn when(at: chrono::NaiveDateTime) -> String {
    format!(
        "{} {}",
        weekday_short(at.date()),
        crate::engine::calendar::hh_mm(at)
    )
}

/// The scheduler's outage in words: "Wed 00:00 to Fri 09:00".
fn down_words(o: &crate::engine::Outage) -> String {
    format!("{} to {}", when(o.from), when(o.until))
}

/// When no attempt ever read day `dt` because its own run fell in an
/// outage: the story of a day never built.
fn never_built(outcome: &Outcome, script: &Script, dt: Day) -> Option<String> {
    if outcome.runs.iter().any(|r| r.partitions_read.contains(&dt)) {
        return None;
    }
    let due = script.runs.iter().find(|r| r.day == dt)?;
    let outage = script.outage_at(due.at)?;
    let mut story = format!(
        "{{IDS}} never reached silver: {} was never built, because its run was due {}, while the scheduler was down ({}).",
        day_label(dt),
        when(due.at),
        down_words(outage),
    );
    if let Some(back) = outcome.runs.iter().find(|r| r.at >= outage.until) {
        let rebuilt: Vec<&str> = back
            .partitions_read
            .iter()
            .map(|d| weekday_short(*d))
            .collect();
        story.push_str(&format!(
            " The first run back ({}, for {}) built only {}, so {} was already behind it, and a pipeline that remembers nothing never builds it.",
            when(back.at),
            day_label(back.day),
            list(&rebuilt.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
            weekday_short(dt),
        ));
    }
    Some(story)
}

/// The runs that would have re-read day `dt` after a row of it arrived, but
/// fell while the scheduler was down and never ran: a lookback (or window)
/// is a bet that every night's run happens.
fn skipped_rereads(
    outcome: &Outcome,
    config: &PipelineConfig,
    script: &Script,
    arrived: chrono::NaiveDateTime,
    dt: Day,
) -> String {
    let reach = match config.state {
        ProcessingState::PartitionList { lookback, .. } => lookback,
        ProcessingState::TrailingWindow { days } => days,
        _ => return String::new(),
    };
    let ran = |day: Day| outcome.runs.iter().any(|r| r.day == day && !r.crashed);
    let skipped: Vec<&crate::engine::RunSpec> = script
        .runs
        .iter()
        .filter(|r| r.at > arrived && r.day > dt && r.day <= shift(dt, i64::from(reach)))
        .filter(|r| script.outage_at(r.at).is_some() && !ran(r.day))
        .collect();
    match (skipped.first(), skipped.len()) {
        (None, _) => String::new(),
        (Some(run), 1) => format!(
            " The run for {}, which would have re-read {}, was due {} while the scheduler was down, and never ran.",
            day_label(run.day),
            weekday_short(dt),
            when(run.at),
        ),
        (Some(_), n) => format!(
            " {n} runs that would have re-read {} fell while the scheduler was down, and never ran.",
            weekday_short(dt),
        ),
    }
}

/// Why no future run reads a lost row again, from the pipeline's final state.
fn never_again(
    outcome: &Outcome,
    config: &PipelineConfig,
    arrived: chrono::NaiveDateTime,
    dt: Day,
) -> String {
    let last_day = outcome.runs.iter().map(|r| r.day).max();
    let final_state = outcome.runs.last().map(|r| &r.state_after);
    match (config.state, final_state) {
        (ProcessingState::Watermark { .. }, Some(StateValue::Watermark(Some(mark)))) if *mark >= arrived => format!(
            "The watermark now stands at {} {}, past {{ITS}} arrival; watermark runs only read rows that arrived later, so no future run will read {{IT}} again.",
            weekday_short(mark.date()),
            crate::engine::calendar::hh_mm(*mark),
        ),
        (ProcessingState::PartitionList { lookback, .. }, Some(StateValue::Done(done))) if done.contains(&dt) => {
            let next_window_start = last_day.map(|d| shift(d, 1 - i64::from(lookback)));
            if next_window_start.is_some_and(|start| dt < start) {
                format!(
                    "{} is on the done list and older than every future run's {}-day lookback, so no run will read it again.",
                    weekday_short(dt),
                    lookback,
                )
            } else {
                format!("{} is still inside the next run's lookback, which will re-read it.", weekday_short(dt))
            }
        }
        (ProcessingState::TrailingWindow { days }, _) => {
            let next_window_start = last_day.map(|d| shift(d, 1 - i64::from(days)));
            if next_window_start.is_some_and(|start| dt < start) {
                format!(
                    "{} is older than every future run's window ({}), and a trailing window remembers nothing, so no run will read it again.",
                    weekday_short(dt),
                    window_words(days),
                )
            } else {
                format!("{} is still inside the next run's window, which will re-read it.", weekday_short(dt))
            }
        }
        _ => "No later run reads it again.".to_string(),
    }
}
