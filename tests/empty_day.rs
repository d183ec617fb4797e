//! SPEC 11's day corrected to empty: the two overwrites differ only for a
//! targeted partition whose rows are now empty, in the daily simulation
//! and in the backfill lab, and every sentence the lab says about it is
//! the engine's own account.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::Duration;
use partition_lab::engine::calendar::{at, days, shift, Day};
use partition_lab::engine::generate::{daily_runs, orders, CurrencyMix, DelayProfile, OrderSpec};
use partition_lab::engine::{
    simulate_with, Detail, PipelineConfig, ProcessingState, Script, WriteMode,
};
use partition_lab::labs::backfill::case::{
    backfill_start, sunday, withdrawn_at, Case, Sunday, Writer,
};
use partition_lab::labs::backfill::reconcile::short_days;
use partition_lab::labs::backfill::restatement::restatement;
use partition_lab::labs::backfill::{Choices, PlanStart};

/// A fortnight of orders with one day's withdrawn at `gone`, run daily by
/// a partition list with `lookback` and `write`.
fn fortnight(seed: u64, withdrawn: Day, gone: partition_lab::engine::Instant) -> Script {
    let first = const { partition_lab::engine::calendar::date(2026, 6, 1) };
    let last = shift(first, 13);
    let spec = OrderSpec {
        seed,
        first,
        last,
        per_day: 12,
        mix: CurrencyMix::GBP_ONLY,
        delays: DelayProfile::WebCheckout,
        min_minor: 500,
        max_minor: 5_000,
    };
    let mut script = Script::new(first, orders(&spec), daily_runs(first, last, 2, 0));
    for e in script
        .events
        .iter_mut()
        .filter(|e| e.event_date() == withdrawn)
    {
        e.withdrawn_at = Some(gone);
    }
    script
}

/// Over many scripts, lookbacks and withdrawal instants: the targeted and
/// the dynamic overwrite build the same silver on every day but the
/// withdrawn one. There, a run that targets it after the withdrawal
/// empties it under the targeted overwrite, as the truth has it, and the
/// dynamic one leaves the rows the source took back; with no such run both
/// keep them.
#[test]
fn the_overwrites_part_only_on_the_withdrawn_day() {
    let mut emptied = 0;
    let mut kept = 0;
    for seed in 0..24u64 {
        let lookback = u32::try_from(seed % 4).unwrap();
        let first = const { partition_lab::engine::calendar::date(2026, 6, 1) };
        let withdrawn = shift(first, 3 + i64::try_from(seed % 5).unwrap());
        let gone = at(
            shift(withdrawn, 1 + i64::try_from(seed % 3).unwrap()),
            12,
            0,
        );
        let script = fortnight(seed, withdrawn, gone);
        let run = |write| {
            simulate_with(
                &PipelineConfig::new(ProcessingState::partition_list(lookback), write),
                &script,
                Detail::TABLES,
            )
        };
        let (targeted, present) = (
            run(WriteMode::OverwritePartition),
            run(WriteMode::OverwritePresent),
        );
        for dt in days(first, shift(first, 13)).filter(|d| *d != withdrawn) {
            assert_eq!(
                targeted.silver.partition(dt),
                present.silver.partition(dt),
                "seed {seed}, {dt}"
            );
        }
        // A run reads the withdrawn day after the withdrawal when its
        // lookback still reaches the day.
        let reread = script
            .runs
            .iter()
            .any(|r| r.at >= gone && shift(r.day, -i64::from(lookback)) <= withdrawn);
        let built = present.silver.partition(withdrawn).len();
        assert!(built > 0, "seed {seed}: the day was built before it went");
        if reread {
            assert!(
                targeted.silver.partition(withdrawn).is_empty(),
                "seed {seed}"
            );
            emptied += 1;
        } else {
            assert_eq!(
                targeted.silver.partition(withdrawn).len(),
                built,
                "seed {seed}"
            );
            kept += 1;
        }
    }
    assert!(
        emptied > 4 && kept > 4,
        "both cases came up: {emptied}, {kept}"
    );
}

fn choices(from: PlanStart, sunday: Sunday, writer: Writer) -> Choices {
    Choices {
        from,
        sunday,
        writer,
        ..Choices::default()
    }
}

/// The lab's Sunday withdrawn: a rebuild of the whole month that replaces each
/// date it targets leaves the 9th empty and finance at the truth; one
/// that replaces only dates it writes rows to leaves the 9th exactly as
/// the daily run built it, finance over the truth by what it still holds,
/// and says so from the rebuild's own account.
#[test]
fn a_withdrawn_sunday_is_emptied_only_by_a_targeted_overwrite() {
    let case = Case::of(Sunday::Withdrawn);
    let built = case.silver.partition(sunday()).to_vec();
    assert!(!built.is_empty(), "the daily run built the Sunday");
    assert!(
        case.truth.partition(sunday()).is_empty(),
        "bronze holds none of it now"
    );
    let truth = case.truth_total();
    for (writer, empties) in [(Writer::Targeted, true), (Writer::Dynamic, false)] {
        let c = choices(PlanStart::FIRST, Sunday::Withdrawn, writer);
        let exec = case.execute(&c, &[], backfill_start(), None);
        let runs = std::slice::from_ref(&exec);
        let (silver, gold) = case.after(runs);
        let kept = case.kept_stale(runs);
        let after = Case::finance_total(&gold);
        let note = restatement((&case.silver, &case.gold), (&silver, &gold));
        if empties {
            assert!(silver.partition(sunday()).is_empty());
            assert!(kept.is_empty());
            assert_eq!(after, truth);
            let value: i64 = built.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            assert_eq!(note.removed(), (built.len(), value));
            assert!(note.changes.iter().all(|c| c.other() == 0));
            assert!(
                note.note()[0].contains(&format!("{} orders bronze no longer holds", built.len())),
                "{:?}",
                note.note()
            );
        } else {
            assert_eq!(silver.partition(sunday()), &built[..]);
            let pence: i64 = built.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            assert_eq!(kept, vec![(sunday(), built.len(), pence)]);
            assert_eq!(after - truth, pence, "finance over the truth by the Sunday");
            let words = partition_lab::labs::backfill::view::kept_words(&kept);
            assert!(words[0].starts_with("9 Aug still holds"), "{words:?}");
            assert!(words[0].contains("read no rows"));
        }
    }
    // A plan that starts after the Sunday never targets it: both keep it.
    for writer in [Writer::Targeted, Writer::Dynamic] {
        let c = choices(PlanStart::TWELFTH, Sunday::Withdrawn, writer);
        let exec = case.execute(&c, &[], backfill_start(), None);
        let (silver, _) = case.after(std::slice::from_ref(&exec));
        assert_eq!(silver.partition(sunday()), &built[..]);
        assert!(case.kept_stale(std::slice::from_ref(&exec)).is_empty());
    }
}

/// With the Sunday as delivered every date has rows, so the writer changes
/// nothing: the same silver and gold for every plan.
#[test]
fn as_delivered_the_writers_agree() {
    let case = Case::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        let tables = |writer| {
            let c = choices(from, Sunday::Delivered, writer);
            let exec = case.execute(&c, &[], backfill_start(), None);
            case.after(std::slice::from_ref(&exec))
        };
        let (a, b) = (tables(Writer::Targeted), tables(Writer::Dynamic));
        assert_eq!(
            a.0.partitions().collect::<Vec<_>>(),
            b.0.partitions().collect::<Vec<_>>()
        );
        assert_eq!(a.1, b.1);
    }
}

/// The count against bronze finds the withdrawn orders silver still holds
/// and says when the source took them, from the bronze rows themselves.
#[test]
fn the_row_counts_find_the_withdrawn_orders() {
    let case = Case::of(Sunday::Withdrawn);
    let (short, _) = short_days(&case);
    let day = short
        .iter()
        .find(|d| d.dt == sunday())
        .expect("the Sunday differs");
    assert_eq!(day.extra, case.silver.partition(sunday()).len());
    assert_eq!(day.bronze, 0);
    let words = day.withdrawn.as_deref().expect("said why");
    let when = partition_lab::engine::calendar::weekday_day_month_time(withdrawn_at());
    assert!(
        words.contains(&format!("the source withdrew them {when}")),
        "{words}"
    );
    assert!(withdrawn_at() < backfill_start() - Duration::hours(1));
    let (delivered, _) = short_days(&Case::new());
    assert!(delivered
        .iter()
        .all(|d| d.extra == 0 && d.withdrawn.is_none()));
}
