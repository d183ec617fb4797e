//! Titles and one-line briefs of the five scenarios, in the order the
//! chapter sets them.

/// A scenario as the list page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// 1-based, as in the URL `/scenarios/<number>`.
    pub number: u8,
    pub title: &'static str,
    pub brief: &'static str,
    /// The idea it exercises, as named in the glossary.
    pub idea: &'static str,
    /// The bronze table the scenario gives as the canvas's first node.
    pub source: &'static str,
}

pub const SCENARIOS: [ScenarioInfo; 5] = [
    ScenarioInfo {
        number: 1,
        title: "Clicks, forward",
        brief: "Two weeks of immutable click events, some of them hours late, one crashed run and one manual re-run: load them incrementally without losing or doubling a click.",
        idea: "append-style incremental",
        source: "bronze.clicks",
    },
    ScenarioInfo {
        number: 2,
        title: "Orders that change",
        brief: "Orders are paid, shipped, delivered and sometimes refunded for weeks after they are placed: keep exactly the latest version of each, reading only what changed.",
        idea: "merge-style incremental",
        source: "bronze.order_changes",
    },
    ScenarioInfo {
        number: 3,
        title: "Late mobile events and month close",
        brief: "In-app purchases trickle in from phones that were offline for days, and finance closes August on Thursday 3 September: choose how long to wait and what to do with what comes later.",
        idea: "allowed lateness",
        source: "bronze.purchases",
    },
    ScenarioInfo {
        number: 4,
        title: "The currency bug",
        brief: "A conversion bug wrote short GBP totals for eleven days: rebuild exactly those days, in the right order, without starving tonight's scheduled run.",
        idea: "blast radius",
        source: "bronze.orders",
    },
    ScenarioInfo {
        number: 5,
        title: "Two years of history, interrupted",
        brief: "Populate 730 daily partitions for a new pipeline over a weekend while the source fails over once: resume rather than restart, and never delay a nightly run.",
        idea: "completion marker",
        source: "bronze.events",
    },
];

/// The scenario with this URL number, if there is one.
pub fn find(number: &str) -> Option<&'static ScenarioInfo> {
    let n: u8 = number.trim().parse().ok()?;
    SCENARIOS.iter().find(|s| s.number == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_numbered_one_to_five_and_found_by_number() {
        for (i, s) in SCENARIOS.iter().enumerate() {
            assert_eq!(usize::from(s.number), i + 1);
            assert_eq!(find(&s.number.to_string()), Some(s));
        }
        assert_eq!(find("0"), None);
        assert_eq!(find("6"), None);
        assert_eq!(find("x"), None);
        assert_eq!(find("99999999999"), None);
    }
}
