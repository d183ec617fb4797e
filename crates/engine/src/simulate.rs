//! The run loop: replays a script's runs against one pipeline configuration.

use crate::lean::sorted::{SortedMap, SortedSet};

use rustc_hash::FxHashMap as HashMap;

use super::bronze::Bronze;
use super::calendar::{days, shift, Day, Instant};
use super::checks::{run_checks, CheckInput, Checks};
use super::config::{
    AfterFinal, CommitOrder, ListDate, PartitionKey, PipelineConfig, ProcessingState,
    WatermarkColumn,
};
use super::event::{Event, Id};
use super::money::{to_gbp, LogicVersion, Money};
use super::script::{RunKind, Script};
use super::state::StateValue;
use super::stepwise::Stepwise;
use super::table::{write, Batch, DailyTotal, Gold, Row, Table};
use super::trace::{Adjustment, Outcome, RunTrace, Snapshot};
use super::truth::{diff, truth_at};

/// What a simulation records beyond the tables it builds: three
/// independent options, so a caller pays only for what it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detail {
    /// Each attempt's row ids read, added and removed (the scenario
    /// grader's judges and the labs' traces read them).
    pub ids: bool,
    /// Silver after every attempt: what the labs scrub through and the
    /// smallest case replays (with `compared`, its checks and diffs too).
    pub snapshots: bool,
    /// The checks and diffs against the truth: of the final tables
    /// (`Outcome::verdict`, `lost`, `duplicates`), and of every snapshot.
    pub compared: bool,
}

impl Detail {
    /// Everything: what the labs replay.
    pub const ALL: Detail = Detail {
        ids: true,
        snapshots: true,
        compared: true,
    };
    /// The tables and counts alone: for large workloads, histories built
    /// before a backfill, and benchmarks.
    pub const TABLES: Detail = Detail {
        ids: false,
        snapshots: false,
        compared: false,
    };
}

/// Runs `script` through the pipeline `config`, keeping full detail.
pub fn simulate(config: &PipelineConfig, script: &Script) -> Outcome {
    simulate_with(config, script, Detail::ALL)
}

/// One attempt waiting in the scheduler's queue.
struct Attempt {
    at: Instant,
    day: Day,
    kind: RunKind,
    crash_then_retry_at: Option<Instant>,
}

/// What a run read and what its state would become if saved.
struct Read {
    rows: Vec<usize>,
    partitions: Vec<Day>,
    /// Partitions an overwrite replaces even if no row was read for them.
    targets: SortedSet<Day>,
    next_state: StateValue,
}

pub fn simulate_with(config: &PipelineConfig, script: &Script, detail: Detail) -> Outcome {
    let mut simulation = Simulation::new(*config, script, detail);
    simulation.run_to_end();
    simulation.finish()
}

/// A simulation one attempt at a time: the scenario grader takes a step,
/// lets the browser paint, and takes the next. `simulate_with` takes them
/// all at once.
pub struct Simulation<'a> {
    config: PipelineConfig,
    script: &'a Script,
    bronze: Bronze<'a>,
    converted: Vec<Converted>,
    detail: Detail,
    track: bool,
    snapshots: bool,
    queue: Queue,
    state: StateValue,
    silver: Table,
    gold: Gold,
    finalised: SortedMap<Day, Instant>,
    next_to_finalise: Day,
    reader_cursor: Option<Instant>,
    last_attempt_ok: SortedMap<Day, bool>,
    adjustments: Vec<Adjustment>,
    dropped_all: Vec<Id>,
    runs: Vec<RunTrace>,
}

impl<'a> Simulation<'a> {
    pub fn new(config: PipelineConfig, script: &'a Script, detail: Detail) -> Self {
        Simulation {
            config,
            script,
            bronze: Bronze::index(&script.events),
            converted: convert_all(script),
            detail,
            track: detail.ids,
            snapshots: detail.snapshots,
            queue: schedule(script, config.catch_up),
            state: StateValue::initial(config.state),
            silver: Table::default(),
            gold: Gold::new(),
            finalised: SortedMap::new(),
            next_to_finalise: script.start,
            reader_cursor: None,
            last_attempt_ok: SortedMap::new(),
            adjustments: Vec::new(),
            dropped_all: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Attempts run so far.
    pub fn attempts_run(&self) -> usize {
        self.runs.len()
    }

    /// Attempts still queued (a crash queues its retry, so this can grow).
    pub fn attempts_left(&self) -> usize {
        self.queue.0.len()
    }

    /// Runs the next attempt in the scheduler's queue, if one is left.
    fn run_next(&mut self) {
        let Some(attempt) = self.queue.pop() else {
            return;
        };
        let index = self.runs.len();
        let logic = self.script.logic_at(attempt.at, self.config.logic);
        let read = read(
            &self.config,
            &self.state,
            &self.bronze,
            self.script.start,
            attempt.day,
            attempt.at,
        );
        let state_before = self.state.clone();
        let crashed = attempt.crash_then_retry_at.is_some();
        let (wrote, state_saved) = match (self.config.commit, crashed) {
            (_, false) => (true, true),
            (CommitOrder::StateAfterWrite, true) => (true, false),
            (CommitOrder::StateBeforeWrite, true) => (false, true),
        };
        let rows_read = read.rows.len();
        let read_ids = if self.track {
            read.rows
                .iter()
                .map(|&i| self.bronze.event(i).id.clone())
                .collect()
        } else {
            Vec::new()
        };
        let reopen = self
            .config
            .finaliser
            .is_some_and(|f| f.after_final == AfterFinal::Reopen);
        let final_before: SortedSet<Day> = self.finalised.keys().copied().collect();
        let is_final = |dt: Day| !reopen && final_before.contains(&dt);

        let effect = if wrote {
            let batch = transform(
                &self.config,
                &self.converted,
                &self.bronze,
                &read,
                attempt.day,
                logic,
                index,
            );
            write(
                &mut self.silver,
                self.config.write,
                batch,
                &is_final,
                self.track,
            )
        } else {
            Default::default()
        };
        for w in &effect.partitions {
            self.gold
                .insert(w.dt, DailyTotal::of(self.silver.partition(w.dt)));
            if w.rows_after == 0 {
                self.gold.remove(&w.dt);
            }
        }
        let final_written: Vec<Day> = effect
            .partitions
            .iter()
            .filter(|w| final_before.contains(&w.dt))
            .map(|w| w.dt)
            .collect();
        if state_saved {
            self.state = read.next_state;
        }

        let mut newly_final = Vec::new();
        let mut booked = Vec::new();
        let mut dropped = Vec::new();
        if !crashed {
            if let Some(finaliser) = self.config.finaliser {
                let last_final = shift(attempt.day, -i64::from(finaliser.allowed_lateness_days));
                for dt in days(self.next_to_finalise, last_final) {
                    self.finalised.entry(dt).or_insert(attempt.at);
                    newly_final.push(dt);
                }
                if last_final >= self.next_to_finalise {
                    self.next_to_finalise = shift(last_final, 1);
                }
                if finaliser.after_final != AfterFinal::Reopen {
                    for &i in self.bronze.arrived_between(self.reader_cursor, attempt.at) {
                        let event = self.bronze.event(i);
                        if !event.visible_at(attempt.at) {
                            continue;
                        }
                        let late = self
                            .finalised
                            .get(&event.event_date())
                            .is_some_and(|f| *f < event.arrived_at);
                        if !late {
                            continue;
                        }
                        if finaliser.after_final == AfterFinal::Adjustments {
                            self.adjustments.push(Adjustment {
                                id: event.id.clone(),
                                key: event.key.clone(),
                                dt: event.event_date(),
                                arrived_at: event.arrived_at,
                                booked_at: attempt.at,
                                gbp: self
                                    .converted
                                    .get(i)
                                    .and_then(|both| both[logic_slot(logic)]),
                            });
                            booked.push(event.id.clone());
                        } else {
                            dropped.push(event.id.clone());
                        }
                    }
                    self.reader_cursor = Some(attempt.at);
                }
            }
        }
        self.dropped_all.extend(dropped.iter().cloned());
        self.last_attempt_ok.insert(attempt.day, !crashed);

        let snapshot = self.snapshots.then(|| {
            if !self.detail.compared {
                return Snapshot {
                    silver: self.silver.clone(),
                    checks: Checks::default(),
                    diffs: Vec::new(),
                };
            }
            let truth = truth_at(&self.bronze, attempt.at);
            let (checks, through) = checks_now(
                &self.silver,
                &truth,
                self.script.start,
                &self.last_attempt_ok,
            );
            // Days the pipeline has not reached yet are not missing, just not due.
            let due = through.unwrap_or(self.script.start);
            Snapshot {
                silver: self.silver.clone(),
                checks,
                diffs: diff(&self.silver, &truth, Some(due)),
            }
        });

        if let Some(retry) = retry_of(self.script, &attempt) {
            self.queue.push(retry);
        }
        self.runs.push(RunTrace {
            attempt: index,
            day: attempt.day,
            at: attempt.at,
            kind: attempt.kind,
            logic,
            state_before,
            state_after: self.state.clone(),
            rows_read,
            read_ids,
            partitions_read: read.partitions,
            wrote,
            state_saved,
            crashed,
            writes: effect.partitions,
            blocked: effect.blocked,
            final_written,
            finalised: newly_final,
            booked,
            dropped,
            snapshot,
        });
    }

    /// The outcome, once `step` has run every attempt.
    pub fn finish(self) -> Outcome {
        let compared = self.detail.compared;
        let (checks, diffs) = if !compared {
            (Checks::default(), Vec::new())
        } else {
            let end = self.runs.last().map(|r| r.at);
            let truth = end.map(|at| truth_at(&self.bronze, at)).unwrap_or_default();
            let (checks, _) = checks_now(
                &self.silver,
                &truth,
                self.script.start,
                &self.last_attempt_ok,
            );
            (checks, diff(&self.silver, &truth, None))
        };
        Outcome {
            runs: self.runs,
            silver: self.silver,
            gold: self.gold,
            adjustments: self.adjustments,
            dropped: self.dropped_all,
            finalised: self.finalised,
            checks,
            diffs,
            compared,
        }
    }
}

/// One step is one attempt: the page paints between two runs.
impl Stepwise for Simulation<'_> {
    fn step(&mut self) -> bool {
        self.run_next();
        self.queue.0.is_empty()
    }
}

/// The checks as they stand, given which days' latest attempt succeeded;
/// also the latest day run so far.
fn checks_now(
    silver: &Table,
    truth: &SortedMap<Day, SortedMap<Id, &Event>>,
    start: Day,
    last_attempt_ok: &SortedMap<Day, bool>,
) -> (Checks, Option<Day>) {
    let failed: Vec<Day> = last_attempt_ok
        .iter()
        .filter(|(_, ok)| !**ok)
        .map(|(d, _)| *d)
        .collect();
    let through = last_attempt_ok.keys().next_back().copied();
    let checks = run_checks(&CheckInput {
        silver,
        truth,
        start,
        through,
        failed_days: &failed,
    });
    (checks, through)
}

/// The scheduler's queue: attempts popped in time order, retries slotted in.
struct Queue(Vec<Attempt>);

impl Queue {
    /// Earliest first; among equal instants, the one queued first.
    fn pop(&mut self) -> Option<Attempt> {
        let first = (0..self.0.len()).min_by_key(|&i| (self.0[i].at, i))?;
        Some(self.0.remove(first))
    }

    fn push(&mut self, attempt: Attempt) {
        self.0.push(attempt);
    }
}

/// The script's runs as the scheduler starts them: none while it is down;
/// when it returns, the retries it owes, then the missed scheduled runs in
/// order if the pipeline catches up (a minute apart, from a minute after
/// it is back, and anything due meanwhile waits behind them, as a DAG with
/// one active run at a time does), else only what comes next.
fn schedule(script: &Script, catch_up: bool) -> Queue {
    let mut runs: Vec<Attempt> = Vec::with_capacity(script.runs.len());
    for r in &script.runs {
        let attempt = Attempt {
            at: r.at,
            day: r.day,
            kind: r.kind,
            crash_then_retry_at: r.crash_then_retry_at,
        };
        match script.outage_at(r.at) {
            None => runs.push(attempt),
            Some(_) if catch_up && r.kind == RunKind::Scheduled => runs.push(Attempt {
                at: minute_after(back_at(script, r.at)),
                kind: RunKind::CatchUp,
                crash_then_retry_at: None,
                ..attempt
            }),
            Some(_) => {}
        }
    }
    crate::lean::order::sort_by_key(&mut runs, |r| (r.at, r.day));
    // Behind a catch-up nothing starts until the run before it has: what
    // falls due before the catch-ups are through waits a minute behind.
    let mut behind: Option<Instant> = None;
    for run in &mut runs {
        let waiting = behind.filter(|at| run.at <= *at);
        if let Some(at) = waiting {
            run.at = minute_after(at);
        }
        behind = (run.kind == RunKind::CatchUp || waiting.is_some()).then_some(run.at);
    }
    Queue(runs)
}

fn minute_after(at: Instant) -> Instant {
    at.checked_add_signed(chrono::Duration::minutes(1))
        .unwrap_or(at)
}

/// When the scheduler is back if it is down at `at` (through any outages
/// that overlap), else `at`.
fn back_at(script: &Script, at: Instant) -> Instant {
    let mut t = at;
    for _ in 0..=script.outages.len() {
        match script.outage_at(t) {
            Some(o) if o.until > t => t = o.until,
            _ => break,
        }
    }
    t
}

/// One attempt as the scheduler starts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    pub at: Instant,
    pub day: Day,
    pub kind: RunKind,
    pub crashes: bool,
}

/// Every attempt the scheduler starts for `script`, in order: its runs
/// less those an outage skips, catch-ups (if the pipeline catches up), and
/// each crash's retry. The same queue the simulation pops, so a runner
/// outside the lab replays exactly the engine's attempts.
pub fn planned(script: &Script, catch_up: bool) -> Vec<Planned> {
    let mut queue = schedule(script, catch_up);
    let mut out = Vec::with_capacity(queue.0.len());
    while let Some(a) = queue.pop() {
        if let Some(retry) = retry_of(script, &a) {
            queue.push(retry);
        }
        out.push(Planned {
            at: a.at,
            day: a.day,
            kind: a.kind,
            crashes: a.crash_then_retry_at.is_some(),
        });
    }
    out
}

/// The retry a crashing attempt queues: at its planned instant, or when
/// the scheduler is back if it is down then (it still owes the retry).
fn retry_of(script: &Script, crashing: &Attempt) -> Option<Attempt> {
    let at = crashing.crash_then_retry_at?;
    Some(Attempt {
        at: back_at(script, at),
        day: crashing.day,
        kind: RunKind::Retry,
        crash_then_retry_at: None,
    })
}

fn read(
    config: &PipelineConfig,
    state: &StateValue,
    bronze: &Bronze,
    start: Day,
    day: Day,
    at: Instant,
) -> Read {
    match (config.state, state) {
        (
            ProcessingState::Watermark {
                column,
                overlap_minutes,
            },
            StateValue::Watermark(mark),
        ) => {
            let from = mark.map(|m| {
                m.checked_sub_signed(chrono::Duration::minutes(i64::from(overlap_minutes)))
                    .unwrap_or(Instant::MIN)
            });
            let value = |e: &Event| match column {
                WatermarkColumn::ArrivedAt => e.arrived_at,
                WatermarkColumn::UpdatedAt => e.updated_at,
                WatermarkColumn::EventTime => e.event_time,
            };
            let candidates = match column {
                WatermarkColumn::ArrivedAt => bronze.arrived_between(from, at),
                _ => bronze.arrived_by(at),
            };
            let rows: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| from.is_none_or(|f| value(bronze.event(i)) > f))
                .filter(|&i| bronze.event(i).visible_at(at))
                .collect();
            let next = rows
                .iter()
                .map(|&i| value(bronze.event(i)))
                .max()
                .max(*mark);
            let partitions = distinct_event_dates(bronze, &rows);
            Read {
                rows,
                partitions,
                targets: SortedSet::new(),
                next_state: StateValue::Watermark(next),
            }
        }
        (ProcessingState::PartitionList { lookback, over }, StateValue::Done(done)) => {
            let window_start = shift(day, -i64::from(lookback)).max(start);
            let targets: SortedSet<Day> = days(start, day)
                .filter(|d| !done.contains(d) || *d >= window_start)
                .collect();
            let rows = targets
                .iter()
                .flat_map(|dt| bronze.partition(over, *dt, at).iter().copied())
                .filter(|&i| bronze.event(i).visible_at(at))
                .collect();
            let mut next = done.clone();
            next.extend(targets.iter().copied());
            let overwrite = if over == ListDate::EventDate {
                targets.clone()
            } else {
                SortedSet::new()
            };
            Read {
                rows,
                partitions: targets.into_iter().collect(),
                targets: overwrite,
                next_state: StateValue::Done(next),
            }
        }
        (ProcessingState::TrailingWindow { days: window }, _) => {
            let first = shift(day, -i64::from(window)).max(start);
            let targets: SortedSet<Day> = days(first, day).collect();
            let rows = targets
                .iter()
                .flat_map(|dt| {
                    bronze
                        .partition(ListDate::EventDate, *dt, at)
                        .iter()
                        .copied()
                })
                .filter(|&i| bronze.event(i).visible_at(at))
                .collect();
            Read {
                rows,
                partitions: targets.iter().copied().collect(),
                targets,
                next_state: StateValue::Nothing,
            }
        }
        _ => {
            let rows: Vec<usize> = bronze
                .arrived_by(at)
                .iter()
                .copied()
                .filter(|&i| bronze.event(i).visible_at(at))
                .collect();
            let partitions = distinct_event_dates(bronze, &rows);
            Read {
                rows,
                partitions,
                targets: SortedSet::new(),
                next_state: StateValue::Nothing,
            }
        }
    }
}

fn distinct_event_dates(bronze: &Bronze, rows: &[usize]) -> Vec<Day> {
    let dates: SortedSet<Day> = rows.iter().map(|&i| bronze.event(i).event_date()).collect();
    dates.into_iter().collect()
}

/// Bronze rows to silver rows: the latest version per key, converted to GBP
/// by the live logic, filed under the configured partition key.
fn transform(
    config: &PipelineConfig,
    converted: &[Converted],
    bronze: &Bronze,
    read: &Read,
    day: Day,
    logic: LogicVersion,
    attempt: usize,
) -> Batch {
    let chosen = latest_per_key(bronze, &read.rows);
    let rows = chosen
        .into_iter()
        .map(|i| {
            let event = bronze.event(i);
            let dt = match config.partition_key {
                PartitionKey::EventDate => event.event_date(),
                PartitionKey::ProcessingDate => day,
            };
            let gbp = converted.get(i).and_then(|both| both[logic_slot(logic)]);
            Row::from_event(event, dt, gbp, logic, attempt)
        })
        .collect();
    let overwrite = match config.partition_key {
        PartitionKey::EventDate => read.targets.clone(),
        PartitionKey::ProcessingDate => SortedSet::from([day]),
    };
    Batch { rows, overwrite }
}

/// Each bronze row's GBP amount under the fixed and the broken logic.
/// The transform is a pure function of the row, so it is computed once per
/// row instead of once per read: full refreshes read every row every run.
type Converted = [Option<Money>; 2];

fn logic_slot(logic: LogicVersion) -> usize {
    match logic {
        LogicVersion::Fixed => 0,
        LogicVersion::Broken => 1,
    }
}

fn convert_all(script: &Script) -> Vec<Converted> {
    script
        .events
        .iter()
        .map(|event| {
            let rate = script.fx.rate(event.event_date(), event.amount.currency);
            let gbp = |logic| rate.and_then(|r| to_gbp(event.amount, r, logic));
            [gbp(LogicVersion::Fixed), gbp(LogicVersion::Broken)]
        })
        .collect()
}

/// The rows a transform keeps: the latest version of each key, in the
/// order keys were first read. Immutable data has one version per key and
/// skips the bookkeeping.
fn latest_per_key(bronze: &Bronze, rows: &[usize]) -> Vec<usize> {
    if !bronze.has_versions() {
        return rows.to_vec();
    }
    let mut latest: HashMap<&Id, usize> = HashMap::default();
    let mut order: Vec<&Id> = Vec::new();
    for &i in rows {
        let event = bronze.event(i);
        match latest.get(&event.key) {
            Some(&held) => {
                let held_event = bronze.event(held);
                if (event.updated_at, event.arrived_at, &event.id)
                    > (held_event.updated_at, held_event.arrived_at, &held_event.id)
                {
                    latest.insert(&event.key, i);
                }
            }
            None => {
                latest.insert(&event.key, i);
                order.push(&event.key);
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| latest.get(key).copied())
        .collect()
}
