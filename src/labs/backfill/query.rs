//! The backfill lab's URL: `ship=3|8|12`, `concurrency=1|4|12`, `markers=on|off`.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use super::case::Choices;

pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Choices, Vec<String>) {
    let mut choices = Choices::default();
    let mut notes = Vec::new();
    choices.ship = link::choice(&get, "ship", choices.ship, &mut notes);
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
    (choices, notes)
}

pub fn to_query(choices: &Choices) -> String {
    format!(
        "ship={}&concurrency={}&markers={}",
        choices.ship.name(),
        choices.concurrency.name(),
        if choices.markers { "on" } else { "off" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::{Concurrency, ShipGuess};

    fn parse_str(query: &str) -> (Choices, Vec<String>) {
        parse(crate::labs::link::lookup(query))
    }

    #[test]
    fn choices_round_trip_and_bad_values_fall_back() {
        for ship in ShipGuess::ALL {
            for concurrency in Concurrency::ALL {
                for markers in [true, false] {
                    let c = Choices {
                        ship,
                        concurrency,
                        markers,
                    };
                    assert_eq!(parse_str(&to_query(&c)), (c, Vec::new()));
                }
            }
        }
        let (c, notes) = parse_str("ship=5&concurrency=0&markers=maybe");
        assert_eq!(c, Choices::default());
        assert_eq!(notes.len(), 3);
    }
}
