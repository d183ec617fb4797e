//! A real arrival log's completeness by allowed lateness: the lateness
//! lab's "your data".
//!
//! The definition is the lab's (SPEC 5): an event of day d is complete at
//! allowed lateness L when it has arrived by the daily run on day d+1+L.
//! Here the run time is the user's and so is the log, which may hold
//! millions of events over many months. Each event is folded, as it is
//! read, into a cell keyed by its month, the whole days from its day to the
//! day it arrived, and the minute it arrived (rounded up): that is all any
//! run time needs, so a new run time re-reads cells, not rows, and no row is
//! kept. Days are the local days of the log's zone (`zone::Zone`, UTC
//! unless the user names one) and the run is at a local time; on the two
//! days a year the clocks change, a minute of the day is counted from the
//! day's first instant, not read off the clock, and such cells keep their
//! date (see `Cell`), so a 25-hour day's second 01:30 is after a 01:30 run.
//!
//! Values are exact decimals held as whole ten-billionths in an `i128`
//! (`Units`), as the engine holds money in whole pence: ten decimal places
//! is the `DECIMAL(38, 10)` the warehouse query reads them as, five million
//! values up to 10^15 sum without overflow, and integer sums and shares cost
//! the bundle a fraction of `rust_decimal`'s division.

use chrono::{Datelike, NaiveTime, Timelike};
use rustc_hash::FxHashMap as HashMap;

use super::calendar::{is_business_day, nth_business_day, shift, Day, Instant};
use super::lateness::{basis_points, Lateness, DELAY_BUCKETS, MAX_TRACKED_LATENESS};
use super::zone::Zone;
use crate::lean::sorted::SortedMap;

/// A value in whole ten-billionths (1.5 is 15_000_000_000).
pub type Units = i128;

/// Units in one whole value.
pub const UNIT: Units = 10_000_000_000;

/// `units` as a decimal, without trailing zeros: "1215.5", "-3", "0.25".
pub fn value_text(units: Units) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let abs = units.unsigned_abs();
    let (whole, frac) = (abs / UNIT.unsigned_abs(), abs % UNIT.unsigned_abs());
    // Written with u64's formatting, already in the bundle (u128's is
    // 1.4 KB more): a sum of five million values can pass u64, so the
    // whole part is written as two halves of 19 digits.
    const HALF: u128 = 10_000_000_000_000_000_000;
    let (high, low) = (
        u64::try_from(whole / HALF).unwrap_or(u64::MAX),
        u64::try_from(whole % HALF).unwrap_or(0),
    );
    let whole = if high > 0 {
        format!("{high}{low:019}")
    } else {
        low.to_string()
    };
    let frac = u64::try_from(frac).unwrap_or(0);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{frac:010}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}

/// One readable row of a log, in UTC; `value` is already its size (|value|).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub event: Instant,
    pub arrived: Instant,
    pub value: Units,
    /// Its line in the file (the header is line 1), to show it by.
    pub line: u64,
}

/// A row that arrived days after its day, kept to show as an example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateRow {
    pub row: Arrival,
    /// The smallest allowed lateness that keeps it.
    pub needed: u32,
}

/// Rows kept per number of days between a row's day and its arrival's,
/// at each end of the arrival day (see `Kept`).
const EXAMPLES_PER_DAYS_AFTER: usize = 3;

/// The rows of one number of days late that arrived earliest and latest
/// in their arrival's day (by minutes into it, then line): whatever the
/// run time, the latest are the ones that missed their run if any did
/// (they need a day more), and the earliest the ones that made it if any
/// did, so the nearest misses of any lateness are among them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Kept {
    earliest: Vec<(u16, Arrival)>,
    latest: Vec<(u16, Arrival)>,
}

impl Kept {
    fn add(&mut self, minute: u16, row: Arrival) {
        let key = |(m, a): &(u16, Arrival)| (*m, a.line);
        let new = (minute, row);
        self.earliest.push(new);
        crate::lean::order::sort_by_key(&mut self.earliest, key);
        self.earliest.truncate(EXAMPLES_PER_DAYS_AFTER);
        self.latest.push(new);
        crate::lean::order::sort_by_key(&mut self.latest, |e| std::cmp::Reverse(key(e)));
        self.latest.truncate(EXAMPLES_PER_DAYS_AFTER);
    }

    fn rows(&self) -> impl Iterator<Item = &Arrival> {
        let latest = self.latest.iter().filter(|l| !self.earliest.contains(l));
        self.earliest.iter().chain(latest).map(|(_, a)| a)
    }
}

/// How many events and how much value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Share {
    pub count: u64,
    pub value: Units,
}

impl Share {
    fn plus(self, other: Share) -> Share {
        Share {
            count: self.count.saturating_add(other.count),
            value: self.value.saturating_add(other.value),
        }
    }

    fn minus(self, other: Share) -> Share {
        Share {
            count: self.count.saturating_sub(other.count),
            value: self.value.saturating_sub(other.value),
        }
    }
}

/// A month, as (year, month 1-12).
pub type Month = (i32, u32);

/// Where a group of events sits: all any run time needs to know of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cell {
    /// The month of their day.
    month: Month,
    /// Days from their day to their arrival's day (capped).
    days_after: u32,
    /// Minutes from the start of the arrival's day to the arrival,
    /// rounded up (0..=1500).
    minute: u16,
    /// The arrival's day, when the clocks change on it: a run time is then
    /// not the same number of minutes into it as on the other days.
    changed: Option<Day>,
    /// The arrival day's month, and whether it is the month's last day: a
    /// late event is booked in the month of the first run after it.
    arrival_month: Month,
    month_end: bool,
}

/// The month after `month`.
fn next_month((year, month): Month) -> Month {
    if month >= 12 {
        (year.saturating_add(1), 1)
    } else {
        (year, month.saturating_add(1))
    }
}

/// What a log holds, folded for any run time.
#[derive(Clone, Debug, Default)]
pub struct ArrivalLog {
    cells: HashMap<Cell, Share>,
    /// The zone its days are dated in.
    zone: Zone,
    /// The last arrival day asked about and whether its clocks change.
    last_change: Option<(Day, bool)>,
    /// A few rows for each number of days after (1 and more).
    late: Vec<Kept>,
    /// Events per delay bucket (`DELAY_BUCKETS`).
    histogram: Vec<u64>,
    pub events: u64,
    pub first_day: Option<Day>,
    pub last_day: Option<Day>,
}

/// Two logs are equal when they hold the same events and examples,
/// whatever row they read last (a cache of the zone's clock changes).
impl PartialEq for ArrivalLog {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.cells,
            self.zone,
            &self.histogram,
            self.events,
            self.first_day,
            self.last_day,
            &self.late,
        ) == (
            &other.cells,
            other.zone,
            &other.histogram,
            other.events,
            other.first_day,
            other.last_day,
            &other.late,
        )
    }
}

impl Eq for ArrivalLog {}

/// The minute of the day `at` falls in, rounded up: an arrival at 02:00:00
/// is in time for a 02:00 run, one at 02:00:01 is not.
fn minute_up(at: Instant) -> u16 {
    let t = at.time();
    let whole = t.hour() * 60 + t.minute();
    let past = t.second() > 0 || t.nanosecond() > 0;
    u16::try_from(whole + u32::from(past)).unwrap_or(1440)
}

/// Whole minutes from `start` to `at`, rounded up (as `minute_up`).
fn minutes_up(start: Instant, at: Instant) -> u16 {
    let since = at - start;
    let seconds = since.num_seconds().max(0);
    let past = seconds % 60 > 0 || since.subsec_nanos() > 0;
    let minutes = seconds / 60 + i64::from(past);
    u16::try_from(minutes).unwrap_or(u16::MAX).min(1500)
}

impl ArrivalLog {
    /// A log whose days are `zone`'s.
    pub fn in_zone(zone: Zone) -> Self {
        ArrivalLog {
            zone,
            ..ArrivalLog::default()
        }
    }

    pub fn zone(&self) -> Zone {
        self.zone
    }

    /// Whether the clocks change on local day `day`, remembered for the
    /// next row (a log's rows mostly arrive day after day).
    fn changes_on(&mut self, day: Day) -> bool {
        match self.last_change {
            Some((d, changes)) if d == day => changes,
            _ => {
                let changes = self.zone.changes_on(day);
                self.last_change = Some((day, changes));
                changes
            }
        }
    }

    /// Folds one event in; an arrival before its event is refused (false).
    pub fn add(&mut self, a: &Arrival) -> bool {
        if a.arrived < a.event {
            return false;
        }
        let day = self.zone.day_of(a.event);
        let arrived = self.zone.local(a.arrived);
        let (minute, changed) = if self.changes_on(arrived.date()) {
            let start = self.zone.day_start(arrived.date());
            (minutes_up(start, a.arrived), Some(arrived.date()))
        } else {
            (minute_up(arrived), None)
        };
        let days_after = (arrived.date() - day).num_days();
        // Past a year plus a day, every arrival needs more than any lateness
        // the lab asks about; capped so the cells stay few.
        let days_after = u32::try_from(days_after)
            .unwrap_or(u32::MAX)
            .min(MAX_TRACKED_LATENESS.saturating_add(2));
        let month = (day.year(), day.month());
        let arrival_day = arrived.date();
        let cell = self
            .cells
            .entry(Cell {
                month,
                days_after,
                minute,
                changed,
                arrival_month: (arrival_day.year(), arrival_day.month()),
                month_end: shift(arrival_day, 1).month() != arrival_day.month(),
            })
            .or_default();
        *cell = cell.plus(Share {
            count: 1,
            value: a.value,
        });
        if self.histogram.is_empty() {
            self.histogram = vec![0; DELAY_BUCKETS.len()];
        }
        let delay = (a.arrived - a.event).num_seconds();
        if let Some(n) = DELAY_BUCKETS
            .iter()
            .position(|(_, upper)| delay < *upper)
            .and_then(|b| self.histogram.get_mut(b))
        {
            *n = n.saturating_add(1);
        }
        if days_after > 0 {
            let slot = days_after as usize;
            if self.late.len() <= slot {
                self.late.resize(slot.saturating_add(1), Kept::default());
            }
            if let Some(kept) = self.late.get_mut(slot) {
                kept.add(minute, *a);
            }
        }
        self.events = self.events.saturating_add(1);
        self.first_day = Some(self.first_day.map_or(day, |d| d.min(day)));
        self.last_day = Some(self.last_day.map_or(day, |d| d.max(day)));
        true
    }

    /// Events per delay bucket, labelled.
    pub fn histogram(&self) -> Vec<(&'static str, u64)> {
        DELAY_BUCKETS
            .iter()
            .enumerate()
            .map(|(i, (label, _))| (*label, self.histogram.get(i).copied().unwrap_or(0)))
            .collect()
    }

    /// The log's completeness for a daily run at `run` (local time).
    pub fn at_run_time(&self, run: NaiveTime) -> Completeness {
        let run_minute = run.hour() * 60 + run.minute();
        let mut months: Vec<MonthNeeds> = Vec::new();
        let mut cells: Vec<(&Cell, &Share)> = self.cells.iter().collect();
        crate::lean::order::sort_by_key(&mut cells, |(key, _)| key.month);
        let mut bookings: SortedMap<(u32, Month), Share> = SortedMap::new();
        for (cell, share) in cells {
            let Cell {
                month,
                days_after,
                minute,
                changed,
                arrival_month,
                month_end,
            } = cell;
            // On a day the clocks change, the run is as many minutes into
            // the day as it is, not as its clock says.
            let run_minute = match changed {
                Some(day) => u32::from(minutes_up(
                    self.zone.day_start(*day),
                    self.zone.run_on(*day, run),
                )),
                None => run_minute,
            };
            // Arrived k days after its day at minute m: in time for the run
            // on day d+1+L when k*1440 + m <= (1+L)*1440 + run.
            let needed = match *days_after {
                0 => 0,
                k if u32::from(*minute) > run_minute => k,
                k => k.saturating_sub(1),
            }
            // Later than a year is one bucket past every lateness asked
            // about: never complete at any setting but "never".
            .min(MAX_TRACKED_LATENESS.saturating_add(1));
            if needed > 0 {
                // Read first by the run on the arrival's day, or by the
                // next day's, which is next month's after a month's end.
                let booked = if *days_after > 0 && u32::from(*minute) > run_minute && *month_end {
                    next_month(*arrival_month)
                } else {
                    *arrival_month
                };
                let b = bookings.entry((needed, booked)).or_default();
                *b = b.plus(*share);
            }
            if months.last().map(|m| m.month) != Some(*month) {
                months.push(MonthNeeds {
                    month: *month,
                    total: Share::default(),
                    needed: Vec::new(),
                });
            }
            if let Some(m) = months.last_mut() {
                m.total = m.total.plus(*share);
                let slot = needed as usize;
                if m.needed.len() <= slot {
                    m.needed.resize(slot.saturating_add(1), Share::default());
                }
                if let Some(s) = m.needed.get_mut(slot) {
                    *s = s.plus(*share);
                }
            }
        }
        Completeness {
            run,
            zone: self.zone,
            months,
            bookings: bookings.into_iter().collect(),
        }
    }

    /// Up to `n` rows that allowed lateness `l` loses with a run at `run`,
    /// the nearest misses first (from those `Kept` for each number of
    /// days late).
    pub fn late_rows(&self, run: NaiveTime, l: u32, n: usize) -> Vec<LateRow> {
        let mut rows: Vec<LateRow> = self
            .late
            .iter()
            .skip(l.saturating_add(1) as usize)
            .flat_map(Kept::rows)
            .map(|row| LateRow {
                row: *row,
                needed: self.needed(row, run),
            })
            .filter(|r| r.needed > l)
            .collect();
        crate::lean::order::sort_by_key(&mut rows, |r| (r.needed, r.row.line));
        rows.truncate(n);
        rows
    }

    /// The smallest lateness whose last run `row` arrived by, with a daily
    /// run at `run`: more than `l`, and the row arrives after its day is
    /// final at lateness `l`.
    pub fn needed(&self, row: &Arrival, run: NaiveTime) -> u32 {
        let day = self.zone.day_of(row.event);
        let arrival_day = self.zone.day_of(row.arrived);
        let first_run = if row.arrived <= self.zone.run_on(arrival_day, run) {
            arrival_day
        } else {
            shift(arrival_day, 1)
        };
        u32::try_from((first_run - day).num_days().saturating_sub(1).max(0)).unwrap_or(u32::MAX)
    }
}

/// One month's events by the lateness each needed.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MonthNeeds {
    month: Month,
    total: Share,
    /// `needed[l]`: events whose smallest complete lateness is exactly `l`.
    needed: Vec<Share>,
}

impl MonthNeeds {
    fn complete_at(&self, l: u32) -> Share {
        self.needed
            .iter()
            .take((l as usize).saturating_add(1))
            .fold(Share::default(), |sum, s| sum.plus(*s))
    }
}

/// The log's completeness for one run time: what the slider reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completeness {
    /// The run's local time, in `zone`.
    pub run: NaiveTime,
    pub zone: Zone,
    months: Vec<MonthNeeds>,
    /// (lateness needed, month booked in) -> events, for those needing 1+.
    bookings: Vec<((u32, Month), Share)>,
}

/// When finance must close a month: its `business_day`-th business day of
/// the next month (the 3rd by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseRule {
    pub business_day: u32,
}

impl Default for CloseRule {
    fn default() -> Self {
        CloseRule { business_day: 3 }
    }
}

/// One month of the log at one lateness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonthFigures {
    pub month: Month,
    pub total: Share,
    pub complete: Share,
    pub count_bp: u32,
    pub value_bp: u32,
    /// The run after which the month's last partition is final.
    pub final_at: Option<Instant>,
    /// The first business day on or after that run.
    pub close_on: Option<Day>,
    pub deadline: Option<Day>,
}

impl MonthFigures {
    pub fn on_time(&self) -> bool {
        matches!((self.close_on, self.deadline), (Some(c), Some(d)) if c <= d)
    }
}

/// Every figure of the log at one lateness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFigures {
    pub lateness: Lateness,
    pub total: Share,
    pub complete: Share,
    pub count_bp: u32,
    pub value_bp: u32,
    /// Events that arrive after their partition is final.
    pub after_final: Share,
    /// Partitions each run rebuilds (L + 1); `None` when never final.
    pub open_partitions: Option<u32>,
    pub months: Vec<MonthFigures>,
    /// Events that arrive after their day is final, by the month of the
    /// run that first reads them: where an adjustment would be booked.
    pub adjustments_by_month: Vec<(Month, Share)>,
}

/// The last day of `month`.
pub fn last_day(month: Month) -> Option<Day> {
    let (year, m) = month;
    let next = if m >= 12 {
        Day::from_ymd_opt(year.checked_add(1)?, 1, 1)
    } else {
        Day::from_ymd_opt(year, m.checked_add(1)?, 1)
    }?;
    next.pred_opt()
}

impl Completeness {
    pub fn total(&self) -> Share {
        self.months
            .iter()
            .fold(Share::default(), |sum, m| sum.plus(m.total))
    }

    fn complete_at(&self, l: u32) -> Share {
        self.months
            .iter()
            .fold(Share::default(), |sum, m| sum.plus(m.complete_at(l)))
    }

    /// The months the log has events in, in order.
    pub fn months(&self) -> Vec<Month> {
        self.months.iter().map(|m| m.month).collect()
    }

    /// The run on day `dt + 1 + l` at the run time.
    /// (As a wall clock in the log's zone: a run time the clocks skip
    /// that day is shown when it runs.)
    fn finalising_run(&self, dt: Day, l: u32) -> Instant {
        let day = shift(dt, 1i64.saturating_add(i64::from(l)));
        self.zone.local(self.zone.run_on(day, self.run))
    }

    pub fn figures(&self, lateness: Lateness, close: CloseRule) -> LogFigures {
        let total = self.total();
        let months = self
            .months
            .iter()
            .map(|m| {
                let complete = match lateness {
                    Lateness::Days(l) => m.complete_at(l),
                    Lateness::Never => m.total,
                };
                let last = last_day(m.month);
                let final_at = match lateness {
                    Lateness::Days(l) => last.map(|d| self.finalising_run(d, l)),
                    Lateness::Never => None,
                };
                let close_on = final_at.map(|at| {
                    let mut day = at.date();
                    while !is_business_day(day) {
                        day = shift(day, 1);
                    }
                    day
                });
                MonthFigures {
                    month: m.month,
                    total: m.total,
                    complete,
                    count_bp: basis_points(complete.count.into(), m.total.count.into()),
                    value_bp: basis_points(complete.value, m.total.value),
                    final_at,
                    close_on,
                    deadline: last.and_then(|d| nth_business_day(shift(d, 1), close.business_day)),
                }
            })
            .collect();
        let complete = match lateness {
            Lateness::Days(l) => self.complete_at(l),
            Lateness::Never => total,
        };
        LogFigures {
            lateness,
            total,
            complete,
            count_bp: basis_points(complete.count.into(), total.count.into()),
            value_bp: basis_points(complete.value, total.value),
            after_final: total.minus(complete),
            open_partitions: match lateness {
                Lateness::Days(l) => Some(l.saturating_add(1)),
                Lateness::Never => None,
            },
            months,
            adjustments_by_month: self.adjustments(lateness),
        }
    }

    fn adjustments(&self, lateness: Lateness) -> Vec<(Month, Share)> {
        let Lateness::Days(l) = lateness else {
            return Vec::new();
        };
        let mut by_month: SortedMap<Month, Share> = SortedMap::new();
        for ((needed, month), share) in &self.bookings {
            if *needed > l {
                let b = by_month.entry(*month).or_default();
                *b = b.plus(*share);
            }
        }
        by_month.into_iter().collect()
    }

    /// Completeness (lateness, by events, by value) in basis points for
    /// every lateness 0..=`max`.
    pub fn curve(&self, max: u32) -> Vec<(u32, u32, u32)> {
        let total = self.total();
        (0..=max)
            .map(|l| {
                let c = self.complete_at(l);
                (
                    l,
                    basis_points(c.count.into(), total.count.into()),
                    basis_points(c.value, total.value),
                )
            })
            .collect()
    }

    /// The smallest lateness whose completeness by value reaches
    /// `target_bp`; `None` if even a year does not.
    pub fn recommend(&self, target_bp: u32) -> Option<u32> {
        let total = self.total();
        (0..=MAX_TRACKED_LATENESS)
            .find(|l| basis_points(self.complete_at(*l).value, total.value) >= target_bp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-split formatting against u128's own, at the edges of the
    /// two halves and at the largest sums.
    #[test]
    fn values_are_written_as_u128_writes_them() {
        let plain = |units: Units| {
            let abs = units.unsigned_abs();
            let unit = UNIT.unsigned_abs();
            let (whole, frac) = (abs / unit, abs % unit);
            let sign = if units < 0 { "-" } else { "" };
            if frac == 0 {
                format!("{sign}{whole}")
            } else {
                let digits = format!("{frac:010}");
                format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
            }
        };
        let half = 10_000_000_000_000_000_000i128 * UNIT;
        for units in [
            0,
            1,
            -15_000_000_000,
            UNIT * 1215 + 5_000_000_000,
            half - 1,
            half,
            half + 1,
            half * 7 + UNIT * 3,
            i128::MAX,
            i128::MIN + 1,
        ] {
            assert_eq!(value_text(units), plain(units), "{units}");
        }
    }
}
