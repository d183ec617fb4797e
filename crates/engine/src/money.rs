//! Money in minor units and the GBP conversion, fixed and broken.
//!
//! Amounts are integers of minor units (pence, cents) and fx rates are
//! decimals; f64 never touches money, so totals reconcile to the penny.

use crate::lean::sorted::SortedMap;
use std::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use super::calendar::Day;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Currency {
    Gbp,
    Eur,
    Usd,
}

impl Currency {
    pub fn code(self) -> &'static str {
        match self {
            Currency::Gbp => "GBP",
            Currency::Eur => "EUR",
            Currency::Usd => "USD",
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Currency::Gbp => "£",
            Currency::Eur => "€",
            Currency::Usd => "$",
        }
    }
}

/// An amount in minor units of its currency (pence, cents).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

impl Money {
    pub const fn new(minor: i64, currency: Currency) -> Self {
        Self { minor, currency }
    }

    pub const fn gbp(pence: i64) -> Self {
        Self::new(pence, Currency::Gbp)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.minor < 0 { "-" } else { "" };
        let abs = self.minor.unsigned_abs();
        write!(
            f,
            "{sign}{}{}.{:02}",
            self.currency.symbol(),
            abs / 100,
            abs % 100
        )
    }
}

impl Money {
    /// "£12,345.67": thousands grouped, for figures meant to be read aloud.
    pub fn grouped(&self) -> String {
        let sign = if self.minor < 0 { "-" } else { "" };
        let abs = self.minor.unsigned_abs();
        format!(
            "{sign}{}{}.{:02}",
            self.currency.symbol(),
            thousands(abs / 100),
            abs % 100
        )
    }
}

/// 1234567 as "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Which version of the transform built a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum LogicVersion {
    /// Multiply by the full-precision rate, round half-to-even to the penny.
    #[default]
    Fixed,
    /// Truncate the rate to 2 dp before multiplying: the currency bug.
    Broken,
}

/// Daily rates: GBP per one unit of a currency, 6 dp.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FxRates {
    rates: SortedMap<(Day, Currency), Decimal>,
}

impl FxRates {
    pub fn insert(&mut self, day: Day, currency: Currency, gbp_per_unit: Decimal) {
        self.rates.insert((day, currency), gbp_per_unit);
    }

    /// The rate for `currency` on `day`; GBP is always 1.
    pub fn rate(&self, day: Day, currency: Currency) -> Option<Decimal> {
        match currency {
            Currency::Gbp => Some(Decimal::ONE),
            other => self.rates.get(&(day, other)).copied(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rates.is_empty()
    }
}

/// The amount in pence that `logic` computes for `amount` at `rate`.
/// `None` when the product does not fit, which a not-null check then reports.
pub fn to_gbp(amount: Money, rate: Decimal, logic: LogicVersion) -> Option<Money> {
    let rate = match logic {
        LogicVersion::Fixed => rate,
        LogicVersion::Broken => rate.trunc_with_scale(2),
    };
    exact_gbp(Decimal::from(amount.minor), rate)
}

/// Rounds one row's converted amount the way the fixed logic does.
pub fn exact_gbp(minor: Decimal, rate: Decimal) -> Option<Money> {
    let pence = minor
        .checked_mul(rate)?
        .round_dp_with_strategy(0, RoundingStrategy::MidpointNearestEven);
    i64::try_from(pence).ok().map(Money::gbp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn fixed_logic_rounds_half_to_even_per_row() {
        // 250 cents at 0.5 = 125.0 exactly; 3 cents at 0.5 = 1.5 -> 2; 5 -> 2.5 -> 2.
        let half = Decimal::new(5, 1);
        assert_eq!(
            to_gbp(Money::new(250, Currency::Eur), half, LogicVersion::Fixed),
            Some(Money::gbp(125))
        );
        assert_eq!(
            to_gbp(Money::new(3, Currency::Eur), half, LogicVersion::Fixed),
            Some(Money::gbp(2))
        );
        assert_eq!(
            to_gbp(Money::new(5, Currency::Eur), half, LogicVersion::Fixed),
            Some(Money::gbp(2))
        );
    }

    #[test]
    fn broken_logic_truncates_the_rate_and_comes_out_short() {
        let rate = Decimal::new(857_396, 6); // 0.857396 GBP per EUR
        let fixed = to_gbp(Money::new(10_000, Currency::Eur), rate, LogicVersion::Fixed);
        let broken = to_gbp(
            Money::new(10_000, Currency::Eur),
            rate,
            LogicVersion::Broken,
        );
        assert_eq!(fixed, Some(Money::gbp(8_574)));
        assert_eq!(broken, Some(Money::gbp(8_500)));
    }

    #[test]
    fn grouped_money_has_thousands_separators() {
        assert_eq!(Money::gbp(123_456_789).grouped(), "£1,234,567.89");
        assert_eq!(Money::gbp(99).grouped(), "£0.99");
        assert_eq!(Money::gbp(-100_000).grouped(), "-£1,000.00");
    }

    #[test]
    fn money_prints_with_symbol_and_pence() {
        assert_eq!(Money::gbp(123_456).to_string(), "£1234.56");
        assert_eq!(Money::gbp(-5).to_string(), "-£0.05");
    }
}
