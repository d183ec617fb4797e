//! The six design scenarios, each what its page states
//! (`scenario::Scenario`: its story, numbers and rules) and what runs it
//! (`scenario::Running`: the script the engine replays, each rule's
//! judge), one module each in `stories` (a seventh goes there); the grader,
//! the shrinker and the check's report that take one (`grading`); the
//! designs the lab knows (`catalogue`, `sample`); and a student's record
//! across scenarios (`progress`, and `work`, its one file, with the
//! `student` it belongs to).

pub mod catalogue;
pub mod grading;
pub mod progress;
mod running;
pub mod sample;
pub mod scenario;
pub mod stories;
pub mod student;
pub mod work;

pub use scenario::Scenario;

/// The scenarios in the order the chapter sets them: a new one is added
/// here, beside its own module (and its `Running` in `running`).
pub static SCENARIOS: &[&Scenario] = &[
    &stories::clicks::SCENARIO,
    &stories::orders::SCENARIO,
    &stories::mobile::SCENARIO,
    &stories::currency::SCENARIO,
    &stories::history::SCENARIO,
    &stories::outage::SCENARIO,
];

/// The scenario with this number.
pub fn numbered(number: u8) -> Option<&'static Scenario> {
    SCENARIOS.iter().copied().find(|s| s.number == number)
}

/// The scenario with this URL number, if there is one.
pub fn find(number: &str) -> Option<&'static Scenario> {
    numbered(number.trim().parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_numbered_one_to_six_and_found_by_number() {
        for (i, s) in SCENARIOS.iter().enumerate() {
            assert_eq!(usize::from(s.number), i + 1);
            assert_eq!(find(&s.number.to_string()), Some(*s));
            assert!(s.rule_count() > 0);
            assert_eq!(s.rules().len(), s.rule_count());
        }
        assert_eq!(find("0"), None);
        assert_eq!(find("7"), None);
        assert_eq!(find("x"), None);
        assert_eq!(find("99999999999"), None);
    }

    /// The script is made once: every caller reads the same one.
    #[test]
    fn a_scenario_makes_its_script_once() {
        for s in SCENARIOS {
            let first: *const _ = s.script();
            assert!(std::ptr::eq(first, s.script()));
            assert_eq!(*s.script(), (s.running().make)());
        }
    }

    /// Each scenario finds its own run: its number, a judge for each
    /// rule in the rules' order, and a remade run exactly when a variant
    /// moves it.
    #[test]
    fn every_scenario_runs_and_judges_its_own_rules() {
        use scenario::Judges;
        for s in SCENARIOS {
            let running = s.running();
            assert_eq!(running.number, s.number);
            let ids: Vec<&str> = match running.judges {
                Judges::Daily(judges) => judges.iter().map(|j| j.id).collect(),
                Judges::Backfill { judges, .. } => judges.iter().map(|j| j.id).collect(),
            };
            let rules: Vec<&str> = s.rules().iter().map(|r| r.id).collect();
            assert_eq!(ids, rules, "{s:?}");
            assert_eq!(running.remake.is_some(), s.varies(), "{s:?}");
        }
    }
}
