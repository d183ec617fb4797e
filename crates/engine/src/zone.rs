//! The time zone a user's partitions are dated in: partition d holds the
//! events of local day d, and the daily run happens at a local time.
//!
//! Local days are not all 24 hours long: where the clocks change, one day
//! a year has 23 and one has 25, so a local time can be missing (spring)
//! or happen twice (autumn). What the lab does then is what Java, Spark's
//! `to_utc_timestamp` and Python's `zoneinfo` with `fold=0` do, and the
//! warehouse query says so: a missing time is read as if the clocks had
//! not changed yet (a 02:30 run in New York's spring gap runs at 03:30
//! EDT, an hour after 01:30 EST), and a time that happens twice is its
//! first occurrence (a 01:30 run in London's autumn runs at 01:30 BST,
//! once).
//!
//! The zones are a fixed set, each with the clock rules it has followed
//! since `RULES_SINCE` (the EU's since 1996, the US's since 2007,
//! Australia's and New Zealand's since 2008, the rest no change), written
//! here rather than taken from chrono-tz: its database, even filtered to
//! these zones and the names linked to them, was 47 KB of the gzipped
//! bundle, these rules are a few hundred bytes. A test holds them equal
//! to chrono-tz's for every hour from 2008 to 2037. Times before 2008 are
//! not dated in a zone (the reader leaves such rows out and says why), and
//! every other zone name is refused with the list.

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Weekday};

use super::calendar::{shift, Day, Instant};

/// The first year whose clock rules the lab holds for every zone.
pub const RULES_SINCE: i32 = 2008;

/// When a zone's clocks go forward an hour, and back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Never.
    Fixed,
    /// The EU: last Sunday of March to last Sunday of October, 01:00 UTC.
    Eu,
    /// The US and Canada: second Sunday of March, 02:00 standard time, to
    /// first Sunday of November, 02:00 daylight time.
    NorthAmerica,
    /// South-east Australia: first Sunday of October to first Sunday of
    /// April, 02:00 standard time both ways.
    Australia,
    /// New Zealand: last Sunday of September to first Sunday of April,
    /// 02:00 standard time both ways.
    NewZealand,
}

/// (IANA name, standard offset in minutes east of UTC, rule).
const ZONES: [(&str, i32, Rule); 27] = [
    ("UTC", 0, Rule::Fixed),
    ("Europe/London", 0, Rule::Eu),
    ("Europe/Dublin", 0, Rule::Eu),
    ("Europe/Lisbon", 0, Rule::Eu),
    ("Europe/Paris", 60, Rule::Eu),
    ("Europe/Berlin", 60, Rule::Eu),
    ("Europe/Madrid", 60, Rule::Eu),
    ("Europe/Amsterdam", 60, Rule::Eu),
    ("Europe/Stockholm", 60, Rule::Eu),
    ("Europe/Warsaw", 60, Rule::Eu),
    ("Europe/Athens", 120, Rule::Eu),
    ("America/New_York", -300, Rule::NorthAmerica),
    ("America/Toronto", -300, Rule::NorthAmerica),
    ("America/Chicago", -360, Rule::NorthAmerica),
    ("America/Denver", -420, Rule::NorthAmerica),
    ("America/Phoenix", -420, Rule::Fixed),
    ("America/Los_Angeles", -480, Rule::NorthAmerica),
    ("America/Vancouver", -480, Rule::NorthAmerica),
    ("Asia/Dubai", 240, Rule::Fixed),
    ("Asia/Kolkata", 330, Rule::Fixed),
    ("Asia/Singapore", 480, Rule::Fixed),
    ("Asia/Shanghai", 480, Rule::Fixed),
    ("Asia/Hong_Kong", 480, Rule::Fixed),
    ("Asia/Tokyo", 540, Rule::Fixed),
    ("Australia/Sydney", 600, Rule::Australia),
    ("Pacific/Auckland", 720, Rule::NewZealand),
    ("Africa/Johannesburg", 120, Rule::Fixed),
];

/// The names of the zones the lab holds, in the order it lists them.
// Evaluated by the compiler: an index out of range fails the build.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub const NAMES: [&str; 27] = {
    let mut names = [""; 27];
    let mut i = 0;
    while i < 27 {
        names[i] = ZONES[i].0;
        i += 1;
    }
    names
};

/// A zone of `NAMES`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Zone(usize);

/// A zone name the lab does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{given}\" is not one of the time zones the lab holds: {}.", NAMES.join(", "))]
pub struct UnknownZone {
    pub given: String,
}

/// The `nth` (1-based) `weekday` of `month`, or the last one for `nth` 0.
fn weekday_in(year: i32, month: u32, weekday: Weekday, nth: u8) -> Day {
    if nth == 0 {
        let next = if month >= 12 {
            NaiveDate::from_ymd_opt(year.saturating_add(1), 1, 1)
        } else {
            NaiveDate::from_ymd_opt(year, month.saturating_add(1), 1)
        };
        return next
            .and_then(|d| d.pred_opt())
            .and_then(|last| {
                let back = last
                    .weekday()
                    .num_days_from_monday()
                    .saturating_add(7)
                    .saturating_sub(weekday.num_days_from_monday())
                    .checked_rem(7)
                    .unwrap_or(0);
                last.checked_sub_signed(Duration::days(i64::from(back)))
            })
            .unwrap_or_default();
    }
    NaiveDate::from_weekday_of_month_opt(year, month, weekday, nth).unwrap_or_default()
}

impl Zone {
    pub const UTC: Zone = Zone(0);

    /// The zone named `given` (an IANA name, in any case).
    pub fn named(given: &str) -> Result<Zone, UnknownZone> {
        let wanted = given.trim();
        NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(wanted))
            .map(Zone)
            .ok_or_else(|| UnknownZone {
                given: given.chars().take(60).collect(),
            })
    }

    fn rules(self) -> (&'static str, i32, Rule) {
        ZONES.get(self.0).copied().unwrap_or(ZONES[0])
    }

    pub fn name(self) -> &'static str {
        self.rules().0
    }

    pub fn is_utc(self) -> bool {
        self == Zone::UTC
    }

    /// Seconds east of UTC, for a zone whose clocks never change.
    pub fn fixed_offset(self) -> Option<i64> {
        (self.rules().2 == Rule::Fixed).then(|| self.standard())
    }

    /// Seconds east of UTC in winter (standard time).
    fn standard(self) -> i64 {
        i64::from(self.rules().1).saturating_mul(60)
    }

    /// The instants (UTC) of `year`'s change to summer time and back.
    fn changes_in(self, year: i32) -> Option<(Instant, Instant)> {
        let standard = self.standard();
        let at = |day: Day, utc_seconds: i64| {
            day.and_time(NaiveTime::MIN)
                .checked_add_signed(Duration::seconds(utc_seconds))
                .unwrap_or_default()
        };
        // 02:00 standard time, as seconds after midnight UTC.
        let two_standard = 7200i64.saturating_sub(standard);
        match self.rules().2 {
            Rule::Fixed => None,
            Rule::Eu => Some((
                at(weekday_in(year, 3, Weekday::Sun, 0), 3600),
                at(weekday_in(year, 10, Weekday::Sun, 0), 3600),
            )),
            Rule::NorthAmerica => Some((
                at(weekday_in(year, 3, Weekday::Sun, 2), two_standard),
                // 02:00 daylight time is 01:00 standard.
                at(
                    weekday_in(year, 11, Weekday::Sun, 1),
                    two_standard.saturating_sub(3600),
                ),
            )),
            Rule::Australia => Some((
                at(weekday_in(year, 10, Weekday::Sun, 1), two_standard),
                at(weekday_in(year, 4, Weekday::Sun, 1), two_standard),
            )),
            Rule::NewZealand => Some((
                at(weekday_in(year, 9, Weekday::Sun, 0), two_standard),
                at(weekday_in(year, 4, Weekday::Sun, 1), two_standard),
            )),
        }
    }

    /// Seconds east of UTC at `at`.
    fn offset_at(self, at: Instant) -> i64 {
        let summer = match self.changes_in(at.year()) {
            None => false,
            // North of the equator summer is inside the year, south of it
            // the year starts and ends in summer.
            Some((forward, back)) if forward < back => forward <= at && at < back,
            Some((forward, back)) => at < back || forward <= at,
        };
        self.standard()
            .saturating_add(if summer { 3600 } else { 0 })
    }

    /// Whether the lab holds `at`'s clock rules for this zone.
    pub fn dates(self, at: Instant) -> bool {
        self.is_utc() || at.year() >= RULES_SINCE
    }

    /// The wall clock at `at`.
    pub fn local(self, at: Instant) -> NaiveDateTime {
        at.checked_add_signed(Duration::seconds(self.offset_at(at)))
            .unwrap_or(at)
    }

    /// The local day `at` falls in: its partition.
    pub fn day_of(self, at: Instant) -> Day {
        self.local(at).date()
    }

    /// The instant a wall-clock time names (see the module: a missing time
    /// as if the clocks had not changed, a repeated one its first time).
    pub fn instant(self, local: NaiveDateTime) -> Instant {
        let standard = self.standard();
        let read = |offset: i64| {
            local
                .checked_sub_signed(Duration::seconds(offset))
                .filter(|t| self.offset_at(*t) == offset)
        };
        // Summer time is the larger offset, so its reading is the earlier.
        match (read(standard.saturating_add(3600)), read(standard)) {
            (Some(summer), _) => summer,
            (None, Some(winter)) => winter,
            (None, None) => {
                // The offset a day before is the one the clocks had not
                // yet left: no zone changes twice in a day.
                let before = local
                    .checked_sub_signed(Duration::days(1))
                    .map_or(standard, |t| self.offset_at(t));
                local
                    .checked_sub_signed(Duration::seconds(before))
                    .unwrap_or(local)
            }
        }
    }

    /// The run at `time` on local day `day`.
    pub fn run_on(self, day: Day, time: NaiveTime) -> Instant {
        self.instant(day.and_time(time))
    }

    /// The first instant of local day `day`.
    pub fn day_start(self, day: Day) -> Instant {
        self.run_on(day, NaiveTime::MIN)
    }

    /// Whether the clocks change during local day `day` (a 23- or 25-hour day).
    pub fn changes_on(self, day: Day) -> bool {
        self.rules().2 != Rule::Fixed
            && self.offset_at(self.day_start(day)) != self.offset_at(self.day_start(shift(day, 1)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

    use super::*;
    use chrono::{Offset, TimeZone, Timelike};

    /// Local day `day`'s length in hours: 24, or 23 or 25 where the clocks change.
    fn hours_in(zone: Zone, day: Day) -> i64 {
        (zone.day_start(shift(day, 1)) - zone.day_start(day)).num_hours()
    }

    fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d)
            .and_then(|d| d.and_hms_opt(h, min, 0))
            .unwrap_or_default()
    }

    #[test]
    fn names_are_found_in_any_case_and_others_refused_with_the_list() {
        for name in NAMES {
            assert_eq!(Zone::named(name).map(Zone::name), Ok(name));
        }
        assert_eq!(
            Zone::named("europe/london").map(Zone::name),
            Ok("Europe/London")
        );
        let refused = Zone::named("Mars/Olympus_Mons").map(Zone::name);
        assert!(
            matches!(&refused, Err(e) if e.to_string().contains("Europe/London, Europe/Dublin")),
            "{refused:?}"
        );
    }

    /// The rules written here against the IANA database's (chrono-tz,
    /// a test dependency only): each day at noon, and on every day the
    /// offset changes each quarter hour, offsets and wall clocks read back,
    /// for every zone from 2008 to 2037.
    #[test]
    fn the_rules_are_the_time_zone_databases() {
        let theirs = |tz: chrono_tz::Tz, t: NaiveDateTime| {
            i64::from(tz.offset_from_utc_datetime(&t).fix().local_minus_utc())
        };
        let mut changes = 0;
        for name in NAMES {
            let zone = Zone::named(name).unwrap_or_default();
            let tz: chrono_tz::Tz = name.parse().expect("a zone chrono-tz knows");
            let mut day = at(RULES_SINCE, 1, 1, 0, 0);
            while day < at(2038, 1, 1, 0, 0) {
                let noon = day + Duration::hours(12);
                assert_eq!(
                    zone.offset_at(noon),
                    theirs(tz, noon),
                    "{name} at {noon} UTC"
                );
                let next = day + Duration::days(1);
                if theirs(tz, day) != theirs(tz, next) {
                    changes += 1;
                    let mut t = day - Duration::hours(12);
                    while t < next + Duration::hours(12) {
                        assert_eq!(zone.offset_at(t), theirs(tz, t), "{name} at {t} UTC");
                        let local = zone.local(t);
                        let expected = match tz.from_local_datetime(&local) {
                            chrono::LocalResult::Single(x) => x.naive_utc(),
                            chrono::LocalResult::Ambiguous(a, b) => {
                                a.naive_utc().min(b.naive_utc())
                            }
                            chrono::LocalResult::None => unreachable!("a wall clock that happened"),
                        };
                        assert_eq!(zone.instant(local), expected, "{name} wall clock {local}");
                        t += Duration::minutes(15);
                    }
                    // Every wall clock of the local days around the change,
                    // those the clocks skip too: a skipped one is read with
                    // the offset of the day before.
                    let mut wall =
                        zone.local(day).date().and_time(NaiveTime::MIN) - Duration::days(1);
                    while wall
                        < zone.local(next).date().and_time(NaiveTime::MIN) + Duration::days(2)
                    {
                        let expected = match tz.from_local_datetime(&wall) {
                            chrono::LocalResult::Single(x) => x.naive_utc(),
                            chrono::LocalResult::Ambiguous(a, b) => {
                                a.naive_utc().min(b.naive_utc())
                            }
                            chrono::LocalResult::None => {
                                wall - Duration::seconds(theirs(tz, wall - Duration::days(1)))
                            }
                        };
                        assert_eq!(zone.instant(wall), expected, "{name} wall clock {wall}");
                        wall += Duration::minutes(15);
                    }
                }
                day = next;
            }
        }
        // Two a year in the 18 zones with summer time, for 30 years: the
        // loop saw every one.
        assert_eq!(changes, 2 * 18 * 30);
    }

    #[test]
    fn a_missing_time_runs_as_if_the_clocks_had_not_changed() -> Result<(), UnknownZone> {
        let ny = Zone::named("America/New_York")?;
        // 8 March 2026: 02:00 EST becomes 03:00 EDT.
        assert_eq!(ny.instant(at(2026, 3, 8, 2, 30)), at(2026, 3, 8, 7, 30));
        assert_eq!(ny.local(at(2026, 3, 8, 7, 30)).hour(), 3);
        assert_eq!(hours_in(ny, at(2026, 3, 8, 0, 0).date()), 23);
        let sydney = Zone::named("Australia/Sydney")?;
        // 4 October 2026: 02:00 AEST becomes 03:00 AEDT.
        assert_eq!(
            sydney.instant(at(2026, 10, 4, 2, 30)),
            at(2026, 10, 3, 16, 30)
        );
        Ok(())
    }

    #[test]
    fn a_repeated_time_is_its_first_occurrence() -> Result<(), UnknownZone> {
        let london = Zone::named("Europe/London")?;
        // 25 October 2026: 02:00 BST becomes 01:00 GMT; 01:30 happens twice.
        assert_eq!(
            london.instant(at(2026, 10, 25, 1, 30)),
            at(2026, 10, 25, 0, 30)
        );
        assert_eq!(hours_in(london, at(2026, 10, 25, 0, 0).date()), 25);
        assert!(london.changes_on(at(2026, 10, 25, 0, 0).date()));
        assert!(!london.changes_on(at(2026, 10, 26, 0, 0).date()));
        Ok(())
    }

    #[test]
    fn times_before_the_rules_are_not_dated_in_a_zone() -> Result<(), UnknownZone> {
        assert!(Zone::UTC.dates(at(1999, 12, 31, 23, 0)));
        let berlin = Zone::named("Europe/Berlin")?;
        assert!(!berlin.dates(at(2007, 12, 31, 23, 59)));
        assert!(berlin.dates(at(2008, 1, 1, 0, 0)));
        Ok(())
    }
}
