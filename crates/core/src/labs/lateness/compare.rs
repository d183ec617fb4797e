//! Presenter mode's side by side: two allowed-lateness settings and, for
//! each figure, what the second changes (the room's question is rarely
//! "what is it at 5 days" but "what do 3 more days buy, and cost").

use crate::engine::calendar::weekday_day_month;
use crate::engine::lateness::{percent, LatenessFigures};

/// One line per figure: how the second setting differs from the first.
pub fn differences(first: &LatenessFigures, second: &LatenessFigures) -> [String; 3] {
    let points = i64::from(second.complete_value_bp) - i64::from(first.complete_value_bp);
    let complete = format!(
        "Complete: {} → {} ({}{}.{:02} points)",
        percent(first.complete_value_bp),
        percent(second.complete_value_bp),
        if points < 0 { "−" } else { "+" },
        points.unsigned_abs() / 100,
        points.unsigned_abs() % 100,
    );
    let open = match (first.open_partitions, second.open_partitions) {
        (Some(a), Some(b)) => {
            let change = i64::from(b) - i64::from(a);
            format!(
                "Open each night: {a} → {b} partitions ({}{})",
                if change < 0 { "−" } else { "+" },
                change.unsigned_abs()
            )
        }
        (a, b) => format!(
            "Open each night: {} → {}",
            a.map_or("all".to_string(), |n| n.to_string()),
            b.map_or("all".to_string(), |n| n.to_string())
        ),
    };
    let close_words = |f: &LatenessFigures| match f.close_on {
        None => "never".to_string(),
        Some(day) => format!(
            "{} {}",
            weekday_day_month(day),
            if f.on_time() { "(on time)" } else { "(late)" }
        ),
    };
    let close = format!(
        "August closes: {} → {}",
        close_words(first),
        close_words(second)
    );
    [complete, open, close]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lateness::Lateness;
    use crate::labs::lateness::{study, Profile};

    #[test]
    fn five_days_against_two_on_the_mobile_profile() {
        let s = study(Profile::Mobile);
        let [complete, open, close] =
            differences(&s.figures(Lateness::Days(2)), &s.figures(Lateness::Days(5)));
        assert_eq!(complete, "Complete: 99.24 % → 99.88 % (+0.64 points)");
        assert_eq!(open, "Open each night: 3 → 6 partitions (+3)");
        assert_eq!(
            close,
            "August closes: Thu 3 Sep (on time) → Mon 7 Sep (late)"
        );
        let [back, fewer, _] =
            differences(&s.figures(Lateness::Days(5)), &s.figures(Lateness::Days(2)));
        assert!(back.ends_with("(−0.64 points)"), "{back}");
        assert!(fewer.ends_with("(−3)"), "{fewer}");
        let [_, never, closes] =
            differences(&s.figures(Lateness::Days(2)), &s.figures(Lateness::Never));
        assert_eq!(never, "Open each night: 3 → all");
        assert!(closes.ends_with("→ never"), "{closes}");
    }
}
