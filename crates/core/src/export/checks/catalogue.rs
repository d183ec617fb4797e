//! The designs `scripts/check-real` runs on real tools, as data: each a
//! scenario's design in a file-safe name, built as the canvas builds it,
//! and what the grader must say of it (the export refuses to write a
//! design the grader no longer judges as labelled). The export binary,
//! the native tests and the browser tests (through `catalogue.json`, the
//! designs' share links) read this one list.

use crate::design::graph::{BackfillShape, Markers, StateChoice, WriteChoice};
use crate::design::{Graph, NodeConfig};
use crate::engine::calendar::aug;
use crate::engine::{AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, WatermarkColumn};
use crate::scenarios::sample::{catching_up, daily, sample};
use crate::scenarios::Scenario;

/// A daily design the checks replay over its scenario's runs.
#[derive(Clone, Copy, Debug)]
pub struct Daily {
    /// The file-safe name its files and expectations go by.
    pub name: &'static str,
    pub scenario: u8,
    pub state: StateChoice,
    pub write: WriteChoice,
    /// Days until final, and what happens to a row after.
    pub finaliser: Option<(u32, AfterFinal)>,
    /// Its state node set to catch up after missed runs (scenario 6).
    pub catching_up: bool,
    /// The rule a mistake fails; `None` for a design that passes.
    pub fails: Option<&'static str>,
}

/// A backfill design of scenario 4 or 5 whose Spark job the checks run:
/// the scenario's sample with one choice changed.
#[derive(Clone, Copy, Debug)]
pub struct Backfill {
    pub name: &'static str,
    pub scenario: u8,
    pub change: Change,
    pub fails: Option<&'static str>,
}

/// The one choice a backfill design changes from its scenario's sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    None,
    /// Each date's silver and gold in one step, not silver then gold.
    Together,
    /// The range starts on the 1st, before the bad code shipped.
    FromThe1st,
    /// The rebuild keeps the old conversion.
    OldLogic,
    /// A date is marked done before its partition is written.
    MarkersBefore,
}

const AFTER: CommitOrder = CommitOrder::StateAfterWrite;
const MERGE: WriteChoice = WriteChoice::Merge {
    key: Some(MergeKey::Key),
};
const OVERWRITE: WriteChoice = WriteChoice::OverwritePartition;
/// A trailing window of a day.
pub const WINDOW_1: StateChoice = StateChoice::TrailingWindow { days: 1 };
const fn list(lookback: u32, over: ListDate) -> StateChoice {
    StateChoice::PartitionList { lookback, over }
}
const fn watermark(column: WatermarkColumn, overlap_minutes: u32) -> StateChoice {
    StateChoice::Watermark {
        column,
        overlap_minutes,
    }
}
const fn day(
    name: &'static str,
    scenario: u8,
    state: StateChoice,
    write: WriteChoice,
    fails: Option<&'static str>,
) -> Daily {
    Daily {
        name,
        scenario,
        state,
        write,
        finaliser: None,
        catching_up: false,
        fails,
    }
}
const fn final_after_2(mut d: Daily, after: AfterFinal) -> Daily {
    d.finaliser = Some((2, after));
    d
}
const fn catching(mut d: Daily) -> Daily {
    d.catching_up = true;
    d
}

/// Scenarios 1, 2, 3 and 6: passing designs and mistakes. Scenario 2's
/// append mistake is there for Spark, which cannot merge.
pub const DAILY: [Daily; 17] = [
    day(
        "s1_list1_overwrite",
        1,
        list(1, ListDate::EventDate),
        OVERWRITE,
        None,
    ),
    day("s1_window1_overwrite", 1, WINDOW_1, OVERWRITE, None),
    catching(day(
        "s6_window1_overwrite_catching_up",
        6,
        WINDOW_1,
        OVERWRITE,
        None,
    )),
    day(
        "s6_list5_overwrite",
        6,
        list(5, ListDate::EventDate),
        OVERWRITE,
        None,
    ),
    catching(day(
        "s6_list5_overwrite_catching_up",
        6,
        list(5, ListDate::EventDate),
        OVERWRITE,
        None,
    )),
    day(
        "s6_mistake_window1_no_catch_up",
        6,
        WINDOW_1,
        OVERWRITE,
        Some("R1"),
    ),
    day(
        "s1_watermark_merge",
        1,
        watermark(WatermarkColumn::ArrivedAt, 0),
        MERGE,
        None,
    ),
    day(
        "s1_mistake_list1_append",
        1,
        list(1, ListDate::EventDate),
        WriteChoice::Append,
        Some("R2"),
    ),
    day(
        "s2_watermark_arrival_merge",
        2,
        watermark(WatermarkColumn::ArrivedAt, 0),
        MERGE,
        None,
    ),
    day(
        "s2_list1_change_date_merge",
        2,
        list(1, ListDate::ChangeDate),
        MERGE,
        None,
    ),
    day(
        "s2_updated_at_3h_overlap_merge",
        2,
        watermark(WatermarkColumn::UpdatedAt, 180),
        MERGE,
        None,
    ),
    day(
        "s2_mistake_merge_on_change_id",
        2,
        watermark(WatermarkColumn::ArrivedAt, 0),
        WriteChoice::Merge {
            key: Some(MergeKey::RowId),
        },
        Some("R2"),
    ),
    day(
        "s2_mistake_watermark_append",
        2,
        watermark(WatermarkColumn::ArrivedAt, 0),
        WriteChoice::Append,
        Some("R2"),
    ),
    final_after_2(
        day(
            "s3_list2_overwrite_l2",
            3,
            list(2, ListDate::EventDate),
            OVERWRITE,
            None,
        ),
        AfterFinal::Adjustments,
    ),
    final_after_2(
        day(
            "s3_watermark_merge_l2",
            3,
            watermark(WatermarkColumn::ArrivedAt, 0),
            MERGE,
            None,
        ),
        AfterFinal::Adjustments,
    ),
    final_after_2(
        day(
            "s3_list4_merge_l2",
            3,
            list(4, ListDate::EventDate),
            MERGE,
            None,
        ),
        AfterFinal::Adjustments,
    ),
    final_after_2(
        day(
            "s3_mistake_reopen",
            3,
            watermark(WatermarkColumn::ArrivedAt, 0),
            MERGE,
            Some("R3"),
        ),
        AfterFinal::Reopen,
    ),
];

/// Scenarios 4 and 5: the sample backfill and its mistakes.
pub const BACKFILLS: [Backfill; 6] = [
    Backfill {
        name: "s4_per_date_markers",
        scenario: 4,
        change: Change::None,
        fails: None,
    },
    Backfill {
        name: "s4_mistake_together",
        scenario: 4,
        change: Change::Together,
        fails: Some("R4"),
    },
    Backfill {
        name: "s4_mistake_from_the_1st",
        scenario: 4,
        change: Change::FromThe1st,
        fails: Some("R2"),
    },
    Backfill {
        name: "s4_mistake_old_logic",
        scenario: 4,
        change: Change::OldLogic,
        fails: Some("R1"),
    },
    Backfill {
        name: "s5_per_date_markers",
        scenario: 5,
        change: Change::None,
        fails: None,
    },
    Backfill {
        name: "s5_mistake_markers_before",
        scenario: 5,
        change: Change::MarkersBefore,
        fails: Some("R1"),
    },
];

impl Daily {
    /// Its scenario.
    pub fn scenario(&self) -> Result<&'static Scenario, String> {
        super::scenario(self.scenario)
    }

    /// The design, built edit by edit as the canvas builds it.
    pub fn graph(&self) -> Result<Graph, String> {
        let g = daily(
            self.scenario()?,
            self.state,
            AFTER,
            self.write,
            self.finaliser,
        );
        Ok(if self.catching_up { catching_up(g) } else { g })
    }
}

impl Backfill {
    /// Its scenario.
    pub fn scenario(&self) -> Result<&'static Scenario, String> {
        super::scenario(self.scenario)
    }

    /// The scenario's sample with this design's one change.
    pub fn graph(&self) -> Result<Graph, String> {
        let mut g = sample(self.scenario()?, WriteChoice::OverwritePartition);
        for node in g.nodes.values_mut() {
            match (&mut node.config, self.change) {
                (NodeConfig::Backfill { shape, .. }, Change::Together) => {
                    *shape = BackfillShape::Together;
                }
                (NodeConfig::Backfill { first, .. }, Change::FromThe1st) => *first = aug(1),
                (NodeConfig::Backfill { markers, .. }, Change::MarkersBefore) => {
                    *markers = Markers::BeforePartition;
                }
                (NodeConfig::Transform { logic, .. }, Change::OldLogic) => {
                    *logic = LogicVersion::Broken;
                }
                _ => {}
            }
        }
        Ok(g)
    }
}

/// Every design the checks run, as the browser tests read it
/// (`tests/e2e/catalogue.json`): its name, scenario, the page's link to it,
/// the rule a mistake fails, and the dbt and Spark blocks its page must
/// show (the code the checks run, or the readable form that says why not).
pub fn browser_json() -> Result<String, String> {
    use crate::tool::Tool;
    type Entry = (&'static str, &'static Scenario, Graph, Option<&'static str>);
    let daily = DAILY
        .iter()
        .map(|d| -> Result<Entry, String> { Ok((d.name, d.scenario()?, d.graph()?, d.fails)) });
    let backfills = BACKFILLS
        .iter()
        .map(|b| -> Result<Entry, String> { Ok((b.name, b.scenario()?, b.graph()?, b.fails)) });
    let mut out = Vec::new();
    for entry in daily.chain(backfills) {
        let (name, scenario, graph, fails) = entry?;
        let link = crate::design::files::link::share_link("", &graph, scenario.number, "")?;
        let codes = crate::export::scenario::code(scenario, &graph)
            .map_err(|problems| format!("{name}: {problems:?}"))?;
        let block = |tool: Tool| crate::export::canvas::block(&codes, tool);
        out.push(serde_json::json!({
            "name": name,
            "scenario": scenario.number,
            "link": link,
            "fails": fails,
            "dbt": block(Tool::Dbt),
            "spark": block(Tool::Spark),
        }));
    }
    serde_json::to_string_pretty(&out)
        .map(|text| text + "\n")
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each design is graded as its label says: a passing one passes, a
    /// mistake fails the rule named (the export refuses otherwise, so a
    /// drift shows here first, with the rules).
    #[test]
    fn every_design_the_checks_run_is_graded_as_labelled() {
        let daily = DAILY
            .iter()
            .map(|d| (d.name, d.scenario(), d.graph(), d.fails));
        let backfills = BACKFILLS
            .iter()
            .map(|b| (b.name, b.scenario(), b.graph(), b.fails));
        for (name, scenario, graph, fails) in daily.chain(backfills) {
            let failed = crate::scenarios::grading::grade::grade(
                scenario.expect("a scenario"),
                &graph.expect("a design"),
            )
            .failed();
            match fails {
                None => assert!(failed.is_empty(), "{name} fails {failed:?}"),
                Some(rule) => assert!(
                    failed.contains(&rule),
                    "{name} fails {failed:?}, not {rule}"
                ),
            }
        }
    }

    /// The browser tests' copy is what the catalogue makes now:
    /// `CATALOGUE_WRITE=1 cargo test -p partition-lab-core catalogue` writes it.
    #[test]
    fn the_browser_tests_read_the_catalogue_as_it_is() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/e2e/catalogue.json"
        );
        let made = browser_json().expect("every design has a link and code");
        if std::env::var_os("CATALOGUE_WRITE").is_some() {
            std::fs::write(path, &made).expect("writable");
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == made,
            "tests/e2e/catalogue.json is not what the catalogue makes now: CATALOGUE_WRITE=1 writes it"
        );
    }

    #[test]
    fn names_are_unique_and_file_safe() {
        let names: Vec<&str> = DAILY
            .iter()
            .map(|d| d.name)
            .chain(BACKFILLS.iter().map(|b| b.name))
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} twice");
            assert!(n
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
        }
    }
}
