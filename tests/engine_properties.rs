//! Properties of the engine over generated scripts: what idempotency buys,
//! what a lookback guarantees, what a misplaced state save costs, what a
//! merge, a full refresh, a watermark overlap, a manual re-run and a
//! finaliser promise (SPEC 2).
//!
//! Every property that is about a fault checks that the fault happened in
//! the trace (a crash that read rows, a late row, an arrival between a
//! crash and its retry), so an engine that ignored the fault would fail it
//! instead of passing it vacuously.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;
use std::collections::{BTreeMap, BTreeSet};

use chrono::{Duration, NaiveDate, NaiveDateTime, Timelike};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use partition_lab::engine::calendar::{at, days, shift};
use partition_lab::engine::generate::{workload, DelayProfile};
use partition_lab::engine::table::Table;
use partition_lab::engine::{
    simulate, simulate_with, AfterFinal, CommitOrder, Detail, Event, Finaliser, MergeKey, Money,
    Outcome, PipelineConfig, ProcessingState, RunKind, RunSpec, RunTrace, Script, StateValue,
    WatermarkColumn, WriteMode,
};

fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 6, 1).expect("valid date")
}

/// One version of a generated order: minutes after the previous version
/// it was made, and how long after being made it arrives.
#[derive(Clone, Debug)]
struct GenVersion {
    gap_minutes: i64,
    delay_minutes: i64,
    days_late: i64,
}

/// One generated order: its day, time of day, and its versions (the first
/// made when the order happened, each later one strictly later).
#[derive(Clone, Debug)]
struct GenOrder {
    day: u32,
    hour: u32,
    minute: u32,
    versions: Vec<GenVersion>,
}

/// An operator re-running day `on_day - 1 - back` by hand during `on_day`.
#[derive(Clone, Debug)]
struct GenManual {
    on_day: u32,
    back: u32,
    hour: u32,
    minute: u32,
    crashes: bool,
}

#[derive(Clone, Debug)]
struct GenScript {
    days: u32,
    /// Orders change (several versions per key, ids distinct from keys);
    /// otherwise every order is one immutable event.
    mutable: bool,
    orders: Vec<GenOrder>,
    crashes: Vec<bool>,
    /// Days the scheduler never ran (never the last): the next run must
    /// pick them up as dates not yet done.
    skipped: Vec<bool>,
    /// A crashed run whose day crashes a second time before the retry.
    double_crashes: Vec<bool>,
    manual: Vec<GenManual>,
    /// Minutes from a scheduled run's crash to its retry.
    retry_after: i64,
    /// No row arrives between a crash and its retry, so a retry sees
    /// exactly what its crashed attempt saw.
    fair: bool,
}

/// Scheduled runs happen at 00:15 the day after their logical day.
fn run_at(day: NaiveDate) -> NaiveDateTime {
    at(shift(day, 1), 0, 15)
}

impl GenScript {
    fn events(&self) -> Vec<Event> {
        let mut events = Vec::new();
        for (n, o) in self.orders.iter().enumerate() {
            let happened = at(shift(start(), i64::from(o.day)), o.hour, o.minute);
            let mut updated = happened;
            let versions = if self.mutable { o.versions.len() } else { 1 };
            for (k, v) in o.versions.iter().take(versions).enumerate() {
                if k > 0 {
                    updated += Duration::minutes(v.gap_minutes);
                }
                let mut arrived =
                    updated + Duration::minutes(v.delay_minutes) + Duration::days(v.days_late);
                // Fair scripts keep the crash-to-retry windows (00:15, 00:20]
                // free of arrivals.
                let minute_of_day = arrived.hour() * 60 + arrived.minute();
                if self.fair && (16..=20).contains(&minute_of_day) {
                    arrived = at(arrived.date(), 0, 21);
                }
                let amount = Money::gbp(100 + 10 * n as i64 + k as i64);
                let event = if self.mutable {
                    Event {
                        id: format!("o-{n}-v{k}").into(),
                        key: format!("o-{n}").into(),
                        event_time: happened,
                        updated_at: updated,
                        arrived_at: arrived,
                        amount,
                        status: None,
                        withdrawn_at: None,
                    }
                } else {
                    Event::immutable(&format!("o-{n}"), happened, arrived, amount)
                };
                events.push(event);
            }
        }
        events
    }

    /// The scheduled runs (each possibly crashing, once or twice, and
    /// retried), then the manual re-runs that fit between them.
    fn runs(&self, with_crashes: bool, with_manual: bool) -> Vec<RunSpec> {
        let mut runs = Vec::new();
        // Every instant any variant of this script runs at, so the manual
        // runs kept are the same with and without crashes.
        let mut taken = BTreeSet::new();
        for d in self.scheduled_days() {
            let day = shift(start(), i64::from(d));
            let t = run_at(day);
            let crash = self.crashes[d as usize];
            let double = crash && self.double_crashes[d as usize];
            taken.insert(t);
            taken.insert(t + Duration::minutes(self.retry_after));
            taken.insert(t + Duration::minutes(2));
            taken.insert(t + Duration::minutes(4));
            let run = RunSpec::scheduled(t, day);
            if with_crashes && crash {
                runs.push(run.crashing(t + Duration::minutes(self.retry_after)));
            } else {
                runs.push(run);
            }
            // The engine cannot make a retry crash (it queues every retry
            // as a clean attempt); the nearest it can express is a second
            // crashing attempt for the same day before the first is retried.
            if with_crashes && double {
                runs.push(RunSpec {
                    at: t + Duration::minutes(2),
                    day,
                    kind: RunKind::Retry,
                    crash_then_retry_at: Some(t + Duration::minutes(4)),
                });
            }
        }
        if with_manual {
            for m in &self.manual {
                let when = at(shift(start(), i64::from(m.on_day)), m.hour, m.minute);
                if !taken.insert(when) {
                    continue;
                }
                let past = i64::from(m.on_day) - 1 - i64::from(m.back);
                let run = RunSpec::manual(when, shift(start(), past.max(0)));
                // The scheduler retries at once.
                runs.push(if with_crashes && m.crashes {
                    run.crashing(when)
                } else {
                    run
                });
            }
        }
        runs
    }

    fn build(&self, with_crashes: bool, with_manual: bool) -> Script {
        Script::new(start(), self.events(), self.runs(with_crashes, with_manual))
    }

    fn script(&self, with_crashes: bool) -> Script {
        self.build(with_crashes, true)
    }

    /// The days with a scheduled run, in order; the last day always has one.
    fn scheduled_days(&self) -> Vec<u32> {
        (0..self.days)
            .filter(|&d| d + 1 == self.days || !self.skipped[d as usize])
            .collect()
    }

    /// The most days any row arrived after its event date.
    fn max_days_late(&self) -> u32 {
        self.events()
            .iter()
            .map(|e| (e.arrived_at.date() - e.event_date()).num_days() as u32)
            .max()
            .unwrap_or(0)
    }

    /// The last scheduled run's instant: every row arrived by then is read
    /// by an attempt that succeeds.
    fn last_scheduled(&self) -> NaiveDateTime {
        run_at(shift(start(), i64::from(self.days) - 1))
    }
}

fn gen_days_late() -> impl Strategy<Value = i64> {
    prop_oneof![4 => Just(0i64), 2 => Just(1i64), 1 => 2i64..=3]
}

/// `fair`: see [`GenScript::fair`]; unfair scripts retry up to 20 hours
/// after a crash, so rows arrive in between. `skips`: some days have no
/// scheduled run (properties that rely on a lookback covering lateness
/// need every day run, so they leave this off).
fn gen_script_with(fair: bool, skips: bool) -> impl Strategy<Value = GenScript> {
    (2u32..9).prop_flat_map(move |days| {
        let version = (1i64..=600, 1i64..=120, gen_days_late()).prop_map(
            |(gap_minutes, delay_minutes, days_late)| GenVersion {
                gap_minutes,
                delay_minutes,
                days_late,
            },
        );
        let order = (
            0..days,
            1u32..22,
            0u32..60,
            prop::collection::vec(version, 1..=3),
        )
            .prop_map(|(day, hour, minute, versions)| GenOrder {
                day,
                hour,
                minute,
                versions,
            });
        let manual = (
            1..days,
            0u32..4,
            2u32..24,
            0u32..60,
            prop::bool::weighted(0.3),
        )
            .prop_map(|(on_day, back, hour, minute, crashes)| GenManual {
                on_day,
                back,
                hour,
                minute,
                crashes,
            });
        let retry_after = if fair {
            Just(5i64).boxed()
        } else {
            (5i64..=1200).boxed()
        };
        (
            Just(days),
            prop::bool::weighted(0.7),
            prop::collection::vec(order, 0..30),
            prop::collection::vec(any::<bool>(), days as usize),
            prop::collection::vec(prop::bool::weighted(0.2), days as usize),
            prop::collection::vec(prop::bool::weighted(0.25), days as usize),
            prop::collection::vec(manual, 0..4),
            retry_after,
        )
            .prop_map(
                move |(
                    days,
                    mutable,
                    orders,
                    crashes,
                    skipped,
                    double_crashes,
                    manual,
                    retry_after,
                )| {
                    GenScript {
                        days,
                        mutable,
                        orders,
                        crashes,
                        skipped: if skips {
                            skipped
                        } else {
                            vec![false; days as usize]
                        },
                        double_crashes,
                        manual,
                        retry_after,
                        fair,
                    }
                },
            )
    })
}

/// Fair, every day run.
fn gen_script() -> impl Strategy<Value = GenScript> {
    gen_script_with(true, false)
}

/// Fair, some days skipped.
fn gen_gappy_script() -> impl Strategy<Value = GenScript> {
    gen_script_with(true, true)
}

fn gen_watermark() -> impl Strategy<Value = ProcessingState> {
    prop_oneof![
        2 => Just(ProcessingState::watermark()),
        1 => (1u32..=1500).prop_map(|overlap_minutes| ProcessingState::Watermark {
            column: WatermarkColumn::ArrivedAt,
            overlap_minutes,
        }),
    ]
}

fn gen_state() -> impl Strategy<Value = ProcessingState> {
    prop_oneof![
        3 => gen_watermark(),
        3 => (0u32..4).prop_map(ProcessingState::partition_list),
        1 => Just(ProcessingState::None),
    ]
}

fn gen_commit() -> impl Strategy<Value = CommitOrder> {
    prop_oneof![
        Just(CommitOrder::StateAfterWrite),
        Just(CommitOrder::StateBeforeWrite)
    ]
}

fn gen_after_final() -> impl Strategy<Value = AfterFinal> {
    prop_oneof![
        Just(AfterFinal::Drop),
        Just(AfterFinal::Adjustments),
        Just(AfterFinal::Reopen)
    ]
}

fn gen_finaliser() -> impl Strategy<Value = Finaliser> {
    (0u32..4, gen_after_final()).prop_map(|(allowed_lateness_days, after_final)| Finaliser {
        allowed_lateness_days,
        after_final,
    })
}

/// Each partition's rows as (id, version), order ignored.
type Content = BTreeMap<NaiveDate, Vec<(String, NaiveDateTime)>>;

fn content(table: &Table) -> Content {
    table
        .partitions()
        .map(|(dt, rows)| {
            let mut rows: Vec<_> = rows
                .iter()
                .map(|r| (r.id.to_string(), r.updated_at))
                .collect();
            rows.sort();
            (dt, rows)
        })
        .collect()
}

/// Straight from the events: the latest version (by `updated_at`, unique
/// per key by construction) of each key among `events`, under its event date.
fn latest<'a>(events: impl IntoIterator<Item = &'a Event>) -> Content {
    let mut by_key: BTreeMap<&str, &Event> = BTreeMap::new();
    for e in events {
        let held = by_key.entry(&*e.key).or_insert(e);
        if e.updated_at > held.updated_at {
            *held = e;
        }
    }
    let mut out = Content::new();
    for e in by_key.values() {
        out.entry(e.event_date())
            .or_default()
            .push((e.id.to_string(), e.updated_at));
    }
    for rows in out.values_mut() {
        rows.sort();
    }
    out
}

fn arrived_by(events: &[Event], t: NaiveDateTime) -> impl Iterator<Item = &Event> {
    events.iter().filter(move |e| e.arrived_at <= t)
}

fn by_id(events: &[Event]) -> BTreeMap<&str, &Event> {
    events.iter().map(|e| (&*e.id, e)).collect()
}

fn ids(run: &RunTrace) -> BTreeSet<String> {
    run.read_ids.iter().map(|id| id.to_string()).collect()
}

fn keys(outcome: &Outcome) -> BTreeSet<String> {
    outcome.silver.rows().map(|r| r.key.to_string()).collect()
}

/// Every instant some attempt of `script` runs at.
fn attempt_instants(script: &Script) -> Vec<NaiveDateTime> {
    let mut all: Vec<_> = script
        .runs
        .iter()
        .flat_map(|r| std::iter::once(r.at).chain(r.crash_then_retry_at))
        .collect();
    all.sort();
    all
}

/// The versions every processing state reads: those that arrived by the
/// first attempt that can target their day (see [`first_attempt_reaching`]).
/// A list targets every day up to its run's own that is not yet done, and
/// no earlier attempt can have marked this one done; a watermark or a full
/// refresh reads every arrival. A manual re-run counts: it marks its day
/// done like any run, so a version arriving after it may never be read by
/// a list without the lookback to reach back (issue #28).
fn surely_read(script: &Script) -> Vec<&Event> {
    script
        .events
        .iter()
        .filter(|e| {
            first_attempt_reaching(script, e.event_date()).is_some_and(|t| e.arrived_at <= t)
        })
        .collect()
}

/// The instant of the first attempt of any kind whose day is `day` or later:
/// the first that can target `day`, since a partition list targets only
/// days up to its run's own, and so the first that can mark it done.
fn first_attempt_reaching(script: &Script, day: NaiveDate) -> Option<NaiveDateTime> {
    script
        .runs
        .iter()
        .filter(|r| r.day >= day)
        .map(|r| r.at)
        .min()
}

/// From the script alone: some crashing attempt must read a row whatever
/// the processing state, because a row of its own day arrived after every
/// earlier attempt and by the crash (a list targets the run's own day; a
/// watermark is never past an earlier attempt's instant; a full refresh
/// reads everything).
fn crash_can_bite(script: &Script) -> bool {
    let instants = attempt_instants(script);
    script
        .runs
        .iter()
        .filter(|r| r.crash_then_retry_at.is_some())
        .any(|r| {
            let prev = instants.iter().filter(|t| **t < r.at).max();
            script.events.iter().any(|e| {
                e.event_date() == r.day
                    && e.arrived_at <= r.at
                    && prev.is_none_or(|p| e.arrived_at > *p)
            })
        })
}

/// From the trace: every planned crash happened and was retried cleanly at
/// its planned instant, and at least one crashed attempt had read rows.
fn check_crashes_bit(script: &Script, outcome: &Outcome) -> Result<(), TestCaseError> {
    let planned: Vec<&RunSpec> = script
        .runs
        .iter()
        .filter(|r| r.crash_then_retry_at.is_some())
        .collect();
    let crashed: Vec<&RunTrace> = outcome.runs.iter().filter(|r| r.crashed).collect();
    prop_assert_eq!(crashed.len(), planned.len(), "crashed attempts");
    for spec in planned {
        prop_assert!(
            crashed.iter().any(|r| r.at == spec.at && r.day == spec.day),
            "planned crash {:?} not in the trace",
            spec
        );
        prop_assert!(
            outcome.runs.iter().any(|r| r.kind == RunKind::Retry
                && !r.crashed
                && r.day == spec.day
                && Some(r.at) == spec.crash_then_retry_at),
            "crash {:?} not retried",
            spec
        );
    }
    prop_assert!(
        crashed.iter().any(|r| r.rows_read > 0),
        "no crashed attempt read a row"
    );
    Ok(())
}

/// Silver at the end is the latest version of every key that arrived by the
/// last attempt, each under its event date: the truth, computed from the
/// events alone (not from the engine's own diffs). The last attempt is one
/// that did not crash, so it is the end of the script.
fn ends_as_the_truth(script: &Script, outcome: &Outcome) -> Result<(), TestCaseError> {
    let last = outcome.runs.last().expect("a run");
    prop_assert!(!last.crashed, "the script ends with a crash: {:?}", last);
    prop_assert_eq!(
        content(&outcome.silver),
        latest(arrived_by(&script.events, last.at))
    );
    Ok(())
}

/// No key held twice, and every row under its event's date: from the
/// events alone.
fn once_each_under_its_day(script: &Script, outcome: &Outcome) -> Result<(), TestCaseError> {
    let events = by_id(&script.events);
    let mut held = BTreeSet::new();
    for row in outcome.silver.rows() {
        prop_assert!(held.insert(row.key.to_string()), "{} held twice", row.key);
        prop_assert_eq!(
            row.dt,
            events[&*row.id].event_date(),
            "{} filed under another day",
            row.id
        );
    }
    Ok(())
}

/// Lost or booked/dropped rows as ids.
fn strings(ids: &[partition_lab::engine::Id]) -> BTreeSet<String> {
    ids.iter().map(|id| id.to_string()).collect()
}

proptest! {
    #![proptest_config(cases::cases(256))]

    /// Catches a retry that does more than redo its write (an overwrite
    /// that merges, a merge that duplicates), a crash that finalises or
    /// books late rows, and (with the crash check) an engine that ignores
    /// crashes altogether.
    #[test]
    fn overwrite_and_merge_are_idempotent_under_any_retry_pattern(
        script in gen_gappy_script(),
        state in gen_state(),
        merge in any::<bool>(),
        finaliser in prop::option::of(gen_finaliser()),
    ) {
        // The emulated double crash adds a second clean retry, and an
        // overwrite behind an overlapping watermark is not idempotent under
        // an extra run (it re-reads the overlap and replaces the partition
        // with it, as SPEC 2 says), so that pairing gets single crashes.
        let overlapping = matches!(state, ProcessingState::Watermark { overlap_minutes, .. } if overlap_minutes > 0);
        let script = if overlapping && !merge {
            GenScript { double_crashes: vec![false; script.days as usize], ..script }
        } else {
            script
        };
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::OverwritePartition };
        let mut config = PipelineConfig::new(state, write);
        config.finaliser = finaliser;
        let retried = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &retried)?;
        let clean = simulate(&config, &script.script(false));
        prop_assert!(clean.runs.iter().all(|r| !r.crashed));
        prop_assert_eq!(content(&retried.silver), content(&clean.silver));
        let booked = |o: &Outcome| o.adjustments.iter().map(|a| a.id.to_string()).collect::<Vec<_>>();
        prop_assert_eq!(booked(&retried), booked(&clean));
        prop_assert_eq!(strings(&retried.dropped), strings(&clean.dropped));
    }

    /// Catches a lookback window that is too short by a day, undone days
    /// that are not picked up, a retry that skips its write, and a
    /// transform that keeps an older version of a changing order.
    #[test]
    fn partition_list_overwrite_with_lookback_covering_lateness_ends_equal_to_truth(
        script in gen_script(),
        extra in 0u32..3,
        commit in gen_commit(),
    ) {
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let lookback = script.max_days_late() + extra;
        let config = PipelineConfig::new(ProcessingState::partition_list(lookback), WriteMode::OverwritePartition)
            .with_commit(commit);
        let outcome = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &outcome)?;
        ends_as_the_truth(&crashing, &outcome)?;
    }

    /// Catches a retry that drops what its crashed attempt appended.
    #[test]
    fn append_with_retries_never_loses_a_row(script in gen_gappy_script(), state in gen_state()) {
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let config = PipelineConfig::new(state, WriteMode::Append);
        let retried = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &retried)?;
        let clean = simulate(&config, &script.script(false));
        prop_assert!(keys(&retried).is_superset(&keys(&clean)));
        if !matches!(state, ProcessingState::PartitionList { .. }) {
            prop_assert!(retried.lost().is_empty(), "lost {:?}", retried.lost());
        }
    }

    /// Catches an overwrite that appends when a crashed write is redone.
    #[test]
    fn watermark_with_partition_overwrite_never_duplicates(
        script in gen_gappy_script(),
        state in gen_watermark(),
        commit in gen_commit(),
    ) {
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let config = PipelineConfig::new(state, WriteMode::OverwritePartition).with_commit(commit);
        let outcome = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &outcome)?;
        prop_assert!(outcome.duplicates().is_empty(), "duplicates {:?}", outcome.duplicates());
    }

    /// Catches a state saved before the write that still lets the rows be
    /// written, or a later run that re-reads below the watermark.
    #[test]
    fn watermark_saved_before_the_write_loses_exactly_the_crashed_runs_rows(
        script in gen_gappy_script(),
        merge in any::<bool>(),
    ) {
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::Append };
        let config = PipelineConfig::new(ProcessingState::watermark(), write).with_commit(CommitOrder::StateBeforeWrite);
        let outcome = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &outcome)?;
        let events = by_id(&crashing.events);
        let key_of = |id: &partition_lab::engine::Id| events[&**id].key.to_string();
        let read_by = |crashed: bool| -> BTreeSet<String> {
            outcome.runs.iter().filter(|r| r.crashed == crashed).flat_map(|r| r.read_ids.iter().map(&key_of)).collect()
        };
        // A key is lost when every version of it read was read by a crash.
        let only_crashed: BTreeSet<String> = read_by(true).difference(&read_by(false)).cloned().collect();
        let lost: BTreeSet<String> = strings(&outcome.lost());
        prop_assert_eq!(lost, only_crashed);
    }

    /// SPEC 2's fault, attempt by attempt. Catches crashes that are not
    /// crashes (write and save both done), a commit order applied the wrong
    /// way round, and a retry that does not read again what its crash read.
    #[test]
    fn a_crash_follows_the_commit_order(
        script in gen_script(),
        list in prop::option::of(0u32..4),
        write in prop_oneof![
            Just(WriteMode::Append),
            Just(WriteMode::OverwritePartition),
            Just(WriteMode::Merge { key: MergeKey::Key })
        ],
        commit in gen_commit(),
    ) {
        let crashing = script.script(true);
        prop_assume!(crash_can_bite(&crashing));
        let state = list.map_or(ProcessingState::watermark(), ProcessingState::partition_list);
        let config = PipelineConfig::new(state, write).with_commit(commit);
        let outcome = simulate(&config, &crashing);
        check_crashes_bit(&crashing, &outcome)?;
        let empty = Table::default();
        for (i, c) in outcome.runs.iter().enumerate().filter(|(_, r)| r.crashed) {
            let before = if i == 0 { &empty } else { &outcome.runs[i - 1].snapshot.as_ref().unwrap().silver };
            let after = &c.snapshot.as_ref().unwrap().silver;
            match commit {
                CommitOrder::StateAfterWrite => {
                    prop_assert!(c.wrote && !c.state_saved, "{:?}", c);
                    prop_assert_eq!(&c.state_after, &c.state_before);
                }
                CommitOrder::StateBeforeWrite => {
                    prop_assert!(!c.wrote && c.state_saved && c.writes.is_empty(), "{:?}", c);
                    prop_assert_eq!(content(after), content(before));
                }
            }
            prop_assert!(c.finalised.is_empty());
            let next = outcome.runs[i + 1..].iter().find(|r| r.day == c.day).expect("a retry");
            if commit == CommitOrder::StateAfterWrite || list.is_some() {
                prop_assert!(ids(next).is_superset(&ids(c)), "{:?} did not re-read {:?}", next.read_ids, c.read_ids);
            } else {
                prop_assert!(ids(next).is_disjoint(&ids(c)), "{:?} re-read {:?}", next.read_ids, c.read_ids);
            }
        }
    }

    /// SPEC 2: "upsert on key; the latest updated_at wins, so an older
    /// version never replaces a newer one". Versions arrive out of order.
    /// Catches a merge where the last-written version wins, a merge that
    /// keeps two rows of one key, and a batch that is not reduced to the
    /// latest version per key.
    #[test]
    fn merge_on_the_key_keeps_exactly_the_latest_version_of_every_key_read(
        script in gen_script_with(false, true),
        state in gen_state(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        let repeated = |events: &[&Event]| {
            let mut seen = BTreeSet::new();
            events.iter().any(|e| !seen.insert(&*e.key))
        };
        // Versions every state reads; two of one key make the case.
        let on_time = surely_read(&s);
        prop_assume!(repeated(&on_time));
        let config = PipelineConfig::new(state, WriteMode::Merge { key: MergeKey::Key }).with_commit(commit);
        let outcome = simulate(&config, &s);
        let events = by_id(&s.events);
        let read: Vec<&Event> = outcome.runs.iter().flat_map(|r| r.read_ids.iter().map(|id| events[&**id])).collect();
        // The precondition is itself a claim about the engine: hold it to it.
        let read_ids: BTreeSet<&str> = read.iter().map(|e| &*e.id).collect();
        let unread: Vec<&str> = on_time.iter().map(|e| &*e.id).filter(|id| !read_ids.contains(id)).collect();
        prop_assert!(unread.is_empty(), "versions surely read were not read: {:?}", unread);
        prop_assert!(repeated(&read), "no key had two versions read");
        let written: Vec<&Event> = outcome
            .runs
            .iter()
            .filter(|r| r.wrote)
            .flat_map(|r| r.read_ids.iter().map(|id| events[&**id]))
            .collect();
        prop_assert_eq!(content(&outcome.silver), latest(written));
        // Where every row that arrived is read by a write, that is the truth.
        let reads_all = matches!(state, ProcessingState::None)
            || (matches!(state, ProcessingState::Watermark { .. }) && commit == CommitOrder::StateAfterWrite);
        if reads_all {
            let end = outcome.runs.last().unwrap().at;
            prop_assert_eq!(content(&outcome.silver), latest(arrived_by(&s.events, end)));
        }
    }

    /// SPEC 2: `None` rebuilds everything, `ReplaceTable` replaces the whole
    /// table, final partitions included. Catches a replace that keeps old
    /// rows, a full refresh that remembers state or respects finality, and
    /// a stale version; the crash check makes "whatever crashes" real.
    #[test]
    fn full_refresh_equals_the_truth_after_every_write_whatever_crashes(
        script in gen_script_with(false, true),
        commit in gen_commit(),
        finaliser in prop::option::of(gen_finaliser()),
    ) {
        let s = script.script(true);
        prop_assume!(crash_can_bite(&s));
        let mut config = PipelineConfig::full_refresh().with_commit(commit);
        config.finaliser = finaliser;
        let outcome = simulate(&config, &s);
        check_crashes_bit(&s, &outcome)?;
        for r in outcome.runs.iter().filter(|r| r.wrote) {
            let silver = &r.snapshot.as_ref().unwrap().silver;
            prop_assert_eq!(content(silver), latest(arrived_by(&s.events, r.at)), "after {:?}", r.at);
        }
        ends_as_the_truth(&s, &outcome)?;
    }

    /// SPEC 2's partition list, attempt by attempt, against a model: the
    /// targets (undone dates, the lookback days, the day), the rows read
    /// (whole bronze partitions as they stood), the state saved, and an
    /// overwrite replacing exactly the targets with their bronze content.
    /// Catches an off-by-one lookback, undone dates skipped, a state saved
    /// by a crash that should not save, and an overwrite that merges or
    /// touches partitions it did not target.
    #[test]
    fn partition_list_overwrite_rewrites_exactly_its_targets_from_bronze(
        script in gen_script_with(false, true),
        lookback in 0u32..4,
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        let config = PipelineConfig::new(ProcessingState::partition_list(lookback), WriteMode::OverwritePartition)
            .with_commit(commit);
        let outcome = simulate(&config, &s);
        let empty = Content::new();
        let mut before = &empty;
        let mut snapshots = Vec::new();
        for r in &outcome.runs {
            snapshots.push(content(&r.snapshot.as_ref().unwrap().silver));
        }
        for (r, after) in outcome.runs.iter().zip(&snapshots) {
            let StateValue::Done(done) = &r.state_before else { panic!("{:?}", r.state_before) };
            let window = shift(r.day, -i64::from(lookback)).max(start());
            let targets: Vec<NaiveDate> = days(start(), r.day).filter(|d| !done.contains(d) || *d >= window).collect();
            prop_assert_eq!(&r.partitions_read, &targets);
            let mut read: Vec<String> = s
                .events
                .iter()
                .filter(|e| e.arrived_at <= r.at && targets.contains(&e.event_date()))
                .map(|e| e.id.to_string())
                .collect();
            read.sort();
            let mut got: Vec<String> = r.read_ids.iter().map(|id| id.to_string()).collect();
            got.sort();
            prop_assert_eq!(got, read);
            let mut saved = done.clone();
            saved.extend(targets.iter().copied());
            let expected_state = if r.state_saved { StateValue::Done(saved) } else { r.state_before.clone() };
            prop_assert_eq!(&r.state_after, &expected_state);
            let bronze = latest(arrived_by(&s.events, r.at));
            let dates: BTreeSet<NaiveDate> = before.keys().chain(after.keys()).chain(&targets).copied().collect();
            for dt in dates {
                let expected = if r.wrote && targets.contains(&dt) { bronze.get(&dt) } else { before.get(&dt) };
                prop_assert_eq!(after.get(&dt), expected, "{} after attempt {}", dt, r.attempt);
            }
            before = after;
        }
    }

    /// The brief's "a manual re-run changes nothing": with a lookback
    /// covering lateness, the week ends the same with or without manual
    /// re-runs of past days in it, and a re-run never removes a key.
    /// Catches a manual re-run that appends, reads as of the wrong instant,
    /// or corrupts the list of completed dates.
    #[test]
    fn manual_re_runs_change_nothing_for_a_partition_list_covering_lateness(
        script in gen_script(),
        extra in 0u32..2,
        merge in any::<bool>(),
    ) {
        let lookback = script.max_days_late() + extra;
        let with = script.build(true, true);
        let can_bite = with.runs.iter().filter(|r| r.kind == RunKind::Manual).any(|r| {
            let window = shift(r.day, -i64::from(lookback));
            with.events.iter().any(|e| e.arrived_at <= r.at && e.event_date() >= window && e.event_date() <= r.day)
        });
        prop_assume!(can_bite);
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::OverwritePartition };
        let config = PipelineConfig::new(ProcessingState::partition_list(lookback), write);
        let outcome = simulate(&config, &with);
        let manual: Vec<&RunTrace> = outcome.runs.iter().filter(|r| r.kind == RunKind::Manual).collect();
        prop_assert!(manual.iter().any(|r| r.rows_read > 0 && r.wrote && !r.writes.is_empty()), "no manual re-run wrote");
        for r in &manual {
            let silver = &r.snapshot.as_ref().unwrap().silver;
            for w in &r.writes {
                for id in &w.removed {
                    let key = &with.events.iter().find(|e| e.id == *id).unwrap().key;
                    prop_assert!(silver.partition(w.dt).iter().any(|row| &row.key == key), "{} removed key {}", r.attempt, key);
                }
            }
        }
        let without = simulate(&config, &script.build(true, false));
        prop_assert_eq!(content(&outcome.silver), content(&without.silver));
        ends_as_the_truth(&with, &outcome)?;
    }

    /// SPEC 2: a watermark reads rows past the mark minus the overlap, and
    /// saves the largest value read. Against that model attempt by attempt,
    /// and against the same pipeline without overlap. Catches an overlap
    /// ignored or applied the wrong way, a mark saved minus the overlap,
    /// and an overlap that costs rows under append or merge.
    #[test]
    fn watermark_overlap_rereads_and_never_loses_what_no_overlap_keeps(
        script in gen_gappy_script(),
        overlap_minutes in 1u32..=1500,
        merge in any::<bool>(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        // A row read by the second-to-last scheduled run or earlier sets the
        // mark, and the last scheduled run must re-read the row at the mark.
        let runs = script.scheduled_days();
        prop_assume!(runs.len() >= 2);
        let second_last = run_at(shift(start(), i64::from(runs[runs.len() - 2])));
        prop_assume!(s.events.iter().any(|e| e.arrived_at <= second_last));
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::Append };
        let state = |overlap_minutes| ProcessingState::Watermark { column: WatermarkColumn::ArrivedAt, overlap_minutes };
        let with = simulate(&PipelineConfig::new(state(overlap_minutes), write).with_commit(commit), &s);
        let without = simulate(&PipelineConfig::new(state(0), write).with_commit(commit), &s);
        let events = by_id(&s.events);
        let mut reread = false;
        for (outcome, overlap) in [(&with, overlap_minutes), (&without, 0)] {
            for r in &outcome.runs {
                let StateValue::Watermark(mark) = r.state_before else { panic!("{:?}", r.state_before) };
                let from = mark.map(|m| m - Duration::minutes(i64::from(overlap)));
                let mut expected: Vec<String> = arrived_by(&s.events, r.at)
                    .filter(|e| from.is_none_or(|f| e.arrived_at > f))
                    .map(|e| e.id.to_string())
                    .collect();
                expected.sort();
                let mut got: Vec<String> = r.read_ids.iter().map(|id| id.to_string()).collect();
                got.sort();
                prop_assert_eq!(&got, &expected, "attempt {} with overlap {}", r.attempt, overlap);
                let read_max = r.read_ids.iter().map(|id| events[&**id].arrived_at).max();
                let saved = if r.state_saved { StateValue::Watermark(read_max.max(mark)) } else { r.state_before.clone() };
                prop_assert_eq!(&r.state_after, &saved);
                reread |= overlap > 0 && r.read_ids.iter().any(|id| mark.is_some_and(|m| events[&**id].arrived_at <= m));
            }
        }
        prop_assert!(reread, "the overlap never re-read a row");
        for (a, b) in with.runs.iter().zip(&without.runs) {
            prop_assert!(ids(a).is_superset(&ids(b)));
        }
        prop_assert!(keys(&with).is_superset(&keys(&without)));
    }

    /// SPEC 2: a run sees every row arrived by its instant, so a retry sees
    /// rows that arrived after its crash. Catches a retry that replays its
    /// crashed attempt's read, or reads as of the crash.
    #[test]
    fn arrivals_between_a_crash_and_its_retry_are_picked_up(
        script in gen_script_with(false, false),
        list in prop::option::of(0u32..2),
        overlap_minutes in prop_oneof![Just(0u32), 1u32..=60],
        merge in any::<bool>(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        let between = |c: &RunSpec, e: &Event| {
            c.crash_then_retry_at.is_some_and(|r| c.at < e.arrived_at && e.arrived_at <= r)
        };
        // A scheduled crash with a row of its day or earlier arriving before
        // its retry: a list's retry targets it, a watermark's reads it.
        let bites = s.runs.iter().filter(|c| c.kind == RunKind::Scheduled).any(|c| {
            s.events.iter().any(|e| between(c, e) && e.event_date() <= c.day)
        });
        prop_assume!(bites);
        let (state, write) = match list {
            Some(extra) => (
                ProcessingState::partition_list(script.max_days_late() + extra),
                if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::OverwritePartition },
            ),
            None => (
                ProcessingState::Watermark { column: WatermarkColumn::ArrivedAt, overlap_minutes },
                WriteMode::Merge { key: MergeKey::Key },
            ),
        };
        let config = PipelineConfig::new(state, write).with_commit(commit);
        let outcome = simulate(&config, &s);
        let mut picked_up = false;
        for (i, c) in outcome.runs.iter().enumerate().filter(|(_, r)| r.crashed) {
            let spec = s.runs.iter().find(|r| r.at == c.at && r.day == c.day).unwrap();
            let retry_at = spec.crash_then_retry_at.unwrap();
            let (j, retry) = outcome
                .runs
                .iter()
                .enumerate()
                .find(|(j, r)| *j > i && r.kind == RunKind::Retry && r.day == c.day && r.at == retry_at && !r.crashed)
                .expect("the retry");
            for e in s.events.iter().filter(|e| between(spec, e)) {
                let id = e.id.to_string();
                if list.is_some() {
                    if retry.partitions_read.contains(&e.event_date()) {
                        prop_assert!(ids(retry).contains(&id), "retry {} missed {}", j, id);
                    }
                } else {
                    prop_assert!(
                        outcome.runs[i + 1..=j].iter().any(|r| ids(r).contains(&id)),
                        "{} arrived between crash {} and retry {} and was not read", id, i, j
                    );
                }
                picked_up |= outcome.runs[i + 1..=j].iter().any(|r| ids(r).contains(&id));
            }
            // What the retry read is in silver, at that version or a newer one.
            for id in &retry.read_ids {
                let e = s.events.iter().find(|e| e.id == *id).unwrap();
                prop_assert!(
                    outcome.silver.rows().any(|row| row.key == e.key && row.updated_at >= e.updated_at),
                    "{} read by retry {} is not in silver", id, j
                );
            }
        }
        prop_assert!(picked_up, "no retry read a row that arrived after its crash");
        if list.is_some() || commit == CommitOrder::StateAfterWrite {
            ends_as_the_truth(&s, &outcome)?;
        }
    }
}

/// SPEC 2's finalisation schedule against the trace: partition `p` is
/// final at the end of the first successful run for `p + L`; where the
/// scheduler skipped that day (the spec does not say), only that `p` is
/// not final before the first successful run for a later day.
fn check_finalisation(outcome: &Outcome, lateness: u32) -> Result<(), TestCaseError> {
    let mut earliest: BTreeMap<NaiveDate, &RunTrace> = BTreeMap::new();
    for r in outcome.runs.iter().filter(|r| r.succeeded()) {
        for p in days(start(), shift(r.day, -i64::from(lateness))) {
            earliest.entry(p).or_insert(r);
        }
    }
    for (p, at) in &outcome.finalised {
        let first = earliest.get(p);
        prop_assert!(
            first.is_some_and(|r| *at >= r.at),
            "{} final at {} too early",
            p,
            at
        );
    }
    for (p, r) in &earliest {
        if r.day == shift(*p, i64::from(lateness)) {
            prop_assert_eq!(
                outcome.finalised.get(p),
                Some(&r.at),
                "{} not final after the run for {}",
                p,
                r.day
            );
        }
    }
    Ok(())
}

/// From the script: a row of partition `p` arrives after the first
/// scheduled run for `p + L` or later and its retry (fair scripts retry
/// five minutes on), and before the last scheduled run, whose reader will
/// find it.
fn late_row_can_bite(script: &GenScript, s: &Script, lateness: u32) -> bool {
    let scheduled: Vec<NaiveDate> = script
        .scheduled_days()
        .into_iter()
        .map(|d| shift(start(), i64::from(d)))
        .collect();
    s.events.iter().any(|e| {
        let closing = shift(e.event_date(), i64::from(lateness));
        scheduled.iter().find(|d| **d >= closing).is_some_and(|d| {
            e.arrived_at > run_at(*d) + Duration::minutes(5)
                && e.arrived_at <= script.last_scheduled()
        })
    })
}

fn gen_write() -> impl Strategy<Value = WriteMode> {
    prop_oneof![
        Just(WriteMode::Append),
        Just(WriteMode::OverwritePartition),
        Just(WriteMode::Merge { key: MergeKey::Key })
    ]
}

proptest! {
    #![proptest_config(cases::cases(256))]

    /// SPEC 2: partition D becomes final at the end of the successful run
    /// for D+L, and no later write may change it (reopen aside). Checked
    /// against the trace's writes and against the table itself. Catches an
    /// off-by-one lateness, a crashed run that finalises, a write that
    /// slips into a final partition, and a reopen policy that still blocks.
    #[test]
    fn no_partition_changes_after_it_became_final(
        script in gen_gappy_script(),
        state in gen_state(),
        write in gen_write(),
        lateness in 0u32..4,
        after_final in gen_after_final(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        prop_assume!(late_row_can_bite(&script, &s, lateness));
        let plain = PipelineConfig::new(state, write).with_commit(commit);
        let config = plain.with_finaliser(Finaliser { allowed_lateness_days: lateness, after_final });
        let outcome = simulate(&config, &s);
        check_finalisation(&outcome, lateness)?;
        let mut final_so_far: BTreeMap<NaiveDate, usize> = BTreeMap::new();
        for r in &outcome.runs {
            if after_final != AfterFinal::Reopen {
                for w in r.writes.iter().filter(|w| final_so_far.contains_key(&w.dt)) {
                    prop_assert!(w.added.is_empty() && w.removed.is_empty(), "attempt {} changed final {}", r.attempt, w.dt);
                }
                prop_assert!(r.final_written.is_empty());
            }
            if r.crashed {
                prop_assert!(r.finalised.is_empty());
            }
            for dt in &r.finalised {
                prop_assert!(final_so_far.insert(*dt, r.attempt).is_none(), "{} finalised twice", dt);
            }
        }
        match after_final {
            AfterFinal::Reopen => {
                let open = simulate(&plain, &s);
                prop_assert_eq!(content(&outcome.silver), content(&open.silver));
                prop_assert!(outcome.adjustments.is_empty() && outcome.dropped.is_empty());
            }
            _ => {
                let end = content(&outcome.silver);
                for (dt, attempt) in &final_so_far {
                    let then = content(&outcome.runs[*attempt].snapshot.as_ref().unwrap().silver);
                    prop_assert_eq!(end.get(dt), then.get(dt), "final {} changed", dt);
                }
                prop_assert!(!outcome.adjustments.is_empty() || !outcome.dropped.is_empty(), "no late row met the finaliser");
            }
        }
    }

    /// SPEC 2: rows that arrive for a final partition are dropped or booked
    /// to adjustments by a reader of their own, whatever the state. Checked
    /// against a direct computation from the events: exactly the late rows,
    /// each once, none of them in silver. Catches late rows missed or booked
    /// twice by a retry or a manual re-run, on-time rows booked, and a
    /// policy applied the wrong way round.
    #[test]
    fn late_rows_are_booked_or_dropped_exactly_once(
        script in gen_gappy_script(),
        state in gen_state(),
        write in gen_write(),
        lateness in 0u32..4,
        adjustments in any::<bool>(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        prop_assume!(late_row_can_bite(&script, &s, lateness));
        let after_final = if adjustments { AfterFinal::Adjustments } else { AfterFinal::Drop };
        let config = PipelineConfig::new(state, write)
            .with_commit(commit)
            .with_finaliser(Finaliser { allowed_lateness_days: lateness, after_final });
        let outcome = simulate(&config, &s);
        check_finalisation(&outcome, lateness)?;
        let finals = &outcome.finalised;
        let last_ok = outcome.runs.iter().filter(|r| r.succeeded()).map(|r| r.at).max().unwrap();
        let late: BTreeSet<String> = s
            .events
            .iter()
            .filter(|e| e.arrived_at <= last_ok && finals.get(&e.event_date()).is_some_and(|f| *f < e.arrived_at))
            .map(|e| e.id.to_string())
            .collect();
        prop_assert!(!late.is_empty());
        let booked: Vec<String> = outcome.adjustments.iter().map(|a| a.id.to_string()).collect();
        let dropped: Vec<String> = outcome.dropped.iter().map(|id| id.to_string()).collect();
        let (found, other) = if adjustments { (&booked, &dropped) } else { (&dropped, &booked) };
        prop_assert!(other.is_empty());
        prop_assert_eq!(found.len(), late.len(), "booked or dropped more than once: {:?}", found);
        prop_assert_eq!(&found.iter().cloned().collect::<BTreeSet<_>>(), &late);
        let events = by_id(&s.events);
        for a in &outcome.adjustments {
            let e = events[&*a.id];
            prop_assert_eq!(a.dt, e.event_date());
            prop_assert!(a.booked_at >= e.arrived_at);
            prop_assert!(outcome.runs.iter().any(|r| r.succeeded() && r.at == a.booked_at));
        }
        prop_assert!(outcome.silver.rows().all(|r| !late.contains(&*r.id)), "a late row is in silver");
    }

    /// With a lookback covering the allowed lateness, every row either
    /// reached silver before its partition closed or was booked/dropped:
    /// nothing is lost silently. Catches a finaliser that closes a
    /// partition before its last run has read it and late rows blocked
    /// but never handed to the policy.
    #[test]
    fn a_finaliser_with_a_lookback_covering_lateness_loses_nothing_silently(
        script in gen_script(),
        lateness in 0u32..4,
        extra in 0u32..2,
        merge in any::<bool>(),
        adjustments in any::<bool>(),
        commit in gen_commit(),
    ) {
        let s = script.script(true);
        prop_assume!(late_row_can_bite(&script, &s, lateness) && crash_can_bite(&s));
        let after_final = if adjustments { AfterFinal::Adjustments } else { AfterFinal::Drop };
        let write = if merge { WriteMode::Merge { key: MergeKey::Key } } else { WriteMode::OverwritePartition };
        let config = PipelineConfig::new(ProcessingState::partition_list(lateness + extra), write)
            .with_commit(commit)
            .with_finaliser(Finaliser { allowed_lateness_days: lateness, after_final });
        let outcome = simulate(&config, &s);
        check_crashes_bit(&s, &outcome)?;
        let handed: BTreeSet<String> = outcome
            .adjustments
            .iter()
            .map(|a| a.id.to_string())
            .chain(outcome.dropped.iter().map(|id| id.to_string()))
            .collect();
        prop_assert!(!handed.is_empty());
        let end = outcome.runs.last().unwrap().at;
        let truth = latest(arrived_by(&s.events, end));
        let silver: BTreeMap<String, NaiveDateTime> = outcome.silver.rows().map(|r| (r.key.to_string(), r.updated_at)).collect();
        let events = by_id(&s.events);
        for (id, updated) in truth.values().flatten() {
            let key = events[id.as_str()].key.to_string();
            prop_assert!(
                silver.get(&key) == Some(updated) || handed.contains(id),
                "{} is neither in silver nor booked/dropped", id
            );
        }
        once_each_under_its_day(&s, &outcome)?;
    }
}

#[test]
fn the_same_seed_gives_the_same_trace_every_time() {
    let config = PipelineConfig::new(
        ProcessingState::partition_list(2),
        WriteMode::OverwritePartition,
    );
    let a = simulate_with(
        &config,
        &workload(42, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::ALL,
    );
    let b = simulate_with(
        &config,
        &workload(42, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::ALL,
    );
    assert_eq!(a, b);
    let other = simulate_with(
        &config,
        &workload(43, start(), 40, 30, DelayProfile::MobileOffline),
        Detail::ALL,
    );
    assert_ne!(
        a.silver, other.silver,
        "a different seed should give different data"
    );
}

/// Each option of `Detail` changes only what it names: every combination
/// builds the same tables and runs, and records ids, silver after each
/// attempt and the comparison with the truth exactly when asked.
#[test]
fn each_detail_option_records_only_what_it_names() {
    let script = workload(7, start(), 60, 20, DelayProfile::PartnerBatch);
    for write in [
        WriteMode::Append,
        WriteMode::OverwritePartition,
        WriteMode::Merge { key: MergeKey::Key },
    ] {
        let config = PipelineConfig::new(ProcessingState::partition_list(1), write);
        let all = simulate_with(&config, &script, Detail::ALL);
        assert!(all.compared && !all.diffs.is_empty());
        for ids in [false, true] {
            for snapshots in [false, true] {
                for compared in [false, true] {
                    let detail = Detail {
                        ids,
                        snapshots,
                        compared,
                    };
                    let got = simulate_with(&config, &script, detail);
                    assert_eq!(got.silver, all.silver, "{detail:?}");
                    assert_eq!(got.gold, all.gold, "{detail:?}");
                    assert_eq!(got.runs.len(), all.runs.len(), "{detail:?}");
                    for (run, full) in got.runs.iter().zip(&all.runs) {
                        assert_eq!(run.rows_read, full.rows_read);
                        if ids {
                            assert_eq!(run.read_ids, full.read_ids);
                        } else {
                            assert!(run.read_ids.is_empty());
                        }
                        assert_eq!(run.snapshot.is_some(), snapshots);
                        match (&run.snapshot, &full.snapshot) {
                            (Some(got), Some(want)) if compared => assert_eq!(got, want),
                            // Silver alone: no comparison with the truth.
                            (Some(got), Some(want)) => {
                                assert_eq!(got.silver, want.silver);
                                assert!(got.checks.0.is_empty() && got.diffs.is_empty());
                            }
                            _ => {}
                        }
                    }
                    assert_eq!(got.compared, compared);
                    if compared {
                        assert_eq!((&got.checks, &got.diffs), (&all.checks, &all.diffs));
                    } else {
                        assert!(got.checks.0.is_empty() && got.diffs.is_empty());
                    }
                }
            }
        }
    }
}

/// The case that made the merge property fail at random (issue #28): the
/// scheduled runs of days 0 and 1 are skipped, an operator re-runs day 0 at
/// 02:00 on day 1 and marks it done, and the order's second version, which
/// arrives later that day, is never read by a list without a lookback. The
/// engine is right; the property's precondition now says so.
#[test]
fn a_manual_re_run_marks_its_day_done_before_a_later_version_arrives() {
    let script = GenScript {
        days: 3,
        mutable: true,
        orders: vec![GenOrder {
            day: 0,
            hour: 10,
            minute: 0,
            versions: vec![
                GenVersion {
                    gap_minutes: 1,
                    delay_minutes: 1,
                    days_late: 0,
                },
                // Made at 10:01 on day 0, arrives at 03:01 on day 1.
                GenVersion {
                    gap_minutes: 1,
                    delay_minutes: 17 * 60,
                    days_late: 0,
                },
            ],
        }],
        crashes: vec![false; 3],
        skipped: vec![true, true, false],
        double_crashes: vec![false; 3],
        manual: vec![GenManual {
            on_day: 1,
            back: 0,
            hour: 2,
            minute: 0,
            crashes: false,
        }],
        retry_after: 5,
        fair: true,
    };
    let s = script.script(true);
    let second = s.events.iter().find(|e| &*e.id == "o-0-v1").expect("v1");
    assert_eq!(second.arrived_at, at(shift(start(), 1), 3, 1));
    let config = PipelineConfig::new(
        ProcessingState::partition_list(0),
        WriteMode::Merge { key: MergeKey::Key },
    );
    let outcome = simulate(&config, &s);
    // The manual re-run read the first version and marked day 0 done ...
    let manual = &outcome.runs[0];
    assert_eq!(manual.kind, RunKind::Manual);
    assert_eq!(ids(manual), BTreeSet::from(["o-0-v0".to_string()]));
    assert_eq!(
        manual.state_after,
        StateValue::Done([start()].into_iter().collect())
    );
    // ... so the scheduled run of day 2 never targets it again.
    assert!(outcome.runs.iter().all(|r| !ids(r).contains("o-0-v1")));
    // And the precondition no longer claims the second version is read.
    let surely: Vec<&str> = surely_read(&s).iter().map(|e| &*e.id).collect();
    assert_eq!(surely, ["o-0-v0"]);
}

/// The scheduler down from before the run for day `from` until just
/// before the run for day `until` (both days from the start): the runs for
/// `from..until` are missed.
fn outage(from: u32, until: u32) -> partition_lab::engine::Outage {
    partition_lab::engine::Outage {
        from: at(shift(start(), i64::from(from) + 1), 0, 0),
        until: at(shift(start(), i64::from(until) + 1), 0, 10),
    }
}

/// Days with a silver partition (any row in it).
fn built(outcome: &Outcome) -> BTreeSet<NaiveDate> {
    outcome
        .silver
        .partitions()
        .filter(|(_, rows)| !rows.is_empty())
        .map(|(dt, _)| dt)
        .collect()
}

/// An outage over days `from..until` of a script, its length and the
/// window's, generated together so the outage fits inside the script.
fn gen_outage_case() -> impl Strategy<Value = (GenScript, u32, u32, u32)> {
    gen_script().prop_flat_map(|script| {
        let days = script.days;
        (Just(script), 0..days.saturating_sub(1).max(1), 0u32..3).prop_flat_map(
            move |(script, from, window)| {
                let until = (from + 1)..days.max(from + 2);
                (Just(script), Just(from), until, Just(window))
            },
        )
    })
}

proptest! {
    #![proptest_config(cases::cases(256))]

    /// SPEC 11: without an outage a trailing window of N days is a
    /// partition list with lookback N (every day is run, so nothing is left
    /// undone for the list to catch up). Catches a window one day short or
    /// long, one that does not clip at the start, and one that reads by
    /// arrival rather than by its partitions.
    #[test]
    fn a_trailing_window_without_an_outage_is_a_partition_list_with_that_lookback(
        script in gen_script(),
        window in 0u32..4,
        write in gen_write(),
    ) {
        let s = script.script(false);
        let trailing = simulate(&PipelineConfig::new(ProcessingState::TrailingWindow { days: window }, write), &s);
        let list = simulate(&PipelineConfig::new(ProcessingState::partition_list(window), write), &s);
        prop_assert_eq!(content(&trailing.silver), content(&list.silver));
        prop_assert_eq!(trailing.runs.len(), list.runs.len());
        for (t, l) in trailing.runs.iter().zip(&list.runs) {
            prop_assert_eq!(&t.partitions_read, &l.partitions_read, "run {}", t.attempt);
            prop_assert_eq!(ids(t), ids(l));
            prop_assert_eq!(&t.state_after, &StateValue::Nothing, "a window saves nothing");
        }
    }

    /// SPEC 11: after an outage and no catch-up, exactly the missed days
    /// the first run back cannot reach stay unbuilt, while the missed days
    /// inside its window are built, and a partition list with the same
    /// lookback builds them all (it targets every day not done). Checked
    /// on days that had rows to build, so an engine that ignored the
    /// outage fails.
    #[test]
    fn after_an_outage_without_catch_up_a_trailing_window_leaves_exactly_the_days_it_passed(
        (script, from, until, window) in gen_outage_case(),
        write in prop_oneof![Just(WriteMode::OverwritePartition), Just(WriteMode::Append)],
    ) {
        let mut s = script.build(false, false);
        s.outages.push(outage(from, until));
        // The first run back, for day `until`: rows there by then can be built.
        let back = shift(start(), i64::from(until));
        let there = |d: NaiveDate| s.events.iter().any(|e| e.event_date() == d && e.arrived_at <= run_at(back));
        let missed: Vec<NaiveDate> = (from..until).map(|d| shift(start(), i64::from(d))).collect();
        let passed: BTreeSet<NaiveDate> = missed
            .iter()
            .copied()
            .filter(|d| *d < shift(back, -i64::from(window)))
            .filter(|d| there(*d))
            .collect();
        prop_assume!(!passed.is_empty());
        let outcome = simulate(&PipelineConfig::new(ProcessingState::TrailingWindow { days: window }, write), &s);
        prop_assert!(outcome.runs.iter().all(|r| !s.outages[0].covers(r.at)), "a run started while the scheduler was down");
        let built_days = built(&outcome);
        for d in &missed {
            if passed.contains(d) {
                prop_assert!(!built_days.contains(d), "{} was passed by the window but built", d);
            } else if there(*d) {
                prop_assert!(built_days.contains(d), "{} was inside the window but not built", d);
            }
        }
        let list = simulate(&PipelineConfig::new(ProcessingState::partition_list(window), write), &s);
        let list_built = built(&list);
        prop_assert!(passed.iter().all(|d| list_built.contains(d)), "the list did not catch up");
    }

    /// SPEC 11: with catch-up the scheduler runs each missed day when it
    /// returns, in order, so a window covering the lateness ends as the
    /// truth, crashes and all.
    #[test]
    fn after_an_outage_with_catch_up_a_trailing_window_loses_nothing(
        (script, from, until, _) in gen_outage_case(),
        extra in 0u32..2,
    ) {
        let mut s = script.build(true, false);
        s.outages.push(outage(from, until));
        let window = script.max_days_late() + extra;
        let outcome = simulate(&PipelineConfig::new(ProcessingState::TrailingWindow { days: window }, WriteMode::OverwritePartition).with_catch_up(true), &s);
        let caught_up: Vec<NaiveDate> = outcome.runs.iter().filter(|r| r.kind == RunKind::CatchUp).map(|r| r.day).collect();
        let missed: Vec<NaiveDate> = (from..until).map(|d| shift(start(), i64::from(d))).collect();
        prop_assert_eq!(caught_up, missed, "each missed day caught up once, in order");
        // And nothing due meanwhile jumps the queue: the days run in order.
        let in_order: Vec<NaiveDate> = outcome.runs.iter().filter(|r| matches!(r.kind, RunKind::Scheduled | RunKind::CatchUp)).map(|r| r.day).collect();
        prop_assert!(in_order.windows(2).all(|w| w[0] < w[1]), "days out of order: {:?}", in_order);
        prop_assert!(outcome.runs.iter().all(|r| !s.outages[0].covers(r.at)));
        ends_as_the_truth(&s, &outcome)?;
    }
}

/// The simulation's steps keep the stepping protocol: one attempt a step
/// (a crash's retry queued by its own step), true exactly once nothing is
/// left, and a step after the end changes nothing.
#[test]
fn a_simulation_steps_one_attempt_at_a_time_and_says_when_it_has_finished() {
    use partition_lab::engine::simulate::{planned, Simulation};
    use partition_lab::engine::Stepwise;
    let mut script = workload(11, start(), 6, 20, DelayProfile::PartnerBatch);
    // The last run crashes: its retry is queued by the step that ran it.
    if let Some(last) = script.runs.last_mut() {
        last.crash_then_retry_at = Some(last.at + Duration::minutes(5));
    }
    let config = PipelineConfig::new(
        ProcessingState::partition_list(1),
        WriteMode::OverwritePartition,
    );
    let want = planned(&script, false).len();
    let mut simulation = Simulation::new(config, &script, Detail::TABLES);
    let mut steps = 1;
    while !simulation.step() {
        steps += 1;
        assert_eq!(simulation.attempts_run(), steps - 1);
    }
    assert_eq!(steps, want, "one step an attempt, the retry included");
    assert_eq!(simulation.attempts_run(), want);
    assert!(
        simulation.step(),
        "a step after the end says finished again"
    );
    assert_eq!(simulation.attempts_run(), want, "and runs nothing");
    // No runs at all: the first step finds nothing and says finished.
    script.runs.clear();
    let mut none = Simulation::new(config, &script, Detail::TABLES);
    assert!(none.step());
    assert!(none.finish().runs.is_empty());
}
