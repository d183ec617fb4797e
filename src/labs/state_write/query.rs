//! The lab's state in the URL query, so any moment can be bookmarked:
//! `late=off|tue|wed|fri`, `crash=on|off`, `lookback=0|1|2`,
//! `commit=after|before`, `run=<n>` (1-based; absent means the last run),
//! `present=0|1` (presenter mode).

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::model::Controls;

/// What the query asks for; `run` is still unchecked against the run count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabQuery {
    pub controls: Controls,
    pub run: Option<usize>,
    pub present: bool,
}

/// Reads the query through `get`; every value it cannot use falls back to
/// its default and adds a sentence saying so.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (LabQuery, Vec<String>) {
    let mut notes = Vec::new();
    let mut query = LabQuery::default();
    query.controls.late = link::choice(&get, "late", query.controls.late, &mut notes);
    query.controls.commit = link::choice(&get, "commit", query.controls.commit, &mut notes);
    query.present = link::present(&get, &mut notes);
    let mut bad = |key: &str, given: &str, expected: &str, default: &str| {
        notes.push(crate::labs::link::ignored(key, given, expected, default));
    };
    if let Some(given) = get("crash") {
        match given.trim().to_ascii_lowercase().as_str() {
            "on" => query.controls.crash = true,
            "off" => query.controls.crash = false,
            _ => bad("crash", &given, "on or off", "on"),
        }
    }
    if let Some(given) = get("lookback") {
        match given.trim().parse::<u32>() {
            Ok(n) if n <= 2 => query.controls.lookback = n,
            _ => bad("lookback", &given, "0, 1 or 2", "1"),
        }
    }
    if let Some(given) = get("run") {
        match given.trim().parse::<usize>() {
            Ok(n) if n >= 1 => query.run = Some(n),
            _ => bad("run", &given, "a run number from 1", "the last run"),
        }
    }
    (query, notes)
}

/// The run to show for a requested 1-based number, as a 0-based index, and
/// a note when the request was out of range.
pub fn resolve_run(requested: Option<usize>, runs: usize) -> (usize, Option<String>) {
    let last = runs.saturating_sub(1);
    match requested {
        None => (last, None),
        Some(n) if (1..=runs).contains(&n) => (n.saturating_sub(1), None),
        Some(n) => (
            last,
            Some(format!(
                "There is no run {n} with these settings (there are {runs}); showing the last run."
            )),
        ),
    }
}

/// The query string for a state, always with every key, so a link is explicit.
pub fn to_query(controls: &Controls, run: usize, present: bool) -> String {
    format!(
        "late={}&crash={}&lookback={}&commit={}&run={}&present={}",
        controls.late.name(),
        if controls.crash { "on" } else { "off" },
        controls.lookback,
        controls.commit.name(),
        run,
        u8::from(present),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CommitOrder;
    use crate::labs::state_write::model::LateOrder;

    fn parse_str(query: &str) -> (LabQuery, Vec<String>) {
        parse(crate::labs::link::lookup(query))
    }

    #[test]
    fn defaults_are_tue_on_one_after_and_the_last_run() {
        let (query, notes) = parse_str("");
        assert_eq!(query, LabQuery::default());
        assert_eq!(
            query.controls,
            Controls {
                late: LateOrder::Tue,
                crash: true,
                lookback: 1,
                commit: CommitOrder::StateAfterWrite
            }
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn every_state_round_trips_through_the_query() {
        for controls in Controls::all() {
            for run in 1..=8 {
                for present in [false, true] {
                    let (query, notes) = parse_str(&to_query(&controls, run, present));
                    assert!(notes.is_empty(), "{notes:?}");
                    assert_eq!(
                        query,
                        LabQuery {
                            controls,
                            run: Some(run),
                            present
                        }
                    );
                }
            }
        }
    }

    #[test]
    fn bad_values_fall_back_with_a_note_each() {
        let (query, notes) = parse_str("late=sat&crash=maybe&lookback=7&commit=never&run=0");
        assert_eq!(query, LabQuery::default());
        assert_eq!(notes.len(), 5);
        assert!(notes[0].contains("late=sat"));
        let long = "x".repeat(500);
        let (_, notes) = parse_str(&format!("late={long}"));
        assert!(
            notes[0].len() < 120,
            "a hostile value is not echoed in full"
        );
    }

    #[test]
    fn a_run_past_the_end_shows_the_last_run_and_says_so() {
        assert_eq!(resolve_run(Some(3), 8), (2, None));
        assert_eq!(resolve_run(None, 7), (6, None));
        let (index, note) = resolve_run(Some(8), 7);
        assert_eq!(index, 6);
        assert!(note.is_some());
    }
}
