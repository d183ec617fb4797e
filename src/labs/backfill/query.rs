//! The backfill lab's URL: `ship=3|8|12`, `concurrency=1|4|12`, `markers=on|off`.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::case::{Choices, Concurrency, ShipGuess};

fn ship_value(ship: ShipGuess) -> &'static str {
    match ship {
        ShipGuess::Third => "3",
        ShipGuess::Eighth => "8",
        ShipGuess::Twelfth => "12",
    }
}

pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Choices, Vec<String>) {
    let mut choices = Choices::default();
    let mut notes = Vec::new();
    let mut bad = |key: &str, given: &str, expected: &str, default: &str| {
        notes.push(crate::labs::link::ignored(key, given, expected, default));
    };
    if let Some(given) = get("ship") {
        match ShipGuess::ALL
            .iter()
            .find(|s| ship_value(**s) == given.trim())
        {
            Some(s) => choices.ship = *s,
            None => bad("ship", &given, "3, 8 or 12", "3"),
        }
    }
    if let Some(given) = get("concurrency") {
        match Concurrency::ALL
            .iter()
            .find(|c| c.value().to_string() == given.trim())
        {
            Some(c) => choices.concurrency = *c,
            None => bad("concurrency", &given, "1, 4 or 12", "4"),
        }
    }
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
        ship_value(choices.ship),
        choices.concurrency.value(),
        if choices.markers { "on" } else { "off" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
