//! The student's prediction of the ship date, checked against the drift
//! query. Only the data decides: the verdict names the query's first row.

use crate::engine::calendar::{day_month, Day};

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

/// The warning beside the drift query's result: recomputing without
/// rounding each row flags days that are fine. `naive` is what that
/// shortcut flags (`engine::drift::naive_flags`), `radius` the query's
/// answer; the days only the shortcut flags are named.
pub fn shortcut(radius: &[Day], naive: &[Day]) -> String {
    let correct: Vec<String> = naive
        .iter()
        .filter(|d| !radius.contains(d))
        .map(|d| day_month(*d))
        .collect();
    let are = if correct.len() == 1 { "is" } else { "are" };
    if correct.is_empty() {
        "Recomputing as SUM(raw * rate), without rounding each row, would compare unrounded sums with rounded ones: on busier days those fractions of a penny add up past the threshold and flag days that are fine.".to_string()
    } else {
        format!(
            "Beware the shortcut SUM(raw * rate) without rounding each row: its fractions of a penny add up, and on this data it would also flag {}, which {are} correct.",
            crate::counted::listed(&correct)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::Case;

    #[test]
    fn the_verdict_follows_the_data_and_names_what_a_late_guess_misses() {
        let radius = Case::new().blast_radius();
        let right = verdict(
            &radius,
            Some(crate::labs::backfill::case::August::CHAPTER.ship),
        );
        assert!(right.starts_with("✓ Right: you said the 3rd."), "{right}");
        assert!(right.contains("from 3 Aug to 13 Aug"), "{right}");
        let late = verdict(&radius, Some(PlanStart::EIGHTH));
        assert!(late.starts_with("✗ Not this time"), "{late}");
        assert!(
            late.ends_with("would leave 3 Aug to 7 Aug wrong."),
            "{late}"
        );
        assert!(verdict(&radius, None).starts_with("Prediction skipped."));
        assert!(verdict(&[], None).contains("no partition"));
    }

    #[test]
    fn the_shortcut_names_only_the_days_it_flags_wrongly() {
        use crate::engine::calendar::date;
        let radius = [date(2026, 8, 8), date(2026, 8, 9)];
        let said = shortcut(
            &radius,
            &[date(2026, 8, 4), date(2026, 8, 8), date(2026, 8, 11)],
        );
        assert!(
            said.ends_with("also flag 4 Aug and 11 Aug, which are correct."),
            "{said}"
        );
        let one = shortcut(&radius, &[date(2026, 8, 4)]);
        assert!(one.ends_with("also flag 4 Aug, which is correct."), "{one}");
        let none = shortcut(&radius, &radius);
        assert!(none.starts_with("Recomputing as SUM(raw * rate)"));
        // The lab's August: the shortcut's false days are real ones.
        let case = crate::labs::backfill::Case::new();
        let naive = crate::engine::drift::naive_flags(
            &case.silver,
            &case.script.fx,
            crate::labs::backfill::case::aug(1),
        );
        let radius = case.blast_radius();
        let said = shortcut(&radius, &naive);
        assert!(
            naive.iter().any(|d| !radius.contains(d)),
            "the lab's August shows the shortcut's trap"
        );
        for d in naive.iter().filter(|d| !radius.contains(d)) {
            assert!(said.contains(&day_month(*d)));
        }
    }
}
