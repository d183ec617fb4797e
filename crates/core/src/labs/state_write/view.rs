//! What one cell shows for the selected run, read off the engine's trace.

use crate::counted::counted;
use crate::lean::sorted::SortedSet;

use crate::engine::calendar::{days, hh_mm, mm_dd_time, shift, weekday_short, Day};
use crate::engine::checks::CheckResult;
use crate::engine::simulate::Planned;
use crate::engine::{Outcome, RunKind, RunTrace, StateValue};

use super::model::{monday, Cell};

/// How an order chip is marked (always with a glyph and a word, never by
/// colour alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipMark {
    Fine,
    /// A second (third...) copy of a key already in the table.
    Duplicate,
    /// Filed under a day it does not belong to.
    WrongDay,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    pub id: String,
    pub mark: ChipMark,
    /// Written by the selected run.
    pub new: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionView {
    pub day: Day,
    pub weekday: &'static str,
    pub chips: Vec<Chip>,
    /// Orders that belong here, had arrived, and are nowhere in the table.
    pub missing: Vec<String>,
    pub duplicates: usize,
    /// Written (replaced or appended to) by the selected run.
    pub written: bool,
    pub accessible_name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteView {
    pub day: Day,
    pub rows_before: usize,
    pub rows_after: usize,
    pub removed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckView {
    pub name: &'static str,
    /// The check most teams have; reconcile is the one they lack.
    pub usual: bool,
    pub passed: bool,
    pub details: Vec<String>,
}

/// Everything one cell displays for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    pub cell: Cell,
    pub state_before: String,
    pub state_after: String,
    pub rows_read: usize,
    pub read_ids: Vec<String>,
    pub writes: Vec<WriteView>,
    pub deleted: Vec<String>,
    /// What went wrong in this run, in words, if anything did.
    pub incident: Option<String>,
    pub partitions: Vec<PartitionView>,
    pub checks: Vec<CheckView>,
    /// Rows read by every run up to and including this one.
    pub rows_read_so_far: usize,
}

/// "Mon 06-01", as the lab labels days.
pub fn day_label(day: Day) -> String {
    format!(
        "{} {}",
        weekday_short(day),
        crate::engine::calendar::mm_dd(day)
    )
}

/// "Run 3: Thu 00:15, for Wed (crashed)", for the scrubber: the
/// `attempt`th (from 0) of the runs the scheduler starts, which every
/// pipeline's trace follows (`engine::simulate::planned`), so the runs are
/// named before the engine has run them.
pub fn run_label(attempt: usize, run: &Planned) -> String {
    let kind = match run.kind {
        RunKind::Scheduled => String::new(),
        other => format!(" ({})", other.label()),
    };
    let crash = if run.crashes { ", crashed" } else { "" };
    format!(
        "Run {}: {} {}, for {}{kind}{crash}",
        attempt + 1,
        weekday_short(run.at.date()),
        crate::engine::calendar::hh_mm(run.at),
        day_label(run.day),
    )
}

/// "Run 3: Thu 00:15, crashed", in the week table's row for its day
/// (which names the day it is for).
fn run_in_its_row(attempt: usize, run: &Planned) -> String {
    let kind = match run.kind {
        RunKind::Scheduled => String::new(),
        other => format!(" ({})", other.label()),
    };
    let crash = if run.crashes { ", crashed" } else { "" };
    format!(
        "Run {}: {} {}{kind}{crash}",
        attempt + 1,
        weekday_short(run.at.date()),
        crate::engine::calendar::hh_mm(run.at),
    )
}

fn state_text(state: &StateValue) -> String {
    match state {
        StateValue::Watermark(None) => "watermark not set yet".to_string(),
        StateValue::Watermark(Some(mark)) => {
            format!(
                "watermark = {} {}",
                weekday_short(mark.date()),
                mm_dd_time(*mark)
            )
        }
        StateValue::Done(done) if done.is_empty() => "done list empty".to_string(),
        StateValue::Done(done) => {
            let names: Vec<&str> = done.iter().map(|d| weekday_short(*d)).collect();
            format!("done = {{{}}}", names.join(", "))
        }
        StateValue::Nothing => "no state (rebuilds everything)".to_string(),
    }
}

fn incident(run: &RunTrace) -> Option<String> {
    if !run.crashed {
        return None;
    }
    Some(if run.wrote {
        "Crashed after writing and before saving its state: the retry will start from the old state.".to_string()
    } else {
        "Crashed after saving its state and before writing: the rows it read were never written."
            .to_string()
    })
}

fn check_view(result: &CheckResult) -> CheckView {
    CheckView {
        name: result.kind.name(),
        usual: result.kind.is_usual(),
        passed: result.passed(),
        details: result.failures.iter().map(|f| f.message.clone()).collect(),
    }
}

/// The cell's view after run `index` (0-based) of `outcome`; `None` if the
/// index is past the last run or the outcome kept no snapshots.
pub fn cell_view(cell: Cell, outcome: &Outcome, index: usize) -> Option<CellView> {
    let run = outcome.runs.get(index)?;
    let snapshot = run.snapshot.as_ref()?;
    let week = days(monday(), shift(monday(), 6));
    let written: SortedSet<Day> = run.writes.iter().map(|w| w.dt).collect();
    let partitions = week
        .map(|day| {
            let mut seen = SortedSet::new();
            let chips: Vec<Chip> = snapshot
                .silver
                .partition(day)
                .iter()
                .map(|row| {
                    let mark = if row.event_time.date() != day {
                        ChipMark::WrongDay
                    } else if !seen.insert(row.key.clone()) {
                        ChipMark::Duplicate
                    } else {
                        ChipMark::Fine
                    };
                    Chip {
                        id: row.key.to_string(),
                        mark,
                        new: row.written_by == run.attempt,
                    }
                })
                .collect();
            let diff = snapshot.diffs.iter().find(|d| d.dt == day);
            let missing: Vec<String> = diff
                .map(|d| d.lost.iter().map(|id| id.to_string()).collect())
                .unwrap_or_default();
            let duplicates = chips
                .iter()
                .filter(|c| c.mark == ChipMark::Duplicate)
                .count();
            let wrong_day = chips
                .iter()
                .filter(|c| c.mark == ChipMark::WrongDay)
                .count();
            let mut name = format!(
                "{} {}: {}",
                weekday_short(day),
                day,
                counted(chips.len(), "row")
            );
            if duplicates > 0 {
                name.push_str(&format!(", {}", counted(duplicates, "duplicate")));
            }
            if !missing.is_empty() {
                name.push_str(&format!(", {} missing", missing.len()));
            }
            if wrong_day > 0 {
                name.push_str(&format!(", {} from another day", wrong_day));
            }
            PartitionView {
                day,
                weekday: weekday_short(day),
                chips,
                missing,
                duplicates,
                written: written.contains(&day),
                accessible_name: name,
            }
        })
        .collect();
    Some(CellView {
        cell,
        state_before: state_text(&run.state_before),
        state_after: state_text(&run.state_after),
        rows_read: run.rows_read,
        read_ids: run.read_ids.iter().map(|id| id.to_string()).collect(),
        writes: run
            .writes
            .iter()
            .map(|w| WriteView {
                day: w.dt,
                rows_before: w.rows_before,
                rows_after: w.rows_after,
                removed: w.removed.iter().map(|id| id.to_string()).collect(),
            })
            .collect(),
        deleted: run
            .writes
            .iter()
            .flat_map(|w| w.removed.iter().map(|id| id.to_string()))
            .collect(),
        incident: incident(run),
        partitions,
        checks: snapshot.checks.0.iter().map(check_view).collect(),
        rows_read_so_far: outcome.runs[..=index].iter().map(|r| r.rows_read).sum(),
    })
}

/// One day of the week as the timeline shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeekDay {
    pub day: Day,
    /// Orders that happened this day: (id, "09:10").
    pub placed: Vec<(String, String)>,
    /// Orders from earlier days that arrived this day: (id, "Mon 23:58", "03:10").
    pub late_arrivals: Vec<(String, String, String)>,
    /// Orders of this day that arrived on a later day: (id, "Tue 03:10").
    pub arrives_later: Vec<(String, String)>,
    /// Runs that happened on this day's night (at 00:15 the next day, and retries).
    pub runs: Vec<String>,
}

/// The scheduler's outage in a sentence, if the week has one.
pub fn outage_sentence(script: &crate::engine::Script, catch_up: bool) -> Option<String> {
    let o = script.outages.first()?;
    let at = |t: crate::engine::Instant| format!("{} {}", weekday_short(t.date()), hh_mm(t));
    let then = if catch_up {
        "then it catches up: it first runs every run it missed, one after another, then carries on"
    } else {
        "then it carries on with the next scheduled run, and the runs it missed never happen"
    };
    // The crash control cannot bite a run that never starts: say so.
    let crash = script
        .runs
        .iter()
        .find(|r| r.crash_then_retry_at.is_some() && o.covers(r.at))
        .map(|r| {
            format!(
                " The run that would crash ({}, for {}) falls while it is down: it never starts, so it cannot crash{}.",
                at(r.at),
                day_label(r.day),
                if catch_up { ", and its catch-up runs cleanly" } else { "" }
            )
        })
        .unwrap_or_default();
    Some(format!(
        "The scheduler is down from {} to {}: no run starts in between; {then}.{crash}",
        at(o.from),
        at(o.until)
    ))
}

/// The fixed week as a timeline: what happened, what arrived late, which
/// runs ran; `runs` are the runs the scheduler starts (`planned_runs`),
/// which every cell's trace follows.
pub fn week(script: &crate::engine::Script, runs: &[Planned]) -> Vec<WeekDay> {
    days(monday(), shift(monday(), 6))
        .map(|day| {
            let mut placed = Vec::new();
            let mut arrives_later = Vec::new();
            let mut late_arrivals = Vec::new();
            for e in &script.events {
                if e.event_date() == day {
                    placed.push((e.key.to_string(), hh_mm(e.event_time)));
                    if e.arrived_at.date() > day {
                        arrives_later.push((
                            e.key.to_string(),
                            format!(
                                "{} {}",
                                weekday_short(e.arrived_at.date()),
                                hh_mm(e.arrived_at)
                            ),
                        ));
                    }
                }
                if e.arrived_at.date() == day && e.event_date() < day {
                    late_arrivals.push((
                        e.key.to_string(),
                        format!("{} {}", weekday_short(e.event_date()), hh_mm(e.event_time)),
                        hh_mm(e.arrived_at),
                    ));
                }
            }
            crate::lean::order::sort_by(&mut placed, |a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
            let mut runs: Vec<String> = runs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.day == day)
                .map(|(attempt, r)| run_in_its_row(attempt, r))
                .collect();
            // A run the outage skipped, and nothing caught up: say it was due.
            if runs.is_empty() {
                for due in script.runs.iter().filter(|r| r.day == day) {
                    if script.outage_at(due.at).is_some() {
                        runs.push(format!(
                            "✕ no run: due {} {}, the scheduler was down",
                            weekday_short(due.at.date()),
                            hh_mm(due.at)
                        ));
                    }
                }
            }
            WeekDay {
                day,
                placed,
                late_arrivals,
                arrives_later,
                runs,
            }
        })
        .collect()
}
