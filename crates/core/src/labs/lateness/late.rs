//! The words for the events of the lab's own month that miss their day:
//! what becomes of them, the nearest misses, and the finance report's
//! lines, decided here so the component only draws them.

use crate::counted::counted;
use crate::engine::calendar::weekday_day_month_time;
use crate::engine::lateness::{Lateness, LatenessFigures, LatenessStudy};
use crate::engine::Money;

use super::{late_sentence, AfterPolicy};

/// Said instead of everything below when no partition is ever final.
pub const NEVER_FINAL: &str =
    "Nothing is ever final, so no event misses its day, and nothing is ever closed either.";

/// The late events of the month at one allowed lateness and policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Late {
    pub sentence: String,
    /// Said as an alarm when dropping loses something.
    pub lost: Option<String>,
    /// The report's lines under adjustments: August's final partitions,
    /// then each later month's adjustments for August days.
    pub report: Option<Vec<ReportRow>>,
    /// The nearest misses, one sentence each.
    pub examples: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReportRow {
    pub month: &'static str,
    pub line: String,
    pub amount: String,
}

/// How many of the nearest misses the page shows.
pub const EXAMPLES: usize = 4;

/// `None` when nothing is ever final (`NEVER_FINAL` says why).
pub fn late(study: &LatenessStudy, f: &LatenessFigures, policy: AfterPolicy) -> Option<Late> {
    let Lateness::Days(l) = f.lateness else {
        return None;
    };
    let missed = f.after_final;
    let value = Money::gbp(missed.value).grouped();
    let lost = (policy == AfterPolicy::Drop && missed.count > 0)
        .then(|| format!("Lost: {value} never reaches any report, and nothing tells finance."));
    let report = (policy == AfterPolicy::Adjust).then(|| {
        std::iter::once(ReportRow {
            month: "August",
            line: "final daily partitions".to_string(),
            amount: Money::gbp(f.complete.value).grouped(),
        })
        .chain(
            f.adjustments_by_month
                .iter()
                .map(|((_, month), tally)| ReportRow {
                    month: month_name(*month),
                    line: format!(
                        "adjustments for earlier August days ({})",
                        counted(tally.count, "event")
                    ),
                    amount: Money::gbp(tally.value).grouped(),
                }),
        )
        .collect()
    });
    let examples = study
        .missed_examples(l, EXAMPLES)
        .into_iter()
        .map(|e| {
            format!(
                "{} ({}) happened {}, arrived {}: needed {} of lateness.",
                e.id,
                Money::gbp(e.value).grouped(),
                weekday_day_month_time(e.event_time),
                weekday_day_month_time(e.arrived_at),
                counted(e.needed, "day"),
            )
        })
        .collect();
    Some(Late {
        sentence: late_sentence(missed.count, &format!(" worth {value}"), policy),
        lost,
        report,
        examples,
    })
}

/// The month an adjustment is booked in: August's are in the months after.
fn month_name(month: u32) -> &'static str {
    match month {
        8 => "August",
        9 => "September",
        10 => "October",
        _ => "a later month",
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::labs::lateness::{study, Profile};

    /// The days an example line says the event needed ("needed 3 days").
    pub(in crate::labs::lateness) fn needed_days(example: &str) -> u32 {
        example
            .rsplit("needed ")
            .next()
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a number of days")
    }

    #[test]
    fn dropped_events_are_lost_and_adjusted_ones_are_booked_in_later_months() {
        let s = study(Profile::Mobile);
        let f = s.figures(Lateness::Days(1));
        assert!(f.after_final.count > 1);
        let dropped = late(&s, &f, AfterPolicy::Drop).expect("final days");
        assert!(dropped
            .sentence
            .ends_with("arrive after their day is final and are dropped."));
        assert_eq!(
            dropped.lost,
            Some(format!(
                "Lost: {} never reaches any report, and nothing tells finance.",
                Money::gbp(f.after_final.value).grouped()
            ))
        );
        assert_eq!(dropped.report, None);
        let booked = late(&s, &f, AfterPolicy::Adjust).expect("final days");
        assert_eq!(booked.lost, None);
        let rows = booked.report.expect("a report");
        assert_eq!(rows[0].month, "August");
        assert_eq!(rows[0].line, "final daily partitions");
        // Every late event is on an adjustments line, booked in the month
        // it arrived: August's own late days too, then the months after.
        let counted_events: u64 = f.adjustments_by_month.iter().map(|(_, t)| t.count).sum();
        assert_eq!(counted_events, f.after_final.count);
        assert_eq!(rows.len(), 1 + f.adjustments_by_month.len());
        for (row, ((_, month), _)) in rows[1..].iter().zip(&f.adjustments_by_month) {
            assert_eq!(row.month, month_name(*month));
            assert!(row
                .line
                .starts_with("adjustments for earlier August days ("));
        }
        assert!(rows[1..].iter().any(|r| r.month == "September"));
        // The nearest misses each needed more than the allowed day.
        assert_eq!(booked.examples.len(), EXAMPLES);
        for e in &booked.examples {
            assert!(needed_days(e) > 1, "{e}");
        }
    }

    #[test]
    fn with_nothing_late_nothing_is_lost_and_never_final_says_so() {
        let s = study(Profile::Web);
        let full = (0..=14)
            .map(Lateness::Days)
            .map(|l| s.figures(l))
            .find(|f| f.after_final.count == 0)
            .expect("a lateness that covers the web profile");
        let said = late(&s, &full, AfterPolicy::Drop).expect("final days");
        assert_eq!(said.lost, None);
        assert!(said.examples.is_empty());
        assert!(said.sentence.starts_with("0 events worth £0.00 arrive"));
        assert_eq!(
            late(&s, &s.figures(Lateness::Never), AfterPolicy::Drop),
            None
        );
    }
}
