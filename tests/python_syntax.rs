//! Every piece of Python the lab shows parses as Python: the State x Write
//! cells' Spark modules under every control combination, the backfill
//! lab's Spark job and plain loop for every plan, and each
//! scenario's Spark code for designs over every state, write mode, commit
//! order and partition key (the readable forms included, which the real
//! tools do not run). A comment that swallowed a closing bracket once made
//! one of them a syntax error.

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Stdio};

use partition_lab::design::graph::{StateChoice, WriteChoice};
use partition_lab::design::NodeConfig;
use partition_lab::engine::{
    AfterFinal, CommitOrder, ListDate, MergeKey, PartitionKey, WatermarkColumn,
};
use partition_lab::export::state_write::equivalent;
use partition_lab::labs::state_write::{Cell, Controls};
use partition_lab::scenarios::sample::daily;
use partition_lab::tool::Tool;

/// Python's own parser on `code`: `None` when it parses, the error if not.
fn parse_error(code: &str) -> Option<String> {
    let mut child = Command::new("python3")
        .args(["-c", "import ast, sys; ast.parse(sys.stdin.read())"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is needed to check the Python the lab shows");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(code.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

/// All the pieces joined, each in a function of its own, so one call of
/// the parser checks them all and an error names the piece.
fn check(pieces: &[(String, String)]) {
    assert!(!pieces.is_empty());
    let mut joined = String::new();
    for (i, (_, code)) in pieces.iter().enumerate() {
        joined.push_str(&format!("def piece_{i}():\n"));
        for line in code.lines() {
            joined.push_str("    ");
            joined.push_str(line);
            joined.push('\n');
        }
        joined.push_str("    pass\n\n");
    }
    if let Some(error) = parse_error(&joined) {
        // Find the piece: parse them one by one.
        let bad: Vec<&str> = pieces
            .iter()
            .filter(|(_, code)| parse_error(code).is_some())
            .map(|(name, _)| name.as_str())
            .collect();
        panic!("not Python: {bad:?}\n{error}");
    }
}

#[test]
fn the_parser_catches_a_comment_that_swallows_a_bracket() {
    assert!(parse_error("x = (f(1)   # a note .alias(\"dt\"))\n").is_some());
    assert!(parse_error("x = (f(1))   # a note\n").is_none());
}

#[test]
fn the_lateness_labs_projects_and_dagster_files_are_python() {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::export::lateness_lab::{files, TOOLS};
    use partition_lab::labs::lateness::model::Profile;
    let mut pieces = Vec::new();
    for lateness in [Lateness::Days(0), Lateness::Days(2), Lateness::Never] {
        pieces.push((
            format!("orders_lateness.py {lateness:?}"),
            partition_lab::export::dagster::lateness_definitions(
                "shop.orders",
                partition_lab::engine::calendar::aug(1),
                lateness,
            ),
        ));
        for tool in TOOLS {
            for f in files(tool, Profile::Mobile, lateness).unwrap_or_default() {
                if f.path.ends_with(".py") {
                    pieces.push((format!("{tool} {lateness:?} {}", f.path), f.text));
                }
            }
        }
    }
    // Each lateness: the page's definitions, each project's replay.py and
    // the Dagster project's definitions.py.
    assert_eq!(pieces.len(), 12);
    check(&pieces);
}

#[test]
fn every_state_write_spark_module_is_python() {
    let mut pieces = Vec::new();
    for controls in Controls::all() {
        for cell in Cell::ALL {
            for (tool, code) in equivalent(cell, &controls) {
                if tool == Tool::Spark {
                    pieces.push((format!("{cell:?} {controls:?}"), code));
                }
            }
        }
    }
    check(&pieces);
}

#[test]
fn the_backfill_labs_spark_job_and_plain_loop_are_python() {
    use partition_lab::export::backfill_lab::{plain_loop, spark};
    use partition_lab::labs::backfill::case::Writer;
    use partition_lab::labs::backfill::{Choices, Concurrency};
    let mut pieces = Vec::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        for concurrency in Concurrency::ALL {
            for markers in [true, false] {
                let choices = Choices {
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                };
                let plan = choices.plan();
                for writer in [Writer::Targeted, Writer::Dynamic] {
                    pieces.push((
                        format!("spark {from:?} {concurrency:?} {markers} {writer:?}"),
                        spark(&Choices { writer, ..choices }.plan()),
                    ));
                }
                pieces.push((
                    format!("loop {from:?} {concurrency:?} {markers}"),
                    plain_loop(&plan),
                ));
            }
        }
    }
    check(&pieces);
}

#[test]
fn every_scenario_spark_and_beam_code_is_python() {
    let states = [
        StateChoice::Watermark {
            column: WatermarkColumn::ArrivedAt,
            overlap_minutes: 0,
        },
        StateChoice::Watermark {
            column: WatermarkColumn::UpdatedAt,
            overlap_minutes: 180,
        },
        StateChoice::PartitionList {
            lookback: 2,
            over: ListDate::EventDate,
        },
        StateChoice::PartitionList {
            lookback: 1,
            over: ListDate::ChangeDate,
        },
        StateChoice::None,
    ];
    let modes = [
        WriteChoice::Append,
        WriteChoice::OverwritePartition,
        WriteChoice::Merge {
            key: Some(MergeKey::Key),
        },
        WriteChoice::ReplaceTable,
    ];
    let mut pieces = Vec::new();
    for scenario in &partition_lab::scenarios::SCENARIOS[..3] {
        let n = scenario.number;
        for state in states {
            for mode in modes {
                for commit in [CommitOrder::StateAfterWrite, CommitOrder::StateBeforeWrite] {
                    for key in [PartitionKey::EventDate, PartitionKey::ProcessingDate] {
                        let mut graph = daily(
                            scenario,
                            state,
                            commit,
                            mode,
                            Some((2, AfterFinal::Adjustments)),
                        );
                        for node in graph.nodes.values_mut() {
                            if let NodeConfig::Transform { partition_key, .. } = &mut node.config {
                                *partition_key = key;
                            }
                        }
                        let Ok(codes) = partition_lab::export::scenario::code(scenario, &graph)
                        else {
                            continue;
                        };
                        // Spark's module, and Beam's pipeline where the
                        // finaliser gives it one (a comment where not).
                        for c in codes
                            .into_iter()
                            .filter(|c| matches!(c.tool, Tool::Spark | Tool::Beam))
                        {
                            pieces.push((
                                format!(
                                    "{} scenario {n} {state:?} {mode:?} {commit:?} {key:?}",
                                    c.tool
                                ),
                                c.text,
                            ));
                        }
                    }
                }
            }
        }
    }
    // Most combinations compile; the few that do not (a full refresh with a
    // list, say) are not code anyone is shown.
    assert!(
        pieces.len() > 100,
        "{} designs had Spark code",
        pieces.len()
    );
    check(&pieces);
}

#[test]
fn every_scenario_backfill_job_is_python() {
    use partition_lab::design::graph::{BackfillShape, Markers};
    use partition_lab::engine::LogicVersion;
    use partition_lab::scenarios::sample::sample;
    let mut pieces = Vec::new();
    for scenario in &partition_lab::scenarios::SCENARIOS[3..5] {
        let n = scenario.number;
        for shape in [
            BackfillShape::PerDate,
            BackfillShape::TwoPhases,
            BackfillShape::Together,
        ] {
            for markers in [
                Markers::Off,
                Markers::AfterPartition,
                Markers::BeforePartition,
            ] {
                for mode in [
                    WriteChoice::Append,
                    WriteChoice::OverwritePartition,
                    WriteChoice::ReplaceTable,
                ] {
                    for logic in [LogicVersion::Fixed, LogicVersion::Broken] {
                        let mut graph = sample(scenario, mode);
                        for node in graph.nodes.values_mut() {
                            match &mut node.config {
                                NodeConfig::Backfill {
                                    shape: s,
                                    markers: m,
                                    yield_to_scheduled,
                                    ..
                                } => {
                                    (*s, *m, *yield_to_scheduled) =
                                        (shape, markers, markers == Markers::Off);
                                }
                                NodeConfig::Transform { logic: l, .. } => *l = logic,
                                _ => {}
                            }
                        }
                        let job = partition_lab::export::scenario::backfill_job(scenario, &graph)
                            .expect("every such design has a job");
                        pieces.push((
                            format!("scenario {n} {shape:?} {markers:?} {mode:?} {logic:?}"),
                            job,
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(pieces.len(), 2 * 3 * 3 * 3 * 2);
    check(&pieces);
}

/// The lateness lab's Beam pipeline, for a zone of each kind (UTC, a fixed
/// offset, clocks that change), each run time the page offers in steps, a
/// lateness and "never", odd column names, and no value or id column.
#[test]
fn the_beam_pipeline_parses() {
    use partition_lab::engine::lateness::Lateness;
    use partition_lab::engine::zone::Zone;
    use partition_lab::export::beam::{pipeline, Stream};
    let mut pieces = Vec::new();
    for zone in ["UTC", "Asia/Kolkata", "Australia/Sydney"] {
        for (hour, minute) in [(0, 0), (2, 30), (23, 45)] {
            for lateness in [Lateness::Days(0), Lateness::Days(14), Lateness::Never] {
                for value in [None, Some("amount \"gross\" \\ net\n".to_string())] {
                    let stream = Stream {
                        event_time: "Event Time".to_string(),
                        arrival_time: "café's arrival".to_string(),
                        value,
                        id: Some("id\u{7}".to_string()),
                        run: chrono::NaiveTime::from_hms_opt(hour, minute, 0).unwrap(),
                        zone: Zone::named(zone).unwrap(),
                        lateness,
                    };
                    pieces.push((
                        format!("Beam {zone} {hour}:{minute} {lateness:?}"),
                        pipeline(&stream),
                    ));
                }
            }
        }
    }
    check(&pieces);
}

/// The backfill lab's Dagster definitions, and the page's block without its
/// shell lines, for every plan start, number at once and markers.
#[test]
fn the_dagster_definitions_parse() {
    use partition_lab::export::backfill_lab::commands;
    use partition_lab::labs::backfill::case::{Choices, Concurrency};
    let mut pieces = Vec::new();
    for from in partition_lab::labs::backfill::August::CHAPTER.starts() {
        for concurrency in [Concurrency::One, Concurrency::Four, Concurrency::Twelve] {
            for markers in [true, false] {
                let plan = Choices {
                    from,
                    concurrency,
                    markers,
                    ..Choices::default()
                }
                .plan();
                let shown = commands(&plan)
                    .into_iter()
                    .find(|c| {
                        c.form == partition_lab::export::backfill_lab::Form::Tool(Tool::Dagster)
                    })
                    .expect("the backfill lab offers Dagster")
                    .code;
                // The file is the block up to its first shell command.
                let file = shown
                    .split("\n# The source pool's limit")
                    .next()
                    .unwrap_or_default()
                    .to_string();
                assert!(file.contains("defs = Definitions("), "{file}");
                pieces.push((format!("Dagster {from:?} {concurrency:?} {markers}"), file));
            }
        }
    }
    check(&pieces);
}
