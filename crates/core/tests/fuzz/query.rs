//! Every page's query, read as the pages read it (`labs::link::Query`):
//! whatever a link holds, each parser gives a value and notes, the value
//! writes back to a query that reads to the same value with no note, and
//! every note is short.

use partition_lab_core::content::lesson::{step_href, step_number, LESSON};
use partition_lab_core::labs::backfill::query::{parse as backfill, parse_moment, to_query_at};
use partition_lab_core::labs::dates::query::{parse as dates, query as dates_query};
use partition_lab_core::labs::lateness::query::{parse as lateness, to_query as lateness_query};
use partition_lab_core::labs::link::{present, Query, Reading};
use partition_lab_core::labs::state_write::query::{parse as state_write, to_query};
use proptest::test_runner::TestCaseError;

use crate::driver::{ensure, fuzz, Seeds};

const TOKENS: &[&str] = &[
    "&",
    "=",
    "?",
    "+",
    "%",
    "%20",
    "%26",
    "%3D",
    "%E2%9C%93",
    "%FF",
    "%zz",
    "#",
    ",",
    "|",
    "late=",
    "crash=",
    "lookback=",
    "commit=",
    "down=",
    "catchup=",
    "run=",
    "present=",
    "pin=",
    "predict=",
    "from=",
    "concurrency=",
    "markers=",
    "sunday=",
    "writer=",
    "guess=",
    "ran=",
    "profile=",
    "lateness=",
    "after=",
    "today=",
    "compare=",
    "zone=",
    "close=",
    "target=",
    "day=",
    "first=",
    "last=",
    "lesson=",
    "design=",
    "on",
    "off",
    "0",
    "1",
    "2",
    "3",
    "8",
    "12",
    "99",
    "-1",
    "4294967296",
    "end",
    "skip",
    "none",
    "mobile",
    "yours",
    "Europe/London",
    "02:00",
    "99.9",
    "2026-08-03",
    "watermark-overwrite",
    "partition-list-merge",
    "room=",
    "0.12.3.0.1.0.2",
    "variant=",
    "5",
    "4294967295",
    "0001",
];

/// Queries the pages write, and the lesson plan's links.
pub fn written() -> Vec<Vec<u8>> {
    let none = |_: &str| None::<String>;
    let mut out = Vec::new();
    let (lab, _) = state_write(none);
    out.push(to_query(
        &lab.controls,
        3,
        true,
        lab.pinned,
        lab.guess.as_ref(),
        lab.room.as_ref(),
    ));
    let (choices, _, _) = backfill(none);
    let (moment, _) = parse_moment(choices.august, none);
    out.push(to_query_at(&choices, false, &moment));
    out.push(lateness_query(&lateness(none).0));
    out.push(dates_query(&dates(none).0));
    for n in 1..=LESSON.len() {
        if let Some(href) = step_href(n) {
            out.push(
                href.split_once('?')
                    .map_or(String::new(), |(_, q)| q.to_string()),
            );
        }
    }
    out.into_iter().map(String::into_bytes).collect()
}

fn short(notes: &[String]) -> Result<(), TestCaseError> {
    for note in notes {
        ensure(note.chars().count() <= 400 && !note.is_empty(), || {
            format!("note too long or empty: {note}")
        })?;
    }
    Ok(())
}

/// No query a page writes is longer than the lab's links may be.
fn short_enough(written: &str) -> Result<(), TestCaseError> {
    ensure(
        written.len() < partition_lab_core::address::LONGEST_LINK / 2,
        || format!("a page wrote a query of {} characters", written.len()),
    )
}

fn reads_back<T: PartialEq + std::fmt::Debug>(
    what: &str,
    first: &T,
    again: (T, Vec<String>),
) -> Result<(), TestCaseError> {
    ensure(&again.0 == first && again.1.is_empty(), || {
        format!(
            "{what}: read {first:?}, wrote it, read back {:?} with notes {:?}",
            again.0, again.1
        )
    })
}

#[test]
fn every_page_s_query() {
    let seeds = Seeds::of("query", TOKENS, written());
    fuzz("page_queries", &seeds, |bytes| {
        let raw = String::from_utf8_lossy(bytes);
        let q = Query::parse(&raw);
        let read = Reading::of(&q);
        let get = |k: &str| read.get(k);
        short(
            &q.length_note(raw.len() % 40)
                .into_iter()
                .collect::<Vec<_>>(),
        )?;
        let from = |written: String| {
            let q = Query::parse(&written);
            move |k: &str| q.get(k)
        };

        let (lab, notes) = state_write(get);
        short(&notes)?;
        let run = lab.run.unwrap_or(1);
        let (again, notes) = state_write(from(to_query(
            &lab.controls,
            run,
            lab.present,
            lab.pinned,
            lab.guess.as_ref(),
            lab.room.as_ref(),
        )));
        ensure(notes.is_empty(), || {
            format!("State x Write's own query has notes {notes:?}")
        })?;
        ensure(
            (
                again.controls,
                again.pinned,
                &again.guess,
                again.present,
                &again.room,
            ) == (lab.controls, lab.pinned, &lab.guess, lab.present, &lab.room),
            || format!("State x Write read {lab:?}, read back {again:?}"),
        )?;

        let (choices, on, notes) = backfill(get);
        short(&notes)?;
        let (moment, notes) = parse_moment(choices.august, get);
        short(&notes)?;
        let written = to_query_at(&choices, on, &moment);
        short_enough(&written)?;
        short_enough(&to_query(
            &lab.controls,
            run,
            lab.present,
            lab.pinned,
            lab.guess.as_ref(),
            lab.room.as_ref(),
        ))?;
        short_enough(&lateness_query(&lateness(get).0))?;
        short_enough(&dates_query(&dates(get).0))?;
        let (c2, on2, notes) = backfill(from(written.clone()));
        reads_back("backfill", &(choices, on), ((c2, on2), notes))?;
        reads_back(
            "backfill's moment",
            &moment,
            parse_moment(c2.august, from(written)),
        )?;

        let (settings, notes) = lateness(get);
        short(&notes)?;
        reads_back(
            "lateness",
            &settings,
            lateness(from(lateness_query(&settings))),
        )?;

        let (pipeline, notes) = dates(get);
        short(&notes)?;
        reads_back("dates", &pipeline, dates(from(dates_query(&pipeline))))?;

        let mut notes = Vec::new();
        let on = present(&get, &mut notes);
        short(&notes)?;
        let mut again = Vec::new();
        let written = if on { "present=1" } else { "present=0" };
        ensure(
            present(&from(written.to_string()), &mut again) == on && again.is_empty(),
            || "present".to_string(),
        )?;

        if let Some(n) = step_number(q.get("lesson").as_deref()) {
            ensure(step_href(n).is_some(), || {
                format!("lesson step {n} has no link")
            })?;
        }
        // Every page's keys were read: a repeat of any is said, briefly.
        short(&read.repeated())
    });
}
