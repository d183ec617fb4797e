use super::*;
use crate::engine::calendar::date;

fn every_pipeline() -> impl Iterator<Item = Pipeline> {
    (1..=31).flat_map(|day| {
        (0..=MAX_LATENESS).map(move |lateness| Pipeline {
            day: aug(day),
            lateness,
            first: aug(day.min(3)),
            last: aug(day),
        })
    })
}

#[test]
fn the_chapters_pipeline_in_each_tools_terms() {
    let c = Calendar::of(Pipeline::default());
    assert_eq!(c.built, at(aug(6), 2, 0));
    assert_eq!(c.last_change, at(aug(8), 2, 0));
    let [trigger, interval] = [&c.airflow[0], &c.airflow[1]];
    // Airflow 3's bare cron stamps the run with the moment it fires.
    assert_eq!(iso(trigger.logical_date), "2026-08-06T02:00:00+00:00");
    assert_eq!(trigger.interval.start, trigger.interval.end);
    assert_eq!(iso(interval.logical_date), "2026-08-05T02:00:00+00:00");
    assert_eq!(interval.interval.end, interval.run_after);
    assert_eq!(
        interval.backfill.args,
        [
            "--from-date",
            "2026-08-03T02:00:00+00:00",
            "--to-date",
            "2026-08-13T02:00:00+00:00",
            "--reprocess-behavior",
            "completed"
        ]
    );
    assert_eq!(trigger.backfill.args[1], "2026-08-04T02:00:00+00:00");
    // A bare --to-date is midnight: the last day's 02:00 run is after it.
    for a in &c.airflow {
        assert_eq!(a.backfill.runs.len(), 11);
        // Typed bare, 03..13 are midnights: the runs of 3 to 12 Aug 02:00.
        let rebuilt: Vec<Day> = a
            .bare
            .runs
            .iter()
            .map(|r| a.timetable.partition_of(*r))
            .collect();
        let want = match a.timetable {
            // Data intervals: the 13th is left out.
            Timetable::Interval => days(aug(3), aug(12)).collect::<Vec<_>>(),
            // The default: a good day (the 2nd) rebuilt, the 12th and 13th not.
            Timetable::Trigger => days(aug(2), aug(11)).collect(),
        };
        assert_eq!(rebuilt, want, "{:?}", a.timetable);
    }
    assert_eq!(c.dagster.range, "2026-08-03...2026-08-13");
    assert_eq!(
        c.dagster.window,
        Span {
            start: at(aug(5), 2, 0),
            end: at(aug(6), 2, 0)
        }
    );
    assert_eq!(
        c.sqlmesh.kind,
        "INCREMENTAL_BY_TIME_RANGE (time_column dt, lookback 2)"
    );
    assert_eq!(
        c.sqlmesh.runs,
        [at(aug(6), 2, 0), at(aug(7), 2, 0), at(aug(8), 2, 0)]
    );
    assert_eq!(c.dbt.lookback, 3);
    assert_eq!(c.dbt.backfill.args[3], "2026-08-14");
    assert_eq!(c.dbt.bare.runs.len(), 10);
    assert!(!c.dbt.gap.processes_day);
    let accepting: Vec<Instant> = c
        .beam
        .runs
        .iter()
        .filter(|r| r.accepts)
        .map(|r| r.run)
        .collect();
    assert_eq!(
        accepting,
        [at(aug(6), 2, 0), at(aug(7), 2, 0), at(aug(8), 2, 0)]
    );
}

#[test]
fn dbt_batches_follow_dbts_own_examples() {
    // dbt's default lookback of 1 at 02:00 re-runs yesterday and today.
    let now = at(date(2026, 8, 6), 2, 0);
    assert_eq!(dbt_batches(now, 1), [whole_day(aug(5)), whole_day(aug(6))]);
    assert_eq!(dbt_batches(now, 0), [whole_day(aug(6))]);
    // Even at midnight dbt 1.11 rounds up (its clock is naive, the
    // midnight it compares with is not): measured with MicrobatchBuilder.
    assert_eq!(dbt_batches(midnight(aug(6)), 1), dbt_batches(now, 1));
}

#[test]
fn each_tools_setting_makes_the_labs_last_run_its_last() {
    for p in every_pipeline() {
        let c = Calendar::of(p);
        let last = c.last_change;
        assert_eq!(c.sqlmesh.runs.last(), Some(&last), "{p:?}");
        assert_eq!(c.sqlmesh.runs.first(), Some(&c.built), "{p:?}");
        assert_eq!(c.dbt.runs.last(), Some(&last), "{p:?}");
        // With lookback L dbt stops a day short.
        assert_eq!(
            c.dbt.short_runs.last().map(|r| shift(r.date(), 1)),
            Some(last.date()),
            "{p:?}"
        );
        let beam_last = c
            .beam
            .runs
            .iter()
            .filter(|r| r.accepts)
            .map(|r| r.run)
            .next_back();
        assert_eq!(beam_last, Some(last), "{p:?}");
        let too_soon = c
            .beam
            .at_run_time
            .iter()
            .filter(|r| r.accepts)
            .map(|r| r.run)
            .next_back();
        assert!(too_soon < Some(last), "{p:?}");
        // Every tool's run for d fires when the lab's does.
        assert!(c.airflow.iter().all(|a| a.run_after == c.built));
        assert_eq!(c.dagster.tick, c.built);
    }
}

#[test]
fn every_backfill_covers_exactly_the_range() {
    for p in every_pipeline() {
        let c = Calendar::of(p);
        let n = days(p.first, p.last).count();
        for a in &c.airflow {
            assert_eq!(a.backfill.runs.len(), n);
            assert_eq!(a.bare.runs.len(), n - 1, "{p:?}");
        }
        assert_eq!(c.dagster.keys, days(p.first, p.last).collect::<Vec<_>>());
        let starts = |b: &Backfill<Span>| b.runs.iter().map(|s| s.start.date()).collect::<Vec<_>>();
        assert_eq!(starts(&c.sqlmesh.restate), c.dagster.keys);
        assert_eq!(starts(&c.dbt.backfill), c.dagster.keys);
        assert_eq!(c.dbt.bare.runs.len(), n - 1);
        assert_eq!(c.dbt.bare_refused, n == 1);
    }
}
