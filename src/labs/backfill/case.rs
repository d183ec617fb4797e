//! Marlow's August: orders in GBP/EUR/USD, silver built by the daily run,
//! broken from the run that built the 3rd, and what a backfill does to it.

use crate::sorted::SortedSet;

use chrono::Duration;

use crate::engine::backfill_run::backfill_work;
use crate::engine::calendar::{at, shift, Day, Instant};
use crate::engine::clock::{Attempt, StepKind};
use crate::engine::drift::{gold_drift, silver_drift, DriftRow};
use crate::engine::generate::{daily_runs, fx_rates, orders, CurrencyMix, DelayProfile, OrderSpec};
use crate::engine::rebuild::{apply, Reads};
use crate::engine::script::Deploy;
use crate::engine::table::{Gold, Table};
use crate::engine::{
    simulate_with, Detail, LogicVersion, PipelineConfig, ProcessingState, Script, WriteMode,
};
use crate::labs::backfill::run::{run, BackfillPlan, Execution};

pub use crate::engine::calendar::aug;

/// The partition the broken code first built: the run at 02:00 on the 4th.
pub fn true_ship_date() -> Day {
    aug(3)
}

/// The last partition a backfill may touch; the 14th is tonight's run's.
pub fn last_existing() -> Day {
    aug(13)
}

/// Orders a day in the simulated August.
pub const ORDERS_PER_DAY: u32 = 120;
/// SPEC 6's cost model.
pub const SILVER_MINUTES: i64 = 4;
pub const GOLD_MINUTES: i64 = 2;
pub const SOURCE_POOL: u32 = 4;

/// The first date the plan rebuilds (it runs from there to the 13th). A
/// separate choice from the student's prediction of the ship date, so a
/// wrong guess can be planned on and shown to leave days wrong. The page
/// opens on the whole month, the cautious plan that is not the answer:
/// from the 1st it also rebuilds two days that needed nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlanStart {
    #[default]
    First,
    Third,
    Eighth,
    Twelfth,
}

crate::vocabulary::choice!(PlanStart {
    First => "1", "the 1st";
    Third => "3", "the 3rd";
    Eighth => "8", "the 8th";
    Twelfth => "12", "the 12th";
});

crate::vocabulary::choice!(Concurrency {
    One => "1", "one date at a time";
    Four => "4", "four dates at a time";
    Twelve => "12", "twelve dates at a time";
});

impl PlanStart {
    pub const ALL: [PlanStart; 4] = [
        PlanStart::First,
        PlanStart::Third,
        PlanStart::Eighth,
        PlanStart::Twelfth,
    ];

    pub fn day(self) -> Day {
        match self {
            PlanStart::First => aug(1),
            PlanStart::Third => aug(3),
            PlanStart::Eighth => aug(8),
            PlanStart::Twelfth => aug(12),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Concurrency {
    One,
    #[default]
    Four,
    Twelve,
}

impl Concurrency {
    pub const ALL: [Concurrency; 3] = [Concurrency::One, Concurrency::Four, Concurrency::Twelve];

    pub fn value(self) -> u32 {
        match self {
            Concurrency::One => 1,
            Concurrency::Four => 4,
            Concurrency::Twelve => 12,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choices {
    pub from: PlanStart,
    pub concurrency: Concurrency,
    pub markers: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            from: PlanStart::First,
            concurrency: Concurrency::Four,
            markers: true,
        }
    }
}

/// The simulated August as it stands on Friday the 14th, when finance asks.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub script: Script,
    pub silver: Table,
    pub gold: Gold,
    /// Silver recomputed from bronze with the fixed logic: what every partition should hold.
    pub truth: Table,
}

impl Case {
    pub fn new() -> Self {
        let spec = OrderSpec {
            seed: 20_260_814,
            first: aug(1),
            last: last_existing(),
            per_day: ORDERS_PER_DAY,
            mix: CurrencyMix::MARLOW,
            delays: DelayProfile::WebCheckout,
            min_minor: 500,
            max_minor: 25_000,
        };
        let mut script = Script::new(
            aug(1),
            orders(&spec),
            daily_runs(aug(1), last_existing(), 2, 0),
        );
        script.fx = fx_rates(spec.seed, aug(1), aug(14));
        // The bug ships just before the run that builds the 3rd.
        script.deploys.push(Deploy {
            at: at(shift(true_ship_date(), 1), 0, 30),
            logic: LogicVersion::Broken,
        });
        let config = PipelineConfig::new(
            ProcessingState::partition_list(0),
            WriteMode::OverwritePartition,
        );
        let built = simulate_with(&config, &script, Detail::Summary);
        // Read as of the backfill's start (a step must take time: the
        // engine reads at its start and writes at its end).
        let at = backfill_start();
        let every_date = backfill_work(
            built
                .silver
                .partitions()
                .map(|(dt, _)| (dt, StepKind::Silver, at, at + Duration::minutes(1))),
            LogicVersion::Fixed,
            Reads::Bronze,
            WriteMode::OverwritePartition,
        );
        let truth = apply(
            Table::default(),
            Gold::default(),
            &script.events,
            &script.fx,
            &every_date,
            None,
        )
        .silver;
        Case {
            silver: built.silver,
            gold: built.gold,
            truth,
            script,
        }
    }

    /// Every partition's drift before any backfill, from the 1st.
    pub fn drift(&self) -> Vec<DriftRow> {
        silver_drift(&self.silver, &self.script.fx, aug(1))
    }

    /// The drift query's answer: its first row is the true start date.
    pub fn blast_radius(&self) -> Vec<Day> {
        self.drift()
            .into_iter()
            .filter(DriftRow::drifts)
            .map(|r| r.dt)
            .collect()
    }

    /// Which partitions the broken code built.
    pub fn built_broken(&self) -> SortedSet<Day> {
        self.silver
            .partitions()
            .filter(|(_, rows)| rows.iter().any(|r| r.logic == LogicVersion::Broken))
            .map(|(dt, _)| dt)
            .collect()
    }

    pub fn plan(&self, choices: &Choices) -> BackfillPlan {
        BackfillPlan {
            first: choices.from.day(),
            last: last_existing(),
            concurrency: choices.concurrency.value(),
            pool: SOURCE_POOL,
            silver_minutes: SILVER_MINUTES,
            gold_minutes: GOLD_MINUTES,
            markers: choices.markers,
        }
    }

    /// The tables after a sequence of backfill runs (a first run, then any
    /// re-runs): their steps applied by the engine, each reading at its
    /// start and writing at its end, as scenarios 4 and 5 apply theirs. The
    /// steps run the fixed code, read bronze (every row that had arrived by
    /// the step's start: bronze is never rebuilt, so orders that arrived
    /// after their day's run are in it, which is what a real rebuild from
    /// bronze picks up; dbt-duckdb agrees, in `scripts/check-real`) and
    /// overwrite their partition.
    pub fn after(&self, runs: &[Execution]) -> (Table, Gold) {
        let work = backfill_work(
            runs.iter()
                .flat_map(|e| &e.done)
                .map(|s| (s.dt, s.kind, s.start, s.end)),
            LogicVersion::Fixed,
            Reads::Bronze,
            WriteMode::OverwritePartition,
        );
        let rebuilt = apply(
            self.silver.clone(),
            self.gold.clone(),
            &self.script.events,
            &self.script.fx,
            &work,
            None,
        );
        (rebuilt.silver, rebuilt.gold)
    }

    /// The finance total for 1..13 August from gold, in pence.
    pub fn finance_total(gold: &Gold) -> i64 {
        gold.range(aug(1)..=last_existing())
            .map(|(_, t)| t.gbp)
            .sum()
    }

    /// Remaining drift after the runs: silver and gold rows that still disagree.
    pub fn remaining(&self, runs: &[Execution]) -> (Vec<DriftRow>, Vec<DriftRow>) {
        let (silver, gold) = self.after(runs);
        let s = silver_drift(&silver, &self.script.fx, aug(1))
            .into_iter()
            .filter(DriftRow::drifts)
            .collect();
        let g = gold_drift(&gold, &silver, &self.script.fx, aug(1))
            .into_iter()
            .filter(DriftRow::drifts)
            .collect();
        (s, g)
    }

    /// Partitions the runs rewrote that were not in the blast radius.
    pub fn needless_rebuilds(&self, runs: &[Execution]) -> Vec<Day> {
        let radius: SortedSet<Day> = self.blast_radius().into_iter().collect();
        let touched: SortedSet<Day> = runs.iter().flat_map(|e| e.silver_rebuilt()).collect();
        touched.difference(&radius).copied().collect()
    }

    /// Runs the plan from `start` after the `earlier` runs, optionally
    /// interrupted after `stop_after` minutes.
    pub fn execute(
        &self,
        choices: &Choices,
        earlier: &[Execution],
        start: Instant,
        stop_after: Option<i64>,
    ) -> Execution {
        self.execute_until(
            choices,
            earlier,
            start,
            stop_after.map(|m| start + Duration::minutes(m)),
        )
    }

    /// As `execute`, killed at the instant `interrupt`.
    pub fn execute_until(
        &self,
        choices: &Choices,
        earlier: &[Execution],
        start: Instant,
        interrupt: Option<Instant>,
    ) -> Execution {
        run(&self.plan(choices), earlier, Attempt { start, interrupt })
    }
}

impl Default for Case {
    fn default() -> Self {
        Self::new()
    }
}

/// The backfill starts on Friday 14 August at 10:00.
pub fn backfill_start() -> Instant {
    at(aug(14), 10, 0)
}
