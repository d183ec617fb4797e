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
//! kept. Days and times are UTC.
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

/// A value in whole ten-billionths (1.5 is 15_000_000_000).
pub type Units = i128;

/// Units in one whole value.
pub const UNIT: Units = 10_000_000_000;

/// `units` as a decimal, without trailing zeros: "1215.5", "-3", "0.25".
pub fn value_text(units: Units) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let abs = units.unsigned_abs();
    let (whole, frac) = (abs / UNIT.unsigned_abs(), abs % UNIT.unsigned_abs());
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

/// What a log holds, folded for any run time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArrivalLog {
    /// (month, days from the event's day to its arrival's day, the arrival's
    /// minute of the day rounded up, 0..=1440) -> events.
    cells: HashMap<(Month, u32, u16), Share>,
    /// Events per delay bucket (`DELAY_BUCKETS`).
    histogram: Vec<u64>,
    pub events: u64,
    pub first_day: Option<Day>,
    pub last_day: Option<Day>,
}

/// The minute of the day `at` falls in, rounded up: an arrival at 02:00:00
/// is in time for a 02:00 run, one at 02:00:01 is not.
fn minute_up(at: Instant) -> u16 {
    let t = at.time();
    let whole = t.hour() * 60 + t.minute();
    let past = t.second() > 0 || t.nanosecond() > 0;
    u16::try_from(whole + u32::from(past)).unwrap_or(1440)
}

impl ArrivalLog {
    /// Folds one event in; an arrival before its event is refused (false).
    pub fn add(&mut self, a: &Arrival) -> bool {
        if a.arrived < a.event {
            return false;
        }
        let day = a.event.date();
        let days_after = (a.arrived.date() - day).num_days();
        // Past a year plus a day, every arrival needs more than any lateness
        // the lab asks about; capped so the cells stay few.
        let days_after = u32::try_from(days_after)
            .unwrap_or(u32::MAX)
            .min(MAX_TRACKED_LATENESS.saturating_add(2));
        let month = (day.year(), day.month());
        let cell = self
            .cells
            .entry((month, days_after, minute_up(a.arrived)))
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

    /// The log's completeness for a daily run at `run`.
    pub fn at_run_time(&self, run: NaiveTime) -> Completeness {
        let run_minute = run.hour() * 60 + run.minute();
        let mut months: Vec<MonthNeeds> = Vec::new();
        let mut cells: Vec<(&(Month, u32, u16), &Share)> = self.cells.iter().collect();
        crate::order::sort_by_key(&mut cells, |(key, _)| key.0);
        for ((month, days_after, minute), share) in cells {
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
        Completeness { run, months }
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
    pub run: NaiveTime,
    months: Vec<MonthNeeds>,
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
    fn finalising_run(&self, dt: Day, l: u32) -> Instant {
        shift(dt, 1i64.saturating_add(i64::from(l))).and_time(self.run)
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
        }
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
