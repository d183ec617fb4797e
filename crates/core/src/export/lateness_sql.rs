//! The lateness lab's "your data" analysis as one SQL query, for DuckDB
//! and Spark SQL: completeness by allowed lateness 0..=14, by events and
//! by value, over the user's own table. It gives the lab's numbers for the
//! same rows (`scripts/check-real` runs the DuckDB query on the test logs
//! and compares): the partition day is the event's day in the zone the
//! user names (UTC by default), an event is complete at lateness L when it
//! arrived by the daily run (a local time) on day d+1+L, a run time the
//! clocks skip or repeat read as `engine::zone` reads it,
//! rows whose times or value do not read, or that arrived before they
//! happened, are left out, and value is |value| (a refund is late money
//! too).

use chrono::{NaiveTime, Timelike};

use super::drift::Dialect;
use crate::engine::zone::Zone;

/// The lateness the query reports up to, as the lab's slider.
pub const MAX_DAYS: u32 = 14;

/// Where the user's log lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// A table or view, optionally qualified (`raw.orders_arrivals`).
    pub table: String,
    pub event_time: String,
    pub arrival_time: String,
    /// `None`: value completeness is event completeness.
    pub value: Option<String>,
    /// The run's local time, in `zone`.
    pub run: NaiveTime,
    /// The zone partitions are dated in.
    pub zone: Zone,
}

impl Default for Source {
    fn default() -> Self {
        Source {
            table: "arrivals".to_string(),
            event_time: "event_time".to_string(),
            arrival_time: "arrival_time".to_string(),
            value: Some("value".to_string()),
            run: NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default(),
            zone: Zone::UTC,
        }
    }
}

/// A name the query cannot use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("The {0} name is empty.")]
    Empty(&'static str),
    #[error("The {0} name has a control character or an empty part between dots.")]
    Unusable(&'static str),
    #[error("The {0} name is over 200 characters.")]
    TooLong(&'static str),
}

/// `name` quoted for `dialect`, each dot-separated part on its own, so any
/// name the user types is an identifier and never SQL.
fn identifier(
    dialect: Dialect,
    what: &'static str,
    name: &str,
    qualified: bool,
) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameError::Empty(what));
    }
    if name.chars().count() > 200 {
        return Err(NameError::TooLong(what));
    }
    if name.chars().any(char::is_control) {
        return Err(NameError::Unusable(what));
    }
    let quote = match dialect {
        Dialect::DuckDb => '"',
        Dialect::SparkSql => '`',
    };
    let parts: Vec<&str> = if qualified {
        name.split('.').collect()
    } else {
        vec![name]
    };
    if parts.iter().any(|p| p.trim().is_empty()) {
        return Err(NameError::Unusable(what));
    }
    Ok(parts
        .iter()
        .map(|p| {
            let doubled = p.trim().replace(quote, &format!("{quote}{quote}"));
            format!("{quote}{doubled}{quote}")
        })
        .collect::<Vec<_>>()
        .join("."))
}

/// The wall clock in `zone` at instant `t`.
fn wall_clock(dialect: Dialect, zone: &str, t: &str) -> String {
    match dialect {
        Dialect::DuckDb => format!("timezone('{zone}', {t})"),
        Dialect::SparkSql => format!("from_utc_timestamp({t}, '{zone}')"),
    }
}

/// The instant wall clock `t` names in `zone`: a skipped time as if the
/// clocks had not changed (both dialects), a repeated one its later
/// occurrence in DuckDB and its first in Spark (the query then takes the
/// first in both).
fn instant_of(dialect: Dialect, zone: &str, t: &str) -> String {
    match dialect {
        Dialect::DuckDb => format!("timezone('{zone}', {t})"),
        Dialect::SparkSql => format!("to_utc_timestamp({t}, '{zone}')"),
    }
}

/// The query for `source` in `dialect`.
pub fn query(dialect: Dialect, source: &Source) -> Result<String, NameError> {
    let table = identifier(dialect, "table", &source.table, true)?;
    let event = identifier(dialect, "event time column", &source.event_time, false)?;
    let arrival = identifier(dialect, "arrival time column", &source.arrival_time, false)?;
    let value = match &source.value {
        Some(v) if !v.trim().is_empty() => Some(identifier(dialect, "value column", v, false)?),
        _ => None,
    };
    let run = format!("{:02}:{:02}", source.run.hour(), source.run.minute());
    let zone = source.zone.name();
    let (setting, timestamp, try_cast, count_if, days) = match dialect {
        Dialect::DuckDb => (
            "SET TimeZone = 'UTC';",
            "TIMESTAMPTZ",
            "TRY_CAST",
            "count(*) FILTER (WHERE b.needed_days <= l.allowed_lateness_days)",
            format!("range(0, {}) AS l(allowed_lateness_days)", MAX_DAYS + 1),
        ),
        Dialect::SparkSql => (
            "SET spark.sql.session.timeZone = UTC;",
            "TIMESTAMP",
            "try_cast",
            "count_if(b.needed_days <= l.allowed_lateness_days)",
            format!("(SELECT explode(sequence(0, {MAX_DAYS})) AS allowed_lateness_days) AS l"),
        ),
    };
    let (hour, minute) = (source.run.hour(), source.run.minute());
    let local = |t: &str| wall_clock(dialect, zone, t);
    let (run_clock, next_day) = match dialect {
        Dialect::DuckDb => (
            format!("arrival_day + TIME '{hour:02}:{minute:02}:00'"),
            "arrival_day + 1",
        ),
        Dialect::SparkSql => (
            format!(
                "make_timestamp(year(arrival_day), month(arrival_day), day(arrival_day), {hour}, {minute}, 0)"
            ),
            "date_add(arrival_day, 1)",
        ),
    };
    let event_day = format!("CAST({} AS DATE)", local("event_at"));
    let arrival_day = format!("CAST({} AS DATE)", local("arrived_at"));
    let run_later = instant_of(dialect, zone, &run_clock);
    let earlier_clock = local("run_later - INTERVAL 1 HOUR");
    let first_run = format!("CASE WHEN arrived_at <= run_at THEN arrival_day ELSE {next_day} END");
    let needed = match dialect {
        Dialect::DuckDb => format!("({first_run} - event_day)"),
        Dialect::SparkSql => format!("datediff({first_run}, event_day)"),
    };
    let size = match &value {
        Some(v) => format!("abs({try_cast}({v} AS DECIMAL(38, 10)))"),
        None => "CAST(1 AS DECIMAL(38, 10))".to_string(),
    };
    // The lab dates days in a zone from the year its clock rules are held.
    let since = if source.zone.is_utc() {
        String::new()
    } else {
        let literal = match dialect {
            Dialect::DuckDb => "TIMESTAMPTZ",
            Dialect::SparkSql => "TIMESTAMP",
        };
        format!(
            "\n      AND event_at >= {literal} '{}-01-01 00:00:00' -- as the lab: its zone rules start in {}",
            crate::engine::zone::RULES_SINCE,
            crate::engine::zone::RULES_SINCE
        )
    };
    let value_note = if value.is_some() {
        "by value (|value|: a refund is late money too)"
    } else {
        "by value (no value column: each event counts 1, so by value = by events)"
    };
    Ok(format!(
        "-- Completeness by allowed lateness, 0 to {MAX_DAYS} days, by events and {value_note},\n\
-- as Partition Lab's lateness lab computes it ({name}).\n\
-- Partitions are dated in {zone}: an event of day d there is complete at\n\
-- allowed lateness L when it arrived by the daily run at {run} {zone} on day\n\
-- d+1+L. Where the clocks change, a run time they skip is read as if they\n\
-- had not changed yet (02:30 in a 02:00-03:00 gap runs at 03:30), and one\n\
-- that happens twice runs at its first. Times without an offset are UTC.\n\
-- Rows whose times or value do not read, or that arrived before they\n\
-- happened, are left out, as in the lab\n\
-- (what reads is the warehouse's own cast: it also takes a few shapes the lab\n\
-- refuses, such as a date without a time or a value with an exponent).\n\
-- The counts and sums are exact; the _pct columns are rounded down to\n\
-- hundredths of a percent in floating point, so at an exact boundary they\n\
-- can read 0.01 below the lab. With no events or no value, 100 % (as the lab).\n\
{setting}\n\
WITH rows_read AS (\n\
    SELECT\n\
        {try_cast}({event} AS {timestamp}) AS event_at,\n\
        {try_cast}({arrival} AS {timestamp}) AS arrived_at,\n\
        {size} AS size\n\
    FROM {table}\n\
),\n\
usable AS (\n\
    SELECT * FROM rows_read\n\
    WHERE event_at IS NOT NULL AND arrived_at IS NOT NULL AND size IS NOT NULL\n\
      AND arrived_at >= event_at{since}\n\
),\n\
dated AS (\n\
    -- The event's partition day and the arrival's day, in {zone}.\n\
    SELECT size, arrived_at, {event_day} AS event_day, {arrival_day} AS arrival_day\n\
    FROM usable\n\
),\n\
later AS (\n\
    -- The run on the arrival's day (a time that happens twice: its later\n\
    -- occurrence in DuckDB, its first in Spark).\n\
    SELECT *, {run_later} AS run_later FROM dated\n\
),\n\
runs AS (\n\
    -- Its first occurrence is an hour before the later one (every clock\n\
    -- change in the zones the lab holds is an hour).\n\
    SELECT *,\n\
        CASE WHEN {earlier_clock} = {run_clock}\n\
             THEN run_later - INTERVAL 1 HOUR ELSE run_later END AS run_at\n\
    FROM later\n\
),\n\
by_event AS (\n\
    -- Read first by the run on the arrival's day, or the next day's if it came\n\
    -- after that run: needed lateness is the days from d+1 to that run's day.\n\
    SELECT size, greatest(0, {needed} - 1) AS needed_days\n\
    FROM runs\n\
)\n\
SELECT\n\
    l.allowed_lateness_days,\n\
    {count_if} AS events_complete,\n\
    count(*) AS events_total,\n\
    coalesce(sum(CASE WHEN b.needed_days <= l.allowed_lateness_days THEN b.size END), 0) AS value_complete,\n\
    sum(b.size) AS value_total,\n\
    floor(10000.0 * {count_if} / count(*)) / 100 AS events_complete_pct,\n\
    CASE WHEN sum(b.size) = 0 THEN 100.0\n\
         ELSE floor(10000.0 * CAST(coalesce(sum(CASE WHEN b.needed_days <= l.allowed_lateness_days THEN b.size END), 0) AS DOUBLE) / CAST(sum(b.size) AS DOUBLE)) / 100 END AS value_complete_pct\n\
FROM {days}\n\
CROSS JOIN by_event AS b\n\
GROUP BY l.allowed_lateness_days\n\
ORDER BY l.allowed_lateness_days;\n",
        name = dialect.name(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_so_they_cannot_become_sql() -> Result<(), NameError> {
        let source = Source {
            table: "raw.orders\"; DROP TABLE x; --".to_string(),
            event_time: "when `it` happened".to_string(),
            ..Source::default()
        };
        let duck = query(Dialect::DuckDb, &source)?;
        assert!(duck.contains("FROM \"raw\".\"orders\"\"; DROP TABLE x; --\""));
        assert!(duck.contains("TRY_CAST(\"when `it` happened\" AS TIMESTAMPTZ)"));
        let spark = query(Dialect::SparkSql, &source)?;
        assert!(spark.contains("try_cast(`when ``it`` happened` AS TIMESTAMP)"));
        Ok(())
    }

    #[test]
    fn unusable_names_are_refused_with_a_reason() {
        let with = |table: &str| Source {
            table: table.to_string(),
            ..Source::default()
        };
        assert_eq!(
            query(Dialect::DuckDb, &with(" ")),
            Err(NameError::Empty("table"))
        );
        assert_eq!(
            query(Dialect::DuckDb, &with("a..b")),
            Err(NameError::Unusable("table"))
        );
        assert_eq!(
            query(Dialect::DuckDb, &with("a\nb")),
            Err(NameError::Unusable("table"))
        );
    }

    #[test]
    fn the_run_time_and_the_value_column_shape_the_query() -> Result<(), NameError> {
        let source = Source {
            value: None,
            run: NaiveTime::from_hms_opt(6, 30, 0).unwrap_or_default(),
            ..Source::default()
        };
        let sql = query(Dialect::DuckDb, &source)?;
        assert!(sql.contains("arrival_day + TIME '06:30:00'"));
        assert!(sql.contains("CAST(1 AS DECIMAL(38, 10)) AS size"));
        assert!(sql.contains("at 06:30 UTC"));
        Ok(())
    }
}
