//! The design file, the work file and the share link: each read
//! distrustfully, and each value read writes back to itself.

use partition_lab_core::design::files::file::{export, for_scenario, import, read_stored};
use partition_lab_core::design::files::link::{decode, encode};
use partition_lab_core::design::files::saves::{Store, StoreError};
use partition_lab_core::design::Graph;
use partition_lab_core::scenarios::catalogue::designs;
use partition_lab_core::scenarios::work::{export_work, read_work, restore};
use partition_lab_core::scenarios::SCENARIOS;

use crate::driver::{ensure, fuzz, Seeds};

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1e309",
    "4294967296",
    "18446744073709551616",
    "\"format\"",
    "\"partition-lab-design\"",
    "\"partition-lab-work\"",
    "\"version\"",
    "\"graph\"",
    "\"nodes\"",
    "\"edges\"",
    "\"next_id\"",
    "\"config\"",
    "\"Source\"",
    "\"Transform\"",
    "\"State\"",
    "\"Write\"",
    "\"Backfill\"",
    "\"scenario\"",
    "\"scenarios\"",
    "\"progress\"",
    "\"saved_at\"",
    "\"design\"",
    "\"passed\"",
    "\"failing:R1,R2\"",
    "\\u0000",
    "\\ud800",
    "x",
    "A",
    "-",
    "_",
    "=",
    "%",
    "/",
];

/// Each design the lab knows, written by `write` (with its scenario).
fn each_known(write: fn(&Graph, Option<u8>) -> String) -> Vec<Vec<u8>> {
    SCENARIOS
        .iter()
        .flat_map(|s| {
            designs(s)
                .into_iter()
                .map(move |k| write(&k.graph, Some(s.number)))
        })
        .map(String::into_bytes)
        .collect()
}

/// The designs the lab knows, as the editor writes them.
pub fn known_files() -> Vec<Vec<u8>> {
    each_known(export)
}

/// Browser storage, in memory.
#[derive(Default)]
struct Memory(partition_lab_core::lean::sorted::SortedMap<String, String>);

impl Store for Memory {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self.0.get(key).cloned())
    }
    fn set(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        self.0.insert(key.to_string(), value.to_string());
        Ok(())
    }
    fn remove(&mut self, key: &str) {
        self.0.remove(key);
    }
}

/// A work file holding every scenario's first known design.
pub fn work_file() -> Vec<u8> {
    let mut store = Memory::default();
    for s in SCENARIOS {
        if let Some(known) = designs(s).into_iter().next() {
            let work = partition_lab_core::scenarios::work::Work {
                scenario: s.number,
                graph: known.graph,
                progress: partition_lab_core::scenarios::progress::Progress::NotStarted,
                saved_at: None,
            };
            restore(&mut store, &work).expect("room");
        }
    }
    export_work(&store).into_bytes()
}

#[test]
fn the_design_file() {
    let seeds = Seeds::json("design", TOKENS, known_files());
    fuzz("design_file", &seeds, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        match import(&text) {
            Ok(file) => {
                let written = export(&file.graph, file.scenario);
                let again = import(&written);
                ensure(again.as_ref() == Ok(&file), || {
                    format!("read {file:?}, wrote it, read back {again:?}")
                })?;
                for s in SCENARIOS {
                    if let Err(why) = for_scenario(file.clone(), s.number, s.source) {
                        ensure(crate::clear(&why), || format!("unclear: {why}"))?;
                    }
                }
                Ok(())
            }
            Err(e) => ensure(crate::clear(&e.to_string()), || format!("unclear: {e:?}")),
        }?;
        // The same text as this browser's saved copy of a design.
        let scenario = SCENARIOS[bytes.len() % SCENARIOS.len()];
        let _ = read_stored(Some(text.into_owned()), scenario.number, scenario.source);
        Ok(())
    });
}

#[test]
fn the_work_file() {
    let seeds = Seeds::json("work", TOKENS, vec![work_file()]);
    fuzz("work_file", &seeds, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        match read_work(&text) {
            Ok(mut works) => {
                let mut store = Memory::default();
                for w in &works {
                    restore(&mut store, w).map_err(proptest::test_runner::TestCaseError::fail)?;
                }
                let mut again = read_work(&export_work(&store)).map_err(|e| {
                    proptest::test_runner::TestCaseError::fail(format!(
                        "rewritten file refused: {e}"
                    ))
                })?;
                works.sort_by_key(|w| w.scenario);
                again.sort_by_key(|w| w.scenario);
                ensure(again == works, || {
                    "the work read does not write back to itself".to_string()
                })
            }
            Err(why) => ensure(crate::clear(&why), || format!("unclear: {why}")),
        }
    });
}

/// The known designs as share links' `design=` values.
pub fn links() -> Vec<Vec<u8>> {
    each_known(encode)
}

#[test]
fn the_share_link() {
    use base64::Engine;
    // Links, and designs to make links of (changed value by value first,
    // so a link reaches the importer past base64 as often as at it).
    let mut seeds_made = links();
    seeds_made.extend(known_files());
    let tokens = [
        "A", "-", "_", "=", "%", "+", "/", "#", "design=", "eyJ", "0", "z",
    ];
    let seeds = Seeds::json("link", &tokens, seeds_made);
    fuzz("share_link", &seeds, |bytes| {
        let value = if bytes.first() == Some(&b'{') {
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
        } else {
            String::from_utf8_lossy(bytes).into_owned()
        };
        match decode(&value) {
            Ok(file) => {
                let again = decode(&encode(&file.graph, file.scenario));
                ensure(again.as_ref() == Ok(&file), || {
                    format!("link read back as {again:?}")
                })
            }
            Err(e) => ensure(crate::clear(&e.to_string()), || format!("unclear: {e:?}")),
        }
    });
}
