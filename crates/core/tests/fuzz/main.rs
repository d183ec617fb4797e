//! Every way into the lab, fuzzed (`driver` says how): the arrival-log
//! CSV reader and its column picker, the design file, the work file (its
//! student too), the share link, the class page's pasted links, every page's query, the zone names and the time parsers.
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

/// The committed `made_*` files are what the lab's own writers make now
/// (the lateness lab's exported months, the editor's design files, a work
/// file, share links, the pages' queries): a format that changes without its corpus fails here.
/// `FUZZ_WRITE_CORPUS=1 cargo test -p partition-lab-core --test fuzz corpus`
/// writes them again.
#[test]
fn the_committed_corpus_holds_what_the_writers_make() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/corpus");
    let write = std::env::var_os("FUZZ_WRITE_CORPUS").is_some();
    let sets = [
        ("arrival_csv", "csv", csv::exported_months()),
        ("design", "json", design::known_files()),
        ("work", "json", vec![design::work_file()]),
        ("link", "txt", design::links()),
        ("query", "txt", query::written()),
    ];
    for (target, ext, files) in sets {
        assert!(!files.is_empty(), "{target}: the writers make nothing");
        let mut made: Vec<String> = std::fs::read_dir(dir.join(target))
            .expect("the corpus folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| name.starts_with("made_"))
            .collect();
        made.sort();
        let wanted: Vec<String> = (0..files.len())
            .map(|i| format!("made_{i:02}.{ext}"))
            .collect();
        for (name, bytes) in wanted.iter().zip(&files) {
            let path = dir.join(target).join(name);
            if write {
                std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            } else {
                let committed = std::fs::read(&path).unwrap_or_default();
                assert!(
                    committed == *bytes,
                    "{} is not what the writers make now: FUZZ_WRITE_CORPUS=1 writes it",
                    path.display()
                );
            }
        }
        if !write {
            assert_eq!(made, wanted, "{target}: the committed made_* files");
        }
    }
}
