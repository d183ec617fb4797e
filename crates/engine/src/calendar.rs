//! Dates and instants of the simulation.
//!
//! Everything runs on one naive clock: the chapter's pipelines live in one
//! time zone and no lab needs another, so `NaiveDateTime` keeps the maths
//! free of offsets.

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Weekday};

/// A date partition's key (`dt`) or a run's logical day.
pub type Day = NaiveDate;
/// A moment on the simulation's clock.
pub type Instant = NaiveDateTime;

/// A date written in the code, for constants: `const { date(2026, 6, 1) }`
/// or a `const` item. Evaluated at compile time, a mistyped date fails the
/// build instead of quietly becoming 1 January 1970; nothing calls it with
/// a value known only at run time (`shift` and `aug` are for those).
#[allow(clippy::panic)]
pub const fn date(year: i32, month: u32, day: u32) -> Day {
    match Day::from_ymd_opt(year, month, day) {
        Some(d) => d,
        None => panic!("not a calendar date"),
    }
}

/// The chapter's August 2026 (the currency bug, the month close): day
/// `day`, held to 1..=31.
pub fn aug(day: u32) -> Day {
    const AUGUST_1: Day = date(2026, 8, 1);
    AUGUST_1.with_day(day.clamp(1, 31)).unwrap_or(AUGUST_1)
}

/// The instant `hour:minute` on `day`; out-of-range clock values clamp to
/// midnight rather than panic, since callers pass literal schedule times.
pub fn at(day: Day, hour: u32, minute: u32) -> Instant {
    day.and_time(NaiveTime::from_hms_opt(hour, minute, 0).unwrap_or(NaiveTime::MIN))
}

/// Every day from `first` to `last`, both included; empty when reversed.
pub fn days(first: Day, last: Day) -> impl Iterator<Item = Day> {
    first
        .iter_days()
        .take_while(move |d| *d <= last)
        .take(if first <= last { usize::MAX } else { 0 })
}

/// `day` moved by `n` days (negative goes back); saturates at chrono's
/// first or last date, never standing still: a lookback too long for the
/// calendar reaches back to its start, it does not become no lookback.
pub fn shift(day: Day, n: i64) -> Day {
    Duration::try_days(n)
        .and_then(|d| day.checked_add_signed(d))
        .unwrap_or(if n < 0 { Day::MIN } else { Day::MAX })
}

/// Short weekday name as the labs print it ("Mon").
pub fn weekday_short(day: Day) -> &'static str {
    match day.weekday() {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    }
}

/// Weekday name in full ("Tuesday"), as a story writes it.
pub fn weekday_long(day: Day) -> &'static str {
    match day.weekday() {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

/// "9 June", as a story writes a day.
pub fn day_month_long(day: Day) -> String {
    format!("{} {}", day.day(), month_long(day))
}

/// "Tuesday 9 June", as a story writes a day.
pub fn weekday_day_month_long(day: Day) -> String {
    format!("{} {}", weekday_long(day), day_month_long(day))
}

/// Short month name ("Aug").
pub fn month_short(day: Day) -> &'static str {
    const NAMES: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    NAMES[(day.month0() as usize) % 12]
}

/// Month name in full ("August").
pub fn month_long(day: Day) -> &'static str {
    const NAMES: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    NAMES[(day.month0() as usize) % 12]
}

// Dates and times as the labs print them, written out by hand: chrono's
// strftime machinery is a sizeable share of the browser bundle.

/// "08-03".
pub fn mm_dd(day: Day) -> String {
    format!("{:02}-{:02}", day.month(), day.day())
}

/// "3 Aug".
pub fn day_month(day: Day) -> String {
    format!("{} {}", day.day(), month_short(day))
}

/// "Mon 3 Aug".
pub fn weekday_day_month(day: Day) -> String {
    format!("{} {}", weekday_short(day), day_month(day))
}

/// "14:05".
pub fn hh_mm(at: Instant) -> String {
    format!("{:02}:{:02}", at.hour(), at.minute())
}

/// "Mon 3 Aug 14:05".
pub fn weekday_day_month_time(at: Instant) -> String {
    format!("{} {}", weekday_day_month(at.date()), hh_mm(at))
}

/// "2026-08-03T14:05:00+00:00": an instant as Airflow writes a logical date.
pub fn iso_utc(at: Instant) -> String {
    format!(
        "{}T{:02}:{:02}:{:02}+00:00",
        at.date(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// "08-03 14:05".
pub fn mm_dd_time(at: Instant) -> String {
    format!("{} {}", mm_dd(at.date()), hh_mm(at))
}

/// Whether finance works on `day` (no public holidays in the simulation).
pub fn is_business_day(day: Day) -> bool {
    !matches!(day.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The `n`-th business day (1-based) of the month that contains `day`.
pub fn nth_business_day(day: Day, n: u32) -> Option<Day> {
    let first = day.with_day(1)?;
    first
        .iter_days()
        .take_while(|d| d.month() == first.month())
        .filter(|d| is_business_day(*d))
        .nth(n.checked_sub(1)? as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> Day {
        NaiveDate::from_ymd_opt(y, m, day).expect("valid test date")
    }

    #[test]
    fn shifting_past_the_calendar_saturates_instead_of_standing_still() {
        let day = d(2026, 6, 10);
        assert_eq!(shift(day, -i64::from(u32::MAX)), Day::MIN);
        assert_eq!(shift(day, i64::from(u32::MAX)), Day::MAX);
        assert_eq!(shift(day, i64::MIN), Day::MIN);
        assert_eq!(shift(day, i64::MAX), Day::MAX);
        assert_eq!(shift(day, -3), d(2026, 6, 7));
    }

    #[test]
    fn days_is_inclusive_and_empty_when_reversed() {
        assert_eq!(days(d(2026, 6, 1), d(2026, 6, 3)).count(), 3);
        assert_eq!(days(d(2026, 6, 3), d(2026, 6, 1)).count(), 0);
    }

    #[test]
    fn third_business_day_of_september_2026_is_thursday_the_third() {
        assert_eq!(nth_business_day(d(2026, 9, 15), 3), Some(d(2026, 9, 3)));
        assert_eq!(weekday_short(d(2026, 9, 3)), "Thu");
    }

    #[test]
    fn business_days_skip_weekends_across_a_month_start() {
        // August 2026 starts on a Saturday.
        assert_eq!(nth_business_day(d(2026, 8, 20), 1), Some(d(2026, 8, 3)));
        assert_eq!(nth_business_day(d(2026, 8, 20), 0), None);
    }
}

/// Reads a `YYYY-MM-DD` date. Hand-rolled because chrono's general
/// parser is a large part of the browser bundle and only this one shape
/// is ever read (date fields, design files).
pub fn parse_iso_date(text: &str) -> Option<Day> {
    let mut parts = text.trim().splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(y, 4) && digits(m, 2) && digits(d, 2)) {
        return None;
    }
    Day::from_ymd_opt(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
}

#[cfg(test)]
mod iso_tests {
    use super::*;

    #[test]
    fn hand_written_formats_match_strftime() {
        let at = at(const { crate::calendar::date(2026, 8, 3) }, 9, 5);
        let day = at.date();
        assert_eq!(mm_dd(day), day.format("%m-%d").to_string());
        assert_eq!(day_month(day), day.format("%-d %b").to_string());
        assert_eq!(weekday_day_month(day), day.format("%a %-d %b").to_string());
        assert_eq!(hh_mm(at), at.format("%H:%M").to_string());
        assert_eq!(
            weekday_day_month_time(at),
            at.format("%a %-d %b %H:%M").to_string()
        );
        assert_eq!(mm_dd_time(at), at.format("%m-%d %H:%M").to_string());
        assert_eq!(
            iso_utc(at),
            at.and_utc()
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
        );
        for m in 1..=12 {
            let d = Day::from_ymd_opt(2026, m, 28).expect("date");
            assert_eq!(month_short(d), d.format("%b").to_string());
        }
    }

    #[test]
    fn iso_dates_read_as_chrono_reads_them() {
        for text in ["2026-08-03", "2024-02-29", "1999-12-31"] {
            assert_eq!(parse_iso_date(text), text.parse::<Day>().ok(), "{text}");
        }
        for bad in [
            "2026-02-30",
            "2026-8-3",
            "2026-08-03x",
            "",
            "20260803",
            "2026-13-01",
            "+2026-08-03",
            "2026-08--3",
        ] {
            assert_eq!(parse_iso_date(bad), None, "{bad}");
        }
    }
}
