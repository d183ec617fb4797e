//! Titles and one-line briefs of the five scenarios, in the order the
//! chapter sets them.

use crate::design::choose::Palette;

/// A scenario as the list page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// 1-based, as in the URL `/scenarios/<number>`.
    pub number: u8,
    pub title: &'static str,
    pub brief: &'static str,
    /// The idea it exercises, as named in the glossary.
    pub idea: &'static str,
    /// The bronze table the scenario gives as the canvas's first node.
    pub source: &'static str,
    /// The situation, in a few paragraphs.
    pub story: &'static [&'static str],
    /// The numbers the design must cope with.
    pub facts: &'static [&'static str],
    /// Whether its backfill builds history for a new pipeline (no date has
    /// run yet) rather than correcting dates that ran.
    pub history: bool,
}

pub const SCENARIOS: [ScenarioInfo; 6] = [
    ScenarioInfo {
        number: 1,
        title: "Clicks, forward",
        brief: "Two weeks of immutable click events, some of them hours late, one crashed run and one manual re-run: load them incrementally without losing or doubling a click.",
        idea: "append-style incremental",
        source: "bronze.clicks",
        story: &[
            "Marlow's web shop logs every click on a product page into bronze.clicks. A click never changes once written, but the logging pipeline sometimes holds a batch back for hours, so some clicks land long after they happened.",
            "Build the daily job that fills silver.clicks, one partition per event date. The job runs at 02:00 for the day before. This fortnight, one night's run dies after writing and the scheduler retries it five minutes later, and an engineer re-runs one day by hand the next afternoon.",
        ],
        facts: &[
            "Clicks from 1 to 14 June 2026, 300 a day; they never change.",
            "Arrival delay: 88 % within 10 minutes, 9 % between 10 minutes and 6 hours, 3 % between 6 hours and 25 h 50 min.",
            "Runs daily at 02:00 for the day before; a partition is final after the run for D+2.",
            "Faults: the run for 3 June crashes after writing and is retried at 02:05; the run for 8 June is re-run by hand on Tuesday 9 June at 14:00.",
        ],
        history: false,
    },
    ScenarioInfo {
        number: 2,
        title: "Orders that change",
        brief: "Orders are paid, shipped, delivered and sometimes refunded for weeks after they are placed: keep exactly the latest version of each, reading only what changed.",
        idea: "merge-style incremental",
        source: "bronze.order_changes",
        story: &[
            "Orders are placed, paid, shipped, delivered, and one in eight is returned and refunded weeks later. Every change lands in bronze.order_changes as a new row.",
            "Silver must hold exactly one row per order, its latest version, filed under the date the order was placed. Reading everything every night is not an option.",
        ],
        facts: &[
            "Orders placed 1 to 21 June, 40 a day; changes for up to about six weeks.",
            "Change capture lags 30 s to 8 min, 6 % of changes 40 to 180 min.",
            "Runs daily at 02:00 through 20 July; the run for 10 June crashes after writing and is retried.",
        ],
        history: false,
    },
    ScenarioInfo {
        number: 3,
        title: "Late mobile events and month close",
        brief: "In-app purchases trickle in from phones that were offline for days, and finance closes August on Thursday 3 September: choose how long to wait and what to do with what comes later.",
        idea: "allowed lateness",
        source: "bronze.purchases",
        story: &[
            "The mobile app records in-app purchases on the phone and uploads them when it can. Most arrive within minutes; phones that were offline upload days later.",
            "Finance closes August on Thursday 3 September at 09:00 and wants every August partition final by then, holding nearly all of August's value. Whatever arrives afterwards must still be counted, once, somewhere.",
        ],
        facts: &[
            "Purchases 1 to 31 August, 400 a day, £0.99 to £49.99.",
            "Delay: 88 % within 5 minutes, 6 % 5 minutes to 8 hours, 6 % offline (median 24 hours, up to 20 days).",
            "Runs daily at 02:00 through 24 September; the run for 18 August crashes and is retried.",
            "Close: Thursday 3 September 2026, 09:00.",
        ],
        history: false,
    },
    ScenarioInfo {
        number: 4,
        title: "The currency bug",
        brief: "A conversion bug wrote short GBP totals for part of August: find which days from the drift query, rebuild exactly those, in the right order, without starving tonight's scheduled run.",
        idea: "blast radius",
        source: "bronze.orders",
        story: &[
            "A change to the currency conversion truncated exchange rates to two decimals. It went out early in August and the nightly runs built silver and gold with it until the fix went live on the 14th; tonight's run will build the 14th correctly. Nobody is sure of the deploy date.",
            "The evidence is the drift query below: it recomputes each day of silver from bronze with the fixed logic and lists the days more than a penny out, scanning silver from the look-back date you run it from. Plan the backfill from what it finds: which dates, from which layer, in which order, how many at a time, without taking the connection tonight's scheduled run needs.",
        ],
        facts: &[
            "Orders 1 to 14 August, 120 a day: 50 % GBP, 30 % EUR, 20 % USD; daily rates to 6 decimals.",
            "The backfill starts Saturday 15 August at 01:30; per partition silver takes 25 min and gold 10 min.",
            "The source pool has 4 connections; tonight's 02:00 run needs one for 15 minutes.",
            "On the canvas a backfill job drives the transform it connects to: each date runs that transform's logic, reads the layer it reads and writes with its write target's mode.",
        ],
        history: false,
    },
    ScenarioInfo {
        number: 5,
        title: "Two years of history, interrupted",
        brief: "Populate 730 daily partitions for a new pipeline over a weekend while the source fails over once: resume rather than restart, and never delay a nightly run.",
        idea: "completion marker",
        source: "bronze.events",
        story: &[
            "A new pipeline needs two years of history: 730 daily partitions. The backfill starts on Friday evening and must be done before Monday morning.",
            "In the small hours of Saturday the source database fails over, killing the backfill; it is started again half an hour later. Nightly runs must not wait for it.",
        ],
        facts: &[
            "Partitions 1 June 2024 to 31 May 2026, 12 events a day; launched Friday 5 June 2026 at 18:00.",
            "Per partition silver takes 9 min and gold 3 min, holding one slot; the pool has 4 slots; nightly 02:00 runs need one for 20 minutes.",
            "The source fails over on Saturday 6 June at 00:10; the backfill is re-run 30 minutes later. Budget: done by Monday 8 June 06:00.",
            "On the canvas a backfill job drives the transform it connects to: each date runs that transform's logic, reads the layer it reads and writes with its write target's mode.",
        ],
        history: true,
    },
    ScenarioInfo {
        number: 6,
        title: "The scheduler was down",
        brief: "The scheduler's database failed in the early hours of a Tuesday and nothing ran until Friday morning: design the daily sales load so that every day is whole again once it is back, whatever it missed.",
        idea: "catch-up after an outage",
        source: "bronze.sales",
        story: &[
            "Marlow's till system writes every sale into bronze.sales; a few reach bronze hours late, never more than a day. A daily job at 02:00 builds the day before into silver.sales, one partition per sale date.",
            "On Tuesday 9 June at 01:30 the scheduler's metadata database failed. Nothing was scheduled until Friday 12 June at 11:00: four nightly runs never started. Finance reads silver.sales on Monday and expects every day of the fortnight to be whole.",
        ],
        facts: &[
            "Sales 1 to 14 June 2026, 60 a day; a sale never changes once written.",
            "Arrival: 90 % within 10 minutes, 10 % between 10 minutes and 20 hours after the sale.",
            "Runs daily at 02:00 for the day before, the last at 02:00 on 16 June (for the 15th, which picks up the 14th's late sales).",
            "Outage: the scheduler is down from Tuesday 9 June 01:30 to Friday 12 June 11:00, so the runs for 8 to 11 June are missed. The processing state node asks whether the scheduler catches up (Airflow's catchup=True) when it is back.",
        ],
        history: false,
    },
];

/// The scenario with this URL number, if there is one.
pub fn find(number: &str) -> Option<&'static ScenarioInfo> {
    let n: u8 = number.trim().parse().ok()?;
    SCENARIOS.iter().find(|s| s.number == n)
}

/// What the canvas's palette gives a new node in scenario `number`: the
/// scenario's own silver table and dates, and the old currency logic only
/// in the scenario whose bug it is. No graded choice is in here.
pub fn palette(number: u8) -> Palette {
    use super::{clicks, currency, history, mobile, orders, outage};
    let (table, first, last) = match number {
        1 => ("silver.clicks", clicks::first(), clicks::last()),
        2 => ("silver.orders", orders::first(), orders::last()),
        3 => ("silver.purchases", mobile::first(), mobile::last()),
        4 => ("silver.orders", currency::aug(1), currency::aug(14)),
        6 => ("silver.sales", outage::first(), outage::last()),
        _ => ("silver.events", history::first(), history::last()),
    };
    Palette {
        table,
        first,
        last,
        logic_matters: number == 4,
        outage: number == 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_numbered_one_to_six_and_found_by_number() {
        for (i, s) in SCENARIOS.iter().enumerate() {
            assert_eq!(usize::from(s.number), i + 1);
            assert_eq!(find(&s.number.to_string()), Some(s));
        }
        assert_eq!(find("0"), None);
        assert_eq!(find("7"), None);
        assert_eq!(find("x"), None);
        assert_eq!(find("99999999999"), None);
    }
}
