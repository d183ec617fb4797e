//! The lesson plan's answers, checked against the labs: every link opens a
//! real lab state, and what each step says the room will see is what the
//! engine shows there.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use partition_lab::content::lesson::{LESSON, LESSON_MINUTES};
use partition_lab::engine::calendar::date;
use partition_lab::engine::lateness::Lateness;
use partition_lab::labs::state_write::explain::{verdict, VerdictKind};
use partition_lab::labs::state_write::model::{run, script, Cell};

fn query(href: &str) -> impl Fn(&str) -> Option<String> + '_ {
    let (_, q) = href.split_once('?').unwrap_or((href, ""));
    move |key| {
        q.split('&')
            .filter_map(|p| p.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn fifty_minutes_every_link_a_lab_state_in_presenter_mode() {
    assert_eq!(
        LESSON.iter().map(|s| s.minutes).sum::<u32>(),
        LESSON_MINUTES
    );
    for step in LESSON {
        let path = step.href.split('?').next().unwrap();
        let get = query(step.href);
        if path != "/" {
            assert_eq!(get("present").as_deref(), Some("1"), "{}", step.href);
        }
        let notes = match path {
            "/" => Vec::new(),
            "/lab/state-write" => partition_lab::labs::state_write::query::parse(get).1,
            "/lab/lateness" => partition_lab::labs::lateness::query::parse(get).1,
            "/lab/backfill" => partition_lab::labs::backfill::query::parse(get).2,
            other => panic!("{other} is not a lab"),
        };
        assert!(notes.is_empty(), "{}: {notes:?}", step.href);
    }
}

fn silent(href: &str) -> Vec<Cell> {
    let controls = partition_lab::labs::state_write::query::parse(query(href))
        .0
        .controls;
    let script = script(&controls);
    run(&controls)
        .into_iter()
        .filter(|(cell, o)| {
            verdict(o, &cell.config(&controls), &script).kind == VerdictKind::Silent
        })
        .map(|(cell, _)| cell)
        .collect()
}

#[test]
fn the_state_write_steps_say_what_the_lab_shows() {
    let first = LESSON[1];
    assert_eq!(silent(first.href), vec![Cell::WatermarkOverwrite]);
    assert!(first.shows.starts_with("Watermark + Overwrite"));
    let second = LESSON[2];
    assert_eq!(
        silent(second.href),
        vec![Cell::WatermarkOverwrite, Cell::ListOverwrite]
    );
    assert!(second
        .shows
        .contains("Partition list + Overwrite loses it silently too"));
    for step in [first, second] {
        let controls = partition_lab::labs::state_write::query::parse(query(step.href))
            .0
            .controls;
        let script = script(&controls);
        for (cell, o) in run(&controls) {
            if matches!(cell, Cell::WatermarkAppend | Cell::ListAppend) {
                assert_eq!(
                    verdict(&o, &cell.config(&controls), &script).kind,
                    VerdictKind::Loud
                );
            }
        }
    }
}

#[test]
fn the_lateness_step_says_what_the_lab_shows() {
    let step = LESSON[3];
    let settings = partition_lab::labs::lateness::query::parse(query(step.href)).0;
    let study = partition_lab::labs::lateness::study(settings.profile);
    let two = study.figures(settings.lateness);
    let five = study.figures(Lateness::Days(5));
    assert_eq!(settings.lateness, Lateness::Days(2));
    assert!(five.complete_value_bp > two.complete_value_bp);
    assert!(
        five.complete_value_bp - two.complete_value_bp < 100,
        "a fraction of a percent"
    );
    assert_eq!(
        (two.open_partitions, five.open_partitions),
        (Some(3), Some(6))
    );
    assert!(two.on_time() && !five.on_time());
    assert_eq!(two.deadline, Some(date(2026, 9, 3)));
    assert_eq!(five.close_on, Some(date(2026, 9, 7)));
}

#[test]
fn the_backfill_steps_say_what_the_lab_shows() {
    use partition_lab::labs::backfill::case::{aug, backfill_start, Case};
    let case = Case::new();
    let step = LESSON[4];
    let (choices, _, _) = partition_lab::labs::backfill::query::parse(query(step.href));
    assert_eq!(case.blast_radius().first(), Some(&aug(3)));
    let plan = case.plan(&choices);
    assert_eq!(plan.first, aug(8));
    let left: Vec<_> = case
        .blast_radius()
        .into_iter()
        .filter(|d| *d < plan.first)
        .collect();
    assert_eq!(
        left,
        partition_lab::engine::calendar::days(aug(3), aug(7)).collect::<Vec<_>>()
    );
    let mut full = choices;
    full.from = partition_lab::labs::backfill::PlanStart::Third;
    assert_eq!(case.plan(&full).dates().len(), 11);
    full.concurrency = partition_lab::labs::backfill::Concurrency::Twelve;
    let twelve = case.plan(&full).minutes();
    full.concurrency = partition_lab::labs::backfill::Concurrency::Four;
    assert_eq!(
        case.plan(&full).minutes(),
        twelve,
        "12 at once is no faster than 4"
    );

    // Interrupted in the second wave: without markers the finished first
    // wave is rebuilt; with markers only what was in flight.
    let step = LESSON[5];
    let (without, _, _) = partition_lab::labs::backfill::query::parse(query(step.href));
    assert!(!without.markers);
    let twice = |markers: bool| {
        let choices = partition_lab::labs::backfill::Choices { markers, ..without };
        let cut = backfill_start() + chrono::Duration::minutes(7);
        let first = case.execute_until(&choices, &[], backfill_start(), Some(cut));
        let again = case.execute_until(
            &choices,
            std::slice::from_ref(&first),
            cut + chrono::Duration::minutes(30),
            None,
        );
        let silver = |e: &partition_lab::labs::backfill::run::Execution| {
            e.done
                .iter()
                .filter(|s| s.kind == partition_lab::engine::clock::StepKind::Silver)
                .map(|s| s.dt)
                .collect::<Vec<_>>()
        };
        let done_before = silver(&first);
        silver(&again)
            .into_iter()
            .filter(|d| done_before.contains(d))
            .count()
    };
    assert!(
        twice(false) >= 4,
        "without markers the first wave is rebuilt"
    );
    assert_eq!(twice(true), 0, "with markers nothing finished is rebuilt");
}
