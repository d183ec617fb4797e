//! What the grid shows at a moment of a backfill, read off the engine's
//! clock and tables.

use chrono::Datelike;

use crate::engine::calendar::{days, Day, Instant};
use crate::engine::clock::StepKind;
use crate::engine::drift::silver_drift;
use crate::engine::Money;
use crate::labs::backfill::run::Execution;

use super::case::{aug, last_existing, Case, Choices};

/// Where one partition is in the backfill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not touched by any run so far.
    Untouched,
    SilverRunning,
    /// Silver rewritten, gold not yet: consumers still read the old total.
    SilverDone,
    GoldRunning,
    /// Silver and gold rewritten.
    Done,
}

impl Phase {
    pub fn words(self) -> &'static str {
        match self {
            Phase::Untouched => "not rebuilt",
            Phase::SilverRunning => "rebuilding silver",
            Phase::SilverDone => "silver rebuilt, gold still old",
            Phase::GoldRunning => "rebuilding gold",
            Phase::Done => "rebuilt",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxView {
    pub dt: Day,
    pub built_broken: bool,
    pub tonight: bool,
    pub in_plan: bool,
    pub phase: Phase,
    /// Drift of the partition right now, in pence.
    pub drift: i64,
    /// Times this partition's silver has been rebuilt so far.
    pub rebuilds: usize,
    pub marker: bool,
    /// Drifting and outside the plan: the backfill will not fix it.
    pub stays_wrong: bool,
    pub accessible_name: String,
}

/// The finished part of `exec` at `now` (steps that have ended).
pub fn until(exec: &Execution, now: Instant) -> Execution {
    let mut partial = exec.clone();
    partial.done.retain(|s| s.end <= now);
    partial
}

/// "9 Aug still holds 120 orders (£3,140.22): its rebuild read no rows,
/// and an overwrite that replaces only the dates it writes rows to left
/// them." One sentence per date `Case::kept_stale` found.
pub fn kept_words(kept: &[(crate::engine::calendar::Day, usize, i64)]) -> Vec<String> {
    kept.iter()
        .map(|(dt, rows, pence)| {
            format!(
                "{} still holds {} ({}): its rebuild read no rows from bronze, and an overwrite that replaces only the dates it writes rows to left them there.",
                crate::engine::calendar::day_month(*dt),
                crate::counted::counted(*rows, "order"),
                crate::engine::money::Money::gbp(*pence).grouped()
            )
        })
        .collect()
}

/// "11 silver partitions, 11 gold partitions, 3 waves, about 18 minutes".
pub fn summary(choices: &Choices) -> String {
    let plan = choices.plan();
    let n = plan.dates().len();
    let waves = plan.waves();
    format!(
        "{}, {}, {}, about {} minutes",
        crate::counted::counted(n, "silver partition"),
        crate::counted::counted(n, "gold partition"),
        crate::counted::counted(waves, "wave"),
        plan.minutes(),
    )
}

/// The grid after `finished` runs plus, if one is under way, the part of
/// `current` done by `now`, with the answer to step 1's question: which
/// code built each partition, its drift, and whether the plan leaves it
/// wrong. Before the ship date is predicted the page draws
/// `grid_asking` instead (SPEC 9).
pub fn grid(
    case: &Case,
    choices: &Choices,
    finished: &[Execution],
    current: Option<(&Execution, Instant)>,
) -> Vec<BoxView> {
    let plan = choices.plan();
    let mut runs: Vec<Execution> = finished.to_vec();
    if let Some((exec, now)) = current {
        runs.push(until(exec, now));
    }
    let (silver, _) = case.after(&runs);
    let drift = silver_drift(&silver, &case.script.fx, aug(1));
    let broken = case.built_broken();
    let radius = case.blast_radius();
    days(aug(1), aug(14))
        .map(|dt| {
            let tonight = dt > last_existing();
            let in_plan = (plan.first..=plan.last).contains(&dt);
            let done_steps = runs
                .iter()
                .flat_map(|e| e.done.iter())
                .filter(|s| s.dt == dt);
            let rebuilds = done_steps
                .clone()
                .filter(|s| s.kind == StepKind::Silver)
                .count();
            let marker = done_steps.clone().any(|s| s.kind == StepKind::Marker);
            let running = current.and_then(|(exec, now)| {
                exec.done
                    .iter()
                    .chain(exec.cancelled.iter())
                    .find(|s| s.dt == dt && s.start <= now && now < s.end)
                    .map(|s| s.kind)
            });
            // The latest finished step of this date in the latest run that touched it.
            let last = runs.iter().rev().find_map(|e| {
                let mut steps: Vec<_> = e.done.iter().filter(|s| s.dt == dt).collect();
                crate::lean::order::sort_by_key(&mut steps, |s| s.kind);
                steps.last().map(|s| s.kind)
            });
            let phase = match (running, last) {
                (Some(StepKind::Silver), _) => Phase::SilverRunning,
                (Some(StepKind::Gold), _) => Phase::GoldRunning,
                (_, Some(StepKind::Silver)) => Phase::SilverDone,
                (_, Some(StepKind::Gold | StepKind::Marker)) => Phase::Done,
                _ => Phase::Untouched,
            };
            let now_drift = drift.iter().find(|r| r.dt == dt).map_or(0, |r| r.drift());
            let stays_wrong = radius.contains(&dt) && !in_plan;
            let built_broken = broken.contains(&dt);
            let mut name = format!("Aug {:02}: ", dt.day());
            if tonight {
                name.push_str("built tonight by the scheduled run with the fixed code");
            } else {
                name.push_str(if built_broken && rebuilds > 0 {
                    "first built by the broken code, silver rebuilt with the fix"
                } else if built_broken {
                    "built by the broken code"
                } else {
                    "built by correct code"
                });
                name.push_str(&if now_drift > 1 {
                    format!(", drift {}", Money::gbp(now_drift).grouped())
                } else {
                    ", no drift".to_string()
                });
                name.push_str(if in_plan {
                    ", in the plan"
                } else {
                    ", outside the plan"
                });
                if stays_wrong {
                    name.push_str(", will still be wrong after this backfill");
                }
                if phase != Phase::Untouched || rebuilds > 0 {
                    name.push_str(&format!(", {}", phase.words()));
                }
                if rebuilds > 1 {
                    name.push_str(&format!(" ({rebuilds} times)"));
                }
                if marker {
                    name.push_str(", completion marker written");
                }
            }
            BoxView {
                dt,
                built_broken,
                tonight,
                in_plan,
                phase,
                drift: now_drift,
                rebuilds,
                marker,
                stays_wrong,
                accessible_name: name,
            }
        })
        .collect()
}

/// The grid while step 1 asks when the bug shipped: each partition says
/// only that it was built, tonight's aside, and whether the plan holds it.
/// It shows the plan alone and needs no `Case`: the page draws it before
/// the prediction (when no run can have happened: a run waits for it,
/// `session::run_gate`) and after it until the lab's engine has come and
/// built August (a link's runs are replayed then).
pub fn grid_asking(choices: &Choices) -> Vec<BoxView> {
    let plan = choices.plan();
    days(aug(1), aug(14))
        .map(|dt| {
            let tonight = dt > last_existing();
            let in_plan = (plan.first..=plan.last).contains(&dt);
            let mut name = format!("Aug {:02}: ", dt.day());
            name.push_str(if tonight {
                "built tonight by the scheduled run with the fixed code"
            } else if in_plan {
                "built, in the plan"
            } else {
                "built, outside the plan"
            });
            BoxView {
                dt,
                built_broken: false,
                tonight,
                in_plan,
                phase: Phase::Untouched,
                drift: 0,
                rebuilds: 0,
                marker: false,
                stays_wrong: false,
                accessible_name: name,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::backfill_start;
    use crate::labs::backfill::PlanStart;
    use chrono::Duration;

    #[test]
    fn the_grid_moves_from_broken_to_rebuilt_and_flags_what_the_plan_misses() {
        let case = Case::new();
        let choices = Choices {
            from: PlanStart::EIGHTH,
            ..Choices::default()
        };
        let before = grid(&case, &choices, &[], None);
        assert_eq!(before.len(), 14);
        assert!(before[13].tonight);
        assert!(before
            .iter()
            .filter(|b| b.stays_wrong)
            .map(|b| b.dt.day())
            .eq(3..=7));
        assert!(before[2]
            .accessible_name
            .contains("will still be wrong after this backfill"));
        let exec = case.execute(&choices, &[], backfill_start(), None);
        let mid = grid(
            &case,
            &choices,
            &[],
            Some((&exec, backfill_start() + Duration::minutes(5))),
        );
        assert_eq!(mid[7].phase, Phase::GoldRunning);
        assert!(mid[7].drift <= 1, "silver of the 8th is already fixed");
        let after = grid(&case, &choices, &[exec], None);
        assert!(after[7..13]
            .iter()
            .all(|b| b.phase == Phase::Done && b.drift <= 1 && b.marker));
        assert!(after[2..7].iter().all(|b| b.drift > 1));
        assert!(after[7]
            .accessible_name
            .starts_with("Aug 08: first built by the broken code, silver rebuilt with the fix"));
        assert!(after[2]
            .accessible_name
            .starts_with("Aug 03: built by the broken code"));
        assert_eq!(
            summary(&choices),
            "6 silver partitions, 6 gold partitions, 2 waves, about 12 minutes"
        );
    }

    #[test]
    fn before_the_prediction_no_partition_says_which_code_built_it() {
        let asking = grid_asking(&Choices::default());
        assert_eq!(asking.len(), 14);
        for b in &asking {
            assert!(!b.built_broken && b.drift == 0 && !b.stays_wrong, "{b:?}");
            for word in ["broken", "drift", "correct", "wrong", "£"] {
                assert!(!b.accessible_name.contains(word), "{}", b.accessible_name);
            }
        }
        assert!(asking[0].accessible_name == "Aug 01: built, in the plan");
        assert!(asking[13].tonight && asking[13].accessible_name.contains("tonight"));
    }

    /// The grid drawn while step 1 asks is the one the engine's August
    /// gives before any run, less the answer: for every start and every
    /// August tried, without building the August.
    #[test]
    fn the_asking_grid_is_the_case_grid_less_the_answer() {
        use crate::labs::backfill::August;
        use crate::variant::Variant;
        let variants = [7, 42, 2026].map(|n| August::of(Variant::from_seed(n)));
        for august in std::iter::once(August::CHAPTER).chain(variants) {
            let case = Case::in_august(august, crate::labs::backfill::case::Sunday::Delivered);
            for from in august.starts() {
                let choices = Choices {
                    august,
                    from,
                    ..Choices::default()
                };
                let shown = grid(&case, &choices, &[], None);
                let asking = grid_asking(&choices);
                assert_eq!(asking.len(), shown.len());
                assert!(shown.iter().any(|b| b.built_broken && b.drift > 1));
                for (a, s) in asking.iter().zip(&shown) {
                    assert_eq!(
                        (a.dt, a.tonight, a.in_plan, a.phase, a.rebuilds, a.marker),
                        (s.dt, s.tonight, s.in_plan, s.phase, s.rebuilds, s.marker)
                    );
                    let place = if s.tonight {
                        "tonight"
                    } else if s.in_plan {
                        "in the plan"
                    } else {
                        "outside the plan"
                    };
                    assert!(s.accessible_name.contains(place) && a.accessible_name.contains(place));
                }
            }
        }
    }
}
