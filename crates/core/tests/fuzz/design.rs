//! The design file, the work file and the share link: each read
//! distrustfully, and each value read writes back to itself.

use partition_lab_core::class::intake;
use partition_lab_core::design::files::file::{export, for_scenario, import, read_stored};
use partition_lab_core::design::files::link::{decode, encode};
use partition_lab_core::design::files::saves::{Store, StoreError};
use partition_lab_core::design::Graph;
use partition_lab_core::scenarios::catalogue::designs;
use partition_lab_core::scenarios::student::Student;
use partition_lab_core::scenarios::work::{export_work, read_work_file, restore};
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
    "\"student\"",
    "\"name\"",
    "\"class\"",
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

/// A work file holding every scenario's first known design, with its
/// student's name and class, and the data each varied one was made on
/// (the chapter's, or a fresh variant for scenario 1).
pub fn work_file() -> Vec<u8> {
    let mut store = Memory::default();
    Student::new("Ada \"Countess\" Lovelace", "DE-2026")
        .expect("a name")
        .keep(&mut store)
        .expect("room");
    for s in SCENARIOS {
        if let Some(known) = designs(s).into_iter().next() {
            let work = partition_lab_core::scenarios::work::Work {
                scenario: s.number,
                graph: known.graph,
                progress: partition_lab_core::scenarios::progress::Progress::NotStarted,
                saved_at: None,
                variant: match s.number {
                    1 => Some(partition_lab_core::variant::Variant::from_seed(2026)),
                    _ => Some(partition_lab_core::variant::Variant::CHAPTER),
                },
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
        match read_work_file(&text) {
            Ok(mut read) => {
                let mut store = Memory::default();
                if let Some(student) = &read.student {
                    student
                        .keep(&mut store)
                        .map_err(|e| proptest::test_runner::TestCaseError::fail(e.message()))?;
                }
                for w in &read.works {
                    restore(&mut store, w).map_err(proptest::test_runner::TestCaseError::fail)?;
                }
                let mut again = read_work_file(&export_work(&store)).map_err(|e| {
                    proptest::test_runner::TestCaseError::fail(format!(
                        "rewritten file refused: {e}"
                    ))
                })?;
                read.works.sort_by_key(|w| w.scenario);
                again.works.sort_by_key(|w| w.scenario);
                ensure(again == read, || {
                    "the work read does not write back to itself".to_string()
                })
            }
            Err(why) => ensure(crate::clear(&why), || format!("unclear: {why}")),
        }
    });
}

/// Pasted lines as a form's spreadsheet gives them: a name and a link.
fn pasted_links() -> Vec<Vec<u8>> {
    let names = [
        "Ada Lovelace, ",
        "\"Hopper, Grace\",",
        "",
        "=1+1\t",
        "Émile; ",
    ];
    SCENARIOS
        .iter()
        .zip(names.iter().cycle())
        .filter_map(|(s, name)| {
            let known = designs(s).into_iter().next()?;
            let value = encode(&known.graph, Some(s.number));
            Some(format!(
                "{name}https://lab.example/scenarios/{}#design={value}\r\n",
                s.number
            ))
        })
        .map(String::into_bytes)
        .collect()
}

/// The class page's pasted share links: whatever is pasted, every line is
/// read or skipped with a clear reason, a student's links are for
/// different scenarios, and every design read is one a link carries.
#[test]
fn the_class_pages_pasted_links() {
    let tokens = [
        "\n",
        "\r\n",
        ",",
        ";",
        "\t",
        "\"",
        " ",
        "/scenarios/",
        "/scenarios/4",
        "#design=",
        "https://",
        "eyJ",
        "Ada",
    ];
    let seeds = Seeds::of("class_links", &tokens, pasted_links());
    fuzz("class_links", &seeds, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let (read, skipped) = intake::links(&text);
        for s in &skipped {
            ensure(crate::clear(&s.why), || format!("unclear: {s:?}"))?;
        }
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        let works: usize = read.iter().map(|s| s.works.len()).sum();
        ensure(
            works + skipped.len() == lines || text.len() > intake::MAX_PASTE,
            || {
                format!(
                    "{lines} lines: {works} designs read and {} skipped",
                    skipped.len()
                )
            },
        )?;
        for s in &read {
            let mut scenarios: Vec<u8> = s.works.iter().map(|w| w.scenario).collect();
            scenarios.sort_unstable();
            scenarios.dedup();
            ensure(scenarios.len() == s.works.len(), || {
                format!("one student, a scenario twice: {}", s.from)
            })?;
            for w in &s.works {
                let back = decode(&encode(&w.graph, Some(w.scenario))).map(|f| f.graph);
                ensure(back.as_ref() == Ok(&w.graph), || {
                    format!("{}: a design that does not write back", s.from)
                })?;
            }
        }
        Ok(())
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
