//! The lesson plan's answers, checked against the labs: every link opens a
//! real lab state, and what each step says the room will see is what the
//! engine shows there.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Datelike, NaiveDate};

use partition_lab::content::lesson::{LESSON, LESSON_MINUTES};
use partition_lab::engine::calendar::date;
use partition_lab::engine::lateness::Lateness;
use partition_lab::engine::{CheckKind, Event, Outcome, RunKind, RunTrace, Script};
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
        assert_eq!(get("present").as_deref(), Some("1"), "{}", step.href);
        let notes = match path {
            "/" => Vec::new(),
            "/lab/state-write" => partition_lab::labs::state_write::query::parse(get).1,
            "/lab/lateness" => partition_lab::labs::lateness::query::parse(get).1,
            "/lab/backfill" => partition_lab::labs::backfill::query::parse(get).2,
            "/scenarios/1" => Vec::new(),
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

/// One State x Write step's week, as the lab runs it.
struct Week {
    script: Script,
    outcomes: Vec<(Cell, Outcome)>,
}

impl Week {
    fn of(href: &str) -> Self {
        let controls = partition_lab::labs::state_write::query::parse(query(href))
            .0
            .controls;
        Week {
            script: script(&controls),
            outcomes: run(&controls),
        }
    }

    fn outcome(&self, cell: Cell) -> &Outcome {
        &self.outcomes.iter().find(|(c, _)| *c == cell).unwrap().1
    }

    fn event(&self, id: &str) -> &Event {
        self.script.events.iter().find(|e| &*e.id == id).unwrap()
    }

    /// Keys that arrived during the week and are nowhere in silver, from
    /// the events and the table (not the engine's own diffs).
    fn missing(&self, cell: Cell) -> Vec<String> {
        let held: BTreeSet<String> = self
            .outcome(cell)
            .silver
            .rows()
            .map(|r| r.key.to_string())
            .collect();
        let mut keys: Vec<String> = self
            .script
            .events
            .iter()
            .map(|e| e.key.to_string())
            .filter(|k| !held.contains(k))
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// The attempts that wrote each key held more than once.
    fn duplicate_writers(&self, cell: Cell) -> Vec<Vec<&RunTrace>> {
        let o = self.outcome(cell);
        let mut by_key: BTreeMap<String, Vec<&RunTrace>> = BTreeMap::new();
        for row in o.silver.rows() {
            by_key
                .entry(row.key.to_string())
                .or_default()
                .push(&o.runs[row.written_by]);
        }
        by_key.into_values().filter(|w| w.len() > 1).collect()
    }
}

fn on(day: u32) -> NaiveDate {
    date(2026, 6, day)
}

const ON_TIME_MONDAY: [&str; 4] = ["o-101", "o-102", "o-103", "o-104"];

/// Each fact the two State x Write notes state, from the trace: which run
/// read the late order, which run deleted which rows, what made the
/// duplicates, and that the note names those ids and runs.
#[test]
fn the_state_write_steps_say_what_the_lab_shows() {
    // Step 2: the late order arrives Tuesday 03:10.
    let step = LESSON[1];
    let week = Week::of(step.href);
    assert_eq!(silent(step.href), vec![Cell::WatermarkOverwrite]);
    let late = week.event("o-105");
    assert_eq!((late.event_date(), late.arrived_at.date()), (on(1), on(2)));
    // Watermark + Overwrite: Tuesday's run reads o-105 and, writing Monday,
    // removes exactly the four on-time orders; o-105 itself is kept.
    let wo = week.outcome(Cell::WatermarkOverwrite);
    let deleter = deletes_monday(wo);
    assert_eq!(deleter.day, on(2));
    assert!(deleter.read_ids.iter().any(|id| &**id == "o-105"));
    assert_eq!(week.missing(Cell::WatermarkOverwrite), ON_TIME_MONDAY);
    assert!(wo.silver.rows().any(|r| &*r.id == "o-105"));
    // ... and the watermark has passed them: no later run reads them.
    let after: Vec<&RunTrace> = wo.runs.iter().filter(|r| r.at > deleter.at).collect();
    assert!(after
        .iter()
        .all(|r| r.read_ids.iter().all(|id| !ON_TIME_MONDAY.contains(&&**id))));
    // Watermark + Append: every duplicate was written by Wednesday's crashed
    // attempt and by its retry.
    let wa = week.duplicate_writers(Cell::WatermarkAppend);
    assert!(!wa.is_empty());
    for writers in &wa {
        assert!(writers.iter().all(|r| r.day == on(3)));
        assert!(
            writers.iter().any(|r| r.crashed) && writers.iter().any(|r| r.kind == RunKind::Retry)
        );
    }
    // Partition list + Append: most duplicates were written by runs of
    // different days (the lookback re-reading yesterday), not by the retry.
    let la = week.duplicate_writers(Cell::ListAppend);
    let by_lookback = la
        .iter()
        .filter(|w| w.iter().map(|r| r.day).collect::<BTreeSet<_>>().len() > 1)
        .count();
    assert!(by_lookback * 2 > la.len(), "{by_lookback} of {}", la.len());
    assert!(la
        .iter()
        .any(|w| w.iter().any(|r| r.kind == RunKind::Retry)));
    // Partition list + Overwrite: Tuesday's run re-reads Monday and o-105.
    let lo = week.outcome(Cell::ListOverwrite);
    let tuesday = lo.runs.iter().find(|r| r.day == on(2)).unwrap();
    assert!(tuesday.partitions_read.contains(&on(1)));
    assert!(tuesday.read_ids.iter().any(|id| &**id == "o-105"));
    assert!(week.missing(Cell::ListOverwrite).is_empty());
    assert_eq!(lo.silver.partition(on(1)).len(), 5);
    // The trailing window re-reads the same days, remembering none of them.
    let tw = week.outcome(Cell::WindowOverwrite);
    for (t, l) in tw.runs.iter().zip(&lo.runs) {
        assert_eq!(t.partitions_read, l.partitions_read);
        assert_eq!(t.state_after, partition_lab::engine::StateValue::Nothing);
    }
    assert!(week.missing(Cell::WindowOverwrite).is_empty());
    assert_eq!(tw.silver.partition(on(1)).len(), 5);
    for said in [
        "o-105 arrives after the watermark, so Tuesday's run reads it",
        "deleting the four on-time orders o-101 to o-104",
        "Watermark + Append through the retry of Wednesday's crashed run",
        "Partition list + Append mostly through its lookback",
        "re-reads Monday within its one-day lookback and keeps all five",
        "and so does the trailing window, which re-reads the same days remembering none of them",
    ] {
        assert!(step.shows.contains(said), "step 2 no longer says: {said}");
    }

    // Step 3: the late order arrives Wednesday 03:10.
    let step = LESSON[2];
    let week = Week::of(step.href);
    assert_eq!(
        silent(step.href),
        vec![
            Cell::WatermarkOverwrite,
            Cell::ListOverwrite,
            Cell::WindowOverwrite
        ]
    );
    let late = week.event("o-105");
    assert_eq!(late.arrived_at.date(), on(3));
    // Partition list + Overwrite: Tuesday's run re-read Monday before o-105
    // arrived, and no later run reads Monday again.
    let lo = week.outcome(Cell::ListOverwrite);
    let tuesday = lo.runs.iter().find(|r| r.day == on(2)).unwrap();
    assert!(tuesday.partitions_read.contains(&on(1)) && tuesday.at < late.arrived_at);
    assert!(lo
        .runs
        .iter()
        .filter(|r| r.at > late.arrived_at)
        .all(|r| !r.partitions_read.contains(&on(1))));
    assert_eq!(week.missing(Cell::ListOverwrite), ["o-105"]);
    // The window passed Monday too: no run after o-105 arrived reads it.
    assert_eq!(week.missing(Cell::WindowOverwrite), ["o-105"]);
    assert!(week
        .outcome(Cell::WindowOverwrite)
        .runs
        .iter()
        .filter(|r| r.at > late.arrived_at)
        .all(|r| !r.partitions_read.contains(&on(1))));
    assert!(!lo.checks.passed(CheckKind::ReconcileVsBronze));
    // Watermark + Overwrite: now Wednesday's run deletes Monday's four.
    let wo = week.outcome(Cell::WatermarkOverwrite);
    let deleter = deletes_monday(wo);
    assert_eq!(deleter.day, on(3));
    assert!(deleter.read_ids.iter().any(|id| &**id == "o-105"));
    assert_eq!(week.missing(Cell::WatermarkOverwrite), ON_TIME_MONDAY);
    for said in [
        "o-105 now arrives on Wednesday, after Tuesday's run re-read Monday",
        "Partition list + Overwrite loses it silently too",
        "only reconciling against bronze notices",
        "deletes o-101 to o-104, now when Wednesday's run overwrites Monday with o-105 alone",
    ] {
        assert!(step.shows.contains(said), "step 3 no longer says: {said}");
    }
}

/// The first attempt whose write of Monday removed rows, and it removed
/// exactly Monday's four on-time orders.
fn deletes_monday(outcome: &Outcome) -> &RunTrace {
    let run = outcome
        .runs
        .iter()
        .find(|r| {
            r.writes
                .iter()
                .any(|w| w.dt == on(1) && !w.removed.is_empty())
        })
        .expect("a run that deleted rows of Monday");
    let mut removed: Vec<String> = run
        .writes
        .iter()
        .filter(|w| w.dt == on(1))
        .flat_map(|w| w.removed.iter().map(|id| id.to_string()))
        .collect();
    removed.sort();
    assert_eq!(removed, ON_TIME_MONDAY);
    run
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
    // 31 Aug is last changed by the 02:00 run on d + 1 + L = 6 Sep, a
    // Sunday; the close is the next business day, two after the deadline.
    let final_run = partition_lab::engine::calendar::at(
        date(2026, 8, 31) + chrono::Duration::days(1 + 5),
        2,
        0,
    );
    assert_eq!(five.last_final_at, Some(final_run));
    assert_eq!(final_run.date().weekday(), chrono::Weekday::Sun);
    assert_eq!(five.close_on, Some(date(2026, 9, 7)));
    assert_eq!(five.business_days_late(), Some(2));
    assert_eq!(
        (two.open_partitions, five.open_partitions),
        (Some(3), Some(6))
    );
    for said in [
        "doubles the partitions every night rebuilds (3 to 6)",
        "31 August is only final after the 02:00 run on Sunday 6 September",
        "finance cannot close before Monday 7 September, two business days after Thursday's deadline",
    ] {
        assert!(step.shows.contains(said), "step 4 no longer says: {said}");
    }
}

#[test]
fn the_backfill_steps_say_what_the_lab_shows() {
    use partition_lab::labs::backfill::case::{aug, backfill_start, Case};
    let case = Case::new();
    let step = LESSON[4];
    let (choices, _, _) = partition_lab::labs::backfill::query::parse(query(step.href));
    assert_eq!(case.blast_radius().first(), Some(&aug(3)));
    let plan = choices.plan();
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
    full.from = partition_lab::labs::backfill::August::CHAPTER.ship;
    assert_eq!(full.plan().dates().len(), 11);
    full.concurrency = partition_lab::labs::backfill::Concurrency::Twelve;
    let twelve = full.plan().minutes();
    full.concurrency = partition_lab::labs::backfill::Concurrency::Four;
    assert_eq!(
        full.plan().minutes(),
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

/// The closing step: scenario 1 designed with the room. The designs it
/// names pass or fail as it says, the second reads about half the rows of
/// the first, and each failure's cause is the mechanism it states.
#[test]
fn the_closing_step_says_what_the_scenario_shows() {
    use partition_lab::scenarios::catalogue::designs;
    use partition_lab::scenarios::grading::grade::{at_once, Judged};
    use partition_lab::scenarios::stories::clicks::SCENARIO;
    use partition_lab::tutor::{diagnoses, Case, Cause};
    let step = LESSON[6];
    assert!(step.href.starts_with("/scenarios/1?"));
    let known = designs(&SCENARIO);
    let run = |name: &str| {
        let k = known.iter().find(|k| k.name == name).expect(name);
        let (report, judged) = at_once(&SCENARIO, &k.graph, SCENARIO.script());
        let judged = judged.expect("ran");
        let case = Case {
            scenario: &SCENARIO,
            graph: &k.graph,
            script: SCENARIO.script(),
            judged: &judged,
        };
        let causes: Vec<(&str, Option<Cause>)> = diagnoses(&case, &report)
            .into_iter()
            .map(|(id, d)| (id, d.map(|d| d.cause)))
            .collect();
        let read = match &judged {
            Judged::Daily(d) => d.outcome.runs.iter().map(|r| r.rows_read).sum::<usize>(),
            Judged::Backfill(..) => panic!("a daily design"),
        };
        (report, causes, read)
    };
    let (list, _, list_read) =
        run("a partition list with a day of lookback, overwriting each partition");
    let (mark, _, mark_read) = run("a watermark on arrival, merging on the click id");
    assert!(list.passed() && mark.passed());
    assert!(step.shows.contains("meets all three requirements"));
    // "about half as many rows"
    assert!(
        mark_read * 10 >= list_read * 4 && mark_read * 10 <= list_read * 6,
        "{mark_read} of {list_read}"
    );
    assert!(step.shows.contains("about half as many rows"));
    let (_, causes, _) = run("a watermark, overwriting each partition");
    assert_eq!(
        causes,
        vec![
            ("R1", Some(Cause::OverwriteWithPart)),
            ("R2", Some(Cause::OverwriteWithPart))
        ]
    );
    assert!(step.shows.contains("fails R1 and R2"));
    let (_, causes, _) = run("a partition list, appending");
    assert_eq!(causes, vec![("R2", Some(Cause::AppendReadAgain))]);
    assert!(step.shows.contains("fails R2: the retry"));
}
