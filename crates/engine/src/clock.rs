//! The backfill clock next to the scheduler (SPEC 2). A backfill's units of
//! work (a date, or in two phases one layer of a date) each hold a slot of
//! the source pool; scheduled runs need a slot too, and a slot freed at a
//! scheduled run's start goes to it first. With "yield" on, the backfill
//! does not take a slot it would still hold when a scheduled run needs the
//! last one. An interruption cancels every step that would finish at or
//! after it; a re-run skips what its completion markers say is done.

use crate::lean::sorted::SortedSet;
use std::collections::VecDeque;

use chrono::Duration;

use super::calendar::{days, Day, Instant};

/// A step of one date's rebuild.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepKind {
    Silver,
    Gold,
    Marker,
}

/// How a date's layers are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Each date: silver, then gold, on one slot.
    PerDate,
    /// Every date's silver first, then every date's gold.
    TwoPhases,
    /// Silver and gold of a date started together on its slot.
    Together,
}

/// When a unit's completion marker is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marking {
    Off,
    /// When the unit has finished: a killed unit is redone.
    After,
    /// When the unit starts: a killed unit counts as done.
    Before,
}

/// A backfill job as launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub first: Day,
    pub last: Day,
    /// Units allowed in flight at once.
    pub concurrency: u32,
    /// Source connections shared with scheduled runs.
    pub pool: u32,
    pub silver_minutes: i64,
    pub gold_minutes: i64,
    pub shape: Shape,
    pub markers: Marking,
    pub yield_to_scheduled: bool,
}

/// A scheduled run's need for one slot from `at` for `minutes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Booking {
    pub at: Instant,
    pub minutes: i64,
}

/// One launch of the backfill, possibly killed at `interrupt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub start: Instant,
    pub interrupt: Option<Instant>,
}

/// One step of one date on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockStep {
    pub dt: Day,
    pub kind: StepKind,
    pub start: Instant,
    pub end: Instant,
    pub slot: u32,
    /// Which attempt ran it (0 = the first launch).
    pub attempt: usize,
    /// The unit of work it belongs to, as its marker names it: `Gold` for
    /// a whole date, `Silver` or `Gold` for one layer in two phases.
    pub unit: StepKind,
}

/// When a scheduled run asked for a slot and when it got one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    pub booking: usize,
    pub asked: Instant,
    pub got: Instant,
    /// `None` when the backfill was not running, so nothing competed.
    pub slot: Option<u32>,
}

impl Grant {
    pub fn waited(&self) -> Duration {
        self.got - self.asked
    }
}

/// A unit the concurrency limit let in while no connection was free for
/// it: it is under way (an active run, in Airflow's words) but queues for
/// the pool. Asking for more dates at once than the pool has connections
/// makes these, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queued {
    pub dt: Day,
    pub unit: StepKind,
    pub attempt: usize,
    pub asked: Instant,
    /// When it got a connection; `None` if the attempt died first.
    pub got: Option<Instant>,
    /// When the attempt ended, for a unit that never got one.
    pub until: Instant,
}

/// Everything the clock decided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Steps that finished (markers included), in the order they finished.
    pub done: Vec<ClockStep>,
    /// Steps that had started but were killed by an interruption.
    pub cancelled: Vec<ClockStep>,
    /// Per attempt, the units it skipped because their marker existed.
    pub skipped: Vec<Vec<(Day, StepKind)>>,
    /// One per booking, in booking order.
    pub grants: Vec<Grant>,
    /// Units that waited for a connection, in the order they asked.
    pub queued: Vec<Queued>,
}

impl Timeline {
    /// When the last step of the last attempt finished.
    pub fn finished_at(&self) -> Option<Instant> {
        self.done.iter().map(|s| s.end).max()
    }

    /// Layer steps (silver, gold) that finished in `attempt`.
    pub fn rebuilt_in(&self, attempt: usize) -> impl Iterator<Item = &ClockStep> {
        self.done
            .iter()
            .filter(move |s| s.attempt == attempt && s.kind != StepKind::Marker)
    }
}

/// A unit of work: the steps it runs (offsets in minutes from its start),
/// how long it holds its slot, the marker that records it, its phase.
struct Unit {
    dt: Day,
    steps: Vec<(StepKind, i64, i64)>,
    hold: i64,
    marker: (Day, StepKind),
    phase: u8,
}

fn units(job: &Job) -> Vec<Unit> {
    let (s, g) = (job.silver_minutes.max(0), job.gold_minutes.max(0));
    let dates: Vec<Day> = days(job.first, job.last).collect();
    match job.shape {
        Shape::PerDate => dates
            .iter()
            .map(|&dt| Unit {
                dt,
                steps: vec![(StepKind::Silver, 0, s), (StepKind::Gold, s, s + g)],
                hold: s + g,
                marker: (dt, StepKind::Gold),
                phase: 0,
            })
            .collect(),
        Shape::Together => dates
            .iter()
            .map(|&dt| Unit {
                dt,
                steps: vec![(StepKind::Silver, 0, s), (StepKind::Gold, 0, g)],
                hold: s.max(g),
                marker: (dt, StepKind::Gold),
                phase: 0,
            })
            .collect(),
        Shape::TwoPhases => {
            let layer = |kind, minutes, phase| {
                dates.iter().map(move |&dt| Unit {
                    dt,
                    steps: vec![(kind, 0, minutes)],
                    hold: minutes,
                    marker: (dt, kind),
                    phase,
                })
            };
            layer(StepKind::Silver, s, 0)
                .chain(layer(StepKind::Gold, g, 1))
                .collect()
        }
    }
}

#[derive(Clone, Copy)]
enum Holder {
    Unit,
    Booking,
}

/// Runs `job` through `attempts` (each later attempt is a re-run that
/// starts after the previous one was interrupted), with `bookings`
/// competing for the pool.
pub fn run_clock(job: &Job, attempts: &[Attempt], bookings: &[Booking]) -> Timeline {
    let pool = job.pool.max(1) as usize;
    let concurrency = job.concurrency.max(1) as usize;
    let mut marked: SortedSet<(Day, StepKind)> = SortedSet::new();
    let mut timeline = Timeline::default();
    let mut grants: Vec<Option<Grant>> = vec![None; bookings.len()];
    let mut order: Vec<usize> = (0..bookings.len()).collect();
    crate::lean::order::sort_by_key(&mut order, |&i| (bookings[i].at, i));
    for (n, attempt) in attempts.iter().enumerate() {
        let (todo, skipped): (Vec<Unit>, Vec<Unit>) = units(job)
            .into_iter()
            .partition(|u| job.markers == Marking::Off || !marked.contains(&u.marker));
        let mut queue = VecDeque::from(todo);
        timeline
            .skipped
            .push(skipped.iter().map(|u| u.marker).collect());
        let mut slots: Vec<Option<(Holder, Instant, u8)>> = vec![None; pool];
        // A scheduled run granted before a failover may still hold its slot.
        for (grant, booking) in grants.iter().flatten().map(|g| (g, bookings[g.booking])) {
            let until = grant.got + Duration::minutes(booking.minutes.max(0));
            if let Some(slot) = grant.slot.and_then(|s| slots.get_mut(s as usize)) {
                if until > attempt.start {
                    *slot = Some((Holder::Booking, until, 0));
                }
            }
        }
        let mut started: Vec<ClockStep> = Vec::new();
        let mut waiting: Vec<usize> = Vec::new();
        // Units let in by the concurrency limit, still without a connection.
        let mut asking: Vec<((Day, StepKind), Instant)> = Vec::new();
        let mut next_booking = order
            .iter()
            .position(|&i| bookings[i].at >= attempt.start && grants[i].is_none())
            .unwrap_or(order.len());
        let mut t = attempt.start;
        loop {
            for slot in slots.iter_mut() {
                if slot.is_some_and(|(_, until, _)| until <= t) {
                    *slot = None;
                }
            }
            if attempt.interrupt.is_some_and(|cut| t >= cut) {
                break;
            }
            let units_in_flight = slots
                .iter()
                .filter(|s| matches!(s, Some((Holder::Unit, _, _))))
                .count();
            if queue.is_empty() && units_in_flight == 0 {
                break;
            }
            while let Some(&i) = order.get(next_booking) {
                if bookings[i].at > t {
                    break;
                }
                if grants[i].is_none() {
                    waiting.push(i);
                }
                next_booking += 1;
            }
            // A freed slot goes to a waiting scheduled run first.
            waiting.retain(|&i| match slots.iter().position(Option::is_none) {
                Some(free) => {
                    let until = t + Duration::minutes(bookings[i].minutes.max(0));
                    slots[free] = Some((Holder::Booking, until, 0));
                    grants[i] = Some(Grant {
                        booking: i,
                        asked: bookings[i].at,
                        got: t,
                        slot: Some(free as u32),
                    });
                    false
                }
                None => true,
            });
            let mut units_in_flight = units_in_flight;
            while units_in_flight < concurrency {
                let Some(free) = slots.iter().position(Option::is_none) else {
                    break;
                };
                let Some(unit) = queue.front() else { break };
                let phase_busy = slots
                    .iter()
                    .flatten()
                    .any(|(h, _, phase)| matches!(h, Holder::Unit) && *phase < unit.phase);
                if phase_busy {
                    break;
                }
                let until = t + Duration::minutes(unit.hold);
                let ahead = order.get(next_booking..).unwrap_or(&[]);
                if job.yield_to_scheduled
                    && starves(&slots, t, until, ahead.iter().map(|&i| bookings[i]))
                {
                    break;
                }
                let Some(unit) = queue.pop_front() else { break };
                slots[free] = Some((Holder::Unit, until, unit.phase));
                units_in_flight += 1;
                if let Some(i) = asking.iter().position(|(key, _)| *key == unit.marker) {
                    let (_, asked) = asking.remove(i);
                    if asked < t {
                        timeline.queued.push(Queued {
                            dt: unit.dt,
                            unit: unit.marker.1,
                            attempt: n,
                            asked,
                            got: Some(t),
                            until: t,
                        });
                    }
                }
                let step = |kind, from: i64, to: i64| ClockStep {
                    dt: unit.dt,
                    kind,
                    start: t + Duration::minutes(from),
                    end: t + Duration::minutes(to),
                    slot: free as u32,
                    attempt: n,
                    unit: unit.marker.1,
                };
                for &(kind, from, to) in &unit.steps {
                    started.push(step(kind, from, to));
                }
                match job.markers {
                    Marking::Off => {}
                    Marking::After => started.push(step(StepKind::Marker, unit.hold, unit.hold)),
                    Marking::Before => started.push(step(StepKind::Marker, 0, 0)),
                }
            }
            // The rest of what the concurrency limit lets in is under way
            // too, waiting for a connection (never a later phase: that waits
            // for the earlier one, not for the pool).
            let lowest_phase = slots
                .iter()
                .flatten()
                .filter(|(h, _, _)| matches!(h, Holder::Unit))
                .map(|(_, _, phase)| *phase)
                .min();
            let room = concurrency.saturating_sub(units_in_flight);
            for unit in queue.iter().take(room) {
                if lowest_phase.is_some_and(|p| p < unit.phase) {
                    break;
                }
                if !asking.iter().any(|(key, _)| *key == unit.marker) {
                    asking.push((unit.marker, t));
                }
            }
            let next = slots
                .iter()
                .flatten()
                .map(|(_, until, _)| *until)
                .filter(|u| *u > t)
                .chain(order.get(next_booking).map(|&i| bookings[i].at))
                .chain(attempt.interrupt)
                .filter(|x| *x > t)
                .min();
            match next {
                Some(next) => t = next,
                // Zero-minute units free their slots at once: go round again.
                None if !queue.is_empty() && slots.iter().flatten().any(|(_, u, _)| *u <= t) => {}
                None => break,
            }
        }
        for ((dt, unit), asked) in asking.drain(..) {
            timeline.queued.push(Queued {
                dt,
                unit,
                attempt: n,
                asked,
                got: None,
                until: t.max(asked),
            });
        }
        // Whoever was still waiting gets a slot when the backfill dies.
        for i in waiting {
            grants[i] = Some(Grant {
                booking: i,
                asked: bookings[i].at,
                got: t.max(bookings[i].at),
                slot: None,
            });
        }
        let (done, cancelled): (Vec<ClockStep>, Vec<ClockStep>) = started
            .into_iter()
            .partition(|s| attempt.interrupt.is_none_or(|cut| s.end < cut));
        for step in done.iter().filter(|s| s.kind == StepKind::Marker) {
            marked.insert((step.dt, step.unit));
        }
        timeline.done.extend(done);
        timeline.cancelled.extend(cancelled);
    }
    crate::lean::order::sort_by_key(&mut timeline.done, |s| (s.end, s.kind, s.dt, s.attempt));
    timeline.grants = grants
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            g.unwrap_or(Grant {
                booking: i,
                asked: bookings[i].at,
                got: bookings[i].at,
                slot: None,
            })
        })
        .collect();
    timeline
}

/// Whether taking a slot from `now` to `until` would leave a scheduled run
/// due before `until` with no slot free at its start.
fn starves(
    slots: &[Option<(Holder, Instant, u8)>],
    now: Instant,
    until: Instant,
    ahead: impl Iterator<Item = Booking>,
) -> bool {
    ahead.take_while(|b| b.at < until).any(|b| {
        let due = b.at.max(now);
        let busy = slots
            .iter()
            .flatten()
            .filter(|(_, held_until, _)| *held_until > due)
            .count();
        busy + 1 >= slots.len()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::at;

    use crate::calendar::aug;

    fn job(concurrency: u32, shape: Shape) -> Job {
        Job {
            first: aug(3),
            last: aug(13),
            concurrency,
            pool: 4,
            silver_minutes: 25,
            gold_minutes: 10,
            shape,
            markers: Marking::After,
            yield_to_scheduled: false,
        }
    }

    fn once(start: Instant) -> [Attempt; 1] {
        [Attempt {
            start,
            interrupt: None,
        }]
    }

    /// Twelve dates asked for on four connections: all eleven are under way
    /// at once, the first four hold the pool and the other seven queue,
    /// each until a connection frees (35 minutes a date: 4 at 02:05, 3 at
    /// 02:40). Four or fewer at once queue nothing.
    #[test]
    fn more_dates_at_once_than_connections_queue_for_the_pool() {
        let start = at(aug(15), 1, 30);
        let t = run_clock(&job(12, Shape::PerDate), &once(start), &[]);
        assert_eq!(t.queued.len(), 7);
        assert!(t.queued.iter().all(|q| q.asked == start));
        let dates: Vec<Day> = t.queued.iter().map(|q| q.dt).collect();
        assert_eq!(dates, days(aug(7), aug(13)).collect::<Vec<_>>());
        for (q, got) in t.queued.iter().zip([35, 35, 35, 35, 70, 70, 70]) {
            assert_eq!(q.got, Some(start + Duration::minutes(got)), "{}", q.dt);
            let first = t.done.iter().find(|s| s.dt == q.dt).map(|s| s.start);
            assert_eq!(first, q.got, "it starts when it gets the connection");
        }
        for concurrency in [1, 3, 4] {
            assert!(
                run_clock(&job(concurrency, Shape::PerDate), &once(start), &[])
                    .queued
                    .is_empty()
            );
        }
        // Cut at 02:00: the seven never got one.
        let cut = [Attempt {
            start,
            interrupt: Some(at(aug(15), 2, 0)),
        }];
        let t = run_clock(&job(12, Shape::PerDate), &cut, &[]);
        assert!(t
            .queued
            .iter()
            .all(|q| q.got.is_none() && q.until == at(aug(15), 2, 0)));
        assert_eq!(t.queued.len(), 7);
        // Two phases: gold waits for all silver, not for a connection.
        let two = run_clock(&job(12, Shape::TwoPhases), &once(start), &[]);
        assert!(two
            .queued
            .iter()
            .all(|q| q.unit == StepKind::Silver || q.got.is_some()));
    }

    /// SPEC 7 scenario 4: four dates from 01:30 hold every connection until
    /// 02:05, so tonight's 02:00 run waits five minutes; three leave it one.
    #[test]
    fn a_full_pool_makes_the_scheduled_run_wait_and_yielding_does_not() {
        let start = at(aug(15), 1, 30);
        let tonight = [Booking {
            at: at(aug(15), 2, 0),
            minutes: 15,
        }];
        let waited = |j: Job| run_clock(&j, &once(start), &tonight).grants[0].waited();
        assert_eq!(waited(job(4, Shape::PerDate)).num_minutes(), 5);
        assert_eq!(waited(job(12, Shape::PerDate)).num_minutes(), 5);
        assert_eq!(waited(job(3, Shape::PerDate)).num_minutes(), 0);
        let yielding = Job {
            yield_to_scheduled: true,
            ..job(4, Shape::PerDate)
        };
        assert_eq!(waited(yielding).num_minutes(), 0);
    }

    /// A nightly run granted just before the failover still holds its slot
    /// when the backfill is launched again.
    #[test]
    fn a_re_run_does_not_take_the_slot_a_scheduled_run_still_holds() {
        let start = at(aug(15), 1, 30);
        let cut = at(aug(15), 2, 10);
        let attempts = [
            Attempt {
                start,
                interrupt: Some(cut),
            },
            Attempt {
                start: cut + Duration::minutes(5),
                interrupt: None,
            },
        ];
        let nightly = [Booking {
            at: at(aug(15), 2, 0),
            minutes: 60,
        }];
        let timeline = run_clock(&job(4, Shape::PerDate), &attempts, &nightly);
        let held = timeline.grants[0].slot;
        let busy_until = timeline.grants[0].got + Duration::minutes(60);
        assert!(held.is_some());
        assert!(!timeline
            .rebuilt_in(1)
            .any(|s| Some(s.slot) == held && s.start < busy_until));
    }

    #[test]
    fn zero_minute_steps_still_finish_every_date() {
        let j = Job {
            silver_minutes: 0,
            gold_minutes: 0,
            ..job(2, Shape::TwoPhases)
        };
        let timeline = run_clock(&j, &once(at(aug(15), 1, 30)), &[]);
        assert_eq!(timeline.rebuilt_in(0).count(), 22);
    }

    #[test]
    fn together_starts_gold_with_silver_and_two_phases_waits_for_all_silver() {
        let start = at(aug(15), 1, 30);
        let together = run_clock(&job(3, Shape::Together), &once(start), &[]);
        assert!(together.done.iter().any(|g| g.kind == StepKind::Gold
            && together
                .done
                .iter()
                .any(|s| s.kind == StepKind::Silver && s.dt == g.dt && s.start == g.start)));
        let phases = run_clock(&job(2, Shape::TwoPhases), &once(start), &[]);
        let last_silver = phases
            .done
            .iter()
            .filter(|s| s.kind == StepKind::Silver)
            .map(|s| s.end)
            .max();
        let first_gold = phases
            .done
            .iter()
            .filter(|s| s.kind == StepKind::Gold)
            .map(|s| s.start)
            .min();
        assert!(first_gold >= last_silver);
    }
}
