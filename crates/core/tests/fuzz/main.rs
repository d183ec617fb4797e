//! Every way into the lab, fuzzed (`driver` says how): the arrival-log
//! CSV reader and its column picker, the design file, the work file, the
//! share link, every page's query, the zone names and the time parsers.
//! Each target asserts no panic, and either a value (which, where the
//! format has a writer, writes back to the same value) or a clear error.

// Test code: a panic is how a test fails, and the wasm's size is not at
// stake here (std's sort is fine).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod csv;
mod design;
mod driver;
mod query;
mod text;

/// A refusal the user reads: said, and short whatever the input (a bad
/// value is echoed cut short, never whole).
pub fn clear(why: &str) -> bool {
    !why.trim().is_empty() && why.chars().count() <= 600
}

/// Writes what the lab's own writers make (the editor's design files, a
/// work file, share links, the pages' queries) into the committed corpus.
/// Every run feeds them in fresh too; this keeps a copy beside the hostile
/// files. `cargo test -p partition-lab-core --test fuzz -- --ignored write_corpus`
#[test]
#[ignore]
fn write_corpus() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/corpus");
    let sets = [
        ("design", "json", design::known_files()),
        ("work", "json", vec![design::work_file()]),
        ("link", "txt", design::links()),
        ("query", "txt", query::written()),
    ];
    for (target, ext, files) in sets {
        for (i, bytes) in files.iter().enumerate() {
            let path = dir.join(target).join(format!("made_{i:02}.{ext}"));
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}
