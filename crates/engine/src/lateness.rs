//! Allowed lateness swept over its whole range (SPEC 5).
//!
//! A daily run at 02:00 on d+1 first builds partition d; with allowed
//! lateness L the run at 02:00 on d+1+L is the last that may change d, after
//! which d is final. So each event has one number, the smallest L at which
//! it is still complete; everything the lab shows (completeness, the curve,
//! late rows, adjustments) is a sum over that number, computed once per
//! profile so that moving the slider costs a few dozen additions. The
//! native tests check these sums against full simulations.

mod baked;

pub use baked::Baked;

use crate::lean::sorted::SortedMap;

use chrono::{Datelike, Duration};

use super::calendar::{at, days, is_business_day, nth_business_day, shift, Day, Instant};
use super::event::Event;
use super::generate::OrderDraw;

/// The hour of the daily run.
pub const RUN_HOUR: u32 = 2;

/// Allowed lateness as the slider offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lateness {
    Days(u32),
    /// Partitions never become final.
    Never,
}

/// The run that finalises partition `dt` under lateness `l`.
pub fn finalising_run(dt: Day, l: u32) -> Instant {
    at(shift(dt, 1 + i64::from(l)), RUN_HOUR, 0)
}

/// The smallest allowed lateness at which `event` reaches its partition in time.
pub fn lateness_needed(event: &Event) -> u32 {
    days_needed(event.event_date(), event.arrived_at)
}

/// `lateness_needed` for an event of day `dt` that arrived at `arrived_at`.
pub fn days_needed(dt: Day, arrived_at: Instant) -> u32 {
    let first_build = finalising_run(dt, 0);
    if arrived_at <= first_build {
        return 0;
    }
    let late = arrived_at - first_build;
    let day = Duration::days(1);
    let whole = late.num_seconds().div_euclid(day.num_seconds());
    let rest = late.num_seconds().rem_euclid(day.num_seconds());
    // Anything later than a year is as good as never; capping keeps the
    // per-lateness tallies small whatever a script contains.
    u32::try_from(whole + i64::from(rest > 0))
        .unwrap_or(u32::MAX)
        .min(MAX_TRACKED_LATENESS)
}

/// The largest lateness the sweep tells apart, in days.
pub const MAX_TRACKED_LATENESS: u32 = 366;

/// The instant of the run that books a row arriving at `arrived` (the first
/// 02:00 run at or after it).
pub fn booking_run(arrived: Instant) -> Instant {
    let same_day = at(arrived.date(), RUN_HOUR, 0);
    if arrived <= same_day {
        same_day
    } else {
        at(shift(arrived.date(), 1), RUN_HOUR, 0)
    }
}

/// Delay buckets for the histogram.
pub const DELAY_BUCKETS: [(&str, i64); 9] = [
    ("under 5 min", 5 * 60),
    ("5-60 min", 3600),
    ("1-6 h", 6 * 3600),
    ("6-24 h", 24 * 3600),
    ("1-2 days", 2 * 86_400),
    ("2-3 days", 3 * 86_400),
    ("3-7 days", 7 * 86_400),
    ("1-2 weeks", 14 * 86_400),
    ("over 2 weeks", i64::MAX),
];

/// Count and value of a set of events, value in pence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub count: u64,
    pub value: i64,
}

impl Tally {
    fn add(&mut self, value: i64) {
        self.count += 1;
        self.value += value;
    }

    fn plus(self, other: Tally) -> Tally {
        Tally {
            count: self.count + other.count,
            value: self.value + other.value,
        }
    }
}

/// A share in hundredths of a percent (9862 = 98.62 %), computed in integers.
pub fn basis_points(part: i128, whole: i128) -> u32 {
    if whole <= 0 {
        return 10_000;
    }
    part.clamp(0, whole)
        .checked_mul(10_000)
        .and_then(|scaled| u32::try_from(scaled / whole).ok())
        .unwrap_or(10_000)
}

/// "98.62 %".
pub fn percent(bp: u32) -> String {
    format!("{}.{:02} %", bp / 100, bp % 100)
}

/// One month of events, prepared for any lateness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatenessStudy {
    pub first: Day,
    pub last: Day,
    pub total: Tally,
    /// `needed[l]`: events whose smallest complete lateness is exactly `l`.
    needed: Vec<Tally>,
    /// Late events by the lateness they needed and the month their booking run falls in.
    bookings: SortedMap<(u32, i32, u32), Tally>,
    pub histogram: Vec<(&'static str, u64)>,
    /// A few events for each lateness needed (1 and up), to show which events a setting loses.
    examples: SortedMap<u32, Vec<LateExample>>,
}

/// One event that needed some lateness to be complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateExample {
    pub id: String,
    pub event_time: Instant,
    pub arrived_at: Instant,
    pub value: i64,
    pub needed: u32,
}

/// What the study reads of an event: an `Event`, or an order as drawn.
trait Arrival {
    fn event_time(&self) -> Instant;
    fn arrived_at(&self) -> Instant;
    fn minor(&self) -> i64;
    /// Only for the few kept as examples.
    fn id(&self) -> String;
}

impl Arrival for Event {
    fn event_time(&self) -> Instant {
        self.event_time
    }
    fn arrived_at(&self) -> Instant {
        self.arrived_at
    }
    fn minor(&self) -> i64 {
        self.amount.minor
    }
    fn id(&self) -> String {
        self.id.to_string()
    }
}

impl Arrival for OrderDraw {
    fn event_time(&self) -> Instant {
        self.event_time
    }
    fn arrived_at(&self) -> Instant {
        self.arrived_at
    }
    fn minor(&self) -> i64 {
        self.amount.minor
    }
    fn id(&self) -> String {
        OrderDraw::id(self)
    }
}

/// Examples kept per lateness needed.
const EXAMPLES_PER_DAY: usize = 3;

/// What one lateness means, every figure of the lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatenessFigures {
    pub lateness: Lateness,
    pub complete: Tally,
    pub complete_count_bp: u32,
    pub complete_value_bp: u32,
    /// Events that arrive after their partition is final.
    pub after_final: Tally,
    /// Partitions each run rebuilds (L + 1); `None` when never finalised.
    pub open_partitions: Option<u32>,
    /// When the month's last partition becomes final.
    pub last_final_at: Option<Instant>,
    /// The earliest business day finance can close the month.
    pub close_on: Option<Day>,
    pub deadline: Option<Day>,
    /// Late events by the (year, month) their adjustment would be booked in.
    pub adjustments_by_month: Vec<((i32, u32), Tally)>,
}

impl LatenessFigures {
    pub fn on_time(&self) -> bool {
        matches!((self.close_on, self.deadline), (Some(close), Some(deadline)) if close <= deadline)
    }

    /// Business days between the deadline and the close (0 when on time).
    pub fn business_days_late(&self) -> Option<usize> {
        let (close, deadline) = (self.close_on?, self.deadline?);
        Some(
            days(shift(deadline, 1), close)
                .filter(|d| is_business_day(*d))
                .count(),
        )
    }
}

impl LatenessStudy {
    /// Prepares the events of `first..=last` (others are ignored).
    pub fn new(events: &[Event], first: Day, last: Day) -> Self {
        Self::of(events, first, last)
    }

    /// `new` over generated orders that were never named: the same study
    /// (a test holds them equal).
    pub fn of_draws(draws: &[OrderDraw], first: Day, last: Day) -> Self {
        Self::of(draws, first, last)
    }

    fn of<A: Arrival>(events: &[A], first: Day, last: Day) -> Self {
        let mut needed: Vec<Tally> = Vec::new();
        let mut bookings: SortedMap<(u32, i32, u32), Tally> = SortedMap::new();
        let mut histogram: Vec<(&'static str, u64)> =
            DELAY_BUCKETS.iter().map(|(label, _)| (*label, 0)).collect();
        let mut total = Tally::default();
        let mut examples: SortedMap<u32, Vec<LateExample>> = SortedMap::new();
        for event in events
            .iter()
            .filter(|e| (first..=last).contains(&e.event_time().date()))
        {
            let (event_time, arrived_at) = (event.event_time(), event.arrived_at());
            let value = event.minor();
            total.add(value);
            let l = days_needed(event_time.date(), arrived_at);
            let slot = l as usize;
            if needed.len() <= slot {
                needed.resize(slot + 1, Tally::default());
            }
            needed[slot].add(value);
            if l > 0 {
                let kept = examples.entry(l).or_default();
                if kept.len() < EXAMPLES_PER_DAY {
                    kept.push(LateExample {
                        id: event.id(),
                        event_time,
                        arrived_at,
                        value,
                        needed: l,
                    });
                }
                let booked = booking_run(arrived_at).date();
                bookings
                    .entry((l, booked.year(), booked.month()))
                    .or_default()
                    .add(value);
            }
            let delay = (arrived_at - event_time).num_seconds();
            if let Some(bucket) = DELAY_BUCKETS.iter().position(|(_, upper)| delay < *upper) {
                histogram[bucket].1 += 1;
            }
        }
        Self {
            first,
            last,
            total,
            needed,
            bookings,
            histogram,
            examples,
        }
    }

    /// Up to `n` events that lateness `l` loses, the nearest misses first.
    pub fn missed_examples(&self, l: u32, n: usize) -> Vec<LateExample> {
        self.examples
            .range(l.saturating_add(1)..)
            .flat_map(|(_, kept)| kept.iter().cloned())
            .take(n)
            .collect()
    }

    /// The lateness at which every event of the month is complete.
    pub fn max_needed(&self) -> u32 {
        self.needed.len().saturating_sub(1) as u32
    }

    /// Events complete at lateness `l`.
    fn complete_at(&self, l: u32) -> Tally {
        self.needed
            .iter()
            .take(usize::try_from(l).unwrap_or(usize::MAX).saturating_add(1))
            .fold(Tally::default(), |sum, t| sum.plus(*t))
    }

    pub fn figures(&self, lateness: Lateness) -> LatenessFigures {
        let deadline = nth_business_day(shift(self.last, 1), 3);
        match lateness {
            Lateness::Never => LatenessFigures {
                lateness,
                complete: self.total,
                complete_count_bp: 10_000,
                complete_value_bp: 10_000,
                after_final: Tally::default(),
                open_partitions: None,
                last_final_at: None,
                close_on: None,
                deadline,
                adjustments_by_month: Vec::new(),
            },
            Lateness::Days(l) => {
                let complete = self.complete_at(l);
                let after_final = Tally {
                    count: self.total.count - complete.count,
                    value: self.total.value - complete.value,
                };
                let mut by_month: SortedMap<(i32, u32), Tally> = SortedMap::new();
                for ((needed, year, month), tally) in self.bookings.range((l + 1, i32::MIN, 0)..) {
                    debug_assert!(*needed > l);
                    let entry = by_month.entry((*year, *month)).or_default();
                    *entry = entry.plus(*tally);
                }
                let last_final_at = finalising_run(self.last, l);
                let mut close_on = last_final_at.date();
                while !is_business_day(close_on) {
                    close_on = shift(close_on, 1);
                }
                LatenessFigures {
                    lateness,
                    complete,
                    complete_count_bp: basis_points(complete.count.into(), self.total.count.into()),
                    complete_value_bp: basis_points(complete.value.into(), self.total.value.into()),
                    after_final,
                    open_partitions: Some(l + 1),
                    last_final_at: Some(last_final_at),
                    close_on: Some(close_on),
                    deadline,
                    adjustments_by_month: by_month.into_iter().collect(),
                }
            }
        }
    }

    /// Completeness (count, value) in basis points for every lateness 0..=`max`.
    pub fn curve(&self, max: u32) -> Vec<(u32, u32, u32)> {
        let mut sum = Tally::default();
        (0..=max)
            .map(|l| {
                if let Some(t) = self.needed.get(l as usize) {
                    sum = sum.plus(*t);
                }
                (
                    l,
                    basis_points(sum.count.into(), self.total.count.into()),
                    basis_points(sum.value.into(), self.total.value.into()),
                )
            })
            .collect()
    }
}

/// The partitions today's run rebuilds under lateness `l`: the `l + 1` days
/// before `today`.
pub fn rebuilt_by_run_on(today: Day, l: u32) -> (Day, Day) {
    (shift(today, -1 - i64::from(l)), shift(today, -1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Money;
    use chrono::NaiveDate;

    fn d(m: u32, day: u32) -> Day {
        NaiveDate::from_ymd_opt(2026, m, day).expect("valid date")
    }

    /// The lab studies drawn orders, never named; the study is the one of
    /// the named orders, every figure and example alike, for each profile.
    #[test]
    fn a_study_of_drawn_orders_is_the_study_of_the_named_ones() {
        use crate::generate::{order_draws, orders, CurrencyMix, DelayProfile, OrderSpec};
        for (seed, delays) in [
            (1, DelayProfile::WebCheckout),
            (2, DelayProfile::MobileOffline),
            (3, DelayProfile::PartnerBatch),
        ] {
            let spec = OrderSpec {
                seed,
                first: d(7, 30),
                last: d(9, 2),
                per_day: 200,
                mix: CurrencyMix::GBP_ONLY,
                delays,
                min_minor: 99,
                max_minor: 4_999,
            };
            let named = LatenessStudy::new(&orders(&spec), d(8, 1), d(8, 31));
            let drawn = LatenessStudy::of_draws(&order_draws(&spec), d(8, 1), d(8, 31));
            assert_eq!(drawn, named, "{delays:?}");
            assert!(
                !named.missed_examples(0, 3).is_empty(),
                "{delays:?}: some arrive late"
            );
        }
    }

    fn arriving(day: Day, arrived: Instant) -> Event {
        Event::immutable("e", at(day, 12, 0), arrived, Money::gbp(100))
    }

    #[test]
    fn lateness_needed_counts_whole_days_past_the_first_build() {
        let aug10 = d(8, 10);
        assert_eq!(lateness_needed(&arriving(aug10, at(aug10, 12, 1))), 0);
        assert_eq!(
            lateness_needed(&arriving(aug10, at(d(8, 11), 2, 0))),
            0,
            "arrived exactly at the run"
        );
        assert_eq!(lateness_needed(&arriving(aug10, at(d(8, 11), 2, 1))), 1);
        assert_eq!(lateness_needed(&arriving(aug10, at(d(8, 12), 2, 0))), 1);
        assert_eq!(lateness_needed(&arriving(aug10, at(d(8, 13), 1, 0))), 2);
        let decade = at(const { crate::calendar::date(2036, 8, 10) }, 0, 0);
        assert_eq!(
            lateness_needed(&arriving(aug10, decade)),
            MAX_TRACKED_LATENESS
        );
    }

    #[test]
    fn spec_close_dates_for_august() {
        let study = LatenessStudy::new(&[], d(8, 1), d(8, 31));
        let close = |l| study.figures(Lateness::Days(l)).close_on;
        assert_eq!(close(0), Some(d(9, 1)));
        assert_eq!(close(2), Some(d(9, 3)));
        assert_eq!(close(3), Some(d(9, 4)));
        // Final on Saturday the 5th: finance can only close on Monday the 7th.
        assert_eq!(close(4), Some(d(9, 7)));
        assert!(study.figures(Lateness::Days(2)).on_time());
        assert!(!study.figures(Lateness::Days(3)).on_time());
        assert_eq!(
            study.figures(Lateness::Days(4)).business_days_late(),
            Some(2)
        );
        assert_eq!(study.figures(Lateness::Never).close_on, None);
    }

    #[test]
    fn missed_examples_are_the_events_the_lateness_loses() {
        let aug10 = d(8, 10);
        let events = vec![
            Event::immutable(
                "on-time",
                at(aug10, 12, 0),
                at(aug10, 12, 5),
                Money::gbp(100),
            ),
            Event::immutable(
                "one-day",
                at(aug10, 12, 0),
                at(d(8, 11), 9, 0),
                Money::gbp(100),
            ),
            Event::immutable(
                "five-days",
                at(aug10, 12, 0),
                at(d(8, 15), 9, 0),
                Money::gbp(100),
            ),
        ];
        let study = LatenessStudy::new(&events, d(8, 1), d(8, 31));
        let ids = |l| {
            study
                .missed_examples(l, 5)
                .into_iter()
                .map(|e| e.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(0), ["one-day", "five-days"]);
        assert_eq!(ids(1), ["five-days"]);
        assert!(ids(5).is_empty());
    }

    #[test]
    fn booking_happens_at_the_next_daily_run() {
        assert_eq!(booking_run(at(d(8, 31), 1, 0)), at(d(8, 31), 2, 0));
        assert_eq!(booking_run(at(d(8, 31), 3, 0)), at(d(9, 1), 2, 0));
    }

    #[test]
    fn rebuilt_partitions_are_the_l_plus_one_days_before_today() {
        assert_eq!(rebuilt_by_run_on(d(8, 20), 2), (d(8, 17), d(8, 19)));
        assert_eq!(rebuilt_by_run_on(d(9, 1), 0), (d(8, 31), d(8, 31)));
    }
}
