//! The dates page's URL: `day=1..31` (the August partition followed),
//! `lateness=0..14` (days), `from=1..31` and `to=1..31` (the backfill's
//! August dates, both included), each written only when not the default.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use chrono::Datelike;

use crate::engine::calendar::aug;
use crate::labs::link;

use super::{Pipeline, MAX_LATENESS};

/// An August day as the page's selects give it.
fn read_day(given: &str) -> Option<u32> {
    given
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=31).contains(n))
}

/// Reads the query; unusable values fall back to defaults with a note each.
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Pipeline, Vec<String>) {
    let default = Pipeline::default();
    let mut p = default;
    let mut notes = Vec::new();
    let august = "a day of August from 1 to 31";
    for (key, slot, was) in [
        ("day", &mut p.day, default.day),
        ("from", &mut p.first, default.first),
        ("to", &mut p.last, default.last),
    ] {
        if let Some(given) = get(key) {
            match read_day(&given) {
                Some(n) => *slot = aug(n),
                None => notes.push(link::ignored(key, &given, august, &was.day().to_string())),
            }
        }
    }
    if let Some(given) = get("lateness") {
        match given.trim().parse::<u32>() {
            Ok(n) if n <= MAX_LATENESS => p.lateness = n,
            _ => notes.push(link::ignored(
                "lateness",
                &given,
                "a whole number of days from 0 to 14",
                &default.lateness.to_string(),
            )),
        }
    }
    if p.first > p.last {
        if get("to").is_some() {
            notes.push(format!(
                "Ignored from={} and to={}: a backfill's first date is not after its last; showing {} to {}.",
                p.first.day(),
                p.last.day(),
                default.first.day(),
                default.last.day()
            ));
            p.first = default.first;
            p.last = default.last;
        } else {
            // Only the first date given: the last follows it, as on the page.
            p.last = p.first;
        }
    }
    (p, notes)
}

/// The query for `p`, without the defaults.
pub fn query(p: &Pipeline) -> String {
    let default = Pipeline::default();
    let mut parts = Vec::new();
    for (key, value, was) in [
        ("day", p.day, default.day),
        ("from", p.first, default.first),
        ("to", p.last, default.last),
    ] {
        if value != was {
            parts.push(format!("{key}={}", value.day()));
        }
    }
    if p.lateness != default.lateness {
        parts.push(format!("lateness={}", p.lateness));
    }
    parts.join("&")
}

/// The page's address for `p`, in presenter mode when `present` (the
/// query's last key, as the other labs write it).
pub fn href(p: &Pipeline, present: bool) -> String {
    let mut q = query(p);
    if present {
        if !q.is_empty() {
            q.push('&');
        }
        q.push_str("present=1");
    }
    match q {
        q if q.is_empty() => "/dates".to_string(),
        q => format!("/dates?{q}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::link::lookup;

    #[test]
    fn every_pipeline_the_page_offers_survives_its_link() {
        for day in [1, 5, 31] {
            for lateness in [0, 2, MAX_LATENESS] {
                for (first, last) in [(1, 31), (3, 13), (31, 31)] {
                    let p = Pipeline {
                        day: aug(day),
                        lateness,
                        first: aug(first),
                        last: aug(last),
                    };
                    let q = query(&p);
                    assert_eq!(parse(lookup(&q)), (p, vec![]), "{q}");
                }
            }
        }
        assert_eq!(href(&Pipeline::default(), false), "/dates");
    }

    /// Presenter mode survives every address the page writes, and the
    /// pipeline reads back beside it.
    #[test]
    fn presenter_mode_rides_on_the_address() {
        use crate::labs::link::present;
        assert_eq!(href(&Pipeline::default(), true), "/dates?present=1");
        let p = Pipeline {
            day: aug(7),
            ..Pipeline::default()
        };
        for on in [false, true] {
            let address = href(&p, on);
            let q = address.split_once('?').map_or("", |(_, q)| q);
            let mut notes = Vec::new();
            assert_eq!(present(&lookup(q), &mut notes), on, "{address}");
            assert_eq!(parse(lookup(q)), (p, vec![]), "{address}");
            assert!(notes.is_empty());
        }
    }

    #[test]
    fn a_value_the_page_cannot_use_is_named_and_replaced() {
        let (p, notes) = parse(lookup("day=32&lateness=15&from=x"));
        assert_eq!(p, Pipeline::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("Ignored day=32")));
        let (p, notes) = parse(lookup("from=20&to=4"));
        assert_eq!((p.first, p.last), (aug(3), aug(13)));
        assert!(notes[0].contains("showing 3 to 13"), "{notes:?}");
        // A first date alone, after the default last: the last follows it.
        let (p, notes) = parse(lookup("from=20"));
        assert_eq!((p.first, p.last, notes.len()), (aug(20), aug(20), 0));
        let (p, notes) = parse(lookup("day= 7&lateness=0"));
        assert!(notes.is_empty());
        assert_eq!((p.day, p.lateness), (aug(7), 0));
    }
}
