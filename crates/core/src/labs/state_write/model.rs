//! The State x Write lab's model: its controls, the fixed week it replays
//! (SPEC 4) and the six pipelines it compares.

use serde::Serialize;

use crate::engine::calendar::{at, days, shift, Day};
use crate::engine::simulate::Planned;
use crate::engine::{
    simulate, CommitOrder, Event, Money, Outage, Outcome, PipelineConfig, ProcessingState, RunSpec,
    Script, WriteMode,
};

/// When the late order o-105 (Monday 23:58) shows up, if at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum LateOrder {
    Off,
    #[default]
    Tue,
    Wed,
    Fri,
}

crate::vocabulary::choice!(LateOrder {
    Off => "off", "no late order";
    Tue => "tue", "arrives Tuesday";
    Wed => "wed", "arrives Wednesday";
    Fri => "fri", "arrives Friday";
});

impl LateOrder {
    pub const ALL: [LateOrder; 4] = [
        LateOrder::Off,
        LateOrder::Tue,
        LateOrder::Wed,
        LateOrder::Fri,
    ];

    /// Days after Monday that it arrives (at 03:10).
    fn days_after_monday(self) -> Option<i64> {
        match self {
            LateOrder::Off => None,
            LateOrder::Tue => Some(1),
            LateOrder::Wed => Some(2),
            LateOrder::Fri => Some(4),
        }
    }
}

/// When the scheduler is down, if at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Down {
    #[default]
    Off,
    /// Wed 00:00 to Fri 09:00: the runs for Tue, Wed and Thu are missed.
    WedToFri,
    /// Tue 00:00 to Sat 09:00: the runs for Mon to Fri are missed.
    TueToSat,
}

crate::vocabulary::choice!(Down {
    Off => "off", "never down";
    WedToFri => "wed-fri", "down Wed 00:00 to Fri 09:00";
    TueToSat => "tue-sat", "down Tue 00:00 to Sat 09:00";
});

impl Down {
    pub const ALL: [Down; 3] = [Down::Off, Down::WedToFri, Down::TueToSat];

    /// Days after Monday it goes down and comes back (at 09:00).
    fn span(self) -> Option<(i64, i64)> {
        match self {
            Down::Off => None,
            Down::WedToFri => Some((2, 4)),
            Down::TueToSat => Some((1, 5)),
        }
    }

    /// The outage in the week, if the scheduler goes down.
    pub fn outage(self) -> Option<Outage> {
        let (from, until) = self.span()?;
        Some(Outage {
            from: at(shift(monday(), from), 0, 0),
            until: at(shift(monday(), until), 9, 0),
        })
    }
}

/// Everything the student can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Controls {
    pub late: LateOrder,
    pub crash: bool,
    pub lookback: u32,
    pub commit: CommitOrder,
    /// The scheduler's outage, and whether it catches up when it is back.
    pub down: Down,
    pub catch_up: bool,
}

impl Default for Controls {
    fn default() -> Self {
        Self {
            late: LateOrder::Tue,
            crash: true,
            lookback: 1,
            commit: CommitOrder::StateAfterWrite,
            down: Down::Off,
            catch_up: false,
        }
    }
}

impl Controls {
    /// All 240 combinations the lab offers (catch-up is only a choice
    /// while the scheduler goes down).
    pub fn all() -> Vec<Controls> {
        let mut all = Vec::new();
        for late in LateOrder::ALL {
            for crash in [true, false] {
                for lookback in 0..=2 {
                    for commit in [CommitOrder::StateAfterWrite, CommitOrder::StateBeforeWrite] {
                        for (down, catch_up) in Self::outages() {
                            all.push(Controls {
                                late,
                                crash,
                                lookback,
                                commit,
                                down,
                                catch_up,
                            });
                        }
                    }
                }
            }
        }
        all
    }

    /// Each outage the lab offers, with and without catch-up.
    pub fn outages() -> [(Down, bool); 5] {
        [
            (Down::Off, false),
            (Down::WedToFri, false),
            (Down::WedToFri, true),
            (Down::TueToSat, false),
            (Down::TueToSat, true),
        ]
    }
}

/// The six pipelines side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Cell {
    WatermarkAppend,
    WatermarkOverwrite,
    ListAppend,
    ListOverwrite,
    /// Rebuild the run's day and the lookback's days before it, remembering
    /// nothing (SPEC 11).
    WindowOverwrite,
    FullRefresh,
}

impl Cell {
    pub const ALL: [Cell; 6] = [
        Cell::WatermarkAppend,
        Cell::WatermarkOverwrite,
        Cell::ListAppend,
        Cell::ListOverwrite,
        Cell::WindowOverwrite,
        Cell::FullRefresh,
    ];

    /// The cell as a file or table name.
    pub fn slug(self) -> &'static str {
        match self {
            Cell::WatermarkAppend => "watermark_append",
            Cell::WatermarkOverwrite => "watermark_overwrite",
            Cell::ListAppend => "partition_list_append",
            Cell::ListOverwrite => "partition_list_overwrite",
            Cell::WindowOverwrite => "trailing_window_overwrite",
            Cell::FullRefresh => "full_refresh",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cell::WatermarkAppend => "Watermark + Append",
            Cell::WatermarkOverwrite => "Watermark + Overwrite",
            Cell::ListAppend => "Partition list + Append",
            Cell::ListOverwrite => "Partition list + Overwrite",
            Cell::WindowOverwrite => "Trailing window + Overwrite",
            Cell::FullRefresh => "Full refresh",
        }
    }

    pub fn config(self, controls: &Controls) -> PipelineConfig {
        let list = ProcessingState::partition_list(controls.lookback);
        let config = match self {
            Cell::WatermarkAppend => {
                PipelineConfig::new(ProcessingState::watermark(), WriteMode::Append)
            }
            Cell::WatermarkOverwrite => {
                PipelineConfig::new(ProcessingState::watermark(), WriteMode::OverwritePartition)
            }
            Cell::ListAppend => PipelineConfig::new(list, WriteMode::Append),
            Cell::ListOverwrite => PipelineConfig::new(list, WriteMode::OverwritePartition),
            Cell::WindowOverwrite => PipelineConfig::new(
                ProcessingState::TrailingWindow {
                    days: controls.lookback,
                },
                WriteMode::OverwritePartition,
            ),
            Cell::FullRefresh => PipelineConfig::full_refresh(),
        };
        // Catching up is the scheduler's setting for every pipeline alike.
        config
            .with_commit(controls.commit)
            .with_catch_up(controls.catch_up)
    }
}

/// Monday 2026-06-01, the first day of the lab's week.
pub fn monday() -> Day {
    const { crate::engine::calendar::date(2026, 6, 1) }
}

/// The week's order times, the same every day.
const ORDER_TIMES: [(u32, u32); 4] = [(9, 10), (12, 40), (17, 25), (21, 50)];

/// The fixed week: four orders a day arriving two minutes after they happen,
/// the late o-105, daily runs at 00:15 and Thursday's crash retried at 00:20.
pub fn script(controls: &Controls) -> Script {
    let week_end = shift(monday(), 6);
    let mut events = Vec::new();
    for (d, day) in days(monday(), week_end).enumerate() {
        for (n, (hour, minute)) in ORDER_TIMES.iter().enumerate() {
            let happened = at(day, *hour, *minute);
            let id = format!("o-{}{:02}", d + 1, n + 1);
            events.push(Event::immutable(
                &id,
                happened,
                happened + chrono::Duration::minutes(2),
                amount(d, n),
            ));
        }
        if d == 0 {
            if let Some(after) = controls.late.days_after_monday() {
                events.push(Event::immutable(
                    "o-105",
                    at(day, 23, 58),
                    at(shift(day, after), 3, 10),
                    amount(0, 4),
                ));
            }
        }
    }
    let runs = days(monday(), week_end)
        .map(|day| {
            let run = RunSpec::scheduled(at(shift(day, 1), 0, 15), day);
            if controls.crash && day == shift(monday(), 2) {
                run.crashing(at(shift(day, 1), 0, 20))
            } else {
                run
            }
        })
        .collect();
    let mut script = Script::new(monday(), events, runs);
    script.outages.extend(controls.down.outage());
    script
}

/// Order amounts: readable pounds that differ by day and slot.
fn amount(day: usize, slot: usize) -> Money {
    Money::gbp(1_200 + 350 * day as i64 + 125 * slot as i64)
}

/// Every cell's outcome for one set of controls.
pub fn run(controls: &Controls) -> Vec<(Cell, Outcome)> {
    let script = script(controls);
    Cell::ALL
        .iter()
        .map(|cell| (*cell, simulate(&cell.config(controls), &script)))
        .collect()
}

/// The run attempts the week has with these controls, in order: the
/// schedule less what an outage skips, plus catch-ups and one retry per
/// crash. Every pipeline's trace has these runs (the page names them
/// before the engine has run the week).
pub fn planned_runs(controls: &Controls) -> Vec<Planned> {
    crate::engine::simulate::planned(&script(controls), controls.catch_up)
}

/// How many run attempts the week has with these controls.
pub fn run_count(controls: &Controls) -> usize {
    planned_runs(controls).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page names the week's runs from the schedule before the engine
    /// has run it (the week table, the scrubber): in every week the lab
    /// offers, and those a link can ask for (catch-up on with the
    /// scheduler up), each pipeline's trace has exactly those runs, in
    /// order.
    #[test]
    fn every_pipeline_runs_the_planned_runs() {
        let weeks = Controls::all().into_iter().flat_map(|c| {
            [
                c,
                Controls {
                    catch_up: !c.catch_up,
                    ..c
                },
            ]
        });
        for controls in weeks {
            let planned = planned_runs(&controls);
            for (cell, outcome) in run(&controls) {
                let traced: Vec<_> = outcome
                    .runs
                    .iter()
                    .map(|r| (r.attempt, r.at, r.day, r.kind, r.crashed))
                    .collect();
                let named: Vec<_> = planned
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (i, p.at, p.day, p.kind, p.crashes))
                    .collect();
                assert_eq!(traced, named, "{cell:?} under {controls:?}");
            }
        }
    }
}
