//! The backfill lab's URL: `variant=N` (the August's data: none is the
//! chapter's), `from=1|3|8|12` (the August's own days: the ship date is
//! the variant's), `concurrency=1|4|12`, `markers=on|off`,
//! `sunday=delivered|withdrawn`, `writer=targeted|dynamic`, `present=0|1`.
//! Links made before the plan's start and the ship-date guess were separate
//! say `ship=`; it still sets where the plan starts.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::case::{August, Choices, PlanStart};
use crate::variant::Variant;

/// One run of the backfill as the page ran it: to its end, or interrupted
/// while minute `m` of it was showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    ToTheEnd,
    InterruptedAt(u32),
}

/// The plan's choices (its August's variant first: which days a plan may
/// start from is the August's), presenter mode, and a note per value not
/// used.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Choices, bool, Vec<String>) {
    let mut choices = Choices::default();
    let mut notes = Vec::new();
    let present = link::present(&get, &mut notes);
    if let Some(given) = get("variant") {
        match Variant::read(&given) {
            Some(variant) => choices.august = August::of(variant),
            None => notes.push(link::ignored(
                "variant",
                &given,
                "a variant's number, as the page writes it",
                "the chapter's August",
            )),
        }
    }
    let august = choices.august;
    if let Some((key, given)) = get("from")
        .map(|g| ("from", g))
        .or_else(|| get("ship").map(|g| ("ship", g)))
    {
        match august.start_named(&given) {
            Some(from) => choices.from = from,
            None => notes.push(link::ignored(
                key,
                &given,
                &format!("1, {}", august.guess_names()),
                PlanStart::FIRST.name(),
            )),
        }
    }
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

/// How many ship dates the room can guess (`August::guesses`).
pub const GUESSES: usize = 3;

/// The most runs a link may replay: far more than a lesson needs, few
/// enough that a hostile link cannot hold the page.
pub const MAX_RUNS: usize = 20;

/// Reads `guess=` and `ran=`; a value the page could not have written is
/// dropped with a note. Runs without a prediction are dropped too: the
/// page runs nothing before it.
pub fn parse_moment(august: August, get: impl Fn(&str) -> Option<String>) -> (Moment, Vec<String>) {
    let mut moment = Moment::default();
    let mut notes = Vec::new();
    if let Some(given) = get("guess") {
        let trimmed = given.trim();
        match august.guesses().into_iter().find(|p| p.name() == trimmed) {
            Some(day) => moment.guess = Some(Some(day)),
            None if trimmed == "skip" => moment.guess = Some(None),
            None => notes.push(link::ignored(
                "guess",
                &given,
                &format!("{} or skip", august.guess_names()),
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
        match crate::labs::tally::Tally::read(&given, GUESSES) {
            Some(tally) => moment.room = Some(tally),
            None => notes.push(link::ignored(
                "room",
                &given,
                &format!(
                    "a count of hands for {}, such as 4.9.2",
                    august.guess_labels()
                ),
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
    let variant = choices.august.variant;
    // The chapter's August writes no variant: links made before variants
    // read the same.
    let data = if variant.is_chapter() {
        String::new()
    } else {
        format!("variant={}&", variant.name())
    };
    format!(
        "{data}from={}&concurrency={}&markers={}&sunday={}&writer={}&present={}",
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

    /// Augusts to try: the chapter's, and variants whose ship dates differ.
    fn augusts() -> Vec<August> {
        let mut out = vec![August::CHAPTER];
        for seed in 1..200 {
            let a = August::of(Variant::from_seed(seed));
            if out.iter().all(|b| b.ship != a.ship) {
                out.push(a);
            }
        }
        out
    }

    #[test]
    fn a_moment_round_trips_and_a_hostile_one_is_dropped() {
        for august in augusts() {
            let moments = [
                Moment::default(),
                Moment {
                    guess: Some(None),
                    ran: Vec::new(),
                    room: None,
                },
                Moment {
                    guess: Some(Some(august.ship)),
                    ran: Vec::new(),
                    room: None,
                },
                Moment {
                    guess: Some(Some(PlanStart::EIGHTH)),
                    ran: vec![Ran::InterruptedAt(7), Ran::ToTheEnd],
                    room: crate::labs::tally::Tally::read("4.9.2", GUESSES),
                },
                Moment {
                    room: crate::labs::tally::Tally::read("0.0.31", GUESSES),
                    ..Moment::default()
                },
            ];
            let choices = Choices {
                august,
                ..Choices::default()
            };
            for m in moments {
                let q = to_query_at(&choices, true, &m);
                let (again, _, _) = parse(crate::labs::link::lookup(&q));
                let (back, notes) = parse_moment(again.august, crate::labs::link::lookup(&q));
                assert_eq!((again, back, notes.len()), (choices, m, 0), "{q}");
            }
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
            let (m, notes) = parse_moment(August::CHAPTER, crate::labs::link::lookup(bad));
            assert!(
                m.ran.is_empty() && notes.len() == 1,
                "{bad}: {m:?} {notes:?}"
            );
        }
    }

    /// A guess is a day the variant offers: the chapter's 12th is no guess
    /// in a variant (its guesses are its own day, another early day and
    /// the 8th).
    #[test]
    fn a_guess_is_read_against_its_own_august() {
        let other = augusts()
            .into_iter()
            .find(|a| a.ship != August::CHAPTER.ship)
            .expect("a variant with another ship date");
        assert!(other.guesses().contains(&other.ship));
        assert!(other.guesses().contains(&PlanStart::EIGHTH));
        assert!(!other.guesses().contains(&PlanStart::TWELFTH));
        let (m, notes) = parse_moment(other, crate::labs::link::lookup("guess=12"));
        assert_eq!((m.guess, notes.len()), (None, 1));
        assert!(notes[0].contains(&other.guess_names()), "{notes:?}");
        let own = format!("guess={}", other.ship.name());
        let (m, notes) = parse_moment(other, crate::labs::link::lookup(&own));
        assert_eq!((m.guess, notes.len()), (Some(Some(other.ship)), 0));
    }

    #[test]
    fn choices_round_trip_and_bad_values_fall_back() {
        for august in augusts() {
            for from in august.starts() {
                for concurrency in Concurrency::ALL {
                    for markers in [true, false] {
                        let c = Choices {
                            august,
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
        }
        let (c, notes) = parse_str("from=5&concurrency=0&markers=maybe&present=yes");
        assert_eq!(c, Choices::default());
        assert_eq!(notes.len(), 4);
        let (old, notes) = parse_str("ship=8");
        assert_eq!((old.from, notes.len()), (PlanStart::EIGHTH, 0));
        let (both, _) = parse_str("ship=8&from=12");
        assert_eq!(both.from, PlanStart::TWELFTH);
        // The chapter's links write no variant; a bad one is the chapter's.
        assert!(!to_query(&Choices::default(), false).contains("variant"));
        let (bad, notes) = parse_str("variant=x&from=3");
        assert_eq!(
            (bad.august, bad.from, notes.len()),
            (August::CHAPTER, August::CHAPTER.ship, 1)
        );
    }

    /// The Sunday and the writer round-trip; a value the page never
    /// writes is dropped with a note.
    #[test]
    fn the_sunday_and_the_writer_are_in_the_link() {
        use crate::labs::backfill::case::{Sunday, Writer};
        let c = Choices {
            from: PlanStart::EIGHTH,
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
