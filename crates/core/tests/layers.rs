//! The rules between this crate's modules, which one crate cannot make
//! the compiler keep (the crate boundaries keep the rest: the engine below
//! names nothing here, nothing here names the web app). Each module may
//! name only the modules its layer allows, outside its tests: a test may
//! reach further to check a value against another module's.

// A test file: a failure here is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// What a generator in the room must not name: the models it is given
/// values from, and the room's page-facing modules above it.
const GENERATOR: &[&str] = &[
    "class",
    "design",
    "labs",
    "scenarios",
    "tutor",
    "export::backfill_lab",
    "export::canvas",
    "export::checks",
    "export::lateness_lab",
    "export::scenario",
    "export::state_write",
];

/// (module or `module/file` in the room, the project modules it must not
/// name, why)
const RULES: &[(&str, &[&str], &str)] = &[
    (
        "address",
        &["design", "labs", "scenarios", "tutor", "export", "content", "tool", "class"],
        "a link is read the same whichever page or canvas made it: below them all",
    ),
    (
        "variant",
        &["design", "labs", "scenarios", "tutor", "export", "content", "tool", "class", "address", "vocabulary"],
        "a variant is a seed: the labs and scenarios read their numbers from it, it knows none of them",
    ),
    (
        "vocabulary",
        &["design", "labs", "scenarios", "tutor", "export", "content", "tool", "class"],
        "the vocabulary owns the words; the design types use them, never the reverse",
    ),
    (
        "tool",
        &[
            "address",
            "design",
            "labs",
            "scenarios",
            "tutor",
            "class",
            "export",
            "content",
            "vocabulary",
            "counted",
        ],
        "what a real tool is called and which versions the lab checks: below the labs that teach it and the room that writes for it",
    ),
    (
        "design",
        &["scenarios", "tutor", "labs", "export", "class"],
        "the canvas's graph model knows no scenario and no lab, and writes no tool's code: the room asks it for the design",
    ),
    (
        "scenarios",
        &["labs", "tutor", "export", "class"],
        "grading knows no screen, no tutor and no real tool: a check returns the run, the tutor explains it, the view draws both, the room writes it for a tool",
    ),
    (
        "tutor",
        &["labs", "export", "class"],
        "the tutor explains a scenario's check: it knows no lab and writes no export",
    ),
    (
        "export",
        &["tutor", "content", "address", "class"],
        "the real tools' room: every file a tool runs is written here, from the engine's inputs, for whichever page asks; it reads a design, a scenario or a lab and is read by none of them",
    ),
    (
        "export/airflow",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/beam",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/dagster",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/dbt",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/drift",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/lateness_sql",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/spark",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/spark_backfill",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/sqlmesh",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/template",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/bundle",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/project",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "export/replay",
        GENERATOR,
        "a generator writes its tool's files from the engine's inputs: only the room's page-facing modules read a design, a scenario or a lab",
    ),
    (
        "class",
        &["labs", "export", "address"],
        "a class's work is graded by the scenarios' grader and explained by the tutor, above both: it knows no lab and writes no tool's code",
    ),
    (
        "labs",
        &["design", "scenarios", "tutor", "export", "class"],
        "a lab's model knows no canvas, no scenario and no tool's code: the page asks the room for that",
    ),
    (
        "content",
        &[
            "design",
            "labs",
            "scenarios",
            "tutor",
            "class",
            "export",
            "vocabulary",
            "engine",
            "tool",
        ],
        "teaching text is data",
    ),
    (
        "counted",
        &[
            "design",
            "labs",
            "scenarios",
            "tutor",
            "class",
            "export",
            "vocabulary",
            "content",
            "tool",
        ],
        "how a count is written is below every page's words (its digits grouped as the engine groups money's)",
    ),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module's files: `src/<module>.rs` or everything under `src/<module>/`.
fn module_files(module: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let single = src.join(format!("{module}.rs"));
    if single.exists() {
        out.push(single);
    }
    let folder = src.join(module);
    if folder.is_dir() {
        files(&folder, &mut out);
    }
    out
}

/// The code outside tests: everything before the file's test module
/// (clippy keeps test modules last; a `#[cfg(test)]` on a single item
/// elsewhere does not end the code), without comments.
fn code(text: &str) -> String {
    let before_tests = text
        .find("#[cfg(test)]\nmod ")
        .map_or(text, |at| &text[..at]);
    before_tests
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of the group that opens at `group[0]` (a `{`), to its
/// matching `}`, nested groups included.
fn group_of(group: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &group[..=i];
                }
            }
            _ => {}
        }
    }
    group
}

/// The first path segment of each item directly in `group` (`{a::b,
/// c::{d, e}}` gives a and c): the crate's modules the group names.
fn top_level(group: &str) -> impl Iterator<Item = &str> {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    for (i, c) in group.char_indices() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    starts.push(i + 1);
                }
            }
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => starts.push(i + 1),
            _ => {}
        }
    }
    starts.into_iter().filter_map(move |at| {
        group[at..]
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|word| !word.is_empty())
    })
}

/// Whether `code` names the crate's module `name`: a path `crate::name`
/// or a group `crate::{..., name::...}`, however deeply nested.
fn names(code: &str, name: &str) -> bool {
    names_from(code, "crate", name)
}

/// Whether `code` names its parent's module `name` as `super::name`, by
/// path or in a `super::{...}` group.
fn names_relative(code: &str, name: &str) -> bool {
    names_from(code, "super", name)
}

/// Whether `code` names `root::name` by path or in a `root::{...}` group.
fn names_from(code: &str, root: &str, name: &str) -> bool {
    let path = format!("{root}::{name}");
    let by_path = code.match_indices(&path).any(|(i, _)| {
        !code[i + path.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    });
    let group = format!("{root}::{{");
    let by_group = code
        .match_indices(&group)
        .any(|(i, _)| top_level(group_of(&code[i + root.len() + 2..])).any(|m| m == name));
    by_path || by_group
}

#[test]
fn each_module_names_only_what_its_layer_allows() {
    let mut broken = Vec::new();
    for (module, forbidden, why) in RULES {
        let found = module_files(module);
        assert!(!found.is_empty(), "no files for {module}");
        for file in found {
            let text = std::fs::read_to_string(&file).expect("readable");
            let code = code(&text);
            for name in *forbidden {
                // A file in the room names a sibling as `super::sibling` too.
                let sibling = name
                    .strip_prefix("export::")
                    .filter(|_| module.starts_with("export/"))
                    .is_some_and(|rest| names_relative(&code, rest));
                if names(&code, name) || sibling {
                    broken.push(format!("{} names {name}: {why}", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The scanner sees what it must: an import it allows, each way of
/// writing a forbidden one, and nothing in a comment or a test.
#[test]
fn the_scanner_finds_imports_however_they_are_written() {
    let grade = module_files("scenarios")
        .into_iter()
        .find(|f| f.ends_with("scenarios/grading/grade.rs"))
        .expect("the grader");
    let text = std::fs::read_to_string(grade).expect("readable");
    assert!(names(&code(&text), "design"), "the grader compiles designs");
    assert!(names("use crate::labs::pool::X;", "labs"));
    assert!(names("use crate::{engine::Day, labs::pool};", "labs"));
    assert!(names(
        "use crate::{engine::{Day, Instant}, labs::pool};",
        "labs"
    ));
    assert!(!names(
        "use crate::{engine::{labs, Instant}, design};",
        "labs"
    ));
    assert!(names(
        "let p = crate::labs::pool::from_timeline(t);",
        "labs"
    ));
    assert!(!names("use crate::labsx::y;", "labs"));
    // A generator naming a page-facing sibling of the room, each way.
    assert!(names_relative("use super::canvas::Code;", "canvas"));
    assert!(names_relative("use super::{canvas, File};", "canvas"));
    assert!(!names_relative("use super::canvasx::Code;", "canvas"));
    assert!(names(
        "use crate::export::scenario::code;",
        "export::scenario"
    ));
    assert!(!names(
        &code("// crate::labs is drawn by the view\n"),
        "labs"
    ));
    assert!(!names(
        &code("fn f() {}\n#[cfg(test)]\nmod tests { use crate::labs::pool; }\n"),
        "labs"
    ));
    assert!(names(
        &code("#[cfg(test)]\nconst A: u8 = 1;\nuse crate::labs::pool;\n"),
        "labs"
    ));
}
