#![allow(clippy::disallowed_types)] // Native only (the module is): std's ordered collections are fine here.

use std::collections::BTreeSet;

use super::*;

/// The allowed lateness of each scenario-3 design the Beam check runs:
/// one pipeline each over 12,400 purchases (the DirectRunner takes a few
/// seconds a branch).
const SCENARIO_BEAM: [(u32, crate::engine::AfterFinal); 4] = [
    (1, crate::engine::AfterFinal::Adjustments),
    (2, crate::engine::AfterFinal::Adjustments),
    (2, crate::engine::AfterFinal::Drop),
    (4, crate::engine::AfterFinal::Adjustments),
];

/// Scenario 3's designs with a finaliser, each as the Beam block the page
/// shows, over the scenario's bronze as the runnable project writes it;
/// and the rows the engine keeps out of each design's final partitions
/// (booked as adjustments, or dropped), in the file's order, which Beam
/// must drop as late.
pub(super) fn scenario_beam_files() -> Result<Vec<File>, Refusal> {
    use crate::engine::{simulate, AfterFinal};
    use crate::export::replay::bronze_csv;
    let scenario = scenario(3)?;
    let script = scenario.script();
    let mut files = vec![File::new(
        "bronze.csv",
        bronze_csv(&[("scenario3", script)]),
    )];
    let mut expected = Vec::new();
    for (l, after) in SCENARIO_BEAM {
        let graph = crate::scenarios::sample::finalising(scenario, l, after);
        let name = format!(
            "s3_l{l}_{}",
            if after == AfterFinal::Drop {
                "drop"
            } else {
                "adjust"
            }
        );
        let codes = crate::export::scenario::code(scenario, &graph).unwrap_or_default();
        let shown = Some(crate::export::canvas::block(
            &codes,
            crate::tool::Tool::Beam,
        ))
        .filter(|text| text.contains("import apache_beam"));
        let Some(shown) = shown else {
            return Err(format!("{name}: the page shows no Beam pipeline"));
        };
        let Ok(compiled) = crate::design::compile(&graph) else {
            return Err(format!("{name} does not compile"));
        };
        let outcome = simulate(&compiled.pipeline, script);
        let kept_out: BTreeSet<String> = match after {
            AfterFinal::Drop => outcome.dropped.iter().map(|id| id.to_string()).collect(),
            _ => outcome
                .adjustments
                .iter()
                .map(|a| a.id.to_string())
                .collect(),
        };
        if kept_out.is_empty() {
            return Err(format!("{name}: no row misses its day: nothing to compare"));
        }
        let ids: Vec<String> = script
            .events
            .iter()
            .map(|e| e.id.to_string())
            .filter(|id| kept_out.contains(id))
            .collect();
        files.push(File::new(format!("{name}.py"), shown));
        expected.push(serde_json::json!({
            "name": name,
            "csv": "bronze.csv",
            "script": format!("{name}.py"),
            "read": script.events.len(),
            "left_out": 0,
            "dropped": { l.to_string(): ids },
        }));
    }
    files.push(File::new(
        "expected.json",
        serde_json::to_string_pretty(&expected).unwrap_or_default(),
    ));
    Ok(files)
}
