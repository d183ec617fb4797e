//! The backfill lab's URL: `from=3|8|12`, `concurrency=1|4|12`, `markers=on|off`,
//! `present=0|1`.
//! Links made before the plan's start and the ship-date guess were separate
//! say `ship=`; it still sets where the plan starts.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::case::Choices;

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
    (choices, present, notes)
}

pub fn to_query(choices: &Choices, present: bool) -> String {
    format!(
        "from={}&concurrency={}&markers={}&present={}",
        choices.from.name(),
        choices.concurrency.name(),
        if choices.markers { "on" } else { "off" },
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
    fn choices_round_trip_and_bad_values_fall_back() {
        for from in PlanStart::ALL {
            for concurrency in Concurrency::ALL {
                for markers in [true, false] {
                    let c = Choices {
                        from,
                        concurrency,
                        markers,
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
}
