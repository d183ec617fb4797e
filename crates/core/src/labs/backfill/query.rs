//! The backfill lab's URL: `from=3|8|12`, `concurrency=1|4|12`, `markers=on|off`,
//! `sunday=delivered|withdrawn`, `writer=targeted|dynamic`, `present=0|1`.
//! Links made before the plan's start and the ship-date guess were separate
//! say `ship=`; it still sets where the plan starts.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::case::{Choices, PlanStart};

/// One run of the backfill as the page ran it: to its end, or interrupted
/// while minute `m` of it was showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    ToTheEnd,
    InterruptedAt(u32),
}

/// The plan's choices, presenter mode, and a note per value not used.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Choices, bool, Vec<String>) {
    let mut choices = Choices::default();
    let mut notes = Vec::new();
    let present = link::present(&get, &mut notes);
    choices.from = if get("from").is_some() {
        link::choice(&get, "from", choices.from, &mut notes)
    } else {
        link::choice(&get, "ship", choices.from, &mut notes)
    };
    choices.concurrency = link::choice(&get, "concurrency", choices.concurrency, &mut notes);
    let mut bad = |key: &str, given: &str, expected: &str, default: &str| {
        notes.push(crate::labs::link::ignored(key, given, expected, default));
    };
    if let Some(given) = get("markers") {
        match given.trim().to_ascii_lowercase().as_str() {
            "on" => choices.markers = true,
            "off" => choices.markers = false,
            _ => bad("markers", &given, "on or off", "on"),
        }
    }
    choices.sunday = link::choice(&get, "sunday", choices.sunday, &mut notes);
    choices.writer = link::choice(&get, "writer", choices.writer, &mut notes);
    (choices, present, notes)
}

/// What has happened on the page since it opened: the ship-date
/// prediction (made or skipped) and the runs since, so a link copied after
/// a reveal or a run reopens that moment (`guess=3|8|12|skip`,
/// `ran=end|M,...`: each run to its end, or interrupted at minute M),
/// and presenter mode's show of hands for the 3rd, the 8th and the 12th
/// (`room=n.n.n`, `labs::tally`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// `Some(None)`: skipped; `Some(Some(day))`: the day predicted.
    pub guess: Option<Option<PlanStart>>,
    pub ran: Vec<Ran>,
    pub room: Option<crate::labs::tally::Tally>,
}

/// The ship dates the room can guess, in the form's order.
pub const GUESSES: [PlanStart; 3] = [PlanStart::Third, PlanStart::Eighth, PlanStart::Twelfth];

/// The most runs a link may replay: far more than a lesson needs, few
/// enough that a hostile link cannot hold the page.
pub const MAX_RUNS: usize = 20;

/// Reads `guess=` and `ran=`; a value the page could not have written is
/// dropped with a note. Runs without a prediction are dropped too: the
/// page runs nothing before it.
pub fn parse_moment(get: impl Fn(&str) -> Option<String>) -> (Moment, Vec<String>) {
    let mut moment = Moment::default();
    let mut notes = Vec::new();
    if let Some(given) = get("guess") {
        let trimmed = given.trim();
        match PlanStart::ALL.into_iter().find(|p| p.name() == trimmed) {
            Some(day) => moment.guess = Some(Some(day)),
            None if trimmed == "skip" => moment.guess = Some(None),
            None => notes.push(link::ignored(
                "guess",
                &given,
                "3, 8, 12 or skip",
                "no prediction yet",
            )),
        }
    }
    if let Some(given) = get("ran") {
        let runs: Option<Vec<Ran>> = given
            .split(',')
            .map(|part| match part.trim() {
                "end" => Some(Ran::ToTheEnd),
                m => m
                    .parse::<u32>()
                    .ok()
                    .filter(|m| *m <= 24 * 60)
                    .map(Ran::InterruptedAt),
            })
            .collect();
        match runs {
            Some(runs) if runs.len() <= MAX_RUNS && moment.guess.is_some() => moment.ran = runs,
            _ => notes.push(link::ignored(
                "ran",
                &given,
                "after a prediction, up to 20 runs, each end or the minute it was interrupted",
                "no run yet",
            )),
        }
    }
    if let Some(given) = get("room") {
        match crate::labs::tally::Tally::read(&given, GUESSES.len()) {
            Some(tally) => moment.room = Some(tally),
            None => notes.push(link::ignored(
                "room",
                &given,
                "a count of hands for the 3rd, the 8th and the 12th, such as 4.9.2",
                "no show of hands",
            )),
        }
    }
    (moment, notes)
}

/// The query for the plan, presenter mode and `moment`.
pub fn to_query_at(choices: &Choices, present: bool, moment: &Moment) -> String {
    let mut query = to_query(choices, present);
    if let Some(guess) = moment.guess {
        query.push_str(&format!("&guess={}", guess.map_or("skip", |d| d.name())));
        if !moment.ran.is_empty() {
            let runs: Vec<String> = moment
                .ran
                .iter()
                .map(|r| match r {
                    Ran::ToTheEnd => "end".to_string(),
                    Ran::InterruptedAt(m) => m.to_string(),
                })
                .collect();
            query.push_str(&format!("&ran={}", runs.join(",")));
        }
    }
    if let Some(room) = moment.room {
        query.push_str(&format!("&room={}", room.value()));
    }
    query
}

pub fn to_query(choices: &Choices, present: bool) -> String {
    format!(
        "from={}&concurrency={}&markers={}&sunday={}&writer={}&present={}",
        choices.from.name(),
        choices.concurrency.name(),
        if choices.markers { "on" } else { "off" },
        choices.sunday.name(),
        choices.writer.name(),
        u8::from(present)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::{Concurrency, PlanStart};

    fn parse_str(query: &str) -> (Choices, Vec<String>) {
        let (choices, _, notes) = parse(crate::labs::link::lookup(query));
        (choices, notes)
    }

    #[test]
    fn a_moment_round_trips_and_a_hostile_one_is_dropped() {
        let moments = [
            Moment::default(),
            Moment {
                guess: Some(None),
                ran: Vec::new(),
                room: None,
            },
            Moment {
                guess: Some(Some(PlanStart::Eighth)),
                ran: vec![Ran::InterruptedAt(7), Ran::ToTheEnd],
                room: crate::labs::tally::Tally::read("4.9.2", GUESSES.len()),
            },
            Moment {
                room: crate::labs::tally::Tally::read("0.0.31", GUESSES.len()),
                ..Moment::default()
            },
        ];
        for m in moments {
            let q = to_query_at(&Choices::default(), true, &m);
            let (back, notes) = parse_moment(crate::labs::link::lookup(&q));
            assert_eq!((back, notes.len()), (m, 0), "{q}");
        }
        for bad in [
            "guess=7",
            "guess=skip&ran=end,x",
            "ran=end",
            "guess=3&ran=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21",
            "guess=3&ran=99999",
            "room=1.2",
            "room=1.2.x",
        ] {
            let (m, notes) = parse_moment(crate::labs::link::lookup(bad));
            assert!(
                m.ran.is_empty() && notes.len() == 1,
                "{bad}: {m:?} {notes:?}"
            );
        }
    }

    #[test]
    fn choices_round_trip_and_bad_values_fall_back() {
        for from in PlanStart::ALL {
            for concurrency in Concurrency::ALL {
                for markers in [true, false] {
                    let c = Choices {
                        from,
                        concurrency,
                        markers,
                        ..Choices::default()
                    };
                    for present in [false, true] {
                        let (back, shown, notes) =
                            parse(crate::labs::link::lookup(&to_query(&c, present)));
                        assert_eq!((back, shown, notes), (c, present, Vec::new()));
                    }
                }
            }
        }
        let (c, notes) = parse_str("from=5&concurrency=0&markers=maybe&present=yes");
        assert_eq!(c, Choices::default());
        assert_eq!(notes.len(), 4);
        let (old, notes) = parse_str("ship=8");
        assert_eq!((old.from, notes.len()), (PlanStart::Eighth, 0));
        let (both, _) = parse_str("ship=8&from=12");
        assert_eq!(both.from, PlanStart::Twelfth);
    }

    /// The Sunday and the writer round-trip; a value the page never
    /// writes is dropped with a note.
    #[test]
    fn the_sunday_and_the_writer_are_in_the_link() {
        use crate::labs::backfill::case::{Sunday, Writer};
        let c = Choices {
            from: PlanStart::Eighth,
            sunday: Sunday::Withdrawn,
            writer: Writer::Dynamic,
            ..Choices::default()
        };
        let (back, notes) = parse_str(&to_query(&c, false));
        assert_eq!((back, notes.len()), (c, 0));
        let (bad, notes) = parse_str("sunday=gone&writer=fast");
        assert_eq!(
            (bad.sunday, bad.writer),
            (Sunday::Delivered, Writer::Targeted)
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
