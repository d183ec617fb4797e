//! The source pool's connections over time, as a picture: one lane per
//! connection, each backfill date's silver and gold and each scheduled run
//! as a bar on the lane it held, and a scheduled run's wait for a slot as a
//! gap from when it asked to when it got one. The backfill lab draws its
//! runs with it, scenarios 4 and 5 the graded run and the smallest case.
//! Built from the clock's trace only: the picture decides nothing.

use crate::counted::counted;
use chrono::Duration;

use crate::engine::backfill_run::Scheduled;
use crate::engine::calendar::{day_month, hh_mm, Day, Instant};
use crate::engine::clock::{StepKind, Timeline};
use crate::labs::backfill::run::Execution;

/// What held a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Silver(Day),
    Gold(Day),
    /// Started, then killed by an interruption.
    Cancelled(Day),
    Scheduled(Day),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    /// 0-based connection.
    pub lane: u32,
    /// Minutes from the picture's start.
    pub from: i64,
    pub to: i64,
    pub holder: Holder,
}

impl Bar {
    /// "3 Aug silver, 01:30 to 01:55, connection 1".
    pub fn words(&self, start: Instant) -> String {
        let what = match self.holder {
            Holder::Silver(d) => format!("{} silver", day_month(d)),
            Holder::Gold(d) => format!("{} gold", day_month(d)),
            Holder::Cancelled(d) => format!("{} (cancelled)", day_month(d)),
            Holder::Scheduled(d) => format!("scheduled run for {}", day_month(d)),
        };
        format!(
            "{what}, {} to {}, connection {}",
            hh_mm(start + Duration::minutes(self.from)),
            hh_mm(start + Duration::minutes(self.to)),
            self.lane.saturating_add(1)
        )
    }
}

impl Bar {
    /// The bar's label on the picture: the day of the month and what held
    /// the connection ("03 S"); its `words` say the same in full.
    pub fn mark(&self) -> String {
        use chrono::Datelike;
        match self.holder {
            Holder::Silver(d) => format!("{:02} S", d.day()),
            Holder::Gold(d) => format!("{:02} G", d.day()),
            Holder::Cancelled(d) => format!("{:02} ✕", d.day()),
            Holder::Scheduled(_) => "run".to_string(),
        }
    }
}

/// "7 Aug to 13 Aug", or the dates one by one when they are not a run.
fn list_days(dates: &[Day]) -> String {
    let consecutive = dates
        .windows(2)
        .all(|w| matches!(w, [a, b] if a.succ_opt() == Some(*b)));
    match (dates.first(), dates.last()) {
        (Some(a), Some(b)) if a != b && consecutive => {
            format!("{} to {}", day_month(*a), day_month(*b))
        }
        _ => dates
            .iter()
            .map(|d| day_month(*d))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A scheduled run that asked for a connection and waited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    pub lane: u32,
    pub asked: i64,
    pub got: i64,
    pub day: Day,
}

/// A stretch of time in which the same dates were under way but waiting
/// for a connection (asking for more at once than the pool has).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    pub from: i64,
    pub to: i64,
    pub dates: Vec<Day>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolPicture {
    pub start: Instant,
    /// The picture's width in minutes.
    pub minutes: i64,
    pub lanes: u32,
    pub bars: Vec<Bar>,
    pub waits: Vec<Wait>,
    /// Backfill dates queueing for a connection, stretch by stretch.
    pub queue: Vec<Queue>,
    /// Bars beyond `minutes` that were left out (a long backfill).
    pub left_out: usize,
}

impl PoolPicture {
    /// The clock time `minutes` after the picture's start.
    pub fn at(&self, minutes: i64) -> String {
        hh_mm(self.start + Duration::minutes(minutes))
    }

    /// A wait's label on the picture: when it asked, how long it waited.
    pub fn wait_label(&self, w: &Wait) -> String {
        format!(
            "asked {} · waited {} min",
            self.at(w.asked),
            w.got.saturating_sub(w.asked)
        )
    }

    /// The picture in words: the connections and the span, every wait of
    /// a scheduled run and every stretch dates queued, and what was left
    /// out. The picture's description for a screen reader, and the text
    /// beside it for everyone.
    pub fn summary(&self) -> String {
        let span = self.minutes.max(1);
        let waits: String = self
            .waits
            .iter()
            .map(|w| {
                format!(
                    " The scheduled run for {} asked for a connection at {} and got connection {} at {}: {} min late.",
                    day_month(w.day),
                    self.at(w.asked),
                    w.lane.saturating_add(1),
                    self.at(w.got),
                    w.got.saturating_sub(w.asked)
                )
            })
            .collect();
        let queue: String = self
            .queue
            .iter()
            .map(|q| {
                format!(
                    " From {} to {}, {} under way waited for a connection ({}).",
                    self.at(q.from),
                    self.at(q.to),
                    counted(q.dates.len(), "date"),
                    list_days(&q.dates)
                )
            })
            .collect();
        let nothing_waited = if waits.is_empty() && queue.is_empty() {
            " Nothing waited for a connection."
        } else {
            ""
        };
        let left_out = if self.left_out > 0 {
            format!(
                " The first {} hours are shown; {} later {} left out.",
                span / 60,
                counted(self.left_out, "bar"),
                if self.left_out == 1 { "is" } else { "are" }
            )
        } else {
            String::new()
        };
        format!(
            "{} connections from {} to {}: {}.{nothing_waited}{waits}{queue}{left_out}",
            self.lanes,
            self.at(0),
            self.at(span),
            counted(self.bars.len(), "bar"),
        )
    }

    /// The picture as it stood `minutes` after its start: what had begun,
    /// cut at that moment (a smallest case stepped through moment by moment).
    pub fn until(&self, minutes: i64) -> PoolPicture {
        let bars = self
            .bars
            .iter()
            .filter(|b| b.from < minutes || (b.from == minutes && b.to == minutes))
            .map(|b| Bar {
                to: b.to.min(minutes),
                ..b.clone()
            })
            .collect();
        let waits = self
            .waits
            .iter()
            .filter(|w| w.asked <= minutes)
            .map(|w| Wait {
                got: w.got.min(minutes.max(w.asked)),
                ..w.clone()
            })
            .collect();
        let queue = self
            .queue
            .iter()
            .filter(|q| q.from < minutes)
            .map(|q| Queue {
                to: q.to.min(minutes),
                ..q.clone()
            })
            .collect();
        PoolPicture {
            bars,
            waits,
            queue,
            ..self.clone()
        }
    }

    /// The most dates waiting for a connection at any one time.
    pub fn most_queued(&self) -> usize {
        self.queue.iter().map(|q| q.dates.len()).max().unwrap_or(0)
    }

    /// Minutes from the picture's start to `at`.
    pub fn minutes_to(&self, at: Instant) -> i64 {
        minutes_between(self.start, at)
    }
}

/// The longest stretch drawn: scenario 5's weekend would be too thin to read.
pub const MAX_MINUTES: i64 = 8 * 60;

fn minutes_between(start: Instant, at: Instant) -> i64 {
    (at - start).num_minutes()
}

fn bar(start: Instant, lane: u32, (from, to): (Instant, Instant), holder: Holder) -> Bar {
    Bar {
        lane,
        from: minutes_between(start, from),
        to: minutes_between(start, to),
        holder,
    }
}

/// What a finished step held its connection for; a marker holds none.
fn layer(kind: StepKind, dt: Day) -> Option<Holder> {
    match kind {
        StepKind::Silver => Some(Holder::Silver(dt)),
        StepKind::Gold => Some(Holder::Gold(dt)),
        StepKind::Marker => None,
    }
}

/// The dates waiting at each stretch between the moments one asked or got
/// a connection, from (date, asked, got) in minutes.
fn stretches(waiting: &[(Day, i64, i64)]) -> Vec<Queue> {
    let mut moments: Vec<i64> = waiting.iter().flat_map(|(_, a, g)| [*a, *g]).collect();
    crate::lean::order::sort(&mut moments);
    moments.dedup();
    let mut out: Vec<Queue> = Vec::new();
    for pair in moments.windows(2) {
        let (from, to) = match pair {
            [from, to] => (*from, *to),
            _ => continue,
        };
        let dates: Vec<Day> = waiting
            .iter()
            .filter(|(_, a, g)| *a <= from && from < *g)
            .map(|(d, _, _)| *d)
            .collect();
        match out.last_mut() {
            Some(last) if last.to == from && last.dates == dates => last.to = to,
            _ if dates.is_empty() => {}
            _ => out.push(Queue { from, to, dates }),
        }
    }
    out
}

fn assemble(
    start: Instant,
    lanes: u32,
    mut bars: Vec<Bar>,
    waits: Vec<Wait>,
    waiting: &[(Day, Instant, Instant)],
) -> PoolPicture {
    let waiting: Vec<(Day, i64, i64)> = waiting
        .iter()
        .map(|(d, a, g)| (*d, minutes_between(start, *a), minutes_between(start, *g)))
        .collect();
    let end = bars
        .iter()
        .map(|b| b.to)
        .chain(waits.iter().map(|w| w.got))
        .chain(waiting.iter().map(|(_, _, g)| *g))
        .max()
        .unwrap_or(0);
    let minutes = end.clamp(1, MAX_MINUTES);
    let before = bars.len();
    bars.retain(|b| b.from < minutes);
    for b in &mut bars {
        b.to = b.to.min(minutes);
    }
    crate::lean::order::sort_by_key(&mut bars, |b| (b.lane, b.from));
    PoolPicture {
        start,
        minutes,
        lanes,
        left_out: before.saturating_sub(bars.len()),
        bars,
        waits: waits.into_iter().filter(|w| w.asked < minutes).collect(),
        queue: stretches(&waiting)
            .into_iter()
            .filter(|q| q.from < minutes)
            .map(|q| Queue {
                to: q.to.min(minutes),
                ..q
            })
            .collect(),
    }
}

/// A scenario's backfill: the clock's steps and the scheduled runs' grants.
pub fn from_timeline(
    timeline: &Timeline,
    scheduled: &[Scheduled],
    lanes: u32,
    start: Instant,
) -> PoolPicture {
    let mut bars: Vec<Bar> = timeline
        .done
        .iter()
        .filter_map(|s| layer(s.kind, s.dt).map(|h| (s, h)))
        .chain(
            timeline
                .cancelled
                .iter()
                .map(|s| (s, Holder::Cancelled(s.dt))),
        )
        .filter(|(s, _)| s.end > s.start)
        .map(|(s, holder)| bar(start, s.slot, (s.start, s.end), holder))
        .collect();
    let mut waits = Vec::new();
    for grant in &timeline.grants {
        let (Some(lane), Some(run)) = (grant.slot, scheduled.get(grant.booking)) else {
            continue;
        };
        let got = minutes_between(start, grant.got);
        bars.push(Bar {
            lane,
            from: got,
            to: got.saturating_add(run.booking.minutes),
            holder: Holder::Scheduled(run.day),
        });
        if grant.got > grant.asked {
            waits.push(Wait {
                lane,
                asked: minutes_between(start, grant.asked),
                got,
                day: run.day,
            });
        }
    }
    let waiting: Vec<(Day, Instant, Instant)> = timeline
        .queued
        .iter()
        .map(|q| (q.dt, q.asked, q.got.unwrap_or(q.until)))
        .collect();
    assemble(start, lanes, bars, waits, &waiting)
}

/// The backfill lab's runs so far (finished or interrupted), oldest first.
pub fn from_executions(runs: &[Execution], lanes: u32) -> Option<PoolPicture> {
    let start = runs.first()?.started;
    let bars = runs
        .iter()
        .flat_map(|e| {
            let done = e
                .done
                .iter()
                .filter_map(|s| layer(s.kind, s.dt).map(|h| (s, h)));
            done.chain(e.cancelled.iter().map(|s| (s, Holder::Cancelled(s.dt))))
        })
        .filter(|(s, _)| s.end > s.start)
        .map(|(s, holder)| bar(start, s.slot, (s.start, s.end), holder))
        .collect();
    let waiting: Vec<(Day, Instant, Instant)> =
        runs.iter().flat_map(|e| e.queued.iter().copied()).collect();
    Some(assemble(start, lanes, bars, Vec::new(), &waiting))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::backfill::case::{backfill_start, Case, SOURCE_POOL};
    use crate::labs::backfill::{August, Choices, Concurrency};

    #[test]
    fn the_lab_s_four_at_a_time_fill_every_lane_and_never_overlap_on_one() {
        let case = Case::new();
        let choices = Choices {
            from: August::CHAPTER.ship,
            ..Choices::default()
        };
        let run = case.execute_until(&choices, &[], backfill_start(), None);
        let picture = from_executions(std::slice::from_ref(&run), SOURCE_POOL).expect("a run");
        assert_eq!(picture.lanes, 4);
        assert_eq!(picture.minutes, 18, "three waves of 6 minutes");
        assert_eq!(picture.bars.len(), 22, "11 dates, silver and gold each");
        for lane in 0..4 {
            let on: Vec<&Bar> = picture.bars.iter().filter(|b| b.lane == lane).collect();
            assert!(!on.is_empty(), "lane {lane} is used");
            assert!(
                on.windows(2).all(|w| w[0].to <= w[1].from),
                "lane {lane} holds one thing at a time"
            );
        }
        assert_eq!(
            picture.bars[0].words(picture.start),
            "3 Aug silver, 10:00 to 10:04, connection 1"
        );
        let twelve = Choices {
            concurrency: Concurrency::Twelve,
            ..choices
        };
        let run = case.execute_until(&twelve, &[], backfill_start(), None);
        let wider = from_executions(&[run], SOURCE_POOL).expect("a run");
        assert!(
            wider.bars.iter().all(|b| b.lane < 4),
            "twelve at once still queue on four connections"
        );
        assert_eq!(wider.minutes, 18);
        // The seven beyond the pool are under way from the start, waiting:
        // all seven for 6 minutes, then the last three for 6 more.
        let queue: Vec<(i64, i64, usize)> = wider
            .queue
            .iter()
            .map(|q| (q.from, q.to, q.dates.len()))
            .collect();
        assert_eq!(queue, [(0, 6, 7), (6, 12, 3)]);
        assert_eq!(wider.most_queued(), 7);
        assert!(picture.queue.is_empty(), "four at a time queue nothing");
        assert_eq!(
            wider.until(3).queue,
            [Queue {
                from: 0,
                to: 3,
                dates: wider.queue[0].dates.clone()
            }]
        );

        let early = picture.until(5);
        assert_eq!(early.minutes, 18, "the frame stays put while stepping");
        assert!(early.bars.iter().all(|b| b.from < 5 && b.to <= 5));
        assert_eq!(
            early.bars.len(),
            8,
            "four silver steps done, four gold begun"
        );
        assert_eq!(picture.until(18), picture);
        assert!(picture.until(0).bars.is_empty());
    }

    /// The words say what the picture holds: each wait with its minutes,
    /// each queueing stretch with its dates, and nothing waiting said only
    /// when nothing did.
    #[test]
    fn the_picture_in_words_names_every_wait_and_queue() {
        let day = crate::engine::calendar::aug;
        let start = crate::engine::calendar::at(day(15), 1, 30);
        let mut picture = PoolPicture {
            start,
            minutes: 120,
            lanes: 2,
            bars: vec![Bar {
                lane: 0,
                from: 0,
                to: 25,
                holder: Holder::Silver(day(3)),
            }],
            waits: Vec::new(),
            queue: Vec::new(),
            left_out: 0,
        };
        assert_eq!(
            picture.summary(),
            "2 connections from 01:30 to 03:30: 1 bar. Nothing waited for a connection."
        );
        assert_eq!(picture.bars[0].mark(), "03 S");
        picture.waits.push(Wait {
            lane: 1,
            asked: 30,
            got: 45,
            day: day(14),
        });
        picture.queue.push(Queue {
            from: 0,
            to: 25,
            dates: vec![day(7), day(8), day(9)],
        });
        picture.queue.push(Queue {
            from: 25,
            to: 50,
            dates: vec![day(7), day(9)],
        });
        picture.left_out = 1;
        let words = picture.summary();
        assert!(!words.contains("Nothing waited"), "{words}");
        assert!(words.contains(
            "The scheduled run for 14 Aug asked for a connection at 02:00 and got connection 2 at 02:15: 15 min late."
        ), "{words}");
        assert!(
            words.contains(
                "From 01:30 to 01:55, 3 dates under way waited for a connection (7 Aug to 9 Aug)."
            ),
            "{words}"
        );
        assert!(words.contains("(7 Aug, 9 Aug)"), "{words}");
        assert!(
            words.ends_with("The first 2 hours are shown; 1 bar later is left out."),
            "{words}"
        );
        assert_eq!(
            picture.wait_label(&picture.waits[0]),
            "asked 02:00 · waited 15 min"
        );
    }
}
