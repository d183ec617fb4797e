//! The check beside the drift query: each day's rows in silver counted
//! against bronze. The drift query compares totals of the rows silver
//! holds, so an order silver never got is invisible to it; counting rows
//! finds it, and the script says why it was never read.

use crate::engine::calendar::{day_month, weekday_day_month_time, Day};
use crate::engine::drift::{row_counts, CountRow};
use crate::engine::money::Money;

use super::case::{aug, Case};

/// A day whose counts differ, with each missing order in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortDay {
    pub dt: Day,
    pub bronze: usize,
    pub silver: usize,
    pub missing: Vec<String>,
    /// Silver rows bronze no longer holds, and why in words.
    pub extra: usize,
    pub withdrawn: Option<String>,
}

/// The days whose silver lacks bronze rows, and how many days matched.
pub fn short_days(case: &Case) -> (Vec<ShortDay>, usize) {
    let counts = row_counts(&case.silver, &case.truth, aug(1));
    let whole = |c: &CountRow| c.missing.is_empty() && c.extra.is_empty();
    let matched = counts.iter().filter(|c| whole(c)).count();
    let short = counts
        .into_iter()
        .filter(|c| !whole(c))
        .map(|c| words(case, c))
        .collect();
    (short, matched)
}

/// "120 orders (£3,140.22) are in silver and no longer in bronze: the
/// source withdrew them Thu 13 Aug 16:00, after the run for 9 Aug had
/// built the day." The instant is each bronze row's own.
fn withdrawn_words(case: &Case, c: &CountRow) -> Option<String> {
    if c.extra.is_empty() {
        return None;
    }
    let pence: i64 = c.extra.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
    let when: Vec<_> = c
        .extra
        .iter()
        .filter_map(|r| case.script.events.iter().find(|e| e.id == r.id))
        .map(|e| e.withdrawn_at)
        .collect();
    let n = c.extra.len();
    let them = if n == 1 { "it" } else { "them" };
    let how = match when.first() {
        Some(Some(one)) if when.len() == n && when.iter().all(|w| w == &Some(*one)) => {
            format!(
                "the source withdrew {them} {}",
                weekday_day_month_time(*one)
            )
        }
        _ => format!("bronze does not hold {them}"),
    };
    Some(format!(
        "{} ({}) {} in silver and no longer in bronze: {how}, after the daily run had built {}. A rebuild must leave the day empty.",
        crate::counted::counted(n, "order"),
        Money::gbp(pence).grouped(),
        if n == 1 { "is" } else { "are" },
        day_month(c.dt)
    ))
}

/// "o-0803-0117 (£48.20) arrived Tue 4 Aug 02:41, after the run for 3 Aug
/// (Tue 4 Aug 02:00) had built the day": the run is the script's own.
fn words(case: &Case, c: CountRow) -> ShortDay {
    let run = case
        .script
        .runs
        .iter()
        .filter(|r| r.day == c.dt)
        .map(|r| r.at)
        .min();
    let missing = c
        .missing
        .iter()
        .map(|row| {
            let value = row.gbp.map(|m| Money::gbp(m.minor).grouped()).unwrap_or_default();
            match run {
                Some(at) if row.arrived_at > at => format!(
                    "{} ({value}) arrived {}, after the run for {} ({}) had built the day; that run reads each day once.",
                    row.id,
                    weekday_day_month_time(row.arrived_at),
                    day_month(c.dt),
                    weekday_day_month_time(at)
                ),
                _ => format!(
                    "{} ({value}) arrived {} and is not in silver.",
                    row.id,
                    weekday_day_month_time(row.arrived_at)
                ),
            }
        })
        .collect();
    ShortDay {
        extra: c.extra.len(),
        withdrawn: withdrawn_words(case, &c),
        dt: c.dt,
        bronze: c.bronze,
        silver: c.silver,
        missing,
    }
}

/// The counts table's caption: it shows only the days that differ.
pub fn caption(matched: usize) -> String {
    let rest = match matched {
        0 => "every day differs".to_string(),
        1 => "the other day matches".to_string(),
        n => format!("the other {n} days match"),
    };
    format!("Rows per day, silver against bronze: the days that differ ({rest})")
}

/// What the row counts add to the drift query, in words: the orders
/// silver never got, and those it holds that bronze no longer has.
pub fn lede(short: &[ShortDay]) -> String {
    let lost: usize = short.iter().map(|d| d.missing.len()).sum();
    let extra: usize = short.iter().map(|d| d.extra).sum();
    let mut lede = if lost == 0 {
        "Counted against bronze, no day lacks a row: the drift query saw every order bronze has."
            .to_string()
    } else {
        format!(
            "The drift query compares the rows silver holds; an order that never reached silver is in neither of its columns. Counting each day's rows against bronze, the check most teams lack, finds {}. The backfill rebuilds each day whole from bronze, so it brings them in too, and the restatement says which part of each change is which.",
            crate::counted::counted(lost, "such order")
        )
    };
    if extra > 0 {
        lede.push_str(&format!(
            " The counts also find {} silver holds that bronze no longer has: the drift query cannot tell a withdrawn order from a real one.",
            crate::counted::counted(extra, "order")
        ));
    }
    lede
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lab's August: three orders arrived after the one run that reads
    /// their day, and each is in bronze and missing from silver.
    #[test]
    fn the_orders_silver_lacks_arrived_after_the_run_that_built_their_day() {
        let case = Case::new();
        let (short, matched) = short_days(&case);
        assert_eq!(short.len() + matched, 13);
        let missing: usize = short.iter().map(|d| d.bronze - d.silver).sum();
        assert_eq!(
            missing,
            short.iter().map(|d| d.missing.len()).sum::<usize>()
        );
        assert!(missing > 0);
        for day in &short {
            let run = case
                .script
                .runs
                .iter()
                .find(|r| r.day == day.dt)
                .expect("a run");
            for row in case.truth.partition(day.dt) {
                let in_silver = case.silver.partition(day.dt).iter().any(|s| s.id == row.id);
                // Missing exactly when it arrived after its day's run.
                assert_eq!(!in_silver, row.arrived_at > run.at, "{}", row.id);
            }
            assert!(
                day.missing.iter().all(|m| m.contains("after the run for")),
                "{day:?}"
            );
        }
    }

    #[test]
    fn the_caption_says_how_many_days_match() {
        let (_, matched) = short_days(&Case::new());
        assert!(caption(matched).ends_with(&format!("(the other {matched} days match)")));
        assert!(caption(1).ends_with("(the other day matches)"));
        assert!(caption(0).ends_with("(every day differs)"));
    }

    #[test]
    fn the_lede_counts_what_the_drift_query_cannot_see() {
        let case = Case::new();
        let (short, _) = short_days(&case);
        let lost: usize = short.iter().map(|d| d.missing.len()).sum();
        let said = lede(&short);
        assert!(said.contains(&format!(
            "finds {}.",
            crate::counted::counted(lost, "such order")
        )));
        assert!(lede(&[]).starts_with("Counted against bronze, no day lacks a row"));
        let withdrawn = ShortDay {
            dt: aug(9),
            bronze: 10,
            silver: 12,
            missing: Vec::new(),
            extra: 2,
            withdrawn: None,
        };
        let said = lede(&[withdrawn]);
        assert!(said.starts_with("Counted against bronze, no day lacks a row"));
        assert!(said.ends_with("also find 2 orders silver holds that bronze no longer has: the drift query cannot tell a withdrawn order from a real one."));
    }
}
