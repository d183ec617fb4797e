//! A scenario's saved progress, as the list page shows it. Stored as a
//! short text ("passed", "failing:R1,R3", "structural") so a damaged value
//! is easy to recognise and report.

use crate::scenarios::grading::report::Report;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    NotStarted,
    /// Checked, and the design did not compile.
    Structural,
    Failing(Vec<String>),
    Passed,
    /// Something is saved but it is not a progress value.
    Unreadable,
}

impl Progress {
    pub fn of(report: &Report) -> Self {
        match report {
            Report::Structural(_) => Progress::Structural,
            r if r.passed() => Progress::Passed,
            r => Progress::Failing(r.failed().iter().map(|id| id.to_string()).collect()),
        }
    }

    pub fn to_text(&self) -> String {
        match self {
            Progress::NotStarted | Progress::Unreadable => String::new(),
            Progress::Structural => "structural".to_string(),
            Progress::Failing(rules) => format!("failing:{}", rules.join(",")),
            Progress::Passed => "passed".to_string(),
        }
    }

    pub fn parse(text: Option<&str>) -> Self {
        let Some(text) = text else {
            return Progress::NotStarted;
        };
        match text {
            "" => Progress::NotStarted,
            "passed" => Progress::Passed,
            "structural" => Progress::Structural,
            _ => match text.strip_prefix("failing:") {
                Some(rules)
                    if !rules.is_empty()
                        && rules.split(',').all(|r| {
                            r.len() <= 3 && r.starts_with('R') && r[1..].parse::<u8>().is_ok()
                        }) =>
                {
                    Progress::Failing(rules.split(',').map(str::to_string).collect())
                }
                _ => Progress::Unreadable,
            },
        }
    }

    /// The list page's words for it (never colour alone).
    pub fn label(&self) -> String {
        match self {
            Progress::NotStarted => "Not started".to_string(),
            Progress::Structural => "Checked: the design has structural problems".to_string(),
            Progress::Failing(rules) => format!("Failing {}", rules.join(", ")),
            Progress::Passed => "Passed".to_string(),
            Progress::Unreadable => "Saved progress could not be read".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_and_rejects_junk() {
        for p in [
            Progress::Passed,
            Progress::Structural,
            Progress::Failing(vec!["R1".into(), "R3".into()]),
        ] {
            assert_eq!(Progress::parse(Some(&p.to_text())), p);
        }
        assert_eq!(Progress::parse(None), Progress::NotStarted);
        for junk in [
            "failing:",
            "failing:X1",
            "{\"a\":1}",
            "PASSED",
            "failing:R1,,R2",
            "failing:R",
        ] {
            assert_eq!(Progress::parse(Some(junk)), Progress::Unreadable, "{junk}");
        }
    }
}
