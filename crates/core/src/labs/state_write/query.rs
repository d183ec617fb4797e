//! The lab's state in the URL query, so any moment can be bookmarked:
//! `late=off|tue|wed|fri`, `crash=on|off`, `lookback=0|1|2`,
//! `commit=after|before`, `down=off|wed-fri|tue-sat` (the scheduler's
//! outage), `catchup=on|off`, `run=<n>` (1-based; absent means the last run),
//! `present=0|1` (presenter mode), `pin=<cell>[,<cell>]` (presenter mode's
//! side by side: up to two cells by their file names, say
//! `watermark_overwrite`; written only when some are pinned), `predict=`
//! (the prediction) and `room=` (presenter mode's show of hands: a count
//! per pipeline in `Cell::ALL` order, then "none of them"; `labs::tally`).

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::model::{Cell, Controls};
use super::predict::Guess;
use crate::labs::tally::Tally;

/// The answers the room can give: each pipeline, then "none of them".
pub const ROOM_ANSWERS: usize = Cell::ALL.len() + 1;

/// Up to two cells pinned side by side, oldest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pinned([Option<Cell>; 2]);

impl Pinned {
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        self.0.into_iter().flatten()
    }

    pub fn contains(self, cell: Cell) -> bool {
        self.cells().any(|c| c == cell)
    }

    pub fn is_empty(self) -> bool {
        self.cells().next().is_none()
    }

    /// Two cells pinned: the page shows just them, side by side.
    pub fn is_pair(self) -> bool {
        self.cells().count() == 2
    }

    /// Unpins `cell` if pinned; pins it otherwise, letting go of the older
    /// of two.
    pub fn toggled(self, cell: Cell) -> Pinned {
        let kept: Vec<Cell> = self.cells().filter(|c| *c != cell).collect();
        if kept.len() < self.cells().count() {
            return Pinned::from_cells(&kept);
        }
        let mut next: Vec<Cell> = kept;
        next.push(cell);
        let from = next.len().saturating_sub(2);
        Pinned::from_cells(next.get(from..).unwrap_or(&[]))
    }

    fn from_cells(cells: &[Cell]) -> Pinned {
        Pinned([cells.first().copied(), cells.get(1).copied()])
    }
}

/// What the query asks for; `run` is still unchecked against the run count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabQuery {
    pub controls: Controls,
    pub run: Option<usize>,
    pub present: bool,
    pub pinned: Pinned,
    /// The prediction locked in (or skipped): until then, no outcome that
    /// tells the cells apart is shown. In the URL so the moment after the
    /// reveal is a link too.
    pub guess: Option<Guess>,
    /// The room's show of hands, entered in presenter mode.
    pub room: Option<Tally>,
}

/// Reads the query through `get`; every value it cannot use falls back to
/// its default and adds a sentence saying so.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (LabQuery, Vec<String>) {
    let mut notes = Vec::new();
    let mut query = LabQuery::default();
    query.controls.late = link::choice(&get, "late", query.controls.late, &mut notes);
    query.controls.commit = link::choice(&get, "commit", query.controls.commit, &mut notes);
    query.controls.down = link::choice(&get, "down", query.controls.down, &mut notes);
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
    if let Some(given) = get("catchup") {
        match given.trim().to_ascii_lowercase().as_str() {
            "on" => query.controls.catch_up = true,
            "off" => query.controls.catch_up = false,
            _ => bad("catchup", &given, "on or off", "off"),
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
    if let Some(given) = get("pin") {
        let cells: Option<Vec<Cell>> = given
            .split(',')
            .map(|slug| Cell::ALL.into_iter().find(|c| c.slug() == slug.trim()))
            .collect();
        match cells {
            Some(cells) if (1..=2).contains(&cells.len()) && cells.first() != cells.get(1) => {
                query.pinned = Pinned::from_cells(&cells);
            }
            _ => bad(
                "pin",
                &given,
                "one or two different cells, such as watermark_overwrite,partition_list_overwrite",
                "no pinned cells",
            ),
        }
    }
    if let Some(given) = get("predict") {
        match Guess::parse(&given) {
            Some(guess) => query.guess = Some(guess),
            None => bad(
                "predict",
                &given,
                "skip, none, or the cells predicted, such as watermark_overwrite",
                "no prediction yet",
            ),
        }
    }
    if let Some(given) = get("room") {
        match Tally::read(&given, ROOM_ANSWERS) {
            Some(tally) => query.room = Some(tally),
            None => bad(
                "room",
                &given,
                "a count of hands per pipeline and for none of them, such as 0.12.3.0.1.0.2",
                "no show of hands",
            ),
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

/// The query string for a state, always with every key, so a link is
/// explicit (but `pin` only when something is pinned).
pub fn to_query(
    controls: &Controls,
    run: usize,
    present: bool,
    pinned: Pinned,
    guess: Option<&Guess>,
    room: Option<&Tally>,
) -> String {
    let mut query = format!(
        "late={}&crash={}&lookback={}&commit={}&down={}&catchup={}&run={}&present={}",
        controls.late.name(),
        if controls.crash { "on" } else { "off" },
        controls.lookback,
        controls.commit.name(),
        controls.down.name(),
        if controls.catch_up { "on" } else { "off" },
        run,
        u8::from(present),
    );
    if !pinned.is_empty() {
        let slugs: Vec<&str> = pinned.cells().map(Cell::slug).collect();
        query.push_str(&format!("&pin={}", slugs.join(",")));
    }
    if let Some(guess) = guess {
        query.push_str(&format!("&predict={}", guess.slug()));
    }
    if let Some(room) = room {
        query.push_str(&format!("&room={}", room.value()));
    }
    query
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
                commit: CommitOrder::StateAfterWrite,
                down: super::super::model::Down::Off,
                catch_up: false,
            }
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn every_state_round_trips_through_the_query() {
        for controls in Controls::all() {
            for run in 1..=8 {
                for present in [false, true] {
                    for guess in [
                        None,
                        Some(Guess::Skipped),
                        Some(Guess::of(&[Cell::WatermarkOverwrite, Cell::ListOverwrite])),
                    ] {
                        for room in [None, Tally::read("0.12.3.0.1.0.2", ROOM_ANSWERS)] {
                            let (query, notes) = parse_str(&to_query(
                                &controls,
                                run,
                                present,
                                Pinned::default(),
                                guess.as_ref(),
                                room.as_ref(),
                            ));
                            assert!(notes.is_empty(), "{notes:?}");
                            assert_eq!(
                                query,
                                LabQuery {
                                    controls,
                                    run: Some(run),
                                    present,
                                    pinned: Pinned::default(),
                                    guess: guess.clone(),
                                    room,
                                }
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_values_fall_back_with_a_note_each() {
        let (query, notes) =
            parse_str("late=sat&crash=maybe&lookback=7&commit=never&run=0&predict=everything&down=sun&catchup=yes&room=1.2");
        assert_eq!(query, LabQuery::default());
        assert_eq!(notes.len(), 9);
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

    #[test]
    fn pins_round_trip_and_a_third_lets_go_of_the_oldest() {
        let two = Pinned::default()
            .toggled(Cell::WatermarkOverwrite)
            .toggled(Cell::ListOverwrite);
        let q = to_query(&Controls::default(), 3, true, two, None, None);
        assert!(
            q.ends_with("&pin=watermark_overwrite,partition_list_overwrite"),
            "{q}"
        );
        let (back, notes) = parse_str(&q);
        assert_eq!((back.pinned, notes.len()), (two, 0));
        let three = two.toggled(Cell::FullRefresh);
        assert_eq!(
            three.cells().collect::<Vec<_>>(),
            vec![Cell::ListOverwrite, Cell::FullRefresh]
        );
        assert_eq!(
            two.toggled(Cell::WatermarkOverwrite)
                .cells()
                .collect::<Vec<_>>(),
            vec![Cell::ListOverwrite]
        );
        assert!(
            !to_query(&Controls::default(), 1, true, Pinned::default(), None, None)
                .contains("pin=")
        );
        for bad in [
            "pin=",
            "pin=nothing",
            "pin=full_refresh,full_refresh",
            "pin=a,b,c",
            "pin=watermark_append,watermark_append,full_refresh",
        ] {
            let (q, notes) = parse_str(bad);
            assert!(q.pinned.is_empty(), "{bad}");
            assert_eq!(notes.len(), 1, "{bad}");
        }
    }
}
