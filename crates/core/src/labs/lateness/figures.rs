//! The words of the lab's three figures that move with the slider
//! (complete, open each night, August closes), decided from the engine's
//! figures so the components only draw them.

use crate::counted::counted;
use crate::engine::calendar::{weekday_day_month, weekday_day_month_time, Day};
use crate::engine::lateness::{percent, Lateness, LatenessFigures};
use crate::engine::money::thousands;

/// "3 partitions": the open-each-night figure.
pub fn open_text(f: &LatenessFigures) -> String {
    open_words(f.open_partitions)
}

/// The open-each-night figure for `open` partitions, `None` when nothing
/// is ever final (a user's log says it the same way).
pub fn open_words(open: Option<u32>) -> String {
    open.map_or_else(|| "all of them".to_string(), |n| counted(n, "partition"))
}

/// "Thu 3 Sep, on time": the close figure, and what it means for the
/// deadline in words (a mark beside it would read as "all is well", even
/// beside a month that is far from complete).
pub fn close_text(f: &LatenessFigures) -> String {
    close_words(f.close_on, f.on_time())
}

/// The close figure for a close on `close_on`, marked by the rule it
/// meets or misses (a user's log says it the same way).
pub fn close_words(close_on: Option<Day>, on_time: bool) -> String {
    match (close_on, on_time) {
        (None, _) => "never".to_string(),
        (Some(day), true) => format!("{}, on time", weekday_day_month(day)),
        (Some(day), false) => format!("{}, late", weekday_day_month(day)),
    }
}

/// After the complete figure: the same by events, of `total` events.
pub fn complete_line(f: &LatenessFigures, total: u64) -> String {
    format!(
        "{} of events ({} of {}).",
        percent(f.complete_count_bp),
        thousands(f.complete.count),
        thousands(total)
    )
}

/// Under the open figure: which days a late row can still change.
pub fn open_line(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(0) => "Only yesterday is still open: a late row can change it until tonight's run, after which it is final. A partition-list run rebuilds it each night; a watermark run writes only the partitions its new rows fall in.".to_string(),
        Lateness::Days(l) => format!("Yesterday and the {} before it are still open: a late row can still change them. A partition-list run rebuilds all of them each night; a watermark run writes only the partitions its new rows fall in.", counted(l, "day")),
        Lateness::Never => "Nothing is ever final, so every run has to rebuild every day it has built so far.".to_string(),
    }
}

/// After an on-time close, what it is worth when the month is far from
/// whole: on time says when, not how much.
fn incomplete(f: &LatenessFigures) -> String {
    if f.complete_value_bp >= 9_900 {
        return String::new();
    }
    format!(
        " But only {} of August's value is in its own days by then.",
        percent(f.complete_value_bp)
    )
}

/// Under the close figure: when 31 Aug is final against the deadline.
pub fn close_line(f: &LatenessFigures) -> String {
    let deadline = f.deadline.map(weekday_day_month).unwrap_or_default();
    match (f.close_on, f.last_final_at) {
        (Some(close), Some(final_at)) if f.on_time() => format!(
            "On time for the deadline ({deadline}, the 3rd business day): 31 Aug is final after the run at {}, so finance can close on {}.{}",
            weekday_day_month_time(final_at),
            weekday_day_month(close),
            incomplete(f),
        ),
        (Some(_), Some(final_at)) => format!(
            "Late: 31 Aug is only final after the run at {}, {} after the deadline ({deadline}).",
            weekday_day_month_time(final_at),
            counted(f.business_days_late().unwrap_or(0), "business day"),
        ),
        _ => format!("With no finalisation any later event can still change August, so finance can never sign it off (deadline {deadline})."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::lateness::{study, Profile};

    #[test]
    fn each_figure_says_what_its_numbers_are() {
        let s = study(Profile::default());
        for lateness in (0..=14).map(Lateness::Days).chain([Lateness::Never]) {
            let f = s.figures(lateness);
            match lateness {
                Lateness::Days(l) => {
                    assert_eq!(open_text(&f), counted(l + 1, "partition"));
                    assert_eq!(f.open_partitions, Some(l + 1));
                }
                Lateness::Never => assert_eq!(open_text(&f), "all of them"),
            }
            let close = close_text(&f);
            let line = close_line(&f);
            match (f.close_on, f.on_time()) {
                (None, _) => {
                    assert_eq!(close, "never");
                    assert!(line.starts_with("With no finalisation"));
                }
                (Some(day), true) => {
                    assert_eq!(close, format!("{}, on time", weekday_day_month(day)));
                    assert!(line.starts_with("On time for the deadline"));
                    assert!(line.contains(&format!("close on {}.", weekday_day_month(day))));
                    assert_eq!(
                        line.contains("But only"),
                        f.complete_value_bp < 9_900,
                        "{line}"
                    );
                }
                (Some(day), false) => {
                    assert_eq!(close, format!("{}, late", weekday_day_month(day)));
                    let late = f.business_days_late().expect("late");
                    assert!(late > 0);
                    assert!(line.contains(&format!(
                        "{} after the deadline",
                        counted(late, "business day")
                    )));
                }
            }
            let complete = complete_line(&f, s.total.count);
            assert!(complete.starts_with(&percent(f.complete_count_bp)));
            assert!(complete.ends_with(&format!("of {}).", thousands(s.total.count))));
        }
        // Both sides of the deadline occur across the slider.
        let marks: Vec<bool> = (0..=14)
            .map(|l| s.figures(Lateness::Days(l)).on_time())
            .collect();
        assert!(marks.contains(&true) && marks.contains(&false));
    }

    #[test]
    fn the_open_line_counts_the_days_before_yesterday() {
        assert!(open_line(Lateness::Days(0)).starts_with("Only yesterday"));
        assert!(open_line(Lateness::Days(1)).starts_with("Yesterday and the 1 day before it"));
        assert!(open_line(Lateness::Days(7)).starts_with("Yesterday and the 7 days before it"));
        assert!(open_line(Lateness::Never).starts_with("Nothing is ever final"));
    }
}
