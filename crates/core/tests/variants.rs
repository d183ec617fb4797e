//! Every variant is fair (SPEC 14): whatever the seed, the backfill lab's
//! lessons hold with the variant's own evidence. The drift query finds
//! exactly the days the broken code built, from the variant's ship date;
//! the prediction is judged against that first row; a plan from the ship
//! date mends everything and restates once; a plan from the deploy log's
//! 8th leaves the days before it wrong; a plan from the 1st rebuilds days
//! that needed nothing; the withdrawn Sunday keeps its stale rows under a
//! dynamic overwrite and only there.
//!
//! `VARIANTS` sets how many seeds (the test run's default is small);
//! `VARIANTS=500 cargo test --release -p partition-lab-core --test variants
//! -- --nocapture` is the long run, and prints its figures.

// A test file: a failure here is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use chrono::Datelike;
use partition_lab_core::engine::calendar::{aug, day_month, days, Day};
use partition_lab_core::labs::backfill::case::{backfill_start, sunday, Sunday, Writer};
use partition_lab_core::labs::backfill::guess::verdict;
use partition_lab_core::labs::backfill::outcome::outcome;
use partition_lab_core::labs::backfill::{August, Case, Choices, Concurrency, PlanStart};
use partition_lab_core::variant::Variant;

/// Seeds when `VARIANTS` is not set: every ship date a variant can have
/// turns up well within it.
const DEFAULT_VARIANTS: u64 = 40;

fn seeds() -> u64 {
    std::env::var("VARIANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_VARIANTS)
}

fn plan(august: August, from: PlanStart, sunday: Sunday, writer: Writer) -> Choices {
    Choices {
        august,
        from,
        concurrency: Concurrency::Four,
        markers: true,
        sunday,
        writer,
    }
}

/// The variant's lessons, each checked against its own August.
fn fair(august: August) {
    let case = Case::in_august(august, Sunday::Delivered);
    let ship = august.ship.day();
    let last = aug(13);
    let broken: Vec<Day> = days(ship, last).collect();
    let v = august.variant.name();

    // The evidence: the drift query's rows are exactly the broken days.
    assert_eq!(case.blast_radius(), broken, "variant {v}: the drift query");
    assert_eq!(
        case.built_broken().into_iter().collect::<Vec<_>>(),
        broken,
        "variant {v}: the days the broken code built"
    );

    // The answer is on offer, among days in order, beside the 8th.
    let guesses = august.guesses();
    assert!(guesses.contains(&august.ship) && guesses.contains(&PlanStart::EIGHTH));
    assert!(
        guesses.windows(2).all(|w| w[0] < w[1]),
        "variant {v}: {guesses:?}"
    );

    // The prediction is judged by the query's first row.
    let radius = case.blast_radius();
    let right = verdict(&radius, Some(august.ship));
    assert!(
        right.starts_with(&format!("✓ Right: you said {}.", august.ship.label())),
        "variant {v}: {right}"
    );
    let late = verdict(&radius, Some(PlanStart::EIGHTH));
    assert!(
        late.ends_with(&format!("would leave {} to 7 Aug wrong.", day_month(ship))),
        "variant {v}: {late}"
    );

    // From the ship date: nothing left wrong, nothing needless, restated.
    let exact = plan(august, august.ship, Sunday::Delivered, Writer::Targeted);
    let run = case.execute(&exact, &[], backfill_start(), None);
    let o = outcome(&case, std::slice::from_ref(&run), &exact);
    assert!(
        o.silver_left.is_empty() && o.gold_left == 0,
        "variant {v}: {o:?}"
    );
    assert_eq!((o.needless, o.rebuilt_twice), (0, 0), "variant {v}");
    assert!(o.restated, "variant {v}: restated once all gold landed");
    assert_eq!(o.after, o.truth, "variant {v}: finance reads the truth");
    assert_ne!(o.before, o.truth, "variant {v}: the bug cost something");

    // From the deploy log's 8th: the ship date to the 7th stay wrong.
    let logged = plan(
        august,
        PlanStart::EIGHTH,
        Sunday::Delivered,
        Writer::Targeted,
    );
    let run = case.execute(&logged, &[], backfill_start(), None);
    let o = outcome(&case, std::slice::from_ref(&run), &logged);
    let left: Vec<Day> = o.silver_left.iter().map(|(d, _)| *d).collect();
    assert_eq!(left, days(ship, aug(7)).collect::<Vec<_>>(), "variant {v}");

    // From the 1st: the days before the ship date rebuilt for nothing.
    let whole = plan(
        august,
        PlanStart::FIRST,
        Sunday::Delivered,
        Writer::Targeted,
    );
    let run = case.execute(&whole, &[], backfill_start(), None);
    assert_eq!(
        case.needless_rebuilds(std::slice::from_ref(&run)).len(),
        usize::try_from(ship.day() - 1).unwrap(),
        "variant {v}"
    );

    // The withdrawn Sunday: a dynamic overwrite keeps its rows, a targeted
    // one empties it.
    let withdrawn = Case::in_august(august, Sunday::Withdrawn);
    for (writer, stale) in [(Writer::Dynamic, true), (Writer::Targeted, false)] {
        let c = plan(august, PlanStart::FIRST, Sunday::Withdrawn, writer);
        let run = withdrawn.execute(&c, &[], backfill_start(), None);
        let kept = withdrawn.kept_stale(std::slice::from_ref(&run));
        assert_eq!(
            kept.iter().any(|(d, rows, _)| *d == sunday() && *rows > 0),
            stale,
            "variant {v}, {writer:?}: {kept:?}"
        );
    }
}

#[test]
fn the_chapters_august_is_the_chapters() {
    assert_eq!(August::of(Variant::CHAPTER), August::CHAPTER);
    assert_eq!(August::CHAPTER.ship.day(), aug(3));
    fair(August::CHAPTER);
}

#[test]
fn every_variant_of_the_backfill_lab_is_fair() {
    let started = Instant::now();
    let n = seeds();
    let mut ships = [0u64; 14];
    let mut places = [0u64; 3];
    for seed in 0..n {
        let august = August::of(Variant::from_seed(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        assert!(!august.variant.is_chapter());
        let day = usize::try_from(august.ship.day().day()).unwrap();
        assert!((2..=6).contains(&day), "the bug ships before the 8th");
        ships[day] += 1;
        let place = august
            .guesses()
            .iter()
            .position(|g| *g == august.ship)
            .unwrap();
        places[place] += 1;
        fair(august);
    }
    println!(
        "{n} variants of the backfill lab fair in {:.1} s; ship dates 2nd..6th: {:?}; the answer first, second, third of the guesses: {places:?}",
        started.elapsed().as_secs_f64(),
        &ships[2..=6]
    );
    if n >= 12 {
        assert!(
            ships[2..=6].iter().filter(|c| **c > 0).count() >= 4,
            "variants move the ship date: {ships:?}"
        );
        assert!(
            places.iter().filter(|c| **c > 0).count() >= 2,
            "the answer is not always in one place: {places:?}"
        );
    }
}

/// A class's students get their own Augusts: two names in one class
/// differ, the same name gets the same August anywhere.
#[test]
fn a_students_august_is_their_own() {
    let ships: Vec<PlanStart> = ["Ada", "Grace", "Edsger", "Barbara", "Alan", "Frances"]
        .iter()
        .map(|name| August::of(Variant::of_student("DATA-101", name)).ship)
        .collect();
    assert!(
        ships.iter().any(|s| *s != ships[0]),
        "six students, one ship date: {ships:?}"
    );
    assert_eq!(
        August::of(Variant::of_student("DATA-101", "Ada")),
        August::of(Variant::of_student("data-101", " ada "))
    );
}
