//! The checks a real pipeline would run after each load.

use crate::lean::sorted::SortedMap;

use super::calendar::{days, weekday_short, Day};
use super::event::{Event, Id};
use super::money::Currency;
use super::table::Table;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckKind {
    RunSucceeded,
    UniqueKey,
    NotNull,
    NonEmptyPartitions,
    /// Count and sum per partition against bronze: the check most teams lack.
    ReconcileVsBronze,
}

impl CheckKind {
    pub const ALL: [CheckKind; 5] = [
        CheckKind::RunSucceeded,
        CheckKind::UniqueKey,
        CheckKind::NotNull,
        CheckKind::NonEmptyPartitions,
        CheckKind::ReconcileVsBronze,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CheckKind::RunSucceeded => "run succeeded",
            CheckKind::UniqueKey => "unique(order_id)",
            CheckKind::NotNull => "not_null(amount_gbp)",
            CheckKind::NonEmptyPartitions => "partitions non-empty",
            CheckKind::ReconcileVsBronze => "reconcile vs bronze",
        }
    }

    /// Whether a typical team has this check; reconcile is the one they lack.
    pub fn is_usual(self) -> bool {
        self != CheckKind::ReconcileVsBronze
    }
}

/// One failing piece of evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFailure {
    pub dt: Option<Day>,
    pub ids: Vec<Id>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    pub kind: CheckKind,
    pub failures: Vec<CheckFailure>,
}

impl CheckResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks(pub Vec<CheckResult>);

impl Checks {
    pub fn get(&self, kind: CheckKind) -> Option<&CheckResult> {
        self.0.iter().find(|c| c.kind == kind)
    }

    pub fn passed(&self, kind: CheckKind) -> bool {
        self.get(kind).is_some_and(CheckResult::passed)
    }

    /// The usual checks that failed (reconcile excluded).
    pub fn failing_usual(&self) -> Vec<CheckKind> {
        self.0
            .iter()
            .filter(|c| c.kind.is_usual() && !c.passed())
            .map(|c| c.kind)
            .collect()
    }
}

/// What the checks look at: the table, bronze as of the check, the days the
/// pipeline has processed so far and the days whose latest attempt failed.
pub struct CheckInput<'a, 'b> {
    pub silver: &'a Table,
    pub truth: &'a SortedMap<Day, SortedMap<Id, &'b Event>>,
    pub start: Day,
    pub through: Option<Day>,
    pub failed_days: &'a [Day],
}

pub fn run_checks(input: &CheckInput) -> Checks {
    Checks(vec![
        run_succeeded(input.failed_days),
        unique_key(input.silver),
        not_null(input.silver),
        non_empty(input),
        reconcile(input),
    ])
}

fn label(dt: Day) -> String {
    format!("{} {}", weekday_short(dt), dt)
}

fn run_succeeded(failed_days: &[Day]) -> CheckResult {
    let failures = failed_days
        .iter()
        .map(|dt| CheckFailure {
            dt: Some(*dt),
            ids: Vec::new(),
            message: format!("the latest run for {} did not finish", label(*dt)),
        })
        .collect();
    CheckResult {
        kind: CheckKind::RunSucceeded,
        failures,
    }
}

fn unique_key(silver: &Table) -> CheckResult {
    let mut seen: SortedMap<&Id, Vec<Day>> = SortedMap::new();
    for row in silver.rows() {
        seen.entry(&row.key).or_default().push(row.dt);
    }
    let mut by_day: SortedMap<Day, Vec<Id>> = SortedMap::new();
    for (key, dts) in seen.into_iter().filter(|(_, dts)| dts.len() > 1) {
        for dt in &dts[1..] {
            by_day.entry(*dt).or_default().push(key.clone());
        }
    }
    let failures = by_day
        .into_iter()
        .map(|(dt, ids)| CheckFailure {
            dt: Some(dt),
            message: format!(
                "{} holds {} extra cop{} of a key",
                label(dt),
                ids.len(),
                if ids.len() == 1 { "y" } else { "ies" }
            ),
            ids,
        })
        .collect();
    CheckResult {
        kind: CheckKind::UniqueKey,
        failures,
    }
}

fn not_null(silver: &Table) -> CheckResult {
    let failures = silver
        .partitions()
        .filter_map(|(dt, rows)| {
            let ids: Vec<Id> = rows
                .iter()
                .filter(|r| r.gbp.is_none())
                .map(|r| r.key.clone())
                .collect();
            (!ids.is_empty()).then(|| CheckFailure {
                dt: Some(dt),
                message: format!("{}: rows without a GBP amount: {}", label(dt), ids.len()),
                ids,
            })
        })
        .collect();
    CheckResult {
        kind: CheckKind::NotNull,
        failures,
    }
}

fn non_empty(input: &CheckInput) -> CheckResult {
    let failures = input
        .through
        .into_iter()
        .flat_map(|through| days(input.start, through))
        .filter(|dt| input.silver.partition(*dt).is_empty())
        .map(|dt| CheckFailure {
            dt: Some(dt),
            ids: Vec::new(),
            message: format!("{} is empty", label(dt)),
        })
        .collect();
    CheckResult {
        kind: CheckKind::NonEmptyPartitions,
        failures,
    }
}

/// Count and raw amount per currency, so the comparison does not depend on fx.
type Tally = (usize, SortedMap<Currency, i64>);

fn reconcile(input: &CheckInput) -> CheckResult {
    let failures = input
        .through
        .into_iter()
        .flat_map(|through| days(input.start, through))
        .filter_map(|dt| {
            let mut silver: Tally = (0, SortedMap::new());
            for row in input.silver.partition(dt) {
                silver.0 += 1;
                *silver.1.entry(row.raw.currency).or_default() += row.raw.minor;
            }
            let mut bronze: Tally = (0, SortedMap::new());
            for event in input
                .truth
                .get(&dt)
                .into_iter()
                .flat_map(|keys| keys.values())
            {
                bronze.0 += 1;
                *bronze.1.entry(event.amount.currency).or_default() += event.amount.minor;
            }
            (silver != bronze).then(|| CheckFailure {
                dt: Some(dt),
                ids: Vec::new(),
                message: format!(
                    "{}: rows in silver {}, in bronze {}{}",
                    label(dt),
                    silver.0,
                    bronze.0,
                    if silver.0 == bronze.0 {
                        " (sums differ)"
                    } else {
                        ""
                    }
                ),
            })
        })
        .collect();
    CheckResult {
        kind: CheckKind::ReconcileVsBronze,
        failures,
    }
}
