//! The lateness lab's URL: `profile=web|mobile|partner`,
//! `lateness=0..14|never`, `after=drop|adjust`, `present=0|1`,
//! `compare=0..14|never` (presenter mode's second setting, side by side),
//! `today=1..31` (the August day whose run the calendar shows); for your
//! own data, `run=HH:MM` (local), `zone=` (an IANA name the lab holds,
//! such as `Europe/London`; UTC by default), `close=1..10` (business day) and
//! `target=95|99|99.5|99.9|99.99|100` (percent), written only when they
//! are not the default; `predict=<band>@<lateness>|skip`, the answer to the
//! lab's question (`guess`); `room=<n>.<n>.<n>.<n>`, presenter mode's
//! show of hands per answer band (`labs::tally`). The data itself is never
//! in the URL.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::labs::link;
use crate::vocabulary::Choice;

use chrono::NaiveTime;

use super::model::{august, Settings, CLOSE_DAYS, TARGETS};
pub use super::slider::{lateness_value, read_lateness};

/// Reads the query; unusable values fall back to defaults with a note each.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
    let mut settings = Settings::default();
    let mut notes = Vec::new();
    settings.profile = link::choice(&get, "profile", settings.profile, &mut notes);
    settings.after = link::choice(&get, "after", settings.after, &mut notes);
    settings.present = link::present(&get, &mut notes);
    let mut bad = |key: &str, given: &str, expected: &str, default: &str| {
        notes.push(crate::labs::link::ignored(key, given, expected, default));
    };
    if let Some(given) = get("lateness") {
        match read_lateness(&given) {
            Some(l) => settings.lateness = l,
            None => bad(
                "lateness",
                &given,
                "a whole number of days from 0 to 14, or never",
                "2",
            ),
        }
    }
    if let Some(given) = get("compare") {
        match read_lateness(&given) {
            Some(l) => settings.compare = Some(l),
            None => bad(
                "compare",
                &given,
                "a whole number of days from 0 to 14, or never",
                "no comparison",
            ),
        }
    }
    if let Some(given) = get("today") {
        match given.trim().parse::<u32>() {
            Ok(n) if (1..=31).contains(&n) => settings.today = august(n),
            _ => bad("today", &given, "a day of August from 1 to 31", "20"),
        }
    }
    if let Some(given) = get("run") {
        match parse_run(&given) {
            Some(run) => settings.run = run,
            None => bad("run", &given, "a time of day as HH:MM", "02:00"),
        }
    }
    if let Some(given) = get("zone") {
        match crate::engine::zone::Zone::named(&given) {
            Ok(zone) => settings.zone = zone,
            Err(_) => bad(
                "zone",
                &given,
                "a time zone the lab holds (such as Europe/London or America/New_York)",
                "UTC",
            ),
        }
    }
    if let Some(given) = get("close") {
        match given.trim().parse::<u32>() {
            Ok(n) if CLOSE_DAYS.contains(&n) => settings.close_day = n,
            _ => bad("close", &given, "a business day from 1 to 10", "3"),
        }
    }
    if let Some(given) = get("predict") {
        match super::guess::Guess::read(&given) {
            Some(g) => settings.guess = Some(g),
            None => bad(
                "predict",
                &given,
                "an answer the lab offers (such as 99to99.9@2) or skip",
                "the question asked first",
            ),
        }
    }
    if let Some(given) = get("room") {
        match crate::labs::tally::Tally::read(&given, super::guess::Share::ALL.len()) {
            Some(tally) => settings.room = Some(tally),
            None => bad(
                "room",
                &given,
                "a count of hands per answer, such as 3.12.5.0",
                "no show of hands",
            ),
        }
    }
    if let Some(given) = get("target") {
        match TARGETS
            .into_iter()
            .find(|t| target_value(*t) == given.trim())
        {
            Some(t) => settings.target_bp = t,
            None => bad("target", &given, "95, 99, 99.5, 99.9, 99.99 or 100", "99.9"),
        }
    }
    (settings, notes)
}

/// `HH:MM`, 00:00 to 23:59.
pub fn parse_run(text: &str) -> Option<NaiveTime> {
    let (h, m) = text.trim().split_once(':')?;
    let two = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !(two(h) && two(m)) {
        return None;
    }
    NaiveTime::from_hms_opt(h.parse().ok()?, m.parse().ok()?, 0)
}

pub fn run_value(run: NaiveTime) -> String {
    use chrono::Timelike;
    format!("{:02}:{:02}", run.hour(), run.minute())
}

/// A target as the query and the page write it: 9990 is "99.9".
pub fn target_value(bp: u32) -> String {
    let (whole, rest) = (bp / 100, bp % 100);
    match rest {
        0 => whole.to_string(),
        r if r % 10 == 0 => format!("{whole}.{}", r / 10),
        r => format!("{whole}.{r:02}"),
    }
}

pub fn to_query(settings: &Settings) -> String {
    use chrono::Datelike;
    let mut query = format!(
        "profile={}&lateness={}&after={}&present={}&today={}",
        settings.profile.name(),
        lateness_value(settings.lateness),
        settings.after.name(),
        u8::from(settings.present),
        settings.today.day(),
    );
    let defaults = Settings::default();
    if let Some(compare) = settings.compare {
        query.push_str(&format!("&compare={}", lateness_value(compare)));
    }
    if settings.run != defaults.run {
        query.push_str(&format!("&run={}", run_value(settings.run)));
    }
    if settings.zone != defaults.zone {
        query.push_str(&format!("&zone={}", settings.zone.name()));
    }
    if settings.close_day != defaults.close_day {
        query.push_str(&format!("&close={}", settings.close_day));
    }
    if settings.target_bp != defaults.target_bp {
        query.push_str(&format!("&target={}", target_value(settings.target_bp)));
    }
    if let Some(guess) = settings.guess {
        query.push_str(&format!("&predict={}", guess.value()));
    }
    if let Some(room) = settings.room {
        query.push_str(&format!("&room={}", room.value()));
    }
    query
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lateness::Lateness;
    use crate::labs::lateness::model::{AfterPolicy, Profile};
    use crate::labs::lateness::MAX_DAYS;

    fn parse_str(query: &str) -> (Settings, Vec<String>) {
        parse(crate::labs::link::lookup(query))
    }

    #[test]
    fn settings_round_trip_through_the_query() {
        for profile in Profile::ALL.iter().copied() {
            for lateness in (0..=MAX_DAYS).map(Lateness::Days).chain([Lateness::Never]) {
                for after in [AfterPolicy::Drop, AfterPolicy::Adjust] {
                    for (present, compare) in [
                        (false, None),
                        (true, None),
                        (true, Some(Lateness::Days(5))),
                        (true, Some(Lateness::Never)),
                    ] {
                        let settings = Settings {
                            profile,
                            lateness,
                            after,
                            present,
                            compare,
                            today: august(9),
                            room: present
                                .then(|| crate::labs::tally::Tally::read("3.12.5.0", 4))
                                .flatten(),
                            ..Settings::default()
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
    fn your_data_settings_round_trip_and_stay_out_of_the_url_when_default() {
        assert!(!to_query(&Settings::default()).contains("run="));
        for (h, m) in [(0, 0), (2, 0), (6, 30), (23, 59)] {
            for close_day in CLOSE_DAYS {
                for target_bp in TARGETS {
                    let settings = Settings {
                        profile: Profile::Yours,
                        run: NaiveTime::from_hms_opt(h, m, 0).unwrap_or_default(),
                        close_day,
                        target_bp,
                        ..Settings::default()
                    };
                    let (back, notes) = parse_str(&to_query(&settings));
                    assert!(notes.is_empty(), "{notes:?}");
                    assert_eq!(back, settings);
                }
            }
        }
        for zone in crate::engine::zone::NAMES {
            let settings = Settings {
                zone: crate::engine::zone::Zone::named(zone).unwrap_or_default(),
                ..Settings::default()
            };
            let (back, notes) = parse_str(&to_query(&settings));
            assert!(notes.is_empty(), "{notes:?}");
            assert_eq!(back.zone.name(), zone);
        }
        let (settings, notes) = parse_str("run=2:00&close=11&target=99.95&zone=Mars/Base");
        assert_eq!(settings, Settings::default());
        assert_eq!(notes.len(), 4);
        assert!(notes.iter().any(|n| n.contains("Mars/Base")), "{notes:?}");
        assert_eq!(parse_run("24:00"), None);
        assert_eq!(target_value(9999), "99.99");
        assert_eq!(target_value(9950), "99.5");
    }

    #[test]
    fn bad_values_fall_back_with_notes() {
        let (settings, notes) =
            parse_str("profile=fax&lateness=15&after=keep&present=yes&today=32&compare=99");
        assert_eq!(settings, Settings::default());
        assert_eq!(notes.len(), 6);
        let (settings, notes) = parse_str("lateness=-1");
        assert_eq!(settings.lateness, Lateness::Days(2));
        assert_eq!(notes.len(), 1);
    }
}
