//! The app's words are its own: no run of 8 or more consecutive words of
//! the chapter (normalised for case and punctuation) appears in any text
//! the app shows or any code it generates. Facts and numbers carry over;
//! sentences and code do not. This is a floor, not the bar: a near-copy
//! with a word swapped passes here and is still a copy.

// Native tests cost the wasm nothing: std's sorts are fine here.
#![allow(clippy::disallowed_methods)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

const RUN: usize = 8;

fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn chapter_runs() -> HashSet<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/chapter.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the chapter is needed for this test ({}): {e}",
            path.display()
        )
    });
    words(&text).windows(RUN).map(<[String]>::to_vec).collect()
}

/// The string literals of a Rust file, each as written (escapes left in:
/// they only split words, never join them).
fn literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            '/' if bytes.get(i + 1) == Some(&'/') => {
                // A comment is not shown to anyone: skip to the line's end.
                while i < bytes.len() && bytes[i] != '\n' {
                    i += 1;
                }
            }
            'r' if bytes.get(i + 1) == Some(&'#') || bytes.get(i + 1) == Some(&'"') => {
                let mut j = i + 1;
                let mut hashes = 0;
                while bytes.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if bytes.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = j + 1;
                let mut k = start;
                'raw: while k < bytes.len() {
                    if bytes[k] == '"' && (0..hashes).all(|h| bytes.get(k + 1 + h) == Some(&'#')) {
                        break 'raw;
                    }
                    k += 1;
                }
                out.push(bytes[start..k.min(bytes.len())].iter().collect());
                i = k + 1 + hashes;
            }
            '\'' => {
                // A char literal ('"') must not open a string.
                if bytes.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else if bytes.get(i + 1) == Some(&'\\') && bytes.get(i + 3) == Some(&'\'') {
                    i += 4;
                } else {
                    i += 1;
                }
            }
            '"' => {
                let mut k = i + 1;
                let mut s = String::new();
                while k < bytes.len() && bytes[k] != '"' {
                    if bytes[k] == '\\' {
                        s.push(' ');
                        k += 2;
                        continue;
                    }
                    s.push(bytes[k]);
                    k += 1;
                }
                out.push(s);
                i = k + 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable source tree")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "py" || e == "sql")
        {
            out.push(path);
        }
    }
}

/// A tool's own syntax, which the chapter and the app both must spell the
/// one way the tool accepts: runs inside these are not prose.
const TOOL_SYNTAX: &[&str] =
    &["spark.conf.set(\"spark.sql.sources.partitionOverwriteMode\", \"dynamic\")"];

/// Every 8-word run of `text` that the chapter also has.
fn copied(chapter: &HashSet<Vec<String>>, text: &str) -> Vec<String> {
    let syntax: Vec<Vec<String>> = TOOL_SYNTAX.iter().map(|s| words(s)).collect();
    let is_syntax = |run: &[String]| {
        syntax
            .iter()
            .any(|s| s.windows(run.len()).any(|w| w == run))
    };
    words(text)
        .windows(RUN)
        .filter(|w| chapter.contains(*w) && !is_syntax(w))
        .map(|w| w.join(" "))
        .collect()
}

#[test]
fn no_text_of_the_app_repeats_eight_words_of_the_chapter() {
    let chapter = chapter_runs();
    let mut files = Vec::new();
    // The web app's sources and every layer's crate.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates"), &mut files);
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("crates/core/src/scenarios/stories/clicks.rs")),
        "the scenarios' texts are scanned"
    );
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable");
        let texts = if file.extension().is_some_and(|e| e == "py") {
            vec![source]
        } else {
            // Within a file, literals are read together: a sentence split
            // around a value is still one sentence.
            vec![literals(&source).join(" ")]
        };
        for text in texts {
            for run in copied(&chapter, &text) {
                found.push(format!("{}: “{run}”", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} run(s) copied from the chapter:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn no_generated_code_repeats_eight_words_of_the_chapter() {
    use partition_lab::export::backfill_lab::commands;
    use partition_lab::export::state_write::equivalent;
    use partition_lab::labs::backfill::{Choices, Concurrency};
    use partition_lab::labs::state_write::{Cell, Controls};
    let chapter = chapter_runs();
    let mut found = Vec::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                for c in commands(
                    &Choices {
                        from,
                        concurrency,
                        markers,
                        ..Choices::default()
                    }
                    .plan(),
                ) {
                    found.extend(
                        copied(&chapter, &c.code)
                            .into_iter()
                            .map(|r| format!("{}: {r}", c.title())),
                    );
                }
            }
        }
    }
    for controls in Controls::all() {
        for cell in Cell::ALL {
            for (tool, code) in equivalent(cell, &controls) {
                found.extend(
                    copied(&chapter, &code)
                        .into_iter()
                        .map(|r| format!("{tool} {cell:?}: {r}")),
                );
            }
        }
    }
    let mut exported = [0usize; 5];
    for (n, scenario) in partition_lab::scenarios::SCENARIOS
        .iter()
        .take(5)
        .enumerate()
    {
        use partition_lab::design::graph::WriteChoice;
        for mode in [
            WriteChoice::Append,
            WriteChoice::OverwritePartition,
            WriteChoice::Merge {
                key: Some(partition_lab::engine::MergeKey::Key),
            },
            WriteChoice::ReplaceTable,
        ] {
            let graph = partition_lab::scenarios::sample::sample(scenario, mode);
            // A write mode a scenario's design cannot take refuses to
            // export; every scenario must export some, or this reads nothing.
            if let Ok(codes) = partition_lab::export::canvas::export_code(&graph) {
                exported[n] += codes.len();
                for c in codes {
                    found.extend(
                        copied(&chapter, &c.text)
                            .into_iter()
                            .map(|r| format!("{} (scenario {n}): {r}", c.tool)),
                    );
                }
            }
        }
    }
    assert!(
        exported.iter().all(|n| *n > 0),
        "code exported per scenario: {exported:?}"
    );
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "{} run(s) copied from the chapter:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_check_catches_a_copy_and_a_split_sentence() {
    let chapter = chapter_runs();
    let words: Vec<String> = words(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/chapter.txt"),
        )
        .expect("chapter"),
    );
    let sentence = words[100..110].join(" ");
    assert!(!copied(&chapter, &sentence.to_uppercase()).is_empty());
    let split = format!(
        "\"{}\" {{x}} \"{}\"",
        words[200..204].join(" "),
        words[204..210].join(", ")
    );
    assert!(!copied(&chapter, &literals(&split).join(" ")).is_empty());
}
