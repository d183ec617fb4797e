//! A month's study as constants (`Baked`). The lateness lab's built-in
//! months are seeded, so their studies are known before the page runs:
//! the page reads them back (`LatenessStudy::from_baked`) instead of
//! drawing 37,200 orders and studying them before its first screen
//! answers. A test in the lab's model holds every baked month equal to the
//! study of its draws.

use chrono::{DateTime, Datelike, NaiveDate};

use crate::lean::sorted::SortedMap;

use super::{Day, Instant, LateExample, LatenessStudy, Tally, DELAY_BUCKETS};

/// A `LatenessStudy` in numbers a `const` can hold: days as days from the
/// Common Era, instants as Unix seconds (UTC), tallies as (count, value).
#[derive(Clone, Copy, Debug)]
pub struct Baked {
    pub first: i32,
    pub last: i32,
    pub total: (u64, i64),
    /// `needed[l]`, as the study keeps it.
    pub needed: &'static [(u64, i64)],
    /// (lateness needed, year, month booked, count, value).
    pub bookings: &'static [(u32, i32, u32, u64, i64)],
    /// Counts in `DELAY_BUCKETS`'s order.
    pub histogram: &'static [u64],
    /// (lateness needed, id, event time, arrival, value), in the study's order.
    pub examples: &'static [(u32, &'static str, i64, i64, i64)],
}

fn tally((count, value): (u64, i64)) -> Tally {
    Tally { count, value }
}

fn day(n: i32) -> Day {
    NaiveDate::from_num_days_from_ce_opt(n).unwrap_or_default()
}

fn instant(seconds: i64) -> Instant {
    DateTime::from_timestamp(seconds, 0)
        .map(|t| t.naive_utc())
        .unwrap_or_default()
}

fn seconds(at: Instant) -> i64 {
    at.and_utc().timestamp()
}

impl LatenessStudy {
    /// The study `bake` wrote.
    pub fn from_baked(b: &Baked) -> Self {
        let mut examples: SortedMap<u32, Vec<LateExample>> = SortedMap::new();
        for &(needed, id, event_time, arrived_at, value) in b.examples {
            examples.entry(needed).or_default().push(LateExample {
                id: id.to_string(),
                event_time: instant(event_time),
                arrived_at: instant(arrived_at),
                value,
                needed,
            });
        }
        Self {
            first: day(b.first),
            last: day(b.last),
            total: tally(b.total),
            needed: b.needed.iter().copied().map(tally).collect(),
            bookings: b
                .bookings
                .iter()
                .map(|&(l, year, month, count, value)| ((l, year, month), tally((count, value))))
                .collect(),
            histogram: DELAY_BUCKETS
                .iter()
                .zip(b.histogram)
                .map(|((label, _), n)| (*label, *n))
                .collect(),
            examples,
        }
    }

    /// This study as the Rust source of a `Baked` constant named `name`.
    pub fn bake(&self, name: &str) -> String {
        use std::fmt::Write;
        let mut out = format!(
            "pub const {name}: Baked = Baked {{\n    first: {},\n    last: {},\n    total: ({}, {}),\n    needed: &[\n",
            self.first.num_days_from_ce(),
            self.last.num_days_from_ce(),
            self.total.count,
            self.total.value
        );
        for t in &self.needed {
            let _ = writeln!(out, "        ({}, {}),", t.count, t.value);
        }
        out.push_str("    ],\n    bookings: &[\n");
        for ((l, year, month), t) in self.bookings.iter() {
            let _ = writeln!(
                out,
                "        ({l}, {year}, {month}, {}, {}),",
                t.count, t.value
            );
        }
        out.push_str("    ],\n    histogram: &[");
        let counts: Vec<String> = self.histogram.iter().map(|(_, n)| n.to_string()).collect();
        out.push_str(&counts.join(", "));
        out.push_str("],\n    examples: &[\n");
        for e in self.examples.values().flatten() {
            let _ = writeln!(
                out,
                "        ({}, {:?}, {}, {}, {}),",
                e.needed,
                e.id,
                seconds(e.event_time),
                seconds(e.arrived_at),
                e.value
            );
        }
        out.push_str("    ],\n};\n");
        out
    }
}
