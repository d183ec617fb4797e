//! The student's prediction of the ship date, checked against the drift
//! query. Only the data decides: the verdict names the query's first row.

use crate::engine::calendar::{day_month, Day};
use crate::vocabulary::Choice;

use super::case::PlanStart;

/// What the page says once the drift query has run. `radius` is the
/// query's answer: the days more than a penny out, in order.
pub fn verdict(radius: &[Day], guess: Option<PlanStart>) -> String {
    let (Some(first), Some(last)) = (radius.first().copied(), radius.last().copied()) else {
        return "The drift query finds no partition more than a penny out.".to_string();
    };
    let truth = format!(
        "The drift query's first row is {}: the broken code built every partition from {} to {}.",
        day_month(first),
        day_month(first),
        day_month(last)
    );
    match guess {
        Some(g) if g.day() == first => format!("✓ Right: you said {}. {truth}", g.label()),
        Some(g) => {
            let missed = match g.day().pred_opt() {
                Some(before) if first < g.day() => format!(
                    " A plan that started from your guess would leave {} to {} wrong.",
                    day_month(first),
                    day_month(before)
                ),
                _ => String::new(),
            };
            format!("✗ Not this time: you said {}. {truth}{missed}", g.label())
        }
        None => format!("Prediction skipped. {truth}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::Case;

    #[test]
    fn the_verdict_follows_the_data_and_names_what_a_late_guess_misses() {
        let radius = Case::new().blast_radius();
        let right = verdict(&radius, Some(PlanStart::Third));
        assert!(right.starts_with("✓ Right: you said the 3rd."), "{right}");
        assert!(right.contains("from 3 Aug to 13 Aug"), "{right}");
        let late = verdict(&radius, Some(PlanStart::Eighth));
        assert!(late.starts_with("✗ Not this time"), "{late}");
        assert!(
            late.ends_with("would leave 3 Aug to 7 Aug wrong."),
            "{late}"
        );
        assert!(verdict(&radius, None).starts_with("Prediction skipped."));
        assert!(verdict(&[], None).contains("no partition"));
    }
}
