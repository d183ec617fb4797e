//! What the user's own arrival log says at the lab's settings: every
//! sentence, figure and table row of the "your data" panel, decided here
//! (and tested natively) so that `ui::lateness::your_data` only draws.
//!
//! The panel's words follow the figures they state: a recommendation names
//! the partitions its lateness rebuilds, a close date is marked by whether
//! it meets the rule, and a late event is "lost" only when it is dropped.

use chrono::{Duration, NaiveTime};

use crate::counted::counted;
use crate::engine::arrivals::{
    value_text, CloseRule, Completeness, LogFigures, Month, MonthFigures,
};
use crate::engine::calendar::{month_short, shift, weekday_day_month, weekday_day_month_time, Day};
use crate::engine::lateness::{percent, Lateness};
use crate::engine::money::thousands;
use crate::engine::zone::Zone;
use crate::lean::order::sort_by_key;

use super::arrival_csv::{Loaded, LogError, Mapping};
use super::figures::{close_words, open_words};
use super::query::{run_value, target_value};
use super::{late_sentence, lost_sentence, AfterPolicy, Settings, MAX_DAYS};

/// The panel's figures for one log at one setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// Which rows the figures are based on, and in which zone.
    pub summary: String,
    pub recommendation: String,
    /// The lateness recommended and the button's words, when the slider
    /// reaches it.
    pub set_slider: Option<(u32, String)>,
    /// Complete, open each night, latest month closes: in that order.
    pub figures: [Figure; 3],
    pub months: Vec<MonthRow>,
    pub left_out: Option<LeftOut>,
}

/// A headline figure with its line of explanation.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Names the figure for the page's `data-figure` and its heading's id.
    pub key: &'static str,
    pub title: &'static str,
    pub big: String,
    pub line: String,
}

/// A month of the log at the current allowed lateness.
#[derive(Clone, Debug, PartialEq)]
pub struct MonthRow {
    /// `YYYY-MM`.
    pub key: String,
    pub name: String,
    pub events: String,
    pub by_value: String,
    pub by_events: String,
    /// The run after which its last day is final, or "never".
    pub final_after: String,
    pub close: String,
}

/// The rows the reader left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    pub heading: String,
    /// One line per kind of problem, with its count.
    pub reasons: Vec<String>,
    pub caption: String,
    /// The first rows left out: line, why, the row as read.
    pub examples: Vec<(String, &'static str, String)>,
}

/// The table's column titles, in order.
pub const MONTH_COLUMNS: [&str; 6] = [
    "Month",
    "Events",
    "Complete by value",
    "Complete by events",
    "Last day final after the run of (local time)",
    "Finance can close",
];

/// Everything the log says at `settings`, with the run time's completeness
/// `c` and its figures `f` at the slider's lateness.
pub fn results(
    name: &str,
    loaded: &Loaded,
    c: &Completeness,
    f: &LogFigures,
    settings: &Settings,
) -> Results {
    let rule = settings.close_day;
    let target = settings.target_bp;
    let summary = format!(
        "Based on {} of the {} rows in {name}, dated in {}{}.",
        thousands(loaded.used()),
        thousands(loaded.rows),
        loaded.log.zone().name(),
        if loaded.has_value {
            ""
        } else {
            " (no value column: by value means by events)"
        }
    );
    let (recommendation, set_slider) = match c.recommend(target) {
        None => (
            format!(
                "No allowed lateness up to a year reaches {} % of value.",
                target_value(target)
            ),
            None,
        ),
        Some(l) => {
            let at = c.figures(Lateness::Days(l), CloseRule { business_day: rule });
            let month = at
                .months
                .last()
                .map(|m| {
                    format!(
                        " {} then closes {}.",
                        month_name(m.month),
                        close_text(m, rule)
                    )
                })
                .unwrap_or_default();
            (
                format!(
                    "{}: the smallest allowed lateness that keeps {} % of value complete ({} by value, {} of events). Each run then rebuilds {}.{month}",
                    days_text(l),
                    target_value(target),
                    percent(at.value_bp),
                    percent(at.count_bp),
                    counted(l.saturating_add(1), "partition"),
                ),
                (l <= MAX_DAYS).then(|| (l, format!("Set the slider to {}", days_text(l)))),
            )
        }
    };
    let open = open_words(f.open_partitions);
    let (close_big, close_line) = f.months.last().map_or_else(Default::default, |m| {
        (
            close_words(m.close_on, m.on_time()),
            format!("{}: {}", month_name(m.month), close_text(m, rule)),
        )
    });
    let figures = [
        Figure {
            key: "complete",
            title: "Complete",
            big: percent(f.value_bp),
            line: format!(
                "of the value reaches its own day before the day is final; {} of events ({} of {}). {}",
                percent(f.count_bp),
                thousands(f.complete.count),
                thousands(f.total.count),
                miss(f.after_final.count)
            ),
        },
        Figure {
            key: "open",
            title: "Open each night",
            big: open,
            line: "Each daily run rebuilds yesterday and the allowed-lateness days before it."
                .to_string(),
        },
        Figure {
            key: "close",
            title: "Latest month closes",
            big: close_big,
            line: close_line,
        },
    ];
    let months = f
        .months
        .iter()
        .map(|m| MonthRow {
            key: format!("{}-{:02}", m.month.0, m.month.1),
            name: month_name(m.month),
            events: thousands(m.total.count),
            by_value: percent(m.value_bp),
            by_events: percent(m.count_bp),
            final_after: m
                .final_at
                .map_or_else(|| "never".to_string(), weekday_day_month_time),
            close: close_text(m, rule),
        })
        .collect();
    let bad = &loaded.bad;
    let left_out = (bad.total() > 0).then(|| LeftOut {
        heading: format!("{} left out", counted(bad.total(), "row")),
        reasons: reasons(loaded),
        caption: match bad.examples.len() {
            1 => "The row left out, by line (the header is line 1)".to_string(),
            n if u64::try_from(n).is_ok_and(|n| n == bad.total()) => {
                format!("The {n} rows left out, by line (the header is line 1)")
            }
            n => format!(
                "The first {n} of the {} left out, by line (the header is line 1)",
                counted(bad.total(), "row")
            ),
        },
        examples: bad
            .examples
            .iter()
            .map(|b| (b.line.to_string(), b.problem.describe(), b.text.clone()))
            .collect(),
    });
    Results {
        summary,
        recommendation,
        set_slider,
        figures,
        months,
        left_out,
    }
}

/// One line per kind of row left out: "3 rows: why".
fn reasons(loaded: &Loaded) -> Vec<String> {
    loaded
        .bad
        .by_problem()
        .into_iter()
        .map(|(p, n)| format!("{}: {}", counted(n, "row"), p.describe()))
        .collect()
}

/// "3 events arrive after their day is final.", one in the singular.
fn miss(n: u64) -> String {
    if n == 1 {
        "1 event arrives after its day is final.".to_string()
    } else {
        format!("{} arrive after their day is final.", counted(n, "event"))
    }
}

/// What happens to the events that arrive after their day is final.
#[derive(Clone, Debug, PartialEq)]
pub struct Late {
    pub sentence: String,
    /// Said as an alarm: what dropping them loses.
    pub lost: Option<String>,
    /// Under adjustments: the report's lines, each month's final
    /// partitions before the adjustments booked in it.
    pub report: Option<Vec<ReportLine>>,
    /// "For example (times in ...):" and the examples, if any.
    pub examples: Option<(String, Vec<String>)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReportLine {
    pub month: String,
    pub line: &'static str,
    pub events: String,
    pub value: String,
}

/// The report table's column titles, in order.
pub const REPORT_COLUMNS: [&str; 4] = ["Month", "Line", "Events", "Value"];

/// The late events of `loaded` at the figures' lateness and `settings`.
pub fn late(loaded: &Loaded, f: &LogFigures, settings: &Settings) -> Late {
    let Lateness::Days(l) = f.lateness else {
        return Late {
            sentence: super::late::NEVER_FINAL.to_string(),
            lost: None,
            report: None,
            examples: None,
        };
    };
    let has_value = loaded.has_value;
    let late = f.after_final;
    let by_value = if has_value {
        format!(" worth {}", value_text(late.value))
    } else {
        String::new()
    };
    let sentence = late_sentence(late.count, &by_value, settings.after);
    let lost = (settings.after == AfterPolicy::Drop && late.count > 0)
        .then(|| lost_sentence(late.count, &by_value));
    let report = (settings.after == AfterPolicy::Adjust).then(|| {
        let mut lines: Vec<(Month, u8, _)> = f
            .months
            .iter()
            .map(|m| (m.month, 0, m.complete))
            .chain(f.adjustments_by_month.iter().map(|(m, s)| (*m, 1, *s)))
            .collect();
        sort_by_key(&mut lines, |(month, kind, _)| (*month, *kind));
        lines
            .into_iter()
            .map(|(month, kind, share)| ReportLine {
                month: month_name(month),
                line: if kind == 0 {
                    "final daily partitions"
                } else {
                    "adjustments for days already final"
                },
                events: thousands(share.count),
                value: value_text(share.value),
            })
            .collect()
    });
    let log = &loaded.log;
    let zone = log.zone();
    let examples: Vec<String> = log
        .late_rows(settings.run, l, 4)
        .into_iter()
        .map(|e| {
            format!(
                "Line {}{}: happened {}, arrived {}: needed {} of lateness.",
                thousands(e.row.line),
                if has_value {
                    format!(" ({})", value_text(e.row.value))
                } else {
                    String::new()
                },
                weekday_day_month_time(zone.local(e.row.event)),
                weekday_day_month_time(zone.local(e.row.arrived)),
                days_text(e.needed),
            )
        })
        .collect();
    Late {
        sentence,
        lost,
        report,
        examples: (!examples.is_empty())
            .then(|| (format!("For example (times in {}):", zone.name()), examples)),
    }
}

/// Why a file could not be read, with each kind of row it left out when
/// none was usable.
pub fn describe(e: &LogError) -> String {
    match e {
        LogError::NoUsableRows { bad, .. } => {
            let reasons: Vec<String> = bad
                .by_problem()
                .into_iter()
                .map(|(p, n)| format!("{}: {}", counted(n, "row"), p.describe()))
                .collect();
            format!("{e} {}.", reasons.join("; "))
        }
        other => other.to_string(),
    }
}

/// "Aug 2026".
pub fn month_name(month: Month) -> String {
    let (year, m) = month;
    let name = chrono::NaiveDate::from_ymd_opt(year, m, 1).map_or("", month_short);
    format!("{name} {year}")
}

/// "1 day", "3 days".
pub fn days_text(l: u32) -> String {
    counted(l, "day")
}

/// When finance can close `m`, marked by whether that meets the rule.
pub fn close_text(m: &MonthFigures, rule: u32) -> String {
    match (m.close_on, m.deadline) {
        (Some(close), Some(deadline)) => format!(
            "{}, {} the rule ({} business day: {})",
            weekday_day_month(close),
            if close <= deadline { "within" } else { "after" },
            ordinal(rule),
            weekday_day_month(deadline)
        ),
        _ => "never: nothing is ever final".to_string(),
    }
}

/// "1st", "2nd", "11th".
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The days of the log (and the runs that may still change it) on which
/// the run time is one the clocks skip or repeat, said as the lab runs it:
/// empty when there are none.
pub fn run_days(days: Option<(Day, Day)>, zone: Zone, run: NaiveTime) -> String {
    let Some((first, last)) = days else {
        return String::new();
    };
    let mut said = Vec::new();
    let mut day = first;
    // The runs that build and rebuild the log's days: the last day's first
    // run is the day after it, its last MAX_DAYS days after that.
    while day <= shift(last, i64::from(MAX_DAYS) + 1) && said.len() < 4 {
        if zone.changes_on(day) {
            let at = zone.run_on(day, run);
            let clock = zone.local(at);
            let wall = day.and_time(run);
            if clock != wall {
                said.push(format!(
                    "on {} the clocks skip {}, so it runs at {}",
                    weekday_day_month(day),
                    run_value(run),
                    run_value(clock.time())
                ));
            } else if zone.local(at + Duration::hours(1)) == wall {
                said.push(format!(
                    "on {} {} happens twice, and it runs at the first",
                    weekday_day_month(day),
                    run_value(run)
                ));
            }
        }
        day = shift(day, 1);
    }
    if said.is_empty() {
        String::new()
    } else {
        format!(" (in your data's days, {})", said.join("; "))
    }
}

/// Which of a file's columns hold what, by position in its header row:
/// what the column picker shows and checks before a read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnChoice {
    pub names: Vec<String>,
    pub event: Option<usize>,
    pub arrival: Option<usize>,
    pub value: Option<usize>,
}

impl ColumnChoice {
    /// `names` with the columns `guess` names picked, if it names them.
    pub fn of(names: Vec<String>, guess: Option<&Mapping>) -> Self {
        let at = |name: &str| names.iter().position(|n| n == name);
        let (event, arrival, value) = match guess {
            Some(m) => (
                at(&m.event),
                at(&m.arrival),
                m.value.as_deref().and_then(at),
            ),
            None => (None, None, None),
        };
        ColumnChoice {
            names,
            event,
            arrival,
            value,
        }
    }

    /// How the picker shows column `i`: its name, or its place if unnamed.
    pub fn shown(&self, i: usize) -> String {
        match self.names.get(i) {
            Some(name) if !name.is_empty() => name.clone(),
            _ => format!("(column {}, unnamed)", i.saturating_add(1)),
        }
    }

    /// The mapping picked, or what is wrong with it, in words.
    pub fn mapping(&self) -> Result<Mapping, String> {
        let name = |i: Option<usize>| i.and_then(|i| self.names.get(i)).cloned();
        let (Some(event), Some(arrival)) = (name(self.event), name(self.arrival)) else {
            return Err(
                "Choose the columns that hold the event time and the arrival time.".to_string(),
            );
        };
        if self.event == self.arrival {
            return Err(
                "The event time and the arrival time must be different columns.".to_string(),
            );
        }
        if self.value.is_some() && (self.value == self.event || self.value == self.arrival) {
            return Err("The value column must not be one of the time columns.".to_string());
        }
        // Columns are read by name, as the warehouse query names them: a
        // name the header has twice (or none) would read another column.
        for picked in [self.event, self.arrival, self.value].into_iter().flatten() {
            let Some(wanted) = self.names.get(picked) else {
                continue;
            };
            if wanted.trim().is_empty() {
                return Err(format!(
                    "Column {} has no name in the header row: give it one, since the lab (and the SQL) reads columns by name.",
                    picked.saturating_add(1)
                ));
            }
            let same = self
                .names
                .iter()
                .filter(|n| n.trim().eq_ignore_ascii_case(wanted.trim()))
                .count();
            if same > 1 {
                return Err(format!(
                    "The header row names {same} columns \"{}\": rename all but one, since the lab (and the SQL) reads columns by name.",
                    wanted.trim()
                ));
            }
        }
        Ok(Mapping {
            event,
            arrival,
            value: name(self.value),
        })
    }
}

/// Why a file the browser would not hand over could not be read.
pub const UNREADABLE: &str = "the browser could not read the file.";

/// Under the histogram: what it counts, from which file.
pub fn histogram_about(name: &str, loaded: &Loaded) -> String {
    format!(
        "{} in {name}, by delay between happening and arriving.",
        counted(loaded.used(), "event")
    )
}

/// The progress line of a read under way: rows so far, and the share of
/// the file's bytes read.
pub fn rows_read(rows: u64, percent: u32) -> String {
    format!("{} read ({percent} %)", counted(rows, "row"))
}

/// The column picker's status: whether the figures are this file's yet.
pub fn picker_status(name: &str, read: bool) -> String {
    if read {
        format!("{name} was read with the columns below; choose others to read it again.")
    } else {
        format!("Which of {name}'s columns hold the event time and the arrival time? Choose them, then read the file.")
    }
}

/// The message for a read of `name` that failed, with what the page still
/// shows (`still`: from `still_shown`).
pub fn not_read(name: &str, why: &str, still: &str) -> String {
    format!("{name} could not be read: {why}{still}")
}

/// What the figures on the page are, after a read that did not end: empty
/// when no log was read before.
pub fn still_shown(shown: Option<(&str, Zone)>) -> String {
    shown
        .map(|(name, zone)| {
            format!(
                " The figures below are still those of {name}, dated in {}.",
                zone.name()
            )
        })
        .unwrap_or_default()
}

/// The message after the user stops a read.
pub fn stopped(still: &str) -> String {
    if still.is_empty() {
        "Reading stopped. No data has been read yet.".to_string()
    } else {
        format!("Reading stopped.{still}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::calendar::date;
    use crate::labs::lateness::arrival_csv::LogReader;
    use crate::labs::lateness::policy_name;

    /// A March log: each day's six events arrive 0 to 8 days late (into
    /// April), plus
    /// one unreadable row and one that arrives before it happens.
    fn march(zone: Zone) -> Loaded {
        let mut csv = String::from("event_time,arrival_time,value\n");
        for d in 1..=28u32 {
            for k in 0..6u32 {
                let arrive = shift(date(2026, 3, d), i64::from(k * k / 3));
                csv.push_str(&format!(
                    "2026-03-{d:02}T10:00:00Z,{arrive}T{}:30:00Z,{}.5\n",
                    11 + k,
                    d * k
                ));
            }
        }
        csv.push_str("nonsense,2026-03-01T00:00:00Z,1\n");
        csv.push_str("2026-04-01T00:00:00Z,2026-03-01T00:00:00Z,1\n");
        let mut reader = LogReader::with(None, zone);
        reader.feed(csv.as_bytes()).expect("read");
        reader.finish().expect("a log")
    }

    fn utc() -> Zone {
        Zone::named("UTC").expect("a zone")
    }

    fn at(settings: &Settings, loaded: &Loaded) -> (Completeness, LogFigures) {
        let c = loaded.log.at_run_time(settings.run);
        let f = c.figures(
            settings.lateness,
            CloseRule {
                business_day: settings.close_day,
            },
        );
        (c, f)
    }

    #[test]
    fn the_recommendation_is_the_smallest_lateness_reaching_the_target_and_names_its_partitions() {
        let loaded = march(utc());
        for target_bp in crate::labs::lateness::TARGETS {
            let settings = Settings {
                target_bp,
                ..Settings::default()
            };
            let (c, f) = at(&settings, &loaded);
            let r = results("march.csv", &loaded, &c, &f, &settings);
            let l = c.recommend(target_bp).expect("reached within the month");
            let close = CloseRule {
                business_day: settings.close_day,
            };
            let reached = c.figures(Lateness::Days(l), close).value_bp;
            assert!(reached >= target_bp);
            if l > 0 {
                assert!(c.figures(Lateness::Days(l - 1), close).value_bp < target_bp);
            }
            assert!(r.recommendation.starts_with(&format!("{}:", days_text(l))));
            assert!(r.recommendation.contains(&percent(reached)));
            // A run rebuilds yesterday and the l days before it.
            assert!(r
                .recommendation
                .contains(&format!("rebuilds {}.", counted(l + 1, "partition"))));
            assert_eq!(
                r.set_slider,
                Some((l, format!("Set the slider to {}", days_text(l))))
            );
        }
    }

    #[test]
    fn a_target_no_lateness_reaches_is_said_and_offers_no_button() {
        let loaded = march(utc());
        let settings = Settings {
            target_bp: 10_000,
            ..Settings::default()
        };
        // One event of the month never arrives within a year.
        let mut csv = String::from("event_time,arrival_time\n");
        csv.push_str("2025-01-01T00:00:00Z,2026-03-20T00:00:00Z\n");
        csv.push_str("2025-01-02T00:00:00Z,2025-01-02T00:00:00Z\n");
        let mut reader = LogReader::with(None, utc());
        reader.feed(csv.as_bytes()).expect("read");
        let late = reader.finish().expect("a log");
        let (c, f) = at(&settings, &late);
        assert_eq!(c.recommend(10_000), None);
        let r = results("late.csv", &late, &c, &f, &settings);
        assert_eq!(
            r.recommendation,
            "No allowed lateness up to a year reaches 100 % of value."
        );
        assert_eq!(r.set_slider, None);
        assert!(r
            .summary
            .ends_with("(no value column: by value means by events)."));
        // The March log has a value column and says so by saying nothing.
        let (c, f) = at(&settings, &loaded);
        assert!(results("m", &loaded, &c, &f, &settings)
            .summary
            .ends_with("dated in UTC."));
    }

    #[test]
    fn each_month_row_and_figure_states_the_figures() {
        let loaded = march(utc());
        for l in [0, 2, 9] {
            let settings = Settings {
                lateness: Lateness::Days(l),
                ..Settings::default()
            };
            let (c, f) = at(&settings, &loaded);
            let r = results("m", &loaded, &c, &f, &settings);
            assert_eq!(r.months.len(), f.months.len());
            for (row, m) in r.months.iter().zip(&f.months) {
                assert_eq!(row.key, format!("{}-{:02}", m.month.0, m.month.1));
                assert_eq!(row.events, thousands(m.total.count));
                assert_eq!(row.by_value, percent(m.value_bp));
                assert_eq!(row.close, close_text(m, settings.close_day));
            }
            let [complete, open, close] = &r.figures;
            assert_eq!(complete.big, percent(f.value_bp));
            assert!(complete.line.ends_with(&format!(
                "{} arrive after their day is final.",
                counted(f.after_final.count, "event")
            )));
            assert_eq!(open.big, counted(l + 1, "partition"));
            let last = f.months.last().expect("a month");
            let said = if last.on_time() {
                ", on time"
            } else {
                ", late"
            };
            assert!(close.big.ends_with(said), "{}", close.big);
        }
    }

    #[test]
    fn a_close_date_is_marked_by_the_rule_it_meets_or_misses() {
        let mut m = MonthFigures {
            month: (2026, 3),
            total: Default::default(),
            complete: Default::default(),
            count_bp: 0,
            value_bp: 0,
            final_at: None,
            close_on: Some(date(2026, 4, 2)),
            deadline: Some(date(2026, 4, 3)),
        };
        assert_eq!(
            close_text(&m, 3),
            "Thu 2 Apr, within the rule (3rd business day: Fri 3 Apr)"
        );
        m.close_on = Some(date(2026, 4, 6));
        assert!(close_text(&m, 3).starts_with("Mon 6 Apr, after the rule"));
        m.close_on = None;
        assert_eq!(close_text(&m, 3), "never: nothing is ever final");
    }

    #[test]
    fn rows_left_out_are_counted_by_why_and_shown_by_line() {
        let loaded = march(utc());
        let settings = Settings::default();
        let (c, f) = at(&settings, &loaded);
        let out = results("m", &loaded, &c, &f, &settings)
            .left_out
            .expect("two rows were left out");
        assert_eq!(out.heading, "2 rows left out");
        assert_eq!(out.reasons.len(), loaded.bad.by_problem().len());
        let said: u64 = out
            .reasons
            .iter()
            .map(|r| {
                r.split(' ')
                    .next()
                    .unwrap_or("")
                    .parse::<u64>()
                    .unwrap_or(0)
            })
            .sum();
        assert_eq!(said, loaded.bad.total());
        assert_eq!(out.examples.len(), loaded.bad.examples.len());
        assert_eq!(
            out.caption,
            "The 2 rows left out, by line (the header is line 1)"
        );
        // The header is line 1: the rows left out are the last two.
        let lines: Vec<&str> = out.examples.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(lines, ["170", "171"]);
    }

    #[test]
    fn late_events_are_lost_only_when_dropped_and_booked_where_adjusted() {
        let loaded = march(utc());
        for after in [AfterPolicy::Drop, AfterPolicy::Adjust] {
            let settings = Settings {
                lateness: Lateness::Days(1),
                after,
                ..Settings::default()
            };
            let (_, f) = at(&settings, &loaded);
            assert!(f.after_final.count > 1);
            let said = late(&loaded, &f, &settings);
            assert!(said.sentence.contains(&format!(
                "arrive after their day is final and are {}.",
                policy_name(after)
            )));
            assert_eq!(said.lost.is_some(), after == AfterPolicy::Drop);
            match &said.report {
                None => assert_eq!(after, AfterPolicy::Drop),
                Some(lines) => {
                    // Every event is on a line: its day's partition or an adjustment.
                    let events: u64 = lines
                        .iter()
                        .map(|l| l.events.replace(',', "").parse::<u64>().unwrap_or(0))
                        .sum();
                    assert_eq!(events, f.complete.count + f.after_final.count);
                    // In month order, each month's partitions before its adjustments.
                    let mut order: Vec<Month> = f.months.iter().map(|m| m.month).collect();
                    order.extend(f.adjustments_by_month.iter().map(|(m, _)| *m));
                    crate::lean::order::sort(&mut order);
                    order.dedup();
                    let rank = |l: &ReportLine| {
                        let month = order.iter().position(|m| month_name(*m) == l.month);
                        (month, l.line != "final daily partitions")
                    };
                    assert!(lines.windows(2).all(|w| rank(&w[0]) < rank(&w[1])));
                    assert!(lines.iter().any(|l| l.month == "Apr 2026"));
                    assert_eq!(lines.len(), f.months.len() + f.adjustments_by_month.len());
                }
            }
            let (lead, examples) = said.examples.expect("late rows to show");
            assert_eq!(lead, "For example (times in UTC):");
            assert!(examples.len() <= 4 && !examples.is_empty());
            for e in &examples {
                // Each needed more than the allowed day.
                assert!(super::super::late::tests::needed_days(e) > 1, "{e}");
            }
        }
        let settings = Settings {
            lateness: Lateness::Never,
            after: AfterPolicy::Drop,
            ..Settings::default()
        };
        let (_, f) = at(&settings, &loaded);
        let said = late(&loaded, &f, &settings);
        assert!(said.sentence.starts_with("Nothing is ever final"));
        assert_eq!((said.lost, said.report, said.examples), (None, None, None));
    }

    #[test]
    fn one_late_event_is() {
        let mut csv = String::from("event_time,arrival_time\n");
        csv.push_str("2026-03-01T10:00:00Z,2026-03-01T11:00:00Z\n");
        csv.push_str("2026-03-01T10:00:00Z,2026-03-09T11:00:00Z\n");
        let mut reader = LogReader::with(None, utc());
        reader.feed(csv.as_bytes()).expect("read");
        let loaded = reader.finish().expect("a log");
        let settings = Settings {
            after: AfterPolicy::Drop,
            ..Settings::default()
        };
        let (_, f) = at(&settings, &loaded);
        let said = late(&loaded, &f, &settings);
        assert_eq!(
            said.sentence,
            "1 event arrives after its day is final and is dropped."
        );
        assert_eq!(
            said.lost.as_deref(),
            Some("Lost: 1 event never reaches any report, and nothing tells finance.")
        );
        assert_eq!(said.examples.map(|e| e.1.len()), Some(1));
    }

    #[test]
    fn a_run_time_the_clocks_skip_or_repeat_is_said_on_its_days() {
        let berlin = Zone::named("Europe/Berlin").expect("a zone");
        let run = NaiveTime::from_hms_opt(2, 30, 0).expect("a time");
        let spring = run_days(Some((date(2026, 3, 20), date(2026, 3, 31))), berlin, run);
        assert_eq!(
            spring,
            " (in your data's days, on Sun 29 Mar the clocks skip 02:30, so it runs at 03:30)"
        );
        let autumn = run_days(Some((date(2026, 10, 20), date(2026, 10, 26))), berlin, run);
        assert_eq!(
            autumn,
            " (in your data's days, on Sun 25 Oct 02:30 happens twice, and it runs at the first)"
        );
        // The last day is rebuilt up to 1 + MAX_DAYS days after it (the
        // slider's most): 14 Mar by the run of the 29th, 13 Mar no longer.
        let before = run_days(Some((date(2026, 3, 1), date(2026, 3, 14))), berlin, run);
        assert!(before.contains("29 Mar"));
        assert_eq!(
            run_days(Some((date(2026, 3, 1), date(2026, 3, 13))), berlin, run),
            ""
        );
        assert_eq!(
            run_days(Some((date(2026, 3, 20), date(2026, 3, 31))), utc(), run),
            ""
        );
        assert_eq!(run_days(None, berlin, run), "");
        // 04:00 is never skipped nor repeated in Berlin.
        let four = NaiveTime::from_hms_opt(4, 0, 0).expect("a time");
        assert_eq!(
            run_days(Some((date(2026, 3, 20), date(2026, 10, 31))), berlin, four),
            ""
        );
    }

    #[test]
    fn the_columns_picked_are_read_by_name_or_refused_in_words() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let guess = Mapping::guess(&names(&["id", "event_time", "arrival_time", "value"]));
        let choice = ColumnChoice::of(
            names(&["id", "event_time", "arrival_time", "value"]),
            guess.as_ref(),
        );
        assert_eq!(
            (choice.event, choice.arrival, choice.value),
            (Some(1), Some(2), Some(3))
        );
        assert_eq!(choice.mapping(), Ok(guess.expect("guessed")));

        let mut c = ColumnChoice::of(names(&["a", "b", "", "B "]), None);
        assert_eq!((c.event, c.arrival, c.value), (None, None, None));
        assert!(c.mapping().unwrap_err().starts_with("Choose the columns"));
        c.event = Some(0);
        c.arrival = Some(0);
        assert!(c
            .mapping()
            .unwrap_err()
            .contains("must be different columns"));
        c.arrival = Some(2);
        assert!(c.mapping().unwrap_err().starts_with("Column 3 has no name"));
        c.arrival = Some(1);
        assert!(c
            .mapping()
            .unwrap_err()
            .starts_with("The header row names 2 columns \"b\""));
        c.names[3] = "c".to_string();
        c.value = Some(0);
        assert!(c
            .mapping()
            .unwrap_err()
            .contains("must not be one of the time columns"));
        c.value = Some(3);
        assert_eq!(
            c.mapping(),
            Ok(Mapping {
                event: "a".to_string(),
                arrival: "b".to_string(),
                value: Some("c".to_string()),
            })
        );
        assert_eq!(c.shown(2), "(column 3, unnamed)");
        assert_eq!(c.shown(0), "a");
    }

    /// A log of `rows` events of 2 Mar 10:00 UTC, one in `late_every`
    /// arriving four days later, and `bad` unreadable rows.
    fn log_of(rows: u32, late_every: u32, bad: u32) -> Loaded {
        let mut csv = String::from("event_time,arrival_time\n");
        for i in 0..rows {
            let day = if i % late_every == 0 { 6 } else { 2 };
            csv.push_str(&format!("2026-03-02T10:00:00Z,2026-03-0{day}T11:00:00Z\n"));
        }
        for _ in 0..bad {
            csv.push_str("nonsense,2026-03-02T11:00:00Z\n");
        }
        let mut reader = LogReader::with(None, utc());
        reader.feed(csv.as_bytes()).expect("read");
        reader.finish().expect("a log")
    }

    #[test]
    fn counts_are_grouped_and_one_is_singular() {
        let settings = Settings::default();
        // 1,200 events, one late: "1 event arrives after its day is final."
        let loaded = log_of(1_200, 1_200, 7);
        let (c, f) = at(&settings, &loaded);
        assert_eq!(f.after_final.count, 1);
        let r = results("big.csv", &loaded, &c, &f, &settings);
        assert!(r
            .summary
            .starts_with("Based on 1,200 of the 1,207 rows in big.csv"));
        assert_eq!(
            r.figures[0].line,
            format!(
                "of the value reaches its own day before the day is final; {} of events (1,199 of 1,200). 1 event arrives after its day is final.",
                percent(f.count_bp)
            )
        );
        let out = r.left_out.expect("rows left out");
        assert_eq!(out.heading, "7 rows left out");
        assert_eq!(out.reasons, ["7 rows: event_time is not an ISO 8601 time"]);
        // Fewer shown than left out: the caption says of how many.
        assert_eq!(
            out.caption,
            format!(
                "The first {} of the 7 rows left out, by line (the header is line 1)",
                out.examples.len()
            )
        );
        assert!(out.examples.len() < 7);
        assert_eq!(
            histogram_about("big.csv", &loaded),
            "1,200 events in big.csv, by delay between happening and arriving."
        );
        // One row left out is "the row".
        let one = log_of(3, 2, 1);
        let (c, f) = at(&settings, &one);
        let out = results("x", &one, &c, &f, &settings).left_out.expect("one");
        assert_eq!(out.heading, "1 row left out");
        assert_eq!(
            out.caption,
            "The row left out, by line (the header is line 1)"
        );
        assert_eq!(rows_read(1, 100), "1 row read (100 %)");
        assert_eq!(rows_read(12_345, 40), "12,345 rows read (40 %)");
    }

    #[test]
    fn a_file_with_no_usable_row_says_why_row_by_row() {
        let mut reader = LogReader::with(None, utc());
        reader
            .feed(b"event_time,arrival_time\nnonsense,2026-03-02T11:00:00Z\n2026-03-02T10:00:00Z,2026-03-01T10:00:00Z\n2026-03-02T10:00:00Z,2026-03-01T10:00:00Z\n")
            .expect("read");
        let e = reader.finish().expect_err("no usable row");
        let said = describe(&e);
        assert!(said.starts_with(&e.to_string()), "{said}");
        assert!(
            said.contains("1 row: event_time is not an ISO 8601 time"),
            "{said}"
        );
        assert!(
            said.contains("2 rows: arrival_time is before event_time"),
            "{said}"
        );
        assert!(said.ends_with('.'));
    }

    #[test]
    fn the_picker_asks_until_the_file_is_read_with_its_columns() {
        assert_eq!(
            picker_status("a.csv", false),
            "Which of a.csv's columns hold the event time and the arrival time? Choose them, then read the file."
        );
        assert!(picker_status("a.csv", true).starts_with("a.csv was read with the columns below"));
        assert_eq!(
            not_read("a.csv", UNREADABLE, ""),
            "a.csv could not be read: the browser could not read the file."
        );
        let no_row = crate::labs::lateness::arrival_csv::HeaderProblem::NoWholeRow.to_string();
        assert_eq!(
            not_read("a.csv", &no_row, ""),
            "a.csv could not be read: its first 1 MB holds no whole row to name its columns."
        );
    }

    #[test]
    fn a_stopped_or_failed_read_says_what_the_page_still_shows() {
        assert_eq!(still_shown(None), "");
        assert_eq!(stopped(""), "Reading stopped. No data has been read yet.");
        let still = still_shown(Some(("a.csv", utc())));
        assert_eq!(
            stopped(&still),
            "Reading stopped. The figures below are still those of a.csv, dated in UTC."
        );
        assert_eq!(
            not_read("b.csv", "row 3 is too long.", &still),
            "b.csv could not be read: row 3 is too long. The figures below are still those of a.csv, dated in UTC."
        );
    }

    #[test]
    fn ordinals_days_and_months_are_spelled_out() {
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
        assert_eq!(month_name((2028, 2)), "Feb 2028");
        assert_eq!(days_text(1), "1 day");
        assert_eq!(days_text(0), "0 days");
    }
}
