//! Work on the clock applied to silver and gold: backfill steps and the
//! scheduled runs beside them, in time order, each reading at its start and
//! writing at its end (SPEC 2). What a layer step reads decides what it
//! fixes: bronze holds the raw amounts, silver only what some earlier logic
//! made of them.

use crate::lean::sorted::SortedSet;

use rustc_hash::FxHashMap as HashMap;

use super::calendar::{Day, Instant};
use super::clock::StepKind;
use super::config::WriteMode;
use super::event::Event;
use super::money::{to_gbp, FxRates, LogicVersion};
use super::table::{write, Batch, DailyTotal, Gold, Row, Table};

/// The layer a silver rebuild reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    Bronze,
    Silver,
}

/// Who did a piece of work, as an index into its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A step of the backfill's timeline (`Timeline::done`).
    Backfill(usize),
    /// A scheduled run (its booking).
    Scheduled(usize),
}

/// One piece of work on one partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    pub dt: Day,
    /// `Silver` or `Gold`; markers write no table and are not work.
    pub kind: StepKind,
    pub start: Instant,
    pub end: Instant,
    pub logic: LogicVersion,
    pub reads: Reads,
    pub write: WriteMode,
    pub origin: Origin,
}

/// What one piece of work did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    pub work: Work,
    pub rows_read: usize,
    /// Rows read that the broken logic had converted (silver reads only).
    pub broken_read: usize,
    /// Rows in the partition after the write.
    pub rows_after: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rebuilt {
    pub silver: Table,
    pub gold: Gold,
    pub applied: Vec<Applied>,
    /// The finance total read from gold at the report's instant, in pence.
    pub report: Option<i64>,
}

enum Read {
    Rows(Vec<Row>, usize),
    Total(DailyTotal),
}

/// Applies `work` to `silver` and `gold`; the report, if any, reads gold at
/// `report_at` after every write that lands at that instant.
pub fn apply(
    mut silver: Table,
    mut gold: Gold,
    events: &[Event],
    fx: &FxRates,
    work: &[Work],
    report_at: Option<Instant>,
) -> Rebuilt {
    let mut by_date: HashMap<Day, Vec<&Event>> = HashMap::default();
    for event in events {
        by_date.entry(event.event_date()).or_default().push(event);
    }
    // Writes land before reads at the same instant: a gold step that starts
    // when its silver ends sees the new silver.
    // A sorted list, not a set: every entry is distinct, and each distinct
    // BTree type costs the wasm bundle a copy of the B-tree code.
    let mut moments: Vec<(Instant, u8, usize)> = Vec::with_capacity(work.len().saturating_mul(2));
    for (i, w) in work.iter().enumerate() {
        moments.push((w.start, 1, i));
        moments.push((w.end, 0, i));
    }
    if let Some(at) = report_at {
        moments.push((at, 0, usize::MAX));
    }
    crate::lean::order::sort(&mut moments);
    let mut reads: Vec<Option<Read>> = (0..work.len()).map(|_| None).collect();
    let mut applied = Vec::new();
    let mut report = None;
    for (_, phase, i) in moments {
        let Some(w) = work.get(i) else {
            report = Some(gold.values().map(|t| t.gbp).sum());
            continue;
        };
        if phase == 1 {
            let read = match w.kind {
                StepKind::Gold => Read::Total(DailyTotal::of(silver.partition(w.dt))),
                _ => rows_for(w, &silver, by_date.get(&w.dt), fx),
            };
            if let Some(slot) = reads.get_mut(i) {
                *slot = Some(read);
            }
            continue;
        }
        let Some(read) = reads.get_mut(i).and_then(Option::take) else {
            continue;
        };
        let (rows_read, broken_read) = match read {
            Read::Total(total) => {
                gold.insert(w.dt, total);
                (total.rows, 0)
            }
            Read::Rows(rows, broken) => {
                let n = rows.len();
                let batch = Batch {
                    rows,
                    overwrite: SortedSet::from([w.dt]),
                };
                write(&mut silver, w.write, batch, &|_| false, false);
                (n, broken)
            }
        };
        applied.push(Applied {
            work: *w,
            rows_read,
            broken_read,
            rows_after: silver.partition(w.dt).len(),
        });
    }
    Rebuilt {
        silver,
        gold,
        applied,
        report,
    }
}

/// The rows a silver step writes, read at its start.
fn rows_for(w: &Work, silver: &Table, bronze: Option<&Vec<&Event>>, fx: &FxRates) -> Read {
    match w.reads {
        Reads::Bronze => {
            let rows = bronze
                .into_iter()
                .flatten()
                .filter(|e| e.visible_at(w.start))
                .map(|e| {
                    let gbp = fx
                        .rate(e.event_date(), e.amount.currency)
                        .and_then(|rate| to_gbp(e.amount, rate, w.logic));
                    let by = match w.origin {
                        Origin::Backfill(i) | Origin::Scheduled(i) => i,
                    };
                    Row::from_event(e, w.dt, gbp, w.logic, by)
                })
                .collect();
            Read::Rows(rows, 0)
        }
        Reads::Silver => {
            // The converted amounts are all silver holds to go on: whatever
            // logic runs now, it starts from what the old logic wrote.
            let rows: Vec<Row> = silver.partition(w.dt).to_vec();
            let broken = rows
                .iter()
                .filter(|r| r.logic == LogicVersion::Broken)
                .count();
            Read::Rows(rows, broken)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::at;
    use crate::money::{Currency, Money};
    use chrono::Duration;
    use rust_decimal::Decimal;

    use crate::calendar::aug;

    /// One EUR order on the 3rd, silver built by the broken logic.
    fn world() -> (Vec<Event>, FxRates, Table) {
        let event = Event::immutable(
            "o-1",
            at(aug(3), 10, 0),
            at(aug(3), 10, 5),
            Money::new(10_000, Currency::Eur),
        );
        let mut fx = FxRates::default();
        fx.insert(aug(3), Currency::Eur, Decimal::new(857_396, 6));
        let gbp = to_gbp(event.amount, Decimal::new(857_396, 6), LogicVersion::Broken);
        let mut silver = Table::default();
        silver.replace_partition(
            aug(3),
            vec![Row::from_event(
                &event,
                aug(3),
                gbp,
                LogicVersion::Broken,
                0,
            )],
        );
        (vec![event], fx, silver)
    }

    fn step(kind: StepKind, start: i64, end: i64, reads: Reads) -> Work {
        let t0 = at(aug(15), 1, 30);
        Work {
            dt: aug(3),
            kind,
            start: t0 + Duration::minutes(start),
            end: t0 + Duration::minutes(end),
            logic: LogicVersion::Fixed,
            reads,
            write: WriteMode::OverwritePartition,
            origin: Origin::Backfill(0),
        }
    }

    #[test]
    fn gold_sees_the_silver_written_at_the_instant_it_starts_and_not_before() {
        let (events, fx, silver) = world();
        let after = |gold_start| {
            let work = [
                step(StepKind::Silver, 0, 25, Reads::Bronze),
                step(StepKind::Gold, gold_start, gold_start + 10, Reads::Bronze),
            ];
            apply(silver.clone(), Gold::default(), &events, &fx, &work, None)
        };
        // 100 EUR at 0.857396: the fixed logic gives 85.74, the broken 85.00.
        assert_eq!(after(25).gold.get(&aug(3)).unwrap().gbp, 8_574);
        assert_eq!(after(0).gold.get(&aug(3)).unwrap().gbp, 8_500);
    }

    #[test]
    fn rebuilding_from_silver_keeps_what_the_broken_logic_wrote() {
        let (events, fx, silver) = world();
        let work = [step(StepKind::Silver, 0, 25, Reads::Silver)];
        let done = apply(silver, Gold::default(), &events, &fx, &work, None);
        assert_eq!(done.applied[0].broken_read, 1);
        assert_eq!(
            done.silver.partition(aug(3))[0].gbp,
            Some(Money::gbp(8_500))
        );
    }
}
