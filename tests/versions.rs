//! Every version a page, an export, a README or a test names is the one
//! `scripts/check-real` installs and runs (`crates/core/src/export/mod.rs`): scanned
//! from the files themselves, so a label left behind by an upgrade fails.

// Native only: std's ordered collections are fine here (clippy.toml).
#![allow(clippy::disallowed_types)]
// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use partition_lab::export::{pins, AIRFLOW_VERSIONS, DBT_VERSIONS, SPARK_VERSIONS};

/// The version after `tool ` in `label` ("dbt-core 1.11 with ..." -> "1.11").
fn after(label: &str, tool: &str) -> String {
    let rest = &label[label.find(tool).expect("the tool is named") + tool.len()..];
    rest.chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect::<String>()
        .trim_end_matches('.')
        .to_string()
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if ["rs", "py", "mjs", "md", "txt"]
            .iter()
            .any(|e| path.extension().is_some_and(|x| x == *e))
        {
            out.push(path);
        }
    }
}

#[test]
fn every_named_version_is_the_one_checked() {
    let dbt = after(DBT_VERSIONS, "dbt-core ");
    let duckdb = after(DBT_VERSIONS, "dbt-duckdb ");
    let spark = after(SPARK_VERSIONS, "Spark ");
    let airflow = after(AIRFLOW_VERSIONS, "Airflow ");
    // The pins check-real installs say the same.
    let pins = pins();
    for want in [
        format!("dbt-core=={dbt}.*"),
        format!("dbt-duckdb=={duckdb}.*"),
        format!("pyspark=={spark}.*"),
        format!("apache-airflow=={airflow}.*"),
    ] {
        assert!(pins.contains(&want), "{pins} lacks {want}");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for dir in ["src", "crates", "tests", "scripts/real"] {
        files(&root.join(dir), &mut all);
    }
    // (a tool as labels name it, the version it must be, versions that are facts, not labels)
    let tools: [(&str, &str, &[&str]); 8] = [
        ("dbt-core ", &dbt, &["1.12"]),
        ("dbt-duckdb ", &duckdb, &["1.10.1"]),
        ("dbt-core==", &dbt, &[]),
        ("dbt-duckdb==", &duckdb, &[]),
        ("Spark ", &spark, &[]),
        ("pyspark==", &spark, &[]),
        ("Airflow ", &airflow, &[]),
        ("apache-airflow==", &airflow, &[]),
    ];
    let mut wrong = Vec::new();
    let mut seen = 0;
    for path in all.iter().filter(|p| !p.ends_with("tests/versions.rs")) {
        // Regular expressions in the browser tests escape their dots.
        let text = std::fs::read_to_string(path)
            .expect("text")
            .replace("\\.", ".");
        for (tool, want, facts) in tools {
            let mut from = 0;
            while let Some(at) = text[from..].find(tool) {
                let start = from + at + tool.len();
                let version: String = text[start..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let version = version.trim_end_matches('.');
                if !version.is_empty() && version.contains('.') {
                    seen += 1;
                    if version != want && !facts.contains(&version) {
                        wrong.push(format!(
                            "{}: {tool}{version} (checked: {want})",
                            path.display()
                        ));
                    }
                }
                from = start;
            }
        }
    }
    assert!(seen > 20, "the scan found {seen} version labels");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
