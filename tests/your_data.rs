//! The lateness lab's "your data": a user's arrival log read from CSV and
//! its completeness by allowed lateness, against numbers worked out by
//! hand for the files in `tests/data/arrivals` (the same files
//! `scripts/check-real` gives DuckDB, whose query must agree), and
//! properties over generated logs.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::{Datelike, Duration, NaiveTime};
use proptest::prelude::*;

use partition_lab::engine::arrivals::{value_text, CloseRule, Completeness};
use partition_lab::engine::calendar::{at, date};
use partition_lab::engine::lateness::Lateness;
use partition_lab::labs::lateness::arrival_csv::{read_all, LogReader, Problem};

fn run(hour: u32, minute: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(hour, minute, 0).expect("a time")
}

fn completeness(file: &str, at: NaiveTime) -> Completeness {
    let bytes = std::fs::read(format!("tests/data/arrivals/{file}")).expect("fixture");
    read_all(&bytes).expect("reads").log.at_run_time(at)
}

/// `edges.csv`, row by row, with the 02:00 run: the lateness each needs.
///  1. same day                                        L0   10.00
///  2. 23:59:59 -> 02:00:00 next day (exactly the run)  L0   20.00
///  3. 23:59:59 -> 02:00:01 next day (a second late)    L1   30.00
///  4. midnight -> 02:00 the day after (the run)        L0   40.00
///  5. 12:00+02:00 (10:00Z) -> 3 days later 01:59Z      L2    5.50
///  6. Aug 31 23:30-02:00 is Sep 1 01:30Z: September;
///     arrives Sep 3 04:00+02:00 = 02:00Z               L1  |-100|
///  7. DST morning in Europe: 01:30+01:00 -> next day
///     04:00+02:00 = 02:00Z                             L0    3
///  8. leap day 2028-02-29 -> Mar 2 02:00               L1    7
///  9. New Year's Eve -> Jan 15 12:00                   L15 1000
#[test]
fn edge_rows_need_the_lateness_worked_out_by_hand() {
    let c = completeness("edges.csv", run(2, 0));
    let curve = c.curve(15);
    let at = |l: usize| curve.get(l).copied().expect("on the curve");
    // (L, by events, by value) in hundredths of a percent, rounded down:
    // 4/9, 73/1215.5; 7/9, 210/1215.5; 8/9, 215.5/1215.5.
    assert_eq!(at(0), (0, 4444, 600));
    assert_eq!(at(1), (1, 7777, 1727));
    assert_eq!(at(2), (2, 8888, 1772));
    assert_eq!(at(14), (14, 8888, 1772));
    assert_eq!(at(15), (15, 10_000, 10_000));
    let f = c.figures(Lateness::Days(1), CloseRule::default());
    let share = |s: partition_lab::engine::arrivals::Share| (s.count, value_text(s.value));
    assert_eq!(share(f.complete), (7, "210".to_string()));
    assert_eq!(share(f.total), (9, "1215.5".to_string()));
    assert_eq!(share(f.after_final), (2, "1005.5".to_string()));
    assert_eq!(f.open_partitions, Some(2));
    assert_eq!(c.recommend(9990), Some(15));
    assert_eq!(c.recommend(1700), Some(1));
}

#[test]
fn the_run_time_moves_events_between_latenesses() {
    // At 03:00 row 3 (02:00:01) is in time for the first run.
    let three = completeness("edges.csv", run(3, 0)).curve(2);
    assert_eq!(three.first(), Some(&(0, 5555, 847)));
    // At 01:00 only the same-day arrival is complete at L = 0.
    let one = completeness("edges.csv", run(1, 0)).curve(0);
    assert_eq!(one.first(), Some(&(0, 1111, 82)));
}

#[test]
fn each_month_in_the_file_gets_its_close_date() {
    let c = completeness("edges.csv", run(2, 0));
    let f = c.figures(Lateness::Days(2), CloseRule::default());
    let months: Vec<_> = f.months.iter().map(|m| m.month).collect();
    assert_eq!(
        months,
        [(2026, 3), (2026, 8), (2026, 9), (2026, 12), (2028, 2)]
    );
    let month = |y, m| f.months.iter().find(|x| x.month == (y, m)).expect("month");
    // August: the run at 02:00 on Thu 3 Sep finalises the 31st; the 3rd
    // business day of September is that Thursday.
    let aug = month(2026, 8);
    assert_eq!(aug.final_at, Some(at(date(2026, 9, 3), 2, 0)));
    assert_eq!(aug.close_on, Some(date(2026, 9, 3)));
    assert_eq!(aug.deadline, Some(date(2026, 9, 3)));
    assert!(aug.on_time());
    assert_eq!((aug.complete.count, aug.total.count), (5, 5));
    // December: final on Sunday 3 January, so the close is Monday the 4th,
    // within the 3rd business day (Tuesday the 5th).
    let dec_ = month(2026, 12);
    assert_eq!(dec_.close_on, Some(date(2027, 1, 4)));
    assert_eq!(dec_.deadline, Some(date(2027, 1, 5)));
    assert_eq!((dec_.complete.count, dec_.value_bp), (0, 0));
    // February 2028 ends on the leap day: final on Friday 3 March.
    let feb = month(2028, 2);
    assert_eq!(feb.final_at, Some(at(date(2028, 3, 3), 2, 0)));
    assert!(feb.on_time());
    // With L = 3 August closes on Friday the 4th, a day past the rule,
    // and a 2nd-business-day rule is missed at L = 2 too.
    let late = c.figures(Lateness::Days(3), CloseRule::default());
    let aug3 = late
        .months
        .iter()
        .find(|m| m.month == (2026, 8))
        .expect("August");
    assert_eq!(aug3.close_on, Some(date(2026, 9, 4)));
    assert!(!aug3.on_time());
    let strict = c.figures(Lateness::Days(2), CloseRule { business_day: 2 });
    assert!(!strict
        .months
        .iter()
        .any(|m| m.month == (2026, 8) && m.on_time()));
}

/// `messy.csv`: columns in another order with other names' case, extra
/// columns, no value, times with and without offsets, and three rows the
/// lab cannot use.
#[test]
fn a_messy_file_is_read_by_header_names_and_its_bad_rows_reported() {
    let bytes = std::fs::read("tests/data/arrivals/messy.csv").expect("fixture");
    let loaded = read_all(&bytes).expect("reads");
    assert!(!loaded.has_value);
    assert_eq!((loaded.rows, loaded.used(), loaded.bad.total()), (9, 6, 3));
    assert_eq!(
        loaded.bad.by_problem(),
        [
            (Problem::MissingField, 1),
            (Problem::EventTime, 1),
            (Problem::ArrivalBeforeEvent, 1),
        ]
    );
    let lines: Vec<u64> = loaded.bad.examples.iter().map(|b| b.line).collect();
    assert_eq!(lines, [4, 6, 7]);
    let c = loaded.log.at_run_time(run(2, 0));
    assert_eq!(
        c.curve(3),
        [
            (0, 3333, 3333),
            (1, 6666, 6666),
            (2, 10_000, 10_000),
            (3, 10_000, 10_000)
        ]
    );
}

#[test]
fn an_event_later_than_a_year_is_never_complete_at_any_lateness() {
    let file = "event_time,arrival_time\n\
                2026-08-03T09:00:00Z,2026-08-03T09:05:00Z\n\
                2026-08-03T09:00:00Z,2027-08-05T03:00:00Z\n\
                2026-08-03T09:00:00Z,2031-01-01T00:00:00Z\n";
    let c = read_all(file.as_bytes())
        .expect("reads")
        .log
        .at_run_time(run(2, 0));
    // 367 days after the 4th at 02:00, an hour late: L = 366 is not enough.
    assert_eq!(c.recommend(10_000), None);
    assert_eq!(c.recommend(3333), Some(0));
    assert_eq!(c.curve(0), [(0, 3333, 3333)]);
    let never = c.figures(Lateness::Never, CloseRule::default());
    assert_eq!((never.count_bp, never.value_bp), (10_000, 10_000));
}

#[test]
fn never_finalising_is_complete_and_keeps_no_close_date() {
    let c = completeness("edges.csv", run(2, 0));
    let f = c.figures(Lateness::Never, CloseRule::default());
    assert_eq!(
        (f.count_bp, f.value_bp, f.open_partitions),
        (10_000, 10_000, None)
    );
    assert!(f
        .months
        .iter()
        .all(|m| m.close_on.is_none() && m.value_bp == 10_000));
}

/// A generated log: (day of August, minute of the event, minutes until it
/// arrives, value in cents).
fn log_rows() -> impl Strategy<Value = Vec<(u32, i64, i64, i64)>> {
    proptest::collection::vec(
        (1u32..=31, 0i64..1440, 0i64..(20 * 1440), -50_000i64..50_000),
        1..120,
    )
}

fn csv(rows: &[(u32, i64, i64, i64)]) -> String {
    let mut text = String::from("event_time,arrival_time,value\n");
    for (day, minute, wait, cents) in rows {
        let event = at(date(2026, 8, *day), 0, 0) + Duration::minutes(*minute);
        let arrived = event + Duration::minutes(*wait);
        text.push_str(&format!(
            "{}Z,{}+00:00,{}{}.{:02}\n",
            event.format("%Y-%m-%dT%H:%M:%S"),
            arrived.format("%Y-%m-%d %H:%M:%S"),
            if *cents < 0 { "-" } else { "" },
            cents.abs() / 100,
            cents.abs() % 100
        ));
    }
    text
}

proptest! {
    #[test]
    fn completeness_never_falls_as_lateness_grows(rows in log_rows(), hour in 0u32..24) {
        let loaded = read_all(csv(&rows).as_bytes()).expect("reads");
        let curve = loaded.log.at_run_time(run(hour, 0)).curve(25);
        for pair in curve.windows(2) {
            prop_assert!(pair[1].1 >= pair[0].1 && pair[1].2 >= pair[0].2, "{pair:?}");
        }
        // Twenty days of waiting is the most generated: L = 21 holds it all.
        prop_assert_eq!(curve.last().map(|p| (p.1, p.2)), Some((10_000, 10_000)));
    }

    #[test]
    fn shuffling_or_cutting_the_file_changes_nothing(rows in log_rows(), seed in any::<u64>(), cut in 1usize..200) {
        let straight = read_all(csv(&rows).as_bytes()).expect("reads");
        let mut shuffled = rows.clone();
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = (seed.wrapping_mul(6364136223846793005).wrapping_add(i as u64) % (i as u64 + 1)) as usize;
            shuffled.swap(i, j);
        }
        let text = csv(&shuffled);
        let mut reader = LogReader::new();
        for chunk in text.as_bytes().chunks(cut) {
            reader.feed(chunk).expect("feeds");
        }
        let other = reader.finish().expect("reads");
        // The same events (the rows kept as examples are another file's
        // lines, so the logs are compared by what they say).
        prop_assert_eq!(other.log.histogram(), straight.log.histogram());
        prop_assert_eq!((other.log.events, other.log.first_day, other.log.last_day), (straight.log.events, straight.log.first_day, straight.log.last_day));
        for hour in [0, 2, 13] {
            let curve = |c: Completeness| c.curve(25);
            prop_assert_eq!(curve(other.log.at_run_time(run(hour, 0))), curve(straight.log.at_run_time(run(hour, 0))));
        }
        let figures = |c: Completeness| c.figures(Lateness::Days(2), CloseRule::default());
        prop_assert_eq!(figures(other.log.at_run_time(run(2, 0))), figures(straight.log.at_run_time(run(2, 0))));
    }

    #[test]
    fn never_is_all_of_it(rows in log_rows()) {
        let loaded = read_all(csv(&rows).as_bytes()).expect("reads");
        let f = loaded.log.at_run_time(run(2, 0)).figures(Lateness::Never, CloseRule::default());
        prop_assert_eq!((f.count_bp, f.value_bp), (10_000, 10_000));
        prop_assert_eq!(f.complete, f.total);
        prop_assert_eq!(f.total.count, rows.len() as u64);
    }
}

/// Rows around a clock change: an arrival within three hours of it (where
/// a run's wall clock and its minutes into the day part ways), or within
/// two days after it, and its event up to three days before, to the second.
fn rows_near_changes() -> impl Strategy<Value = Vec<(i64, i64)>> {
    let arrival = prop_oneof![-3 * 3600i64..3 * 3600, 0i64..2 * 86_400];
    prop::collection::vec((arrival, 0i64..3 * 86_400), 1..60)
}

proptest! {
    /// Folded into cells or not, a row needs the smallest L whose run
    /// (the run time on local day d+1+L, read as `engine::zone` reads a
    /// skipped or repeated time) it arrived by.
    #[test]
    fn in_a_zone_each_row_needs_what_its_own_runs_say(
        rows in rows_near_changes(),
        zone in prop::sample::select(vec!["Europe/London", "America/New_York", "Australia/Sydney", "UTC"]),
        change in 0usize..2,
        hour in 0u32..4,
        half in any::<bool>(),
    ) {
        use partition_lab::engine::calendar::shift;
        use partition_lab::engine::zone::Zone;
        use partition_lab::labs::lateness::arrival_csv::read_with;
        let zone = Zone::named(zone).expect("held");
        let run = run(hour, if half { 30 } else { 0 });
        // The instants of 2026's two clock changes (UTC).
        let changes = match zone.name() {
            "Australia/Sydney" => (at(date(2026, 4, 4), 16, 0), at(date(2026, 10, 3), 16, 0)),
            "America/New_York" => (at(date(2026, 3, 8), 7, 0), at(date(2026, 11, 1), 6, 0)),
            _ => (at(date(2026, 3, 29), 1, 0), at(date(2026, 10, 25), 1, 0)),
        };
        let base = if change == 0 { changes.0 } else { changes.1 };
        let mut text = String::from("e,a\n");
        let mut needed = Vec::new();
        for (arrival, before) in &rows {
            let arrived = base + Duration::seconds(*arrival);
            let event = arrived - Duration::seconds(*before);
            text.push_str(&format!("{}Z,{}Z\n", event.format("%Y-%m-%dT%H:%M:%S"), arrived.format("%Y-%m-%dT%H:%M:%S")));
            let day = zone.day_of(event);
            let l = (0u32..)
                .find(|l| arrived <= zone.run_on(shift(day, 1 + i64::from(*l)), run))
                .expect("some run");
            // Booked by the first run at or after the arrival.
            let booked = (0i64..)
                .map(|k| shift(zone.day_of(arrived), k - 1))
                .find(|d| arrived <= zone.run_on(*d, run))
                .expect("a run");
            needed.push((l, (booked.year(), booked.month())));
        }
        let mapping = partition_lab::labs::lateness::arrival_csv::Mapping {
            event: "E".to_string(),
            arrival: "A".to_string(),
            value: None,
        };
        let loaded = read_with(text.as_bytes(), Some(mapping), zone).expect("reads");
        let c = loaded.log.at_run_time(run);
        for l in 0..6u32 {
            let f = c.figures(Lateness::Days(l), CloseRule::default());
            let expected = needed.iter().filter(|(n, _)| *n <= l).count() as u64;
            prop_assert_eq!(f.complete.count, expected, "L = {}", l);
            let mut booked: Vec<((i32, u32), u64)> = Vec::new();
            for (_, month) in needed.iter().filter(|(n, _)| *n > l) {
                match booked.iter_mut().find(|(m, _)| m == month) {
                    Some((_, n)) => *n += 1,
                    None => booked.push((*month, 1)),
                }
            }
            booked.sort();
            let got: Vec<((i32, u32), u64)> = f.adjustments_by_month.iter().map(|(m, s)| (*m, s.count)).collect();
            prop_assert_eq!(got, booked, "L = {}", l);
            let shown = loaded.log.late_rows(run, l, 5);
            for late in &shown {
                let (n, _) = needed[(late.row.line - 2) as usize];
                prop_assert_eq!(late.needed, n);
                prop_assert!(n > l);
            }
            // The nearest misses first: the first shown is the smallest miss.
            let nearest = needed.iter().map(|(n, _)| *n).filter(|n| *n > l).min();
            prop_assert_eq!(shown.first().map(|r| r.needed), nearest, "L = {}", l);
        }
    }
}

#[test]
fn columns_are_the_users_and_a_missing_one_is_named() {
    use partition_lab::engine::zone::Zone;
    use partition_lab::labs::lateness::arrival_csv::{
        header_names, read_with, HeaderProblem, LogError, Mapping,
    };
    let text = "id,Ordered At,received,amount\n1,2026-08-03T09:00:00Z,2026-08-03T09:05:00Z,4.50\n";
    assert_eq!(
        header_names(text.as_bytes(), true),
        Ok(vec![
            "id".to_string(),
            "Ordered At".to_string(),
            "received".to_string(),
            "amount".to_string()
        ])
    );
    // Cut mid-header, the start of a big file holds no whole row.
    assert_eq!(
        header_names(&text.as_bytes()[..10], false),
        Err(HeaderProblem::NoWholeRow)
    );
    assert_eq!(
        header_names(b"\n\na,b", true),
        Ok(vec!["a".to_string(), "b".to_string()])
    );
    assert_eq!(Mapping::guess(&["id".to_string()]), None);
    let mapping = Mapping {
        event: "ordered at".to_string(),
        arrival: "RECEIVED".to_string(),
        value: Some("amount".to_string()),
    };
    let loaded = read_with(text.as_bytes(), Some(mapping.clone()), Zone::UTC).expect("reads");
    assert_eq!((loaded.used(), loaded.has_value), (1, true));
    assert_eq!(
        value_text(loaded.log.at_run_time(run(2, 0)).total().value),
        "4.5"
    );
    let wrong = Mapping {
        value: Some("price".to_string()),
        ..mapping
    };
    match read_with(text.as_bytes(), Some(wrong), Zone::UTC) {
        Err(e @ LogError::NoColumn { .. }) => {
            assert!(
                e.to_string()
                    .contains("no column named \"price\" (the value)"),
                "{e}"
            )
        }
        other => panic!("read {other:?}"),
    }
}
