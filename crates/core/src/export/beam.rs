//! The lateness lab's allowed lateness as a streaming engine's setting: an
//! Apache Beam pipeline (Python SDK) with daily event-time windows in the
//! lab's zone and the lab's allowed lateness, and a replay of a CSV log
//! through it on the DirectRunner that prints which events Beam drops as
//! late. `scripts/check-real` runs it on every built-in profile and on the
//! test logs, and the ids it prints are the lab's "arrive after their day
//! is final".
//!
//! The two rules meet under one convention, stated in the file: each daily
//! run first moves the watermark to midnight of its own day, then reads
//! what arrived since the run before. Beam drops an element when the
//! watermark is past its window's end plus the allowed lateness, so the
//! run on d+1+L still keeps day d's rows and the next one drops them.

use chrono::{Datelike, NaiveTime, Timelike};

use crate::engine::calendar::Instant;
use crate::engine::generate::OrderDraw;
use crate::engine::lateness::Lateness;
use crate::engine::zone::Zone;
use crate::export::{template, BEAM_RELEASE, BEAM_VERSIONS};

/// What "never final" becomes: a window has to close some time in Beam.
const NEVER_DAYS: u32 = 3653;

/// A log as the pipeline reads it, and the lab's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    pub event_time: String,
    pub arrival_time: String,
    /// `None`: every row counts; a row with no readable value is not left out.
    pub value: Option<String>,
    /// The column that names a row; `None`: its line in the file.
    pub id: Option<String>,
    /// The daily run's local time, in `zone`.
    pub run: NaiveTime,
    /// The zone partitions are dated in.
    pub zone: Zone,
    pub lateness: Lateness,
}

impl Stream {
    /// A month the lab generated, as [`month_csv`] writes it: dated in UTC
    /// and built by the 02:00 run, as the lateness lab's profiles are.
    pub fn month(lateness: Lateness) -> Stream {
        Stream {
            event_time: "event_time".to_string(),
            arrival_time: "arrival_time".to_string(),
            value: None,
            id: Some("order_id".to_string()),
            run: NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default(),
            zone: Zone::UTC,
            lateness,
        }
    }
}

impl Stream {
    /// A scenario's bronze as the runnable project's `bronze.csv` holds
    /// it (`export::replay::bronze_csv`): dated in UTC, built by the 02:00
    /// runs, each row named by its `id`.
    pub fn bronze(lateness: Lateness) -> Stream {
        Stream {
            event_time: "event_time".to_string(),
            arrival_time: "arrived_at".to_string(),
            value: None,
            id: Some("id".to_string()),
            run: NaiveTime::from_hms_opt(crate::engine::lateness::RUN_HOUR, 0, 0)
                .unwrap_or_default(),
            zone: Zone::UTC,
            lateness,
        }
    }
}

/// A generated month as the CSV the pipeline reads, one line an order:
/// the same file on the page and in `scripts/check-real`.
pub fn month_csv(draws: &[OrderDraw]) -> String {
    let mut csv = String::from("order_id,event_time,arrival_time\n");
    for d in draws {
        csv.push_str(&format!(
            "{},{},{}\n",
            d.id(),
            utc_stamp(d.event_time),
            utc_stamp(d.arrived_at)
        ));
    }
    csv
}

/// `t` as `2026-08-01T09:30:00Z`. Written out because chrono's `format`
/// brings its whole strftime parser into the page (15 KB gzipped).
fn utc_stamp(t: Instant) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// `text` as a Python string literal.
fn py_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn py_opt(text: &Option<String>) -> String {
    text.as_deref().map_or_else(|| "None".to_string(), py_str)
}

/// The lateness in days the file sets, and what its docstring calls it.
fn days(lateness: Lateness) -> (u32, String) {
    match lateness {
        Lateness::Days(l) => (l, crate::counted::counted(l, "day")),
        Lateness::Never => (
            NEVER_DAYS,
            "never final (ten years here: a window has to close some time in Beam)".to_string(),
        ),
    }
}

/// The window function, the lateness it needs beyond L days, and what it
/// imports: from `apache_beam.coders` (if anything), and the names from
/// `apache_beam.transforms.window` (beside the replay's `TimestampedValue`).
fn windows(zone: Zone) -> (String, &'static str, &'static str, &'static str) {
    let fixed = "FixedWindows, TimestampedValue";
    if zone.is_utc() {
        return ("FixedWindows(DAY)".to_string(), "", "", fixed);
    }
    if let Some(east) = zone.fixed_offset() {
        // A day starts at local midnight: that many seconds into a UTC day.
        let offset = east.saturating_neg().rem_euclid(86_400);
        return (format!("FixedWindows(DAY, offset={offset})"), "", "", fixed);
    }
    (
        "LocalDays()".to_string(),
        " + HOUR",
        "from apache_beam.coders import coders\n",
        "IntervalWindow, NonMergingWindowFn, TimestampedValue",
    )
}

/// The pipeline, with the replay that proves it, as one Python file.
pub fn pipeline(s: &Stream) -> String {
    let (l, lateness_words) = days(s.lateness);
    let zone = s.zone.name();
    let run = format!("{:02}:{:02}", s.run.hour(), s.run.minute());
    let (window, extra, coders, window_names) = windows(s.zone);
    let changes = s.zone.fixed_offset().is_none();
    let convention = if changes {
        format!(
            "Beam's allowed lateness is a length of time and {zone}'s days are not all\n\
             24 hours long: between a window's end and midnight L days later the\n\
             clocks may go back an hour, so the pipeline allows L days and an hour\n\
             (and drops the same rows: the next midnight is a day later)."
        )
    } else {
        "Every day here is 24 hours long, so L days of allowed lateness is exactly\n\
         the lab's L days."
            .to_string()
    };
    let local_days = if changes {
        "\n\nclass LocalDays(NonMergingWindowFn):\n    \
         \"\"\"One window per calendar day in ZONE: 23 or 25 hours long on the days\n    \
         the clocks change (FixedWindows cannot follow them).\"\"\"\n\n    \
         def assign(self, context):\n        \
         day = datetime.fromtimestamp(context.timestamp.micros / 1e6, ZoneInfo(ZONE)).date()\n        \
         return [IntervalWindow(midnight(day), midnight(day + timedelta(days=1)))]\n\n    \
         def get_window_coder(self):\n        \
         return coders.IntervalWindowCoder()\n"
    } else {
        ""
    };
    let id_words = match &s.id {
        Some(c) => format!("their {} column", quoted_words(c)),
        None => "their line in the file, the header being line 1".to_string(),
    };
    template::fill(
        include_str!("templates/lateness_beam.py"),
        &[
            ("versions", BEAM_VERSIONS),
            ("beam", BEAM_RELEASE),
            ("file", FILE),
            ("id_words", &id_words),
            ("zone_literal", &py_str(zone)),
            ("hour", &s.run.hour().to_string()),
            ("minute", &s.run.minute().to_string()),
            ("event", &py_str(&s.event_time)),
            ("arrival", &py_str(&s.arrival_time)),
            ("value", &py_opt(&s.value)),
            ("id", &py_opt(&s.id)),
            ("lateness_words", &lateness_words),
            ("zone", zone),
            ("run", &run),
            ("convention", &convention),
            ("coders", coders),
            ("window_names", window_names),
            ("l", &l.to_string()),
            ("window", &window),
            ("extra", extra),
            ("local_days", local_days),
        ],
    )
}

/// The file's name in a download.
pub const FILE: &str = "lateness_beam.py";

/// A column name inside the docstring: no quotes or backslashes to end it.
fn quoted_words(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '"' | '\\') && !c.is_control())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(zone: &str) -> Stream {
        Stream {
            event_time: "event_time".to_string(),
            arrival_time: "arrival_time".to_string(),
            value: Some("value".to_string()),
            id: None,
            run: NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default(),
            zone: Zone::named(zone).unwrap_or_default(),
            lateness: Lateness::Days(3),
        }
    }

    #[test]
    fn the_window_follows_the_zone() {
        let utc = pipeline(&stream("UTC"));
        assert!(utc.contains("FixedWindows(DAY),"), "{utc}");
        assert!(utc.contains("lateness_days * DAY)"));
        // Tokyo's midnight is 15:00 UTC.
        let tokyo = pipeline(&stream("Asia/Tokyo"));
        assert!(tokyo.contains("FixedWindows(DAY, offset=54000)"), "{tokyo}");
        // New York's is 05:00 UTC in winter and 04:00 in summer.
        let new_york = pipeline(&stream("America/New_York"));
        assert!(new_york.contains("LocalDays(),"));
        assert!(new_york.contains("lateness_days * DAY + HOUR)"));
        assert!(new_york.contains("class LocalDays(NonMergingWindowFn)"));
        assert!(!utc.contains("class LocalDays"));
    }

    #[test]
    fn every_import_is_at_the_top_once() {
        for (zone, window) in [
            ("UTC", "FixedWindows"),
            ("Asia/Tokyo", "FixedWindows"),
            ("Europe/London", "IntervalWindow"),
        ] {
            let file = pipeline(&stream(zone));
            let lines: Vec<&str> = file.lines().collect();
            let is_import = |l: &&str| l.starts_with("import ") || l.starts_with("from ");
            let last = lines.iter().rposition(&is_import).expect("imports");
            let first_code = lines
                .iter()
                .position(|l| l.starts_with("ALLOWED_LATENESS_DAYS"))
                .expect("settings");
            assert!(last < first_code, "{zone}: an import after the code starts");
            let imports: Vec<&str> = lines.iter().copied().filter(is_import).collect();
            for (i, line) in imports.iter().enumerate() {
                assert!(!imports[..i].contains(line), "{zone}: {line} twice");
            }
            for name in [
                window,
                "TimestampedValue",
                "TestStream",
                "Duration",
                "Decimal",
            ] {
                let imported = imports.iter().any(|l| l.contains(name));
                assert!(imported, "{zone}: {name} used, not imported");
            }
        }
    }

    #[test]
    fn settings_are_the_labs() {
        let mut s = stream("Europe/London");
        s.run = NaiveTime::from_hms_opt(1, 30, 0).unwrap_or_default();
        s.lateness = Lateness::Days(1);
        s.value = None;
        s.id = Some("order \"id\"".to_string());
        let file = pipeline(&s);
        assert!(file.contains("ALLOWED_LATENESS_DAYS = 1\n"));
        assert!(file.contains("RUN_TIME = time(1, 30)"));
        assert!(file.contains("ZONE = \"Europe/London\""));
        assert!(file.contains("\"value\": None,"));
        assert!(file.contains(r#""id": "order \"id\"","#), "{file}");
        assert!(file.contains("Allowed lateness of 1 day in"));
        s.lateness = Lateness::Never;
        assert!(pipeline(&s).contains(&format!("ALLOWED_LATENESS_DAYS = {NEVER_DAYS}\n")));
    }

    #[test]
    fn a_month_is_written_in_the_columns_its_stream_reads() {
        use crate::labs::lateness::model::{draws, Profile};
        let month = draws(Profile::Partner);
        let csv = month_csv(&month);
        let mut lines = csv.lines();
        let s = Stream::month(Lateness::Days(2));
        let header = lines.next().unwrap_or_default();
        let names: Vec<&str> = header.split(',').collect();
        assert_eq!(
            names,
            [
                s.id.as_deref().unwrap_or_default(),
                &s.event_time,
                &s.arrival_time
            ]
        );
        assert_eq!(lines.clone().count(), month.len());
        // Every line as chrono's own strftime writes it.
        for (line, d) in lines.zip(&month) {
            let stamp = "%Y-%m-%dT%H:%M:%SZ";
            let want = format!(
                "{},{},{}",
                d.id(),
                d.event_time.format(stamp),
                d.arrived_at.format(stamp)
            );
            assert_eq!(line, want);
        }
        assert!(s.zone.is_utc());
        assert_eq!(s.run, NaiveTime::from_hms_opt(2, 0, 0).unwrap_or_default());
    }

    #[test]
    fn names_cannot_end_their_string() {
        assert_eq!(py_str(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(py_str("a\nb"), r#""a\u000ab""#);
        assert_eq!(py_str("café"), "\"café\"");
    }
}
