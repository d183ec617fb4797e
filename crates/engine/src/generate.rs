//! Seeded data: orders, fx rates, arrival delays and whole workloads.
//!
//! Everything comes from a ChaCha stream seeded by the caller, and the only
//! floating-point maths (delay shapes, never money) goes through `libm`, so
//! a seed gives the same rows natively and in wasm.

use chrono::Duration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use serde::Serialize;

use super::calendar::{at, days, shift, Day, Instant};
use super::event::Event;
use super::money::{Currency, FxRates, Money};
use super::script::{RunSpec, Script};

/// How long events take to reach the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum DelayProfile {
    /// Web checkout: nearly everything within minutes.
    WebCheckout,
    /// Mobile app with offline users: a long tail of days.
    MobileOffline,
    /// Partner batch files: everything a day late, some a week.
    PartnerBatch,
}

impl DelayProfile {
    pub const ALL: [DelayProfile; 3] = [
        DelayProfile::WebCheckout,
        DelayProfile::MobileOffline,
        DelayProfile::PartnerBatch,
    ];

    /// When an event that happened at `event_time` arrives.
    pub fn arrival(self, rng: &mut ChaCha8Rng, event_time: Instant) -> Instant {
        let seconds = |lo: i64, hi: i64, rng: &mut ChaCha8Rng| {
            event_time + Duration::seconds(rng.random_range(lo..=hi))
        };
        let roll = rng.random_range(0..1000u32);
        match self {
            DelayProfile::WebCheckout => match roll {
                0..970 => seconds(5, 10 * 60, rng),
                970..997 => seconds(10 * 60, 6 * 3600, rng),
                _ => seconds(6 * 3600, 30 * 3600, rng),
            },
            DelayProfile::MobileOffline => match roll {
                0..880 => seconds(5, 5 * 60, rng),
                880..940 => seconds(5 * 60, 8 * 3600, rng),
                _ => {
                    // Offline devices: lognormal, median 24 h, sigma 0.8, kept within 1 h .. 20 d.
                    let hours =
                        libm::exp(libm::log(24.0) + 0.8 * standard_normal(rng)).clamp(1.0, 480.0);
                    event_time + Duration::seconds((hours * 3600.0) as i64)
                }
            },
            DelayProfile::PartnerBatch => {
                // Files land at 06:00; most the next day, some two or three days on, a few a week late.
                let days_late = match roll {
                    0..900 => 1,
                    900..980 => rng.random_range(2..=3),
                    _ => 7,
                };
                at(shift(event_time.date(), days_late), 6, 0)
                    + Duration::seconds(rng.random_range(0..1800))
            }
        }
    }
}

/// Box-Muller with `libm`, so wasm and native agree to the bit.
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * std::f64::consts::PI * u2)
}

/// Share of orders per currency, in percent (the rest is USD).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrencyMix {
    pub gbp: u32,
    pub eur: u32,
}

impl CurrencyMix {
    pub const GBP_ONLY: CurrencyMix = CurrencyMix { gbp: 100, eur: 0 };
    /// The currency-bug scenario: 50 % GBP, 30 % EUR, 20 % USD.
    pub const MARLOW: CurrencyMix = CurrencyMix { gbp: 50, eur: 30 };

    fn pick(self, rng: &mut ChaCha8Rng) -> Currency {
        let roll = rng.random_range(0..100);
        if roll < self.gbp {
            Currency::Gbp
        } else if roll < self.gbp + self.eur {
            Currency::Eur
        } else {
            Currency::Usd
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderSpec {
    pub seed: u64,
    pub first: Day,
    pub last: Day,
    pub per_day: u32,
    pub mix: CurrencyMix,
    pub delays: DelayProfile,
    /// Amounts in minor units, inclusive range.
    pub min_minor: i64,
    pub max_minor: i64,
}

/// Immutable orders `o-<yyyymmdd>-<n>` at random times of each day.
pub fn orders(spec: &OrderSpec) -> Vec<Event> {
    order_draws(spec).iter().map(OrderDraw::event).collect()
}

/// One order as drawn, before it is an `Event`: the lateness lab studies a
/// month of them on every first visit, and naming 37,000 orders it never
/// shows costs a phone more than everything else it does on the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderDraw {
    pub day: Day,
    /// Its place in its day, from 1.
    pub n: usize,
    pub event_time: Instant,
    pub arrived_at: Instant,
    pub amount: Money,
}

impl OrderDraw {
    /// `o-<yyyymmdd>-<n>`.
    pub fn id(&self) -> String {
        format!(
            "o-{:04}{:02}{:02}-{:04}",
            chrono::Datelike::year(&self.day),
            chrono::Datelike::month(&self.day),
            chrono::Datelike::day(&self.day),
            self.n
        )
    }

    pub fn event(&self) -> Event {
        Event::immutable(&self.id(), self.event_time, self.arrived_at, self.amount)
    }
}

/// The orders of `spec`, drawn: `orders` without the names.
pub fn order_draws(spec: &OrderSpec) -> Vec<OrderDraw> {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    // Made whole at once: the lateness lab draws its month before its first
    // paint, and growing the vector there copied it over and over. Capped,
    // so a strange spec asks for no more memory than it fills.
    let all = usize::try_from(spec.per_day)
        .unwrap_or(0)
        .saturating_mul(days(spec.first, spec.last).count());
    let mut draws = Vec::with_capacity(all.min(1 << 20));
    for day in days(spec.first, spec.last) {
        let mut times: Vec<u32> = (0..spec.per_day)
            .map(|_| rng.random_range(0..86_400))
            .collect();
        crate::lean::order::sort_numbers(&mut times);
        for (n, second) in times.into_iter().enumerate() {
            let event_time = at(day, 0, 0) + Duration::seconds(i64::from(second));
            let currency = spec.mix.pick(&mut rng);
            let minor = rng.random_range(spec.min_minor..=spec.max_minor.max(spec.min_minor));
            let arrived_at = spec.delays.arrival(&mut rng, event_time);
            draws.push(OrderDraw {
                day,
                n: n + 1,
                event_time,
                arrived_at,
                amount: Money::new(minor, currency),
            });
        }
    }
    draws
}

/// Daily EUR and USD rates to 6 dp, a bounded random walk around 0.85 and 0.78.
pub fn fx_rates(seed: u64, first: Day, last: Day) -> FxRates {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f00d);
    let mut rates = FxRates::default();
    let (mut eur, mut usd): (i64, i64) = (850_000, 780_000);
    for day in days(first, last) {
        eur = (eur + rng.random_range(-4_000..=4_000)).clamp(800_000, 900_000);
        usd = (usd + rng.random_range(-4_000..=4_000)).clamp(730_000, 830_000);
        rates.insert(day, Currency::Eur, Decimal::new(eur, 6));
        rates.insert(day, Currency::Usd, Decimal::new(usd, 6));
    }
    rates
}

/// A daily schedule: at `hour:minute` on D+1 for every day D in range.
pub fn daily_runs(first: Day, last: Day, hour: u32, minute: u32) -> Vec<RunSpec> {
    days(first, last)
        .map(|day| RunSpec::scheduled(at(shift(day, 1), hour, minute), day))
        .collect()
}

/// A large workload: `partitions` days of orders from `first` with daily
/// runs at 02:00, one crash a month retried five minutes later.
pub fn workload(
    seed: u64,
    first: Day,
    partitions: u32,
    per_day: u32,
    delays: DelayProfile,
) -> Script {
    let last = shift(first, i64::from(partitions.max(1)) - 1);
    let spec = OrderSpec {
        seed,
        first,
        last,
        per_day,
        mix: CurrencyMix::MARLOW,
        delays,
        min_minor: 500,
        max_minor: 25_000,
    };
    let mut runs = daily_runs(first, last, 2, 0);
    for run in runs.iter_mut().step_by(30).skip(1) {
        run.crash_then_retry_at = Some(run.at + Duration::minutes(5));
    }
    let mut script = Script::new(first, orders(&spec), runs);
    script.fx = fx_rates(seed, first, last);
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::calendar::aug;

    fn spec(seed: u64, delays: DelayProfile) -> OrderSpec {
        OrderSpec {
            seed,
            first: aug(1),
            last: aug(31),
            per_day: 200,
            mix: CurrencyMix::MARLOW,
            delays,
            min_minor: 99,
            max_minor: 4_999,
        }
    }

    #[test]
    fn same_seed_same_orders_other_seed_other_orders() {
        let a = orders(&spec(7, DelayProfile::MobileOffline));
        assert_eq!(a, orders(&spec(7, DelayProfile::MobileOffline)));
        assert_ne!(a, orders(&spec(8, DelayProfile::MobileOffline)));
        assert_eq!(a.len(), 31 * 200);
    }

    #[test]
    fn nothing_arrives_before_it_happens_and_offline_tail_stays_under_twenty_days() {
        for profile in DelayProfile::ALL {
            for e in orders(&spec(3, profile)) {
                assert!(e.arrived_at >= e.event_time, "{profile:?} {}", e.id);
                assert!(
                    e.arrived_at - e.event_time <= Duration::days(20),
                    "{profile:?} {}",
                    e.id
                );
            }
        }
    }

    #[test]
    fn profiles_differ_in_how_late_things_are() {
        let late_share = |profile| {
            let events = orders(&spec(11, profile));
            let late = events
                .iter()
                .filter(|e| e.arrived_at.date() > e.event_date())
                .count();
            late * 100 / events.len()
        };
        assert!(late_share(DelayProfile::WebCheckout) < 5);
        assert!(late_share(DelayProfile::MobileOffline) > 5);
        assert_eq!(late_share(DelayProfile::PartnerBatch), 100);
    }

    #[test]
    fn currency_mix_is_roughly_marlow() {
        let events = orders(&spec(5, DelayProfile::WebCheckout));
        let gbp = events
            .iter()
            .filter(|e| e.amount.currency == Currency::Gbp)
            .count()
            * 100
            / events.len();
        assert!((45..=55).contains(&gbp), "{gbp}% GBP");
    }

    #[test]
    fn fx_rates_have_six_decimal_places_every_day() {
        let rates = fx_rates(1, aug(1), aug(31));
        for day in days(aug(1), aug(31)) {
            let eur = rates.rate(day, Currency::Eur).expect("a rate every day");
            assert_eq!(eur.scale(), 6);
        }
    }
}
