//! Properties of the backfill clock over generated jobs: the pool is never
//! overbooked, concurrency is respected, layers keep their order, markers
//! make a re-run resume, and yielding keeps scheduled runs on time. The
//! interruption is placed relative to the job's own length, so it lands
//! mid-job.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;
use std::collections::BTreeSet;

use chrono::{Duration, NaiveDate};
use proptest::prelude::*;

use partition_lab::engine::calendar::{at, days, shift, Instant};
use partition_lab::engine::clock::StepKind;
use partition_lab::engine::clock::{
    run_clock, Attempt, Booking, ClockStep, Job, Marking, Shape, Timeline,
};

fn first() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 8, 1).expect("valid date")
}

fn launch() -> Instant {
    at(first(), 1, 0)
}

fn gen_job() -> impl Strategy<Value = Job> {
    (
        1..20i64,
        1..7u32,
        1..6u32,
        1..30i64,
        1..30i64,
        prop_oneof![
            Just(Shape::PerDate),
            Just(Shape::TwoPhases),
            Just(Shape::Together)
        ],
        prop_oneof![
            Just(Marking::Off),
            Just(Marking::After),
            Just(Marking::Before)
        ],
        any::<bool>(),
    )
        .prop_map(|(n, concurrency, pool, s, g, shape, markers, yields)| Job {
            first: first(),
            last: shift(first(), n - 1),
            concurrency,
            pool,
            silver_minutes: s,
            gold_minutes: g,
            shape,
            markers,
            yield_to_scheduled: yields,
        })
}

/// Bookings at least `minutes` apart, so two never want the pool at once.
fn gen_bookings() -> impl Strategy<Value = Vec<Booking>> {
    (prop::collection::vec(0..200i64, 0..4), 1..20i64).prop_map(|(gaps, minutes)| {
        let mut t = launch();
        gaps.into_iter()
            .map(|gap| {
                t += Duration::minutes(gap + minutes);
                Booking { at: t, minutes }
            })
            .collect()
    })
}

/// Per attempt and slot, the intervals units and scheduled runs held it.
fn holds(
    timeline: &Timeline,
    attempts: &[Attempt],
    bookings: &[Booking],
) -> Vec<(usize, u32, Instant, Instant, bool)> {
    let mut units: std::collections::BTreeMap<
        (usize, u32, chrono::NaiveDate, StepKind, Instant),
        Instant,
    > = Default::default();
    for s in timeline.done.iter().chain(&timeline.cancelled) {
        // A unit's steps share its slot; its start is the earliest step's.
        let start = timeline
            .done
            .iter()
            .chain(&timeline.cancelled)
            .filter(|o| o.attempt == s.attempt && o.dt == s.dt && o.unit == s.unit)
            .map(|o| o.start)
            .min()
            .unwrap_or(s.start);
        let end = attempts[s.attempt]
            .interrupt
            .map_or(s.end, |cut| s.end.min(cut));
        let held = units
            .entry((s.attempt, s.slot, s.dt, s.unit, start))
            .or_insert(end);
        *held = (*held).max(end);
    }
    let mut out: Vec<_> = units
        .into_iter()
        .map(|((attempt, slot, _, _, start), end)| (attempt, slot, start, end, true))
        .collect();
    for g in &timeline.grants {
        if let Some(slot) = g.slot {
            let end = g.got + Duration::minutes(bookings[g.booking].minutes);
            let attempt = attempts.iter().rposition(|a| a.start <= g.got).unwrap_or(0);
            out.push((attempt, slot, g.got, end, false));
        }
    }
    out
}

/// Every unit of work of `job`, as its marker names it.
fn all_units(job: &Job) -> BTreeSet<(NaiveDate, StepKind)> {
    days(job.first, job.last)
        .flat_map(|dt| match job.shape {
            Shape::TwoPhases => vec![(dt, StepKind::Silver), (dt, StepKind::Gold)],
            Shape::PerDate | Shape::Together => vec![(dt, StepKind::Gold)],
        })
        .collect()
}

/// The units `attempt` started (finished or killed).
fn started_in(timeline: &Timeline, attempt: usize) -> BTreeSet<(NaiveDate, StepKind)> {
    timeline
        .done
        .iter()
        .chain(&timeline.cancelled)
        .filter(|s| s.attempt == attempt)
        .map(|s| (s.dt, s.unit))
        .collect()
}

fn sorted(steps: impl Iterator<Item = ClockStep>) -> Vec<ClockStep> {
    let mut v: Vec<ClockStep> = steps.collect();
    v.sort_by_key(|s| (s.start, s.end, s.dt, s.kind, s.slot, s.unit));
    v
}

/// The job run once uninterrupted, and the launches to test: with a cut,
/// one killed at `percent` of the uninterrupted job's length (at least a
/// minute in, at most at its last step's end, which the cut kills) and a
/// re-run 30 minutes later. Returns the uninterrupted timeline too.
fn launches(
    job: &Job,
    bookings: &[Booking],
    percent: Option<i64>,
) -> (Timeline, Option<Instant>, Vec<Attempt>) {
    let whole = run_clock(
        job,
        &[Attempt {
            start: launch(),
            interrupt: None,
        }],
        bookings,
    );
    let length = whole
        .finished_at()
        .map_or(1, |end| (end - launch()).num_minutes().max(1));
    let cut = percent.map(|p| launch() + Duration::minutes((length * p / 100).clamp(1, length)));
    let attempts = match cut {
        Some(cut) => vec![
            Attempt {
                start: launch(),
                interrupt: Some(cut),
            },
            Attempt {
                start: cut + Duration::minutes(30),
                interrupt: None,
            },
        ],
        None => vec![Attempt {
            start: launch(),
            interrupt: None,
        }],
    };
    (whole, cut, attempts)
}

/// The cut hit the job: a step of the first launch was killed, or a unit
/// of work never started in it.
fn cut_hit(job: &Job, timeline: &Timeline) -> bool {
    timeline.cancelled.iter().any(|s| s.attempt == 0) || started_in(timeline, 0) != all_units(job)
}

proptest! {
    #![proptest_config(cases::cases(1024))]

    /// SPEC 2's interruption and markers: the first launch, up to the cut,
    /// is the uninterrupted job; the cut kills exactly the steps that would
    /// end at or after it; the re-run skips exactly the units whose markers
    /// were written and rebuilds every other one. Catches a clock that
    /// ignores the cut, lets a step ending at the cut finish, perturbs what
    /// ran before it, or resumes from the wrong markers.
    #[test]
    fn an_interruption_keeps_what_finished_and_the_re_run_resumes_from_markers(
        job in gen_job(),
        bookings in gen_bookings(),
        percent in 1..=100i64,
    ) {
        let (whole, cut, attempts) = launches(&job, &bookings, Some(percent));
        let cut = cut.expect("a cut");
        let timeline = run_clock(&job, &attempts, &bookings);
        prop_assert!(cut_hit(&job, &timeline), "the cut at {} missed the job", cut);
        prop_assert_eq!(
            sorted(timeline.done.iter().filter(|s| s.attempt == 0).copied()),
            sorted(whole.done.iter().filter(|s| s.end < cut).copied())
        );
        prop_assert!(timeline.cancelled.iter().all(|s| s.attempt == 0 && s.end >= cut));
        let marked: BTreeSet<_> = timeline
            .done
            .iter()
            .filter(|s| s.attempt == 0 && s.kind == StepKind::Marker)
            .map(|s| (s.dt, s.unit))
            .collect();
        let skipped: BTreeSet<_> = timeline.skipped[1].iter().copied().collect();
        if job.markers == Marking::Off {
            prop_assert!(skipped.is_empty());
        } else {
            prop_assert_eq!(&skipped, &marked);
        }
        let rest: BTreeSet<_> = all_units(&job).difference(&skipped).copied().collect();
        prop_assert_eq!(started_in(&timeline, 1), rest);
    }

    /// The cut is relative to the job's length, so it lands mid-job and
    /// the re-run's resume is what gets checked, not a finished job's.
    #[test]
    fn the_pool_is_never_overbooked_and_layers_keep_their_order(
        job in gen_job(),
        bookings in gen_bookings(),
        percent in prop::option::weighted(0.9, 1..=100i64),
    ) {
        let (_, cut, attempts) = launches(&job, &bookings, percent);
        let timeline = run_clock(&job, &attempts, &bookings);
        if cut.is_some() {
            prop_assert!(cut_hit(&job, &timeline), "the cut at {:?} missed the job", cut);
        }
        let held = holds(&timeline, &attempts, &bookings);
        for (i, a) in held.iter().enumerate() {
            prop_assert!(a.1 < job.pool, "slot {} of a pool of {}", a.1, job.pool);
            for b in &held[i + 1..] {
                let same_slot = a.1 == b.1 && (a.0 == b.0 || !a.4 || !b.4);
                prop_assert!(!(same_slot && a.2 < b.3 && b.2 < a.3), "{a:?} overlaps {b:?}");
            }
            if a.4 {
                let at_once = held.iter().filter(|b| b.4 && b.0 == a.0 && b.2 <= a.2 && a.2 < b.3).count();
                prop_assert!(at_once as u32 <= job.concurrency);
            }
        }
        // Gold for a date never lands before its silver unless the shape says
        // so, or a marker written first let a killed silver count as done.
        if job.shape != Shape::Together && job.markers != Marking::Before {
            for g in timeline.done.iter().filter(|s| s.kind == StepKind::Gold) {
                prop_assert!(timeline.done.iter().any(|s| s.kind == StepKind::Silver && s.dt == g.dt && s.end <= g.start));
            }
        }
        // The last attempt runs to the end: every date ends with both layers.
        let last = attempts.len() - 1;
        let mut done_layers: BTreeSet<(chrono::NaiveDate, StepKind)> = BTreeSet::new();
        for s in timeline.done.iter().filter(|s| s.kind != StepKind::Marker) {
            done_layers.insert((s.dt, s.kind));
        }
        for dt in days(job.first, job.last) {
            let rebuilt_last = timeline.rebuilt_in(last).any(|s| s.dt == dt);
            prop_assert!(
                job.markers != Marking::Off || rebuilt_last,
                "without markers the last attempt rebuilds {dt}"
            );
            if job.markers != Marking::Before {
                prop_assert!(done_layers.contains(&(dt, StepKind::Silver)) && done_layers.contains(&(dt, StepKind::Gold)));
            }
        }
        // Markers written after a unit: nothing finished before the cut is redone.
        if job.markers == Marking::After && attempts.len() == 2 {
            let finished: BTreeSet<_> = timeline.done.iter().filter(|s| s.attempt == 0 && s.kind == StepKind::Marker).map(|s| (s.dt, s.unit)).collect();
            for s in timeline.rebuilt_in(1) {
                prop_assert!(!finished.contains(&(s.dt, s.unit)), "{s:?} redone");
            }
        }
        // Yielding with a free slot to spare keeps every scheduled run on time.
        if job.yield_to_scheduled && job.pool >= 2 {
            for g in &timeline.grants {
                prop_assert_eq!(g.got, g.asked, "{:?}", g);
            }
        }
    }
}
