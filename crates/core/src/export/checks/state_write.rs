#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

use std::collections::{BTreeMap, BTreeSet};

use super::*;

fn late_name(late: LateOrder) -> &'static str {
    match late {
        LateOrder::Off => "off",
        LateOrder::Tue => "tue",
        LateOrder::Wed => "wed",
        LateOrder::Fri => "fri",
    }
}

/// Which of the week's scripts `controls` give: the late order, the crash
/// and the scheduler's outage.
fn script_id(controls: &Controls) -> String {
    let down = match (controls.down, controls.catch_up) {
        (Down::Off, _) => String::new(),
        (down, catch_up) => format!(
            "_down_{}{}",
            down.name().replace('-', "_"),
            if catch_up { "_catchup" } else { "" }
        ),
    };
    format!(
        "{}_{}{down}",
        late_name(controls.late),
        if controls.crash { "crash" } else { "clean" }
    )
}

/// The combinations the real tools replay: every one with the scheduler
/// up, and each outage (with and without catch-up) under the default late
/// order and crash, state saved after the write, which is where an outage
/// tells the pipelines apart; all of them would be five times the run.
fn replayed(controls: &Controls) -> bool {
    controls.down == Down::Off
        || (controls.late == LateOrder::Tue
            && controls.crash
            && controls.commit == CommitOrder::StateAfterWrite)
}

/// Every cell under every control combination, once per distinct input.
pub(super) fn state_write() -> Vec<File> {
    let mut scripts: BTreeMap<String, Script> = BTreeMap::new();
    let mut chosen: Vec<(String, Cell, Controls)> = Vec::new();
    let mut seen = BTreeSet::new();
    for controls in Controls::all().into_iter().filter(replayed) {
        let id = script_id(&controls);
        scripts
            .entry(id.clone())
            .or_insert_with(|| script(&controls));
        for cell in Cell::ALL {
            if !seen.insert((id.clone(), format!("{:?}", cell.config(&controls)))) {
                continue;
            }
            let commit = match controls.commit {
                CommitOrder::StateBeforeWrite => "before",
                CommitOrder::StateAfterWrite => "after",
            };
            let name = format!("{}_{id}_lb{}_{commit}", cell.slug(), controls.lookback);
            chosen.push((name, cell, controls));
        }
    }
    let replays: Vec<Replay> = chosen
        .iter()
        .filter_map(|(name, cell, controls)| {
            let id = script_id(controls);
            scripts.get(&id).map(|s| Replay {
                name: name.clone(),
                config: cell.config(controls),
                script_id: id,
                script: s,
            })
        })
        .collect();
    let all: Vec<(&str, &Script)> = scripts.iter().map(|(k, v)| (k.as_str(), v)).collect();
    with_answers(
        replay_project("partition_lab_week", &replays, &all, &runner_files()),
        &replays,
    )
}
