//! Marlow's August: orders in GBP/EUR/USD, silver built by the daily run,
//! broken from the run that built the ship date (the 3rd in the chapter, a
//! variant's own day otherwise), and what a backfill does to it.

use crate::lean::sorted::SortedSet;

use chrono::Duration;

use crate::engine::backfill_run::backfill_work;
use crate::engine::calendar::{at, shift, Day, Instant};
use crate::engine::clock::{Attempt, StepKind};
use crate::engine::drift::{gold_drift, silver_drift, DriftRow};
use crate::engine::generate::{daily_runs, fx_rates, orders, CurrencyMix, DelayProfile, OrderSpec};
use crate::engine::rebuild::{apply, Reads, Rebuilt};
use crate::engine::script::Deploy;
use crate::engine::table::{Gold, Table};
use crate::engine::{
    simulate_with, Detail, LogicVersion, PipelineConfig, ProcessingState, Script, WriteMode,
};
use crate::labs::backfill::run::{run, BackfillPlan, Execution};
use crate::variant::Variant;

pub use crate::engine::calendar::aug;

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

/// This August's numbers (SPEC 14): the chapter's own, or a variant's.
/// A variant moves the day the bug shipped and every order's amount,
/// currency and arrival; the story's other days (the deploy log's 8th,
/// the 12th finance noticed, the withdrawn Sunday, Friday's backfill) stay,
/// so every lesson of the lab holds in every variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct August {
    pub variant: Variant,
    /// The partition the broken code first built (the run at 02:00 the
    /// next morning): the drift query's first row.
    pub ship: PlanStart,
}

/// The days a variant's bug may ship: early in the month, before the
/// deploy log's 8th, so that a plan from the log leaves days wrong.
const SHIPS: std::ops::RangeInclusive<u32> = 2..=6;

/// Seeds a variant tries for its orders (`August::order_seed`): far more
/// than it needs (about one in four passes for the latest ship date).
const SEEDS_TRIED: u64 = 200;

/// The orders of an August from `seed`.
fn order_spec(seed: u64) -> OrderSpec {
    OrderSpec {
        seed,
        first: aug(1),
        last: last_existing(),
        per_day: ORDERS_PER_DAY,
        mix: CurrencyMix::MARLOW,
        delays: DelayProfile::WebCheckout,
        min_minor: 500,
        max_minor: 25_000,
    }
}

impl August {
    pub const CHAPTER: August = August {
        variant: Variant::CHAPTER,
        ship: PlanStart(3),
    };

    pub fn of(variant: Variant) -> August {
        if variant.is_chapter() {
            return August::CHAPTER;
        }
        let day = variant.pick("backfill lab: ship date", SHIPS);
        August {
            variant,
            ship: PlanStart(u8::try_from(day).unwrap_or(3)),
        }
    }

    /// The seed of this August's orders and rates. A variant's is the
    /// first of its seeds whose orders keep the chapter's two promises
    /// (`fair_orders`); the orders are the generator's own, only the seed
    /// is chosen.
    pub fn order_seed(self) -> u64 {
        if self.variant.is_chapter() {
            return 20_260_814;
        }
        let first = self.variant.seed("backfill lab: orders");
        (0..SEEDS_TRIED)
            .map(|n| first.wrapping_add(n))
            .find(|seed| self.fair_orders(*seed))
            .unwrap_or(first)
    }

    /// As in the chapter: every order dated before the ship date arrived
    /// before its day's run (one the run missed would leave a day before
    /// the bug short, and the drift query, which sees only the rows silver
    /// holds, would no longer be all the evidence a plan needs); and every
    /// order of 1..13 August had arrived when the backfill starts (one
    /// arriving during it would be read by a rebuild but not by the truth
    /// finance is promised, which is bronze as the backfill starts).
    fn fair_orders(self, seed: u64) -> bool {
        let start = backfill_start();
        orders(&order_spec(seed)).iter().all(|e| {
            let day = e.event_date();
            let on_time = day >= self.ship.day() || e.arrived_at <= at(shift(day, 1), 2, 0);
            on_time && (day > last_existing() || e.arrived_at < start)
        })
    }

    /// The ship dates the room can guess, in date order. The chapter's:
    /// the 3rd, the 8th, the 12th. A variant's: its own day, another early
    /// day drawn for it (the chapter's 3rd as often as any), and the
    /// deploy log's 8th; so neither the chapter, nor the earliest, nor
    /// the day that is not the chapter's tells the answer: only the data.
    pub fn guesses(self) -> [PlanStart; 3] {
        if self.variant.is_chapter() {
            return [August::CHAPTER.ship, PlanStart::EIGHTH, PlanStart::TWELFTH];
        }
        // Another early day, before the 8th: before the answer or after
        // it as a coin says, so its place among the guesses tells nothing
        // either (the 1st is a wrong day like any other: a variant's bug
        // ships from the 2nd, after the month's first run).
        let before: Vec<u8> = (1..self.ship.0).collect();
        let after: Vec<u8> = (self.ship.0.saturating_add(1)..=7).collect();
        let early = self.variant.pick("backfill lab: a wrong day's side", 0..=1) == 0;
        let days = if (early && !before.is_empty()) || after.is_empty() {
            before
        } else {
            after
        };
        let last = u32::try_from(days.len().saturating_sub(1)).unwrap_or(0);
        let at = self.variant.pick("backfill lab: a wrong day", 0..=last);
        let decoy = days
            .get(usize::try_from(at).unwrap_or(0))
            .map_or(PlanStart::TWELFTH, |d| PlanStart(*d));
        let (a, b) = if decoy < self.ship {
            (decoy, self.ship)
        } else {
            (self.ship, decoy)
        };
        [a, b, PlanStart::EIGHTH]
    }

    /// Where the page lets a plan start: the whole month, or a guess (and
    /// the 12th, where the 1st is a guess).
    pub fn starts(self) -> [PlanStart; 4] {
        match self.guesses() {
            [a, b, c] if a == PlanStart::FIRST => [a, b, c, PlanStart::TWELFTH],
            [a, b, c] => [PlanStart::FIRST, a, b, c],
        }
    }

    /// The start a link names, if this August offers it.
    pub fn start_named(self, name: &str) -> Option<PlanStart> {
        self.starts().into_iter().find(|s| s.name() == name.trim())
    }

    /// "3, 8 or 12": the guesses as a link writes them.
    pub fn guess_names(self) -> String {
        let [a, b, c] = self.guesses();
        format!("{}, {} or {}", a.name(), b.name(), c.name())
    }

    /// "the 3rd, the 8th and the 12th".
    pub fn guess_labels(self) -> String {
        let [a, b, c] = self.guesses();
        format!("{}, {} and {}", a.label(), b.label(), c.label())
    }
}

/// The first date the plan rebuilds (it runs from there to the 13th). A
/// separate choice from the student's prediction of the ship date, so a
/// wrong guess can be planned on and shown to leave days wrong. The page
/// opens on the whole month, the cautious plan that is not the answer:
/// from the 1st it also rebuilds the days before the bug. Which days the
/// page offers is the August's (`August::starts`): a link's `from=` is
/// the day's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlanStart(u8);

impl Default for PlanStart {
    fn default() -> Self {
        PlanStart::FIRST
    }
}

/// A plan's first day as a link writes it, and in words, by day.
const NAMES: [&str; 14] = [
    "", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
];
const LABELS: [&str; 14] = [
    "", "the 1st", "the 2nd", "the 3rd", "the 4th", "the 5th", "the 6th", "the 7th", "the 8th",
    "the 9th", "the 10th", "the 11th", "the 12th", "the 13th",
];

impl PlanStart {
    /// The whole month.
    pub const FIRST: PlanStart = PlanStart(1);
    /// The story's later days, the same in every variant: a guess from
    /// the deploy log, and the day before the last one built.
    pub const EIGHTH: PlanStart = PlanStart(8);
    pub const TWELFTH: PlanStart = PlanStart(12);

    pub fn day(self) -> Day {
        aug(u32::from(self.0))
    }

    /// "3", as a link writes it.
    pub fn name(self) -> &'static str {
        NAMES.get(usize::from(self.0)).copied().unwrap_or_default()
    }

    /// "the 3rd".
    pub fn label(self) -> &'static str {
        LABELS.get(usize::from(self.0)).copied().unwrap_or_default()
    }
}

crate::vocabulary::choice!(Concurrency {
    One => "1", "one date at a time";
    Four => "4", "four dates at a time";
    Twelve => "12", "twelve dates at a time";
});

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

/// What the source holds for Sunday 9 August when the backfill starts: the
/// day as delivered, or nothing (SPEC 11's day corrected to empty: the
/// shop was closed for the platform migration, every order dated the 9th
/// was its load test's, and the source team deleted them on Thursday).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sunday {
    #[default]
    Delivered,
    Withdrawn,
}

crate::vocabulary::choice!(Sunday {
    Delivered => "delivered", "as delivered";
    Withdrawn => "withdrawn", "withdrawn by the source";
});

/// Which partitions the rebuild's overwrite replaces (SPEC 11): every date
/// it targets, or only the dates it writes rows to. They differ only for a
/// date whose corrected rows are empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Writer {
    #[default]
    Targeted,
    Dynamic,
}

crate::vocabulary::choice!(Writer {
    Targeted => "targeted", "every date it rebuilds (dbt delete+insert, microbatch, Delta replaceWhere)";
    Dynamic => "dynamic", "only dates it writes rows to (Spark dynamic overwrite)";
});

impl Writer {
    /// What this overwrite does with the 9th when its rebuild reads no rows.
    pub fn on_empty(self) -> &'static str {
        match self {
            Writer::Targeted => "An overwrite that replaces every date it rebuilds deletes the 9th and inserts what it read, so a date with no rows now ends empty.",
            Writer::Dynamic => "An overwrite that replaces only the dates it writes rows to leaves the 9th alone, so a date with no rows now keeps whatever it held.",
        }
    }

    pub fn mode(self) -> WriteMode {
        match self {
            Writer::Targeted => WriteMode::OverwritePartition,
            Writer::Dynamic => WriteMode::OverwritePresent,
        }
    }
}

impl Sunday {
    /// `Case::sunday_note` before the August is built (the page builds it
    /// once the ship date is predicted, for the answer): the same story,
    /// without the day's orders and pounds.
    pub fn note_unbuilt(self, writer: Writer) -> String {
        match self {
            Sunday::Delivered => format!(
                "Sunday 9 August as delivered. The two overwrites differ only for a date whose rebuild reads no rows: withdraw the Sunday to see one. {}",
                writer.on_empty()
            ),
            Sunday::Withdrawn => format!(
                "Sunday 9 August: the shop was closed for the platform migration, and every order dated the 9th was its load test's. The source team deleted them from bronze {}. Silver still holds them: the daily run built the 9th before that. {}",
                crate::engine::calendar::weekday_day_month_time(withdrawn_at()),
                writer.on_empty()
            ),
        }
    }
}

/// The withdrawn Sunday, and when the source team deleted its orders.
pub fn sunday() -> Day {
    aug(9)
}

pub fn withdrawn_at() -> Instant {
    at(aug(13), 16, 0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choices {
    /// Whose August: the chapter's, or a variant's.
    pub august: August,
    pub from: PlanStart,
    pub concurrency: Concurrency,
    pub markers: bool,
    pub sunday: Sunday,
    pub writer: Writer,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            august: August::CHAPTER,
            from: PlanStart::FIRST,
            concurrency: Concurrency::Four,
            markers: true,
            sunday: Sunday::Delivered,
            writer: Writer::Targeted,
        }
    }
}

impl Choices {
    /// The backfill these choices describe. The plan is the choices'
    /// alone: no run, no data, so a page can say it before the engine has
    /// built August.
    pub fn plan(&self) -> BackfillPlan {
        BackfillPlan {
            first: self.from.day(),
            last: last_existing(),
            concurrency: self.concurrency.value(),
            pool: SOURCE_POOL,
            silver_minutes: SILVER_MINUTES,
            gold_minutes: GOLD_MINUTES,
            markers: self.markers,
            write: self.writer.mode(),
        }
    }
}

/// The simulated August as it stands on Friday the 14th, when finance asks.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub august: August,
    pub sunday: Sunday,
    pub script: Script,
    pub silver: Table,
    pub gold: Gold,
    /// Silver recomputed from bronze with the fixed logic: what every partition should hold.
    pub truth: Table,
}

impl Case {
    pub fn new() -> Self {
        Self::of(Sunday::Delivered)
    }

    /// The chapter's August with Sunday the 9th as `sunday` says.
    pub fn of(sunday: Sunday) -> Self {
        Self::in_august(August::CHAPTER, sunday)
    }

    /// `august` with Sunday the 9th as `sunday` says: the daily runs built
    /// it before the source withdrew it, so only a rebuild can tell.
    pub fn in_august(august: August, sunday: Sunday) -> Self {
        let spec = order_spec(august.order_seed());
        let mut script = Script::new(
            aug(1),
            orders(&spec),
            daily_runs(aug(1), last_existing(), 2, 0),
        );
        script.fx = fx_rates(spec.seed, aug(1), aug(14));
        if sunday == Sunday::Withdrawn {
            for e in script
                .events
                .iter_mut()
                .filter(|e| e.event_date() == self::sunday())
            {
                e.withdrawn_at = Some(withdrawn_at());
            }
        }
        // The bug ships just before the run that builds its first day.
        script.deploys.push(Deploy {
            at: at(shift(august.ship.day(), 1), 0, 30),
            logic: LogicVersion::Broken,
        });
        let config = PipelineConfig::new(
            ProcessingState::partition_list(0),
            WriteMode::OverwritePartition,
        );
        let built = simulate_with(&config, &script, Detail::TABLES);
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
            august,
            sunday,
            silver: built.silver,
            gold: built.gold,
            truth,
            script,
        }
    }

    /// Bronze as the backfill finds it: every order but those withdrawn.
    pub fn bronze_now(&self) -> impl Iterator<Item = &crate::engine::Event> {
        let at = backfill_start();
        self.script.events.iter().filter(move |e| e.visible_at(at))
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

    /// The tables after a sequence of backfill runs (a first run, then any
    /// re-runs): their steps applied by the engine, each reading at its
    /// start and writing at its end, as scenarios 4 and 5 apply theirs. The
    /// steps run the fixed code, read bronze (every row that had arrived by
    /// the step's start: bronze is never rebuilt, so orders that arrived
    /// after their day's run are in it, which is what a real rebuild from
    /// bronze picks up; dbt-duckdb agrees, in `scripts/check-real`) and
    /// overwrite their partition with the plan's writer.
    pub fn after(&self, runs: &[Execution]) -> (Table, Gold) {
        let rebuilt = self.rebuilt(runs);
        (rebuilt.silver, rebuilt.gold)
    }

    /// The tables after the runs, with the rebuild's account of each step.
    pub fn rebuilt(&self, runs: &[Execution]) -> Rebuilt {
        let write = runs
            .first()
            .map_or(WriteMode::OverwritePartition, |e| e.write);
        let work = backfill_work(
            runs.iter()
                .flat_map(|e| &e.done)
                .map(|s| (s.dt, s.kind, s.start, s.end)),
            LogicVersion::Fixed,
            Reads::Bronze,
            write,
        );
        apply(
            self.silver.clone(),
            self.gold.clone(),
            &self.script.events,
            &self.script.fx,
            &work,
            None,
        )
    }

    /// What the Sunday and the writer choices mean for this August, before
    /// any run: how many orders the source withdrew and what each writer
    /// does with a date it rebuilds from no rows.
    pub fn sunday_note(&self, choices: &Choices) -> String {
        let built = self.silver.partition(sunday());
        let pence: i64 = built.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
        let orders = format!(
            "{} ({})",
            crate::counted::counted(built.len(), "order"),
            crate::engine::money::Money::gbp(pence).grouped()
        );
        let built_by = self
            .script
            .runs
            .iter()
            .filter(|r| r.day == sunday())
            .map(|r| r.at)
            .min()
            .map(crate::engine::calendar::weekday_day_month_time)
            .unwrap_or_default();
        let writer = choices.writer.on_empty();
        match self.sunday {
            Sunday::Delivered => format!(
                "Sunday 9 August as delivered: {orders}. The two overwrites differ only for a date whose rebuild reads no rows: withdraw the Sunday to see one. {writer}"
            ),
            Sunday::Withdrawn => {
                let gone = self
                    .script
                    .events
                    .iter()
                    .filter(|e| e.withdrawn_at.is_some())
                    .count();
                format!(
                    "Sunday 9 August: the shop was closed for the platform migration, and all {gone} orders dated the 9th were its load test's. The source team deleted them from bronze {}. Silver still holds {orders}: the daily run built the 9th {built_by}, before that. {writer}",
                    crate::engine::calendar::weekday_day_month_time(withdrawn_at())
                )
            }
        }
    }

    /// Dates a silver rebuild read no rows for and left holding rows: what
    /// a dynamic overwrite does to a day corrected to empty. Each with the
    /// rows it still holds and their value in pence, from the rebuild's
    /// own account of each step.
    pub fn kept_stale(&self, runs: &[Execution]) -> Vec<(Day, usize, i64)> {
        Self::kept_in(&self.rebuilt(runs))
    }

    /// `kept_stale` of a rebuild already made.
    pub fn kept_in(rebuilt: &Rebuilt) -> Vec<(Day, usize, i64)> {
        let mut kept: Vec<(Day, usize, i64)> = Vec::new();
        for a in &rebuilt.applied {
            if a.work.kind != StepKind::Silver || a.rows_read != 0 || a.rows_after == 0 {
                continue;
            }
            if kept.iter().any(|(dt, _, _)| *dt == a.work.dt) {
                continue;
            }
            let rows = rebuilt.silver.partition(a.work.dt);
            let pence = rows.iter().filter_map(|r| r.gbp).map(|m| m.minor).sum();
            kept.push((a.work.dt, rows.len(), pence));
        }
        kept
    }

    /// What finance should read for 1..13 August: every order bronze
    /// holds at the backfill, converted by the fixed logic, in pence.
    pub fn truth_total(&self) -> i64 {
        self.truth
            .rows()
            .filter_map(|r| r.gbp)
            .map(|m| m.minor)
            .sum()
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
        self.drift_left(&silver, &gold)
    }

    /// Silver and gold rows of these tables that still disagree.
    pub fn drift_left(&self, silver: &Table, gold: &Gold) -> (Vec<DriftRow>, Vec<DriftRow>) {
        let s = silver_drift(silver, &self.script.fx, aug(1))
            .into_iter()
            .filter(DriftRow::drifts)
            .collect();
        let g = gold_drift(gold, silver, &self.script.fx, aug(1))
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
        run(&choices.plan(), earlier, Attempt { start, interrupt })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The Sunday's note drawn before the August is built tells the case's
    /// story less its figures, and what it says of silver is so: the 9th
    /// holds orders, built by a run before the source deleted them.
    #[test]
    fn the_unbuilt_sunday_note_is_the_case_note_less_its_figures() {
        for sunday in [Sunday::Delivered, Sunday::Withdrawn] {
            let case = Case::of(sunday);
            for writer in [Writer::Targeted, Writer::Dynamic] {
                let choices = Choices {
                    sunday,
                    writer,
                    ..Choices::default()
                };
                let built = case.sunday_note(&choices);
                let unbuilt = sunday.note_unbuilt(writer);
                assert!(built.ends_with(writer.on_empty()) && unbuilt.ends_with(writer.on_empty()));
                assert!(built.contains('£') && !unbuilt.contains('£'), "{unbuilt}");
                let opening = |note: &str| note.split([':', '.']).next().map(str::to_string);
                assert_eq!(opening(&built), opening(&unbuilt));
            }
            let held = case.silver.partition(self::sunday());
            assert!(!held.is_empty());
            let built_at = case
                .script
                .runs
                .iter()
                .filter(|r| r.day == self::sunday())
                .map(|r| r.at)
                .min();
            assert!(built_at.is_some_and(|at| at < withdrawn_at()));
            if sunday == Sunday::Withdrawn {
                let when = crate::engine::calendar::weekday_day_month_time(withdrawn_at());
                assert!(sunday
                    .note_unbuilt(Writer::Targeted)
                    .contains(&format!("deleted them from bronze {when}")));
            }
        }
    }
}
