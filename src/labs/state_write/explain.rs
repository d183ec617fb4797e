//! Verdicts in words, generated from the trace so they stay true for every
//! combination of controls: what went wrong, which run did it, and whether
//! any future run could still repair it.

use crate::sorted::{SortedMap, SortedSet};

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
        let how = if let Some(run) = outcome.deleted_by(id) {
            let kept = run
                .writes
                .iter()
                .find(|w| w.dt == dt)
                .map_or(0, |w| w.rows_after);
            format!(
                "{{IDS}} {{WAS}} written, then run {} (for {}) overwrote {} with only the {} row{} it had just read, deleting {{IT}}.",
                run.attempt + 1,
                day_label(run.day),
                weekday_short(dt),
                kept,
                if kept == 1 { "" } else { "s" },
            )
        } else if let Some(run) = outcome
            .runs
            .iter()
            .find(|r| r.crashed && !r.wrote && r.read_ids.iter().any(|r| &**r == id.as_str()))
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
        let story = format!(
            "{how} {}",
            never_again(outcome, config, event.arrived_at, dt)
        );
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
        _ => "No later run reads it again.".to_string(),
    }
}
