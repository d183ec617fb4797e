//! All of a student's work as one file: every scenario's saved design, its
//! last verdict and when it was saved, so work started on a lab computer
//! carries on at home. Restoring merges scenario by scenario: a copy that
//! is the same or older than the file's is replaced (kept first as the
//! backup the scenario page offers back), one that is newer, or whose age
//! is unknown, is replaced only if the student says so. Each design goes
//! through the design importer's rules, exactly as a single imported file.
//!
//! Format, version 2:
//! `{"format": "partition-lab-work", "version": 2,
//!   "student": {"name": <text>, "class": <text>} (optional: absent when no name is kept),
//!   "scenarios": [{"scenario": 1..6,
//!   "saved_at": <milliseconds since 1970-01-01 UTC> | null, "progress": "passed" | "failing:R1,R3" | "structural" | "",
//!   "variant": "<digits>" (optional, for a scenario a variant moves: the data variant the design was saved or checked on, 0 the chapter's; absent for work saved before the lab kept it),
//!   "design": <a design file, as `design::files::file` writes it>}]}`
//!
//! Version 1 is version 2 without `"variant"`, and still reads: a
//! self-learner's fresh data (SPEC 14) was not in the file before.

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::progress::Progress;
use super::student::Student;
use super::SCENARIOS;
use crate::design::files::file::{export, import_value, read_stored, Stored};
use crate::design::files::saves::{self, keep_backup, Store};
use crate::design::graph::Graph;
use crate::variant::Variant;

pub const FORMAT: &str = "partition-lab-work";
pub const VERSION: u64 = 2;
/// Five designs at the importer's limit, and room for the rest.
pub const MAX_BYTES: usize = 5 * crate::design::files::file::MAX_BYTES + 64 * 1024;

/// One scenario's work as the file carries it, already through the importer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Work {
    pub scenario: u8,
    pub graph: Graph,
    pub progress: Progress,
    pub saved_at: Option<DateTime<Utc>>,
    /// The data it names (SPEC 14): the variant it was saved or checked
    /// on, or the one its share link names; `None` where it names none (a
    /// version 1 file, a link without `variant=`, a scenario no variant
    /// moves).
    pub variant: Option<Variant>,
}

/// A save time as the page shows it: "2026-12-01 09:00 UTC".
pub fn when(t: &DateTime<Utc>) -> String {
    use chrono::Timelike;
    let utc = t.naive_utc();
    format!("{} {:02}:{:02} UTC", utc.date(), utc.hour(), utc.minute())
}

/// What restoring does for one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The browser already has this design.
    Same,
    /// Nothing of the student's here (or only the empty canvas): take the file's.
    Take,
    /// The browser's copy is older than the file's: replace it, keeping it as the backup.
    Replace,
    /// The browser's copy is newer, or its age is unknown, or replacing it
    /// would push out an older backup: only if the student says so.
    Ask {
        here: Option<DateTime<Utc>>,
        /// The backup kept from before (a link, an import) would be replaced.
        replaces_backup: bool,
    },
}

fn source(scenario: u8) -> &'static str {
    super::numbered(scenario).map_or("", |s| s.source)
}

/// Save times are kept as milliseconds since 1970 (what the browser's clock
/// gives): comparing and checking them needs none of chrono's text formats,
/// which would cost the bundle kilobytes.
pub fn from_millis(text: &str) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_millis(text.trim().parse::<i64>().ok()?)
}

fn saved_at(store: &impl Store, scenario: u8) -> Option<DateTime<Utc>> {
    from_millis(&saves::saved_at(store, scenario)?)
}

/// A work file as read: whose it is (if it says) and its designs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkFile {
    pub student: Option<Student>,
    pub works: Vec<Work>,
}

/// The file's `"student"` line, for a name kept in `store`.
fn student_line(store: &impl Store) -> String {
    Student::kept(store).map_or(String::new(), |s| {
        format!(
            "\"student\": {{\"name\": {}, \"class\": {}}},\n",
            serde_json::to_string(&s.name).unwrap_or_default(),
            serde_json::to_string(&s.class).unwrap_or_default()
        )
    })
}

/// The work file for everything saved in `store`. Written as text around
/// each design's own file text: building a JSON value first would compile
/// a second JSON writer into the app (kilobytes of bundle).
pub fn export_work(store: &impl Store) -> String {
    let entries: Vec<String> = SCENARIOS
        .iter()
        .filter_map(|s| {
            let text = saves::design_text(store, s.number);
            let Stored::Design(graph) = read_stored(text, s.number, s.source) else {
                return None;
            };
            let progress = saves::progress(store, s.number);
            let progress = Progress::parse(progress.as_deref()).to_text();
            let saved_at = saved_at(store, s.number)
                .map_or("null".to_string(), |t| t.timestamp_millis().to_string());
            // A scenario a variant moves names the data its design was made
            // on, the chapter's as 0; work saved before the lab kept it
            // names none.
            let variant = saves::variant(store, s.number)
                .filter(|_| s.varies())
                .map_or(String::new(), |v| {
                    format!("\n    \"variant\": \"{}\",", v.name())
                });
            let design = export(&graph, Some(s.number)).replace('\n', "\n    ");
            Some(format!(
                "  {{\n    \"scenario\": {},\n    \"saved_at\": {saved_at},\n    \"progress\": {},{variant}\n    \"design\": {design}\n  }}",
                s.number,
                serde_json::to_string(&progress).unwrap_or_default(),
            ))
        })
        .collect();
    format!(
        "{{\n\"format\": \"{FORMAT}\",\n\"version\": {VERSION},\n{}\"scenarios\": [\n{}\n]\n}}\n",
        student_line(store),
        entries.join(",\n")
    )
}

/// Reads a work file's designs; refuses the whole file if any part of it
/// is wrong, naming the scenario, so nothing is half restored.
pub fn read_work(text: &str) -> Result<Vec<Work>, String> {
    read_work_file(text).map(|file| file.works)
}

/// The student a file names: none when it has no `"student"`, refused
/// when it has one that is not a name the lab would have written.
fn read_student(value: &Value) -> Result<Option<Student>, String> {
    let Some(student) = value.get("student") else {
        return Ok(None);
    };
    let text = |key: &str| student.get(key).and_then(Value::as_str);
    match (text("name"), text("class")) {
        (Some(name), Some(class)) => Student::new(name, class)
            .map(Some)
            .map_err(|why| format!("its student cannot be read: {why}")),
        _ => Err("its student cannot be read: a name and a class code are needed".to_string()),
    }
}

/// Reads a work file whole: its student and its designs.
pub fn read_work_file(text: &str) -> Result<WorkFile, String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "the file is {} KB; a work file is at most {} KB",
            text.len() / 1024,
            MAX_BYTES / 1024
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|_| "this is not a Partition Lab work file: it is not JSON".to_string())?;
    match value.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(crate::design::files::file::FORMAT) => {
            return Err(
                "this is a single design, not a work file: import it on its scenario's page"
                    .to_string(),
            )
        }
        _ => return Err("this is not a Partition Lab work file".to_string()),
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(1..=VERSION) => {}
        Some(v) if v > VERSION => {
            return Err(format!(
                "this work file was saved by a newer version of Partition Lab (version {v}); this one reads versions 1 to {VERSION}"
            ))
        }
        _ => {
            return Err(format!(
                "this work file has no version Partition Lab writes (1 to {VERSION})"
            ))
        }
    }
    let entries = value
        .get("scenarios")
        .and_then(Value::as_array)
        .ok_or("this work file lists no scenarios")?;
    let mut works: Vec<Work> = Vec::new();
    for entry in entries {
        let scenario = entry
            .get("scenario")
            .and_then(Value::as_u64)
            .and_then(|n| u8::try_from(n).ok())
            .filter(|n| SCENARIOS.iter().any(|s| s.number == *n))
            .ok_or_else(|| {
                format!(
                    "an entry names no scenario from 1 to {}",
                    SCENARIOS.iter().map(|s| s.number).max().unwrap_or(0)
                )
            })?;
        if works.iter().any(|w| w.scenario == scenario) {
            return Err(format!("scenario {scenario} appears twice"));
        }
        let design = entry
            .get("design")
            .ok_or(format!("scenario {scenario} has no design"))?;
        let graph = import_value(design)
            .map_err(|e| e.to_string())
            .and_then(|file| {
                crate::design::files::file::for_scenario(file, scenario, source(scenario))
            })
            .map_err(|why| format!("scenario {scenario}'s design: {why}"))?;
        let progress = match entry.get("progress") {
            None | Some(Value::Null) => Progress::NotStarted,
            Some(Value::String(text)) => match Progress::parse(Some(text)) {
                Progress::Unreadable => {
                    return Err(format!("scenario {scenario}'s verdict cannot be read"))
                }
                p => p,
            },
            Some(_) => return Err(format!("scenario {scenario}'s verdict cannot be read")),
        };
        let saved_at = match entry.get("saved_at") {
            None | Some(Value::Null) => None,
            Some(Value::Number(ms)) => Some(
                ms.as_i64()
                    .and_then(DateTime::from_timestamp_millis)
                    .ok_or(format!("scenario {scenario}'s save time cannot be read"))?,
            ),
            Some(_) => return Err(format!("scenario {scenario}'s save time cannot be read")),
        };
        let variant = match entry.get("variant") {
            None => None,
            Some(Value::String(text)) => Some(
                Variant::read(text)
                    .ok_or(format!("scenario {scenario}'s data variant cannot be read"))?,
            ),
            Some(_) => return Err(format!("scenario {scenario}'s data variant cannot be read")),
        };
        works.push(Work {
            scenario,
            graph,
            progress,
            saved_at,
            variant,
        });
    }
    if works.is_empty() {
        return Err("this work file holds no designs".to_string());
    }
    Ok(WorkFile {
        student: read_student(&value)?,
        works,
    })
}

/// What restoring `work` over what `store` holds would do.
pub fn step(store: &impl Store, work: &Work) -> Step {
    let text = saves::design_text(store, work.scenario);
    let here = match read_stored(text, work.scenario, source(work.scenario)) {
        Stored::Nothing => return Step::Take,
        // Damaged saves are set aside before a restore writes (see `restore`).
        Stored::Damaged { .. } => return Step::Take,
        Stored::Design(graph) => graph,
    };
    if here == work.graph {
        return Step::Same;
    }
    if here == Graph::with_source(source(work.scenario)) {
        return Step::Take;
    }
    let when = saved_at(store, work.scenario);
    // Replacing keeps the current design as the one backup: a different
    // backup already there would be lost, so that too is asked first.
    let kept = crate::design::files::saves::backup(
        &mut ReadOnly(store),
        work.scenario,
        source(work.scenario),
    );
    let replaces_backup = kept.is_some_and(|b| b != here);
    match (when, work.saved_at) {
        (Some(here), Some(there)) if here <= there && !replaces_backup => Step::Replace,
        (here, _) => Step::Ask {
            here,
            replaces_backup,
        },
    }
}

/// A store that reads through and writes nothing: `step` only looks.
struct ReadOnly<'a, S: Store>(&'a S);

impl<S: Store> Store for ReadOnly<'_, S> {
    fn get(&self, key: &str) -> Result<Option<String>, crate::design::files::saves::StoreError> {
        self.0.get(key)
    }
    fn set(&mut self, _: &str, _: &str) -> Result<(), crate::design::files::saves::StoreError> {
        Ok(())
    }
    fn remove(&mut self, _: &str) {}
}

/// Writes `work` over `store`'s copy: the copy first kept as the backup
/// (or, if damaged, set aside), then the design, its time and its verdict.
pub fn restore(store: &mut impl Store, work: &Work) -> Result<(), String> {
    let scenario = work.scenario;
    let loaded = crate::design::files::saves::load(store, scenario, source(scenario));
    if loaded.held.is_some() {
        return Err(format!(
            "scenario {scenario}'s saved design is damaged and could not be set aside, so it was left as it is"
        ));
    }
    if loaded.graph != Graph::with_source(source(scenario)) && loaded.graph != work.graph {
        keep_backup(store, scenario, &loaded.graph)?;
    }
    saves::put_design(store, scenario, &work.graph).map_err(|e| e.message().to_string())?;
    // The design is in; what follows only describes it.
    let partly = |e: crate::design::files::saves::StoreError| {
        format!(
            "the design was restored, but its save time or verdict could not be kept: {}",
            e.message()
        )
    };
    saves::put_saved_at(store, scenario, work.saved_at.map(|t| t.timestamp_millis()))
        .map_err(partly)?;
    saves::put_variant(store, scenario, work.variant).map_err(partly)?;
    saves::save_progress(store, scenario, &work.progress.to_text()).map_err(partly)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::files::saves::memory::Memory;
    use crate::design::files::saves::{design_key, progress_key, saved_at_key};
    use crate::design::{Edit, History, NodeConfig, NodeKind};
    use serde_json::json;

    fn with_transform(scenario: u8, x: i32) -> Graph {
        let mut h = History::new(Graph::with_source(source(scenario)));
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Transform),
            x,
            y: 100,
        })
        .expect("add");
        h.current
    }

    fn save(store: &mut Memory, scenario: u8, graph: &Graph, at: &str, progress: &str) {
        store
            .set(&design_key(scenario), &export(graph, Some(scenario)))
            .expect("room");
        store.set(&saved_at_key(scenario), at).expect("room");
        store.set(&progress_key(scenario), progress).expect("room");
    }

    #[test]
    fn work_round_trips_through_its_file() {
        let mut lab = Memory::with_room(1 << 20);
        save(
            &mut lab,
            1,
            &with_transform(1, 200),
            "1764579600000",
            "passed",
        );
        save(
            &mut lab,
            4,
            &with_transform(4, 300),
            "1764583200000",
            "failing:R5",
        );
        let works = read_work(&export_work(&lab)).expect("reads");
        assert_eq!(works.len(), 2);
        let mut home = Memory::with_room(1 << 20);
        for w in &works {
            assert_eq!(step(&home, w), Step::Take);
            restore(&mut home, w).expect("room");
        }
        assert_eq!(export_work(&home), export_work(&lab));
        assert!(works.iter().all(|w| step(&home, w) == Step::Same));
    }

    #[test]
    fn restoring_asks_before_replacing_newer_work_and_keeps_what_it_replaces() {
        let mut lab = Memory::with_room(1 << 20);
        save(
            &mut lab,
            2,
            &with_transform(2, 200),
            "1764579600000",
            "failing:R2",
        );
        let works = read_work(&export_work(&lab)).expect("reads");
        let work = works.first().expect("one");

        let mut older = Memory::with_room(1 << 20);
        let mine = with_transform(2, 500);
        save(&mut older, 2, &mine, "1764493200000", "");
        assert_eq!(step(&older, work), Step::Replace);
        restore(&mut older, work).expect("room");
        let kept = crate::design::files::saves::backup(&mut older, 2, source(2));
        assert_eq!(kept, Some(mine.clone()), "the replaced design is kept");

        let mut newer = Memory::with_room(1 << 20);
        save(&mut newer, 2, &mine, "1764583200000", "passed");
        assert!(matches!(
            step(&newer, work),
            Step::Ask {
                here: Some(_),
                replaces_backup: false
            }
        ));

        // An older design here, but a different backup kept from a link:
        // replacing would lose that backup, so it is asked first.
        let mut linked = Memory::with_room(1 << 20);
        save(&mut linked, 2, &mine, "1764493200000", "");
        crate::design::files::saves::keep_backup(&mut linked, 2, &with_transform(2, 700))
            .expect("room");
        assert!(matches!(
            step(&linked, work),
            Step::Ask {
                replaces_backup: true,
                ..
            }
        ));

        let mut unknown = Memory::with_room(1 << 20);
        unknown
            .set(&design_key(2), &export(&mine, Some(2)))
            .expect("room");
        assert_eq!(
            step(&unknown, work),
            Step::Ask {
                here: None,
                replaces_backup: false
            }
        );
    }

    #[test]
    fn a_full_store_fails_with_its_reason_and_loses_nothing() {
        let mut lab = Memory::with_room(1 << 20);
        save(
            &mut lab,
            1,
            &with_transform(1, 200),
            "1764579600000",
            "passed",
        );
        let work = read_work(&export_work(&lab)).expect("reads").remove(0);
        let mut tiny = Memory::with_room(10);
        assert!(restore(&mut tiny, &work).is_err());
        assert_eq!(tiny.get(&design_key(1)), Ok(None));
    }

    #[test]
    fn a_bad_file_is_refused_whole_with_the_reason() {
        let mut lab = Memory::with_room(1 << 20);
        save(
            &mut lab,
            1,
            &with_transform(1, 200),
            "1764579600000",
            "passed",
        );
        saves::put_variant(&mut lab, 1, Some(Variant::CHAPTER)).expect("room");
        let good: Value = serde_json::from_str(&export_work(&lab)).expect("json");
        let changed = |path: &str, to: Value| {
            let mut v = good.clone();
            let shown = v.to_string();
            *v.pointer_mut(path)
                .unwrap_or_else(|| panic!("{path} in {shown}")) = to;
            v.to_string()
        };
        let twice = {
            let mut v = good.clone();
            let first = v.pointer("/scenarios/0").cloned().expect("one");
            v["scenarios"].as_array_mut().expect("list").push(first);
            v.to_string()
        };
        let cases = [
            ("not json".to_string(), "not JSON"),
            (
                "{\"format\":\"partition-lab-design\"}".to_string(),
                "a single design",
            ),
            (changed("/version", json!(3)), "newer version"),
            (changed("/version", json!(0)), "no version"),
            (
                changed("/scenarios/0/variant", json!("abc")),
                "data variant",
            ),
            (changed("/scenarios/0/variant", json!(7)), "data variant"),
            (changed("/scenarios/0/variant", json!("-1")), "data variant"),
            (changed("/scenarios/0/scenario", json!(99)), "no scenario"),
            (
                changed("/scenarios/0/progress", json!("winning")),
                "verdict",
            ),
            (
                changed("/scenarios/0/saved_at", json!("yesterday")),
                "save time",
            ),
            (
                changed(
                    "/scenarios/0/design/graph/nodes/0/config/Source/table",
                    json!("bronze.orders"),
                ),
                "scenario 1's design",
            ),
            (changed("/scenarios", json!([])), "no designs"),
            (twice, "appears twice"),
            ("x".repeat(MAX_BYTES + 1), "at most"),
        ];
        for (text, reason) in cases {
            let why = read_work(&text).expect_err(reason);
            assert!(why.contains(reason), "{why} (wanted {reason})");
        }
    }

    /// A self-learner's fresh data goes into the file with the design made
    /// on it, and a restore puts it back (SPEC 14): the page then opens on
    /// it, and the class page grades the design on it. A scenario a
    /// variant moves names its data, the chapter's as 0; one no variant
    /// moves names none, nor does work saved before the lab kept it; a
    /// version 1 file, without any, still reads.
    #[test]
    fn a_design_s_data_variant_goes_with_it() {
        let fresh = Variant::from_seed(4242);
        let mut lab = Memory::with_room(1 << 20);
        for n in [1, 4, 5, 6] {
            save(
                &mut lab,
                n,
                &with_transform(n, 200),
                "1764579600000",
                "passed",
            );
        }
        saves::put_variant(&mut lab, 1, Some(fresh)).expect("room");
        // Scenario 5 has no variants: whatever was kept, it names none.
        saves::put_variant(&mut lab, 5, Some(fresh)).expect("room");
        saves::put_variant(&mut lab, 6, Some(Variant::CHAPTER)).expect("room");
        // Scenario 4's design was saved before the lab kept its data.
        let text = export_work(&lab);
        let file = read_work_file(&text).expect("reads");
        let named: Vec<(u8, Option<Variant>)> =
            file.works.iter().map(|w| (w.scenario, w.variant)).collect();
        assert_eq!(
            named,
            vec![
                (1, Some(fresh)),
                (4, None),
                (5, None),
                (6, Some(Variant::CHAPTER))
            ]
        );
        let mut home = Memory::with_room(1 << 20);
        saves::put_variant(&mut home, 4, Some(fresh)).expect("room");
        for w in &file.works {
            restore(&mut home, w).expect("room");
        }
        assert_eq!(saves::variant(&home, 1), Some(fresh));
        assert_eq!(saves::variant(&home, 6), Some(Variant::CHAPTER));
        // The file did not say for 4: what this browser kept is not its.
        assert_eq!(saves::variant(&home, 4), None);
        assert_eq!(
            export_work(&home),
            text,
            "restored, it writes the same file"
        );
        // Version 1: no variant anywhere, the same designs.
        let mut old: Value = serde_json::from_str(&text).expect("json");
        old["version"] = json!(1);
        for entry in old["scenarios"].as_array_mut().expect("list") {
            entry.as_object_mut().expect("entry").remove("variant");
        }
        let read = read_work_file(&old.to_string()).expect("version 1 reads");
        assert!(read.works.iter().all(|w| w.variant.is_none()));
        assert_eq!(read.works.len(), 4);
    }

    #[test]
    fn a_work_file_names_its_student_when_one_is_kept() {
        use crate::scenarios::student::Student;
        let mut lab = Memory::with_room(1 << 20);
        save(
            &mut lab,
            2,
            &with_transform(2, 200),
            "1764579600000",
            "passed",
        );
        assert_eq!(
            read_work_file(&export_work(&lab)).expect("reads").student,
            None
        );
        let ada = Student::new("Ada \"AL\" Lovelace", "CS-101").expect("fine");
        ada.keep(&mut lab).expect("room");
        let file = read_work_file(&export_work(&lab)).expect("reads");
        assert_eq!(file.student, Some(ada));
        assert_eq!(file.works.len(), 1);
        let good: Value = serde_json::from_str(&export_work(&lab)).expect("json");
        for bad in [
            json!("Ada"),
            json!({"name": "Ada"}),
            json!({"name": "", "class": ""}),
        ] {
            let mut v = good.clone();
            v["student"] = bad.clone();
            let why = read_work_file(&v.to_string()).expect_err("refused");
            assert!(why.contains("student cannot be read"), "{bad}: {why}");
        }
    }

    #[test]
    fn a_scenario_out_of_range_is_refused_naming_the_catalogue_s_range() {
        let text = r#"{"format":"partition-lab-work","version":1,"scenarios":[{"scenario":99}]}"#;
        let why = read_work(text).expect_err("refused");
        let last = SCENARIOS.len();
        assert!(last >= 6, "the catalogue has every scenario");
        assert!(why.ends_with(&format!("from 1 to {last}")), "{why}");
    }
}
