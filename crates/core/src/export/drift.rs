//! The drift query in a real dialect: which partitions' stored totals
//! disagree with their rows converted again by the fixed logic. The lab's
//! fix rounds each row half-to-even to the penny, so the query must too:
//! `ROUND` is half-up in Spark and half-away-from-zero in DuckDB, which is
//! why each dialect gets its own half-even function.

use crate::engine::calendar::Day;
use crate::engine::event::Event;
use crate::engine::money::FxRates;
use crate::engine::table::Table;

use super::{quoted, File, DUCKDB_VERSIONS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    DuckDb,
    SparkSql,
}

impl Dialect {
    /// `amount` converted to pounds, half to even, as a decimal. DuckDB
    /// before 2.0 gives `round_even` of a decimal product a DOUBLE, so
    /// its result is cast back: money never becomes a float.
    pub fn half_even_pounds(self, amount: &str) -> String {
        match self {
            Dialect::DuckDb => format!("cast(round_even({amount}, 2) as decimal(18, 2))"),
            Dialect::SparkSql => format!("bround({amount}, 2)"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dialect::DuckDb => DUCKDB_VERSIONS,
            Dialect::SparkSql => super::SPARK_SQL,
        }
    }
}

/// The query over `silver` (stored, converted rows), `bronze` (the raw
/// amounts) and `fx` (a rate per currency and day), from `from` on.
pub fn query(dialect: Dialect, silver: &str, bronze: &str, fx: &str, from: Day) -> String {
    let (silver, bronze, fx) = (quoted(silver), quoted(bronze), quoted(fx));
    let fixed = dialect.half_even_pounds("src.amount * coalesce(rate.gbp_per_unit, 1)");
    format!(
        "-- {}: stored totals against the source converted again, row by row,\n-- with the fixed logic (full-precision rate, half-to-even to the penny).\n-- Start well before the suspected deploy: the first row is where the damage begins.\nwith converted as (\n  select held.dt,\n         held.amount_gbp                                           as kept,\n         {fixed} as fixed\n  from {silver} as held\n  join {bronze} as src on src.order_id = held.order_id\n  left join {fx} as rate on rate.currency = src.currency and rate.dt = src.dt\n  where held.dt >= date '{from}'\n)\nselect dt,\n       sum(kept)                    as stored,\n       sum(fixed)                   as recomputed,\n       abs(sum(kept) - sum(fixed))  as drift\nfrom converted\ngroup by dt\nhaving abs(sum(kept) - sum(fixed)) > 0.01\norder by dt\n",
        dialect.name()
    )
}

/// Pence as pounds with two decimals ("-0.05"), as CSV and SQL read them.
pub fn pounds(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Bronze orders as CSV: id, event date, amount in pounds, currency.
pub fn bronze_csv<'a>(events: impl IntoIterator<Item = &'a Event>) -> String {
    let mut b = String::from("order_id,dt,amount,currency\n");
    for e in events {
        b.push_str(&format!(
            "{},{},{},{}\n",
            e.id,
            e.event_date(),
            pounds(e.amount.minor),
            e.amount.currency.code()
        ));
    }
    b
}

/// The tables the query reads, as CSV files a DuckDB session loads.
pub fn tables(silver: &Table, events: &[Event], fx: &FxRates, fx_days: &[Day]) -> Vec<File> {
    vec![
        File::new("silver_orders.csv", silver_csv(silver)),
        File::new("bronze_orders.csv", bronze_csv(events)),
        File::new("fx_rates.csv", fx_csv(fx, fx_days)),
    ]
}

/// Silver as CSV: `order_id,dt,amount_gbp`, its converted rows by day.
pub fn silver_csv(silver: &Table) -> String {
    let mut s = String::from("order_id,dt,amount_gbp\n");
    for (dt, rows) in silver.partitions() {
        for r in rows {
            if let Some(gbp) = r.gbp {
                s.push_str(&format!("{},{dt},{}\n", r.id, pounds(gbp.minor)));
            }
        }
    }
    s
}

/// The rates as CSV: one row per currency other than GBP and day.
pub fn fx_csv(fx: &FxRates, days: &[Day]) -> String {
    let mut f = String::from("currency,dt,gbp_per_unit\n");
    for day in days {
        for currency in [
            crate::engine::money::Currency::Eur,
            crate::engine::money::Currency::Usd,
        ] {
            if let Some(rate) = fx.rate(*day, currency) {
                f.push_str(&format!("{},{day},{rate}\n", currency.code()));
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dialect_rounds_half_to_even() {
        let from = const { crate::engine::calendar::date(2026, 7, 20) };
        let duck = query(
            Dialect::DuckDb,
            "silver_orders",
            "bronze_orders",
            "fx_rates",
            from,
        );
        assert!(
            duck.contains("round_even(") && !duck.contains(" round("),
            "{duck}"
        );
        let spark = query(
            Dialect::SparkSql,
            "silver.orders",
            "bronze.orders",
            "silver.fx_rates",
            from,
        );
        assert!(
            spark.contains("bround(") && spark.contains("date '2026-07-20'"),
            "{spark}"
        );
    }

    #[test]
    fn pounds_print_with_two_decimals() {
        assert_eq!(pounds(123_456), "1234.56");
        assert_eq!(pounds(-5), "-0.05");
    }
}
