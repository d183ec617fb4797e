//! Where a scenario's design and its last verdict live in the browser,
//! and the rules that keep a student's work: a save that no longer reads
//! is moved aside, never dropped, never written over; a design replaced by
//! a share link is kept as a backup the page offers back. Pure over a
//! `Store`, so the rules are tested natively with a store that can be
//! full. Every read and write of the lab's storage goes through here (the
//! work file's too): the keys are this crate's alone, so the page cannot
//! name one.

use crate::design::files::file::{export, read_stored, Stored};
use crate::design::graph::Graph;

/// Why the browser would not keep something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The origin's quota is used up.
    Full,
    /// No storage here at all (a private window, a policy).
    Unavailable,
}

impl StoreError {
    pub fn message(&self) -> &'static str {
        match self {
            StoreError::Full => "This browser's storage for the lab is full, so nothing more can be saved here: download your design to keep it, or delete a kept copy.",
            StoreError::Unavailable => "This browser keeps no local storage here (a private window?): your design lasts until the tab closes. Download it to keep it.",
        }
    }
}

/// The browser's key-value storage, or a stand-in for tests.
pub trait Store {
    fn get(&self, key: &str) -> Result<Option<String>, StoreError>;
    fn set(&mut self, key: &str, value: &str) -> Result<(), StoreError>;
    fn remove(&mut self, key: &str);
}

pub(crate) fn design_key(scenario: u8) -> String {
    format!("partition-lab/design/{scenario}")
}

/// Damaged copies kept side by side: a second damaged load must not
/// replace the first.
pub const DAMAGED_SLOTS: usize = 5;

/// Slot 0 keeps the name earlier versions of the lab used.
pub(crate) fn damaged_key(scenario: u8, slot: usize) -> String {
    match slot {
        0 => format!("partition-lab/design/{scenario}/damaged"),
        n => format!(
            "partition-lab/design/{scenario}/damaged-{}",
            n.saturating_add(1)
        ),
    }
}

/// When the design was last saved (milliseconds since 1970, UTC), so restoring work from
/// a file can tell which copy is newer.
pub(crate) fn saved_at_key(scenario: u8) -> String {
    format!("partition-lab/design/{scenario}/saved-at")
}

/// The data variant the scenario's design was last saved or checked on
/// (SPEC 14), when not the chapter's.
pub(crate) fn variant_key(scenario: u8) -> String {
    format!("partition-lab/design/{scenario}/variant")
}

/// The scenario's last check: passed, failing which rules, or structural.
pub(crate) fn progress_key(scenario: u8) -> String {
    format!("partition-lab/progress/{scenario}")
}

/// The lesson step a page of `path` was opened from, kept for the tab:
/// the path is the only part of the key a page gives, and only after
/// this prefix, so it cannot name another key.
pub(crate) fn lesson_key(path: &str) -> String {
    format!("partition-lab/lesson{}", path.trim_end_matches('/'))
}

/// The design a share link replaced, until the student deletes it.
pub(crate) fn backup_key(scenario: u8) -> String {
    format!("partition-lab/design/{scenario}/before-link")
}

/// The data variant the backup was made on, when one was kept with it.
fn backup_variant_key(scenario: u8) -> String {
    format!("partition-lab/design/{scenario}/before-link/variant")
}

/// What the page starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub graph: Graph,
    /// What to tell the student, as an error (alert) when something is wrong.
    pub message: Option<String>,
    /// Saved text that could not be read nor moved aside: it stays under
    /// the design's key, so autosave must not write until the student
    /// has taken it (downloaded it, or said to replace it).
    pub held: Option<String>,
}

/// Reads `scenario`'s saved design, moving a damaged one aside.
pub fn load(store: &mut impl Store, scenario: u8, source: &str) -> Loaded {
    let start = Graph::with_source(source);
    let text = match store.get(&design_key(scenario)) {
        Ok(text) => text,
        Err(e) => {
            return Loaded {
                graph: start,
                message: Some(e.message().to_string()),
                held: None,
            }
        }
    };
    match read_stored(text, scenario, source) {
        Stored::Nothing => Loaded {
            graph: start,
            message: None,
            held: None,
        },
        Stored::Design(graph) => Loaded {
            graph,
            message: None,
            held: None,
        },
        Stored::Damaged { text, reason } => match keep_damaged(store, scenario, &text) {
            Ok(()) => Loaded {
                graph: start,
                message: Some(format!(
                    "Your saved design for this scenario could not be read ({reason}). You start from the scenario's canvas; the damaged copy is kept below for download."
                )),
                held: None,
            },
            Err(why) => Loaded {
                graph: start,
                message: Some(format!(
                    "Your saved design for this scenario could not be read ({reason}), and it could not be set aside: {why} It is left where it was, and nothing you do here is saved over it until you download it or choose to replace it (below)."
                )),
                held: Some(text),
            },
        },
    }
}

/// Puts a damaged save in the first free slot (or finds it already kept).
fn keep_damaged(store: &mut impl Store, scenario: u8, text: &str) -> Result<(), String> {
    let mut free = None;
    for slot in 0..DAMAGED_SLOTS {
        match store.get(&damaged_key(scenario, slot)) {
            Ok(Some(kept)) if kept == text => return Ok(()),
            Ok(Some(_)) => {}
            Ok(None) => {
                free = free.or(Some(slot));
            }
            Err(e) => return Err(e.message().to_string()),
        }
    }
    let Some(slot) = free else {
        return Err(format!(
            "{DAMAGED_SLOTS} damaged copies are kept already; delete one to make room."
        ));
    };
    store
        .set(&damaged_key(scenario, slot), text)
        .map_err(|e| e.message().to_string())
}

/// Every damaged copy kept for `scenario`, with its slot.
pub fn damaged_copies(store: &impl Store, scenario: u8) -> Vec<(usize, String)> {
    (0..DAMAGED_SLOTS)
        .filter_map(|slot| {
            store
                .get(&damaged_key(scenario, slot))
                .ok()
                .flatten()
                .map(|text| (slot, text))
        })
        .collect()
}

/// What opening a share link over `current` should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkOpening {
    /// Nothing of the student's is at stake: open it.
    Open,
    /// The student has work of their own here: ask before replacing it.
    Ask {
        /// A backup from an earlier link would be replaced by this one.
        replaces_backup: bool,
    },
}

pub fn opening(
    store: &impl Store,
    scenario: u8,
    source: &str,
    current: &Graph,
    link: &Graph,
) -> LinkOpening {
    if current == link || *current == Graph::with_source(source) {
        return LinkOpening::Open;
    }
    LinkOpening::Ask {
        replaces_backup: store.get(&backup_key(scenario)).ok().flatten().is_some(),
    }
}

/// Keeps `current` as the backup a link replaces, with the data it was
/// made on (the design's kept variant, which the caller has not yet
/// replaced); only once this worked may the link's design be opened.
pub fn keep_backup(store: &mut impl Store, scenario: u8, current: &Graph) -> Result<(), String> {
    store
        .set(&backup_key(scenario), &export(current, Some(scenario)))
        .map_err(|e| e.message().to_string())?;
    // A hint beside the design, as its save time is: without it the
    // backup still reads, on the page's data.
    match variant(store, scenario) {
        Some(v) => {
            let _ = store.set(&backup_variant_key(scenario), &v.name());
        }
        None => store.remove(&backup_variant_key(scenario)),
    }
    Ok(())
}

/// The data variant the backup was made on, if it was kept with it.
pub fn backup_variant(store: &impl Store, scenario: u8) -> Option<crate::variant::Variant> {
    variant_at(store, &backup_variant_key(scenario))
}

/// The variant kept under `key`; `None` for none, or for what is not a
/// variant's number (a hand edit: the keys are this crate's).
fn variant_at(store: &impl Store, key: &str) -> Option<crate::variant::Variant> {
    store
        .get(key)
        .ok()
        .flatten()
        .and_then(|text| crate::variant::Variant::read(&text))
}

/// The backup, if one is kept and still reads as this scenario's design.
/// One that no longer reads is moved aside like a damaged save (offered
/// for download), never silently hidden and later written over.
pub fn backup(store: &mut impl Store, scenario: u8, source: &str) -> Option<Graph> {
    let text = store.get(&backup_key(scenario)).ok().flatten();
    match read_stored(text, scenario, source) {
        Stored::Design(graph) => Some(graph),
        Stored::Nothing => None,
        Stored::Damaged { text, .. } => {
            if keep_damaged(store, scenario, &text).is_ok() {
                store.remove(&backup_key(scenario));
            }
            None
        }
    }
}

/// The scenario's saved design as stored (read with `file::read_stored`).
pub fn design_text(store: &impl Store, scenario: u8) -> Option<String> {
    store.get(&design_key(scenario)).ok().flatten()
}

/// Writes `graph` as the scenario's design.
pub fn put_design(store: &mut impl Store, scenario: u8, graph: &Graph) -> Result<(), StoreError> {
    store.set(&design_key(scenario), &export(graph, Some(scenario)))
}

/// When the design was last saved, as stored (milliseconds since 1970).
pub fn saved_at(store: &impl Store, scenario: u8) -> Option<String> {
    store.get(&saved_at_key(scenario)).ok().flatten()
}

/// Writes when the design was saved; `None` forgets it (a work file
/// restored without a time).
pub fn put_saved_at(
    store: &mut impl Store,
    scenario: u8,
    millis: Option<i64>,
) -> Result<(), StoreError> {
    match millis {
        Some(t) => store.set(&saved_at_key(scenario), &t.to_string()),
        None => {
            store.remove(&saved_at_key(scenario));
            Ok(())
        }
    }
}

/// Saves `graph` as the scenario's design, and when (milliseconds since
/// 1970, from the caller's clock) so a restore from a work file can tell
/// which copy is newer. A design that could not be written leaves the
/// time as it was.
pub fn save(store: &mut impl Store, scenario: u8, graph: &Graph, now: i64) -> Result<(), String> {
    put_design(store, scenario, graph).map_err(|e| e.message().to_string())?;
    // The time is a hint for a restore: without it the design still reads.
    let _ = put_saved_at(store, scenario, Some(now));
    Ok(())
}

/// The scenario's last verdict as saved (`scenarios::progress` reads it).
pub fn progress(store: &impl Store, scenario: u8) -> Option<String> {
    store.get(&progress_key(scenario)).ok().flatten()
}

/// Saves the scenario's last verdict, as `scenarios::progress` writes it.
pub fn save_progress(store: &mut impl Store, scenario: u8, text: &str) -> Result<(), StoreError> {
    store.set(&progress_key(scenario), text)
}

/// The data variant the scenario's work was last saved or checked on;
/// `None` when none is kept (work saved before variants were kept, or a
/// hand-edited key: the key is this crate's).
pub fn variant(store: &impl Store, scenario: u8) -> Option<crate::variant::Variant> {
    variant_at(store, &variant_key(scenario))
}

/// Keeps the data variant the scenario's work is on (the chapter's as 0),
/// or forgets it (`None`: a restored file that did not say). The work
/// file carries it, so the class page grades the design on the data it
/// was made for.
pub fn put_variant(
    store: &mut impl Store,
    scenario: u8,
    variant: Option<crate::variant::Variant>,
) -> Result<(), StoreError> {
    match variant {
        Some(v) => store.set(&variant_key(scenario), &v.name()),
        None => {
            store.remove(&variant_key(scenario));
            Ok(())
        }
    }
}

/// The lesson step this tab opened `path` from, as the address gave it
/// (`content::lesson::step_number` reads it, as it reads the address):
/// the labs rewrite their address as they go, and a reload must not lose
/// the presenter's place in the plan. The store is the tab's session
/// storage, so another tab starts with none.
pub fn lesson_step(store: &impl Store, path: &str) -> Option<String> {
    store.get(&lesson_key(path)).ok().flatten()
}

/// Keeps the lesson step `path` was opened from; a store that refuses
/// leaves the step to the address alone.
pub fn put_lesson_step(store: &mut impl Store, path: &str, step: usize) {
    let _ = store.set(&lesson_key(path), &step.to_string());
}

/// Forgets the step: `path` was reached another way than from the plan.
pub fn forget_lesson_step(store: &mut impl Store, path: &str) {
    store.remove(&lesson_key(path));
}

/// Deletes the kept backup, once the student has said so.
pub fn delete_backup(store: &mut impl Store, scenario: u8) {
    store.remove(&backup_key(scenario));
    store.remove(&backup_variant_key(scenario));
}

/// Deletes damaged copy `slot`, once the student has said so.
pub fn delete_damaged(store: &mut impl Store, scenario: u8, slot: usize) {
    store.remove(&damaged_key(scenario, slot));
}

/// A store for tests that can fill up.
#[cfg(test)]
pub mod memory {
    use super::{Store, StoreError};
    use crate::lean::sorted::SortedMap;

    /// A store holding at most `room` bytes of values.
    pub struct Memory {
        items: SortedMap<String, String>,
        room: usize,
    }

    impl Memory {
        pub fn with_room(room: usize) -> Self {
            Self {
                items: SortedMap::new(),
                room,
            }
        }
    }

    impl Store for Memory {
        fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
            Ok(self.items.get(key).cloned())
        }
        fn set(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
            let used: usize = self
                .items
                .iter()
                .filter(|(k, _)| *k != key)
                .map(|(_, v)| v.len())
                .sum();
            if used.saturating_add(value.len()) > self.room {
                return Err(StoreError::Full);
            }
            self.items.insert(key.to_string(), value.to_string());
            Ok(())
        }
        fn remove(&mut self, key: &str) {
            self.items.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Edit, History, NodeConfig, NodeKind};

    use super::memory::Memory;

    const SOURCE: &str = "bronze.clicks";

    fn work() -> Graph {
        let mut h = History::new(Graph::with_source(SOURCE));
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Transform),
            x: 200,
            y: 100,
        })
        .expect("add");
        h.current
    }

    #[test]
    fn a_damaged_save_is_kept_aside_and_a_second_one_beside_it() {
        let mut store = Memory::with_room(usize::MAX);
        for broken in ["{not json", "{\"format\": 3}"] {
            store.set(&design_key(1), broken).expect("room");
            let loaded = load(&mut store, 1, SOURCE);
            assert_eq!(loaded.graph, Graph::with_source(SOURCE));
            assert!(loaded.held.is_none());
            assert!(loaded.message.is_some_and(|m| m.contains("kept below")));
        }
        let kept: Vec<String> = damaged_copies(&store, 1)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(kept, ["{not json", "{\"format\": 3}"]);
        // Loading the same damaged text again keeps it once.
        load(&mut store, 1, SOURCE);
        assert_eq!(damaged_copies(&store, 1).len(), 2);
    }

    #[test]
    fn a_damaged_save_that_cannot_be_moved_is_held_and_never_claimed_kept() {
        let mut store = Memory::with_room(20);
        store.set(&design_key(1), "{cut in the mid").expect("room");
        let loaded = load(&mut store, 1, SOURCE);
        assert_eq!(loaded.held.as_deref(), Some("{cut in the mid"));
        let message = loaded.message.expect("says so");
        assert!(message.contains("could not be set aside"), "{message}");
        assert!(message.contains("full"), "{message}");
        assert!(!message.contains("kept below"), "{message}");
        assert_eq!(
            store.get(&design_key(1)),
            Ok(Some("{cut in the mid".to_string())),
            "the original is untouched"
        );
    }

    #[test]
    fn every_damaged_slot_taken_holds_the_new_one_in_place() {
        let mut store = Memory::with_room(usize::MAX);
        for slot in 0..DAMAGED_SLOTS {
            store
                .set(&damaged_key(1, slot), &format!("old {slot}"))
                .expect("room");
        }
        store.set(&design_key(1), "new damage").expect("room");
        let loaded = load(&mut store, 1, SOURCE);
        assert_eq!(loaded.held.as_deref(), Some("new damage"));
        assert_eq!(damaged_copies(&store, 1).len(), DAMAGED_SLOTS);
    }

    #[test]
    fn a_link_over_own_work_asks_and_its_backup_reads_back() {
        let mut store = Memory::with_room(usize::MAX);
        let mine = work();
        let theirs = Graph::with_source(SOURCE);
        let start = Graph::with_source(SOURCE);
        assert_eq!(opening(&store, 1, SOURCE, &start, &mine), LinkOpening::Open);
        assert_eq!(opening(&store, 1, SOURCE, &mine, &mine), LinkOpening::Open);
        assert_eq!(
            opening(&store, 1, SOURCE, &mine, &theirs),
            LinkOpening::Ask {
                replaces_backup: false
            }
        );
        keep_backup(&mut store, 1, &mine).expect("room");
        assert_eq!(backup(&mut store, 1, SOURCE), Some(mine.clone()));
        assert_eq!(backup(&mut store, 2, "bronze.orders"), None);
        assert_eq!(
            opening(&store, 1, SOURCE, &mine, &theirs),
            LinkOpening::Ask {
                replaces_backup: true
            }
        );
    }

    #[test]
    fn a_backup_that_cannot_be_written_says_so() {
        let mut store = Memory::with_room(10);
        let why = keep_backup(&mut store, 1, &work()).expect_err("no room");
        assert!(why.contains("full"), "{why}");
        assert_eq!(backup(&mut store, 1, SOURCE), None);
    }

    #[test]
    fn an_unreadable_backup_is_moved_aside_not_hidden() {
        let mut store = Memory::with_room(usize::MAX);
        store.set(&backup_key(1), "{cut").expect("room");
        assert_eq!(backup(&mut store, 1, SOURCE), None);
        assert_eq!(store.get(&backup_key(1)), Ok(None));
        assert_eq!(damaged_copies(&store, 1), vec![(0, "{cut".to_string())]);
    }

    #[test]
    fn a_save_writes_the_design_then_its_time_and_a_full_store_writes_neither() {
        let mut store = Memory::with_room(usize::MAX);
        save(&mut store, 3, &work(), 1_780_000_000_000).expect("room");
        assert_eq!(load(&mut store, 3, SOURCE).graph, work());
        assert_eq!(
            store.get(&saved_at_key(3)),
            Ok(Some("1780000000000".to_string()))
        );
        // Room for this design and its time, not for a larger one: the
        // larger is refused with the browser's words, and the design and
        // the time of the last save that worked both stay.
        let first = export(&work(), Some(3));
        let mut snug = Memory::with_room(first.len() + "1".len());
        save(&mut snug, 3, &work(), 1).expect("room for the first");
        let mut larger = History::new(work());
        larger
            .edit(&Edit::Add {
                config: NodeConfig::default_for(NodeKind::Write),
                x: 400,
                y: 100,
            })
            .expect("add");
        let refused = save(&mut snug, 3, &larger.current, 2);
        assert_eq!(refused, Err(StoreError::Full.message().to_string()));
        assert_eq!(snug.get(&design_key(3)), Ok(Some(first)));
        assert_eq!(snug.get(&saved_at_key(3)), Ok(Some("1".to_string())));
    }

    #[test]
    fn a_verdict_reads_back_as_saved_and_deleting_a_kept_copy_removes_only_it() {
        let mut store = Memory::with_room(usize::MAX);
        assert_eq!(progress(&store, 2), None);
        save_progress(&mut store, 2, "failing R2").expect("room");
        assert_eq!(
            save_progress(&mut Memory::with_room(0), 2, "passed"),
            Err(StoreError::Full)
        );
        assert_eq!(progress(&store, 2).as_deref(), Some("failing R2"));
        assert_eq!(
            progress(&store, 1),
            None,
            "one scenario's verdict is its own"
        );
        keep_backup(&mut store, 2, &work()).expect("room");
        store.set(&damaged_key(2, 0), "{not json").expect("room");
        store.set(&damaged_key(2, 1), "{also not").expect("room");
        delete_backup(&mut store, 2);
        assert_eq!(backup(&mut store, 2, SOURCE), None);
        delete_damaged(&mut store, 2, 0);
        let left: Vec<usize> = damaged_copies(&store, 2)
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(left, [1]);
        assert_eq!(progress(&store, 2).as_deref(), Some("failing R2"));
    }

    #[test]
    fn a_lesson_step_is_kept_per_page_and_a_full_store_keeps_none() {
        let mut store = Memory::with_room(usize::MAX);
        assert_eq!(lesson_step(&store, "/lab/lateness"), None);
        put_lesson_step(&mut store, "/lab/lateness", 4);
        put_lesson_step(&mut store, "/lab/backfill/", 5);
        assert_eq!(lesson_step(&store, "/lab/lateness/").as_deref(), Some("4"));
        assert_eq!(lesson_step(&store, "/lab/backfill").as_deref(), Some("5"));
        assert_eq!(lesson_step(&store, "/teach"), None);
        put_lesson_step(&mut store, "/lab/lateness", 3);
        assert_eq!(lesson_step(&store, "/lab/lateness").as_deref(), Some("3"));
        forget_lesson_step(&mut store, "/lab/lateness/");
        assert_eq!(lesson_step(&store, "/lab/lateness"), None);
        assert_eq!(lesson_step(&store, "/lab/backfill").as_deref(), Some("5"));
        let mut full = Memory::with_room(0);
        put_lesson_step(&mut full, "/lab/lateness", 4);
        assert_eq!(lesson_step(&full, "/lab/lateness"), None);
    }

    /// A backup keeps the data its design was made on, and hands it back:
    /// swapping twice (a link's design, then the earlier one back) puts
    /// each design with its own data; deleting the backup forgets both.
    #[test]
    fn a_backup_keeps_the_data_it_was_made_on() {
        use crate::variant::Variant;
        let mut store = Memory::with_room(1 << 16);
        let fresh = Variant::from_seed(77);
        let mine = Graph::with_source("bronze.clicks");
        put_variant(&mut store, 1, Some(fresh)).expect("room");
        keep_backup(&mut store, 1, &mine).expect("room");
        assert_eq!(backup_variant(&store, 1), Some(fresh));
        // The link's design is on the chapter's data; then swapped back.
        put_variant(&mut store, 1, Some(Variant::CHAPTER)).expect("room");
        let earlier = backup_variant(&store, 1);
        keep_backup(&mut store, 1, &mine).expect("room");
        assert_eq!(earlier, Some(fresh));
        assert_eq!(backup_variant(&store, 1), Some(Variant::CHAPTER));
        // Work saved before the lab kept data names none, nor does its backup.
        put_variant(&mut store, 1, None).expect("room");
        keep_backup(&mut store, 1, &mine).expect("room");
        assert_eq!(backup_variant(&store, 1), None);
        put_variant(&mut store, 1, Some(fresh)).expect("room");
        keep_backup(&mut store, 1, &mine).expect("room");
        delete_backup(&mut store, 1);
        assert_eq!(backup_variant(&store, 1), None);
    }
}
