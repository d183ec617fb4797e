//! The currency-bug backfill: the drift query finds the blast radius, the
//! plan follows the cost model, a backfill from bronze with the fixed logic
//! repairs exactly the drifting days, and markers make a re-run resume.

// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use chrono::Duration;

use partition_lab::engine::calendar::days;
use partition_lab::engine::drift::naive_flags;
use partition_lab::export::backfill_lab::commands;
use partition_lab::labs::backfill::case::{aug, backfill_start, last_existing, Case};
use partition_lab::labs::backfill::{Choices, Concurrency, PlanStart};

fn all_choices() -> Vec<Choices> {
    let mut out = Vec::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                out.push(Choices {
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                });
            }
        }
    }
    out
}

#[test]
fn drift_is_zero_before_the_ship_date_and_positive_from_it() {
    let case = Case::new();
    for row in case.drift() {
        if row.dt < partition_lab::labs::backfill::August::CHAPTER.ship.day() {
            assert_eq!(
                row.drift(),
                0,
                "{} is correct and recomputes to the penny",
                row.dt
            );
        } else {
            assert!(row.drifts(), "{} was built by the broken code", row.dt);
            assert!(
                row.stored < row.recomputed,
                "truncating the rate makes totals short"
            );
        }
    }
    let radius = case.blast_radius();
    assert_eq!(
        radius.first(),
        Some(&partition_lab::labs::backfill::August::CHAPTER.ship.day()),
        "the first row is the true start"
    );
    assert_eq!(radius, days(aug(3), last_existing()).collect::<Vec<_>>());
    assert_eq!(
        case.built_broken().into_iter().collect::<BTreeSet<_>>(),
        radius.iter().copied().collect::<BTreeSet<_>>()
    );
}

#[test]
fn summing_unrounded_products_flags_every_broken_day_and_some_correct_ones() {
    let case = Case::new();
    let flagged = naive_flags(&case.silver, &case.script.fx, aug(1));
    for dt in case.blast_radius() {
        assert!(flagged.contains(&dt));
    }
    assert!(
        flagged
            .iter()
            .any(|dt| *dt < partition_lab::labs::backfill::August::CHAPTER.ship.day()),
        "the lab's warning about SUM(raw * rate) should be visible in its data: {flagged:?}"
    );
}

#[test]
fn a_backfill_over_the_drift_range_leaves_no_drift_and_touches_nothing_else() {
    let case = Case::new();
    let choices = Choices {
        from: partition_lab::labs::backfill::August::CHAPTER.ship,
        ..Choices::default()
    };
    let exec = case.execute(&choices, &[], backfill_start(), None);
    let (silver_left, gold_left) = case.remaining(std::slice::from_ref(&exec));
    assert!(silver_left.is_empty() && gold_left.is_empty());
    assert!(case
        .needless_rebuilds(std::slice::from_ref(&exec))
        .is_empty());
    let (_, gold) = case.after(std::slice::from_ref(&exec));
    let truth = case.truth_total();
    assert_eq!(Case::finance_total(&gold), truth);
    assert!(
        Case::finance_total(&case.gold) < truth,
        "August was short before the backfill"
    );
}

#[test]
fn a_late_guess_leaves_the_early_broken_days_wrong() {
    let case = Case::new();
    let choices = Choices {
        from: PlanStart::EIGHTH,
        ..Choices::default()
    };
    let exec = case.execute(&choices, &[], backfill_start(), None);
    let (silver_left, gold_left) = case.remaining(&[exec]);
    let left: Vec<_> = silver_left.iter().map(|r| r.dt).collect();
    assert_eq!(left, days(aug(3), aug(7)).collect::<Vec<_>>());
    assert_eq!(gold_left.len(), 5);
}

#[test]
fn waves_and_minutes_follow_the_cost_model_for_every_choice() {
    let case = Case::new();
    for choices in all_choices() {
        let plan = choices.plan();
        let n = plan.dates().len() as u32;
        let waves = n.div_ceil(choices.concurrency.value().min(4));
        assert_eq!(plan.waves(), waves, "{choices:?}");
        assert_eq!(plan.minutes(), i64::from(waves) * 6);
        let exec = case.execute(&choices, &[], backfill_start(), None);
        assert_eq!(
            exec.finished_at(),
            Some(backfill_start() + Duration::minutes(plan.minutes()))
        );
    }
    let plan = Choices {
        from: partition_lab::labs::backfill::August::CHAPTER.ship,
        ..Choices::default()
    }
    .plan();
    assert_eq!(
        (plan.dates().len(), plan.waves(), plan.minutes()),
        (11, 3, 18)
    );
}

#[test]
fn an_interrupted_backfill_resumes_with_markers_and_rebuilds_without() {
    let case = Case::new();
    for concurrency in Concurrency::ALL {
        for stop in [5, 7, 13, 30] {
            for markers in [true, false] {
                let choices = Choices {
                    concurrency,
                    markers,
                    from: partition_lab::labs::backfill::August::CHAPTER.ship,
                    ..Choices::default()
                };
                let first = case.execute(&choices, &[], backfill_start(), Some(stop));
                let in_flight: BTreeSet<_> = first.cancelled.iter().map(|s| s.dt).collect();
                let resumed = case.execute(
                    &choices,
                    std::slice::from_ref(&first),
                    backfill_start() + Duration::minutes(60),
                    None,
                );
                let runs = [first.clone(), resumed];
                let mut rebuilt: BTreeMap<_, usize> = BTreeMap::new();
                for dt in runs.iter().flat_map(|e| e.silver_rebuilt()) {
                    *rebuilt.entry(dt).or_default() += 1;
                }
                for dt in choices.plan().dates() {
                    let n = rebuilt.get(&dt).copied().unwrap_or(0);
                    let finished_first = first.gold_rebuilt().contains(&dt);
                    let expected = match (markers, finished_first) {
                        (true, true) => 1,
                        (true, false) => 1 + usize::from(first.silver_rebuilt().contains(&dt)),
                        (false, true) => 2,
                        (false, false) => 1 + usize::from(first.silver_rebuilt().contains(&dt)),
                    };
                    assert_eq!(
                        n,
                        expected,
                        "{choices:?} stop {stop} {dt} in flight {}",
                        in_flight.contains(&dt)
                    );
                }
                let (silver_left, gold_left) = case.remaining(&runs);
                assert!(
                    silver_left.is_empty() && gold_left.is_empty(),
                    "{choices:?} stop {stop}"
                );
            }
        }
    }
}

#[test]
fn generated_commands_match_the_plan_for_every_choice() {
    for choices in all_choices() {
        let plan = choices.plan();
        let start = plan.first.format("%Y-%m-%d").to_string();
        let cmds: BTreeMap<_, _> = commands(&plan)
            .into_iter()
            .map(|c| (c.title(), c.code))
            .collect();
        let airflow = &cmds["Airflow"];
        // Logical dates are datetimes: the 02:00 run of each partition's day.
        assert!(
            airflow.contains(&format!(
                "--from-date {start}T02:00:00+00:00 --to-date 2026-08-13T02:00:00+00:00"
            )),
            "{airflow}"
        );
        assert!(airflow.contains(&format!(
            "--max-active-runs {} --reprocess-behavior completed",
            choices.concurrency.value()
        )));
        assert_eq!(
            airflow.contains("--reprocess-behavior failed"),
            choices.markers,
            "a resumed backfill skips completed runs only with markers"
        );
        // dbt's range end is exclusive: the 14th bounds it, it is not rebuilt
        // (scripts/check-real runs these ranges on dbt-duckdb to prove it).
        assert!(cmds["dbt"].contains(&format!(
            "--event-time-start {start} --event-time-end 2026-08-14"
        )));
        assert!(!cmds["dbt"].contains("dbt run --select silver_orders+ --full-refresh"));
        assert_eq!(
            cmds["Plain loop"].contains("markers.record"),
            choices.markers
        );
        assert!(cmds["Spark"].contains("partitionOverwriteMode\", \"dynamic\""));
        assert_eq!(cmds["Spark"].contains("ops.backfill_done"), choices.markers);
        let look_back = (plan.first - Duration::days(14))
            .format("%Y-%m-%d")
            .to_string();
        assert!(cmds["Drift query"].contains(&look_back));
        assert!(cmds["Drift query"].contains("round_even("));
        // SQLMesh's --end is a day it includes (check-real proves it).
        assert!(cmds["SQLMesh"].contains(&format!(
            "--restate-model shop.silver_orders \\\n  --start {start} --end 2026-08-13"
        )));
        // Dagster launches the plan's partitions as one range it includes
        // (check-real proves it), with the pool's limit at the source's.
        assert!(cmds["Dagster"].ends_with(&format!(
            "--assets silver_orders,gold_daily_totals \\\n  --partition-range {start}...2026-08-13"
        )));
        assert!(cmds["Dagster"].contains(&format!(
            "dagster instance concurrency set source {}\n",
            plan.pool
        )));
        assert!(
            !cmds
                .iter()
                .filter(|(title, _)| **title != "dbt")
                .any(|(_, c)| c.contains("2026-08-14")),
            "no command touches tonight's partition"
        );
    }
}

#[test]
fn the_page_opens_on_the_whole_month_which_fixes_everything_and_rebuilds_two_days_for_nothing() {
    // The default plan is not the answer: from the 1st it repairs every
    // broken day and also rewrites the 1st and 2nd, which were right.
    let case = Case::new();
    let choices = Choices::default();
    assert_eq!(choices.from, PlanStart::FIRST);
    let exec = case.execute(&choices, &[], backfill_start(), None);
    let (silver_left, gold_left) = case.remaining(std::slice::from_ref(&exec));
    assert!(silver_left.is_empty() && gold_left.is_empty());
    let needless: Vec<_> = case.needless_rebuilds(std::slice::from_ref(&exec));
    assert_eq!(needless, vec![aug(1), aug(2)]);
    assert_eq!(choices.plan().dates().len(), 13);
}
