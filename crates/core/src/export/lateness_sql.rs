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
use super::template;
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
    let (setting, timestamp, try_cast, count_if, days) = dialect_words(dialect);
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
    let since = since(dialect, source.zone);
    let value_note = if value.is_some() {
        "by value (|value|: a refund is late money too)"
    } else {
        "by value (no value column: each event counts 1, so by value = by events)"
    };
    Ok(template::fill(
        include_str!("templates/lateness_completeness.sql"),
        &[
            ("arrival", &arrival),
            ("arrival_day", &arrival_day),
            ("count_if", count_if),
            ("days", &days),
            ("earlier_clock", &earlier_clock),
            ("event", &event),
            ("event_day", &event_day),
            ("max_days", &MAX_DAYS.to_string()),
            ("name", dialect.name()),
            ("needed", &needed),
            ("run", &run),
            ("run_clock", &run_clock),
            ("run_later", &run_later),
            ("setting", setting),
            ("since", &since),
            ("size", &size),
            ("table", &table),
            ("timestamp", timestamp),
            ("try_cast", try_cast),
            ("value_note", value_note),
            ("zone", zone),
        ],
    ))
}

/// The dialect's words: its session time zone setting, timestamp type,
/// safe cast, conditional count and the table of lateness days.
fn dialect_words(
    dialect: Dialect,
) -> (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    String,
) {
    match dialect {
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
    }
}

/// The clause that leaves out events before the year the lab's rules for
/// `zone` start (the lab dates days in a zone only from then).
fn since(dialect: Dialect, zone: Zone) -> String {
    if zone.is_utc() {
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
    }
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
