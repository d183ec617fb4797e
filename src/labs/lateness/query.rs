//! The lateness lab's URL: `profile=web|mobile|partner`,
//! `lateness=0..14|never`, `after=drop|adjust`, `present=0|1`,
//! `today=1..31` (the August day whose run the calendar shows).

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::engine::lateness::Lateness;

use crate::labs::link;
use crate::vocabulary::Choice;

use super::model::{august, Settings, MAX_DAYS};

pub fn lateness_value(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(n) => n.to_string(),
        Lateness::Never => "never".to_string(),
    }
}

/// Reads the query; unusable values fall back to defaults with a note each.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
    let mut settings = Settings::default();
    let mut notes = Vec::new();
    settings.profile = link::choice(&get, "profile", settings.profile, &mut notes);
    settings.after = link::choice(&get, "after", settings.after, &mut notes);
    let mut bad = |key: &str, given: &str, expected: &str, default: &str| {
        notes.push(crate::labs::link::ignored(key, given, expected, default));
    };
    if let Some(given) = get("lateness") {
        let value = given.trim().to_ascii_lowercase();
        match value.parse::<u32>() {
            Ok(n) if n <= MAX_DAYS => settings.lateness = Lateness::Days(n),
            _ if value == "never" => settings.lateness = Lateness::Never,
            _ => bad(
                "lateness",
                &given,
                "a whole number of days from 0 to 14, or never",
                "2",
            ),
        }
    }
    if let Some(given) = get("present") {
        match given.trim() {
            "1" => settings.present = true,
            "0" => settings.present = false,
            _ => bad("present", &given, "0 or 1", "0"),
        }
    }
    if let Some(given) = get("today") {
        match given.trim().parse::<u32>() {
            Ok(n) if (1..=31).contains(&n) => settings.today = august(n),
            _ => bad("today", &given, "a day of August from 1 to 31", "20"),
        }
    }
    (settings, notes)
}

pub fn to_query(settings: &Settings) -> String {
    use chrono::Datelike;
    format!(
        "profile={}&lateness={}&after={}&present={}&today={}",
        settings.profile.name(),
        lateness_value(settings.lateness),
        settings.after.name(),
        u8::from(settings.present),
        settings.today.day(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::lateness::model::{AfterPolicy, Profile};

    fn parse_str(query: &str) -> (Settings, Vec<String>) {
        parse(crate::labs::link::lookup(query))
    }

    #[test]
    fn settings_round_trip_through_the_query() {
        for profile in Profile::ALL {
            for lateness in (0..=MAX_DAYS).map(Lateness::Days).chain([Lateness::Never]) {
                for after in [AfterPolicy::Drop, AfterPolicy::Adjust] {
                    for present in [false, true] {
                        let settings = Settings {
                            profile,
                            lateness,
                            after,
                            present,
                            today: august(9),
                        };
                        let (back, notes) = parse_str(&to_query(&settings));
                        assert!(notes.is_empty());
                        assert_eq!(back, settings);
                    }
                }
            }
        }
    }

    #[test]
    fn bad_values_fall_back_with_notes() {
        let (settings, notes) =
            parse_str("profile=fax&lateness=15&after=keep&present=yes&today=32");
        assert_eq!(settings, Settings::default());
        assert_eq!(notes.len(), 5);
        let (settings, notes) = parse_str("lateness=-1");
        assert_eq!(settings.lateness, Lateness::Days(2));
        assert_eq!(notes.len(), 1);
    }
}
