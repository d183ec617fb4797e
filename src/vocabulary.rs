//! Every choice a student makes, spelled once.
//!
//! Each choice (state saved before or after the write, a backfill's shape,
//! what happens to rows after final, ...) has one table below giving each
//! variant its three words:
//! - `file`: its name in a saved design file. Files outlive releases, so
//!   these never change, whatever the Rust variant is called; a test pins
//!   them, and `design::json` writes and reads files with them.
//! - `name`: its short name in forms and addresses (`?commit=before`).
//! - `label`: what the inspector shows.
//!
//! The file reader, the inspector's form and the lab queries all read these
//! tables; nothing else spells a variant.

use crate::design::graph::{BackfillShape, Layer, Markers, Restate, StateChoice, WriteChoice};
use crate::engine::{
    AfterFinal, CommitOrder, ListDate, LogicVersion, MergeKey, PartitionKey, WatermarkColumn,
};

pub trait Choice: Copy + PartialEq + Sized + 'static {
    /// Every variant, in the order a form lists them.
    const ALL: &'static [Self];
    fn file(self) -> &'static str;
    fn name(self) -> &'static str;
    fn label(self) -> &'static str;

    fn from_file(file: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.file() == file)
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// (name, label) for each variant, as a form's options.
    fn options() -> Vec<(&'static str, &'static str)> {
        Self::ALL.iter().map(|c| (c.name(), c.label())).collect()
    }

    /// The names joined for a message: "after or before", "off, tue or fri".
    fn names_listed() -> String {
        let names: Vec<&str> = Self::ALL.iter().map(|c| c.name()).collect();
        match names.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// `choice!(Type { Variant => "file", "name", "label"; ... })`; a choice
/// that is never saved in a file (a lab's control) gives only name and label.
macro_rules! choice {
    ($ty:ty { $($variant:ident => $name:literal, $label:literal;)+ }) => {
        $crate::vocabulary::choice!($ty { $($variant => $name, $name, $label;)+ });
    };
    ($ty:ty { $($variant:ident => $file:literal, $name:literal, $label:literal;)+ }) => {
        impl $crate::vocabulary::Choice for $ty {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn file(self) -> &'static str {
                match self { $(Self::$variant => $file),+ }
            }
            fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
            fn label(self) -> &'static str {
                match self { $(Self::$variant => $label),+ }
            }
        }
    };
}
pub(crate) use choice;

/// Which kind of processing state a node keeps (its settings apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    Watermark,
    PartitionList,
    None,
    TrailingWindow,
}

impl StateChoice {
    pub fn kind(&self) -> StateKind {
        match self {
            StateChoice::Watermark { .. } => StateKind::Watermark,
            StateChoice::PartitionList { .. } => StateKind::PartitionList,
            StateChoice::None => StateKind::None,
            StateChoice::TrailingWindow { .. } => StateKind::TrailingWindow,
        }
    }
}

/// Which kind of write a write target does (a merge's key apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    Append,
    OverwritePartition,
    Merge,
    ReplaceTable,
}

impl WriteChoice {
    pub fn kind(&self) -> WriteKind {
        match self {
            WriteChoice::Append => WriteKind::Append,
            WriteChoice::OverwritePartition => WriteKind::OverwritePartition,
            WriteChoice::Merge { .. } => WriteKind::Merge,
            WriteChoice::ReplaceTable => WriteKind::ReplaceTable,
        }
    }
}

choice!(StateKind {
    Watermark => "Watermark", "watermark", "a watermark";
    PartitionList => "PartitionList", "list", "a partition list";
    None => "None", "none", "nothing (full refresh)";
    TrailingWindow => "TrailingWindow", "window", "nothing (a trailing window)";
});

choice!(WriteKind {
    Append => "Append", "append", "append";
    OverwritePartition => "OverwritePartition", "overwrite", "overwrite partition";
    Merge => "Merge", "merge", "merge on a key";
    ReplaceTable => "ReplaceTable", "replace", "replace table";
});

choice!(CommitOrder {
    StateAfterWrite => "StateAfterWrite", "after", "after the write";
    StateBeforeWrite => "StateBeforeWrite", "before", "before the write";
});

choice!(WatermarkColumn {
    ArrivedAt => "ArrivedAt", "arrived_at", "arrived_at";
    UpdatedAt => "UpdatedAt", "updated_at", "updated_at";
    EventTime => "EventTime", "event_time", "event_time";
});

choice!(ListDate {
    EventDate => "EventDate", "event", "event date";
    ChangeDate => "ChangeDate", "change", "change date";
});

choice!(LogicVersion {
    Fixed => "Fixed", "fixed", "fixed (current)";
    Broken => "Broken", "broken", "old (rate truncated to 2 dp)";
});

choice!(Layer {
    Bronze => "Bronze", "bronze", "bronze";
    Silver => "Silver", "silver", "silver";
});

choice!(PartitionKey {
    EventDate => "EventDate", "event", "event date";
    ProcessingDate => "ProcessingDate", "processing", "processing date (the day it ran)";
});

choice!(MergeKey {
    Key => "Key", "key", "the business key (click / order id)";
    RowId => "RowId", "row", "the row id (one per change row)";
});

choice!(BackfillShape {
    PerDate => "PerDate", "per_date", "per date: silver, then its gold";
    TwoPhases => "TwoPhases", "two_phases", "two phases: all silver, then all gold";
    Together => "Together", "together", "per date: silver and gold at the same time";
});

choice!(Markers {
    Off => "Off", "off", "off";
    AfterPartition => "AfterPartition", "after", "written after the partition";
    BeforePartition => "BeforePartition", "before", "written before the partition";
});

choice!(AfterFinal {
    Drop => "Drop", "drop", "drop them";
    Adjustments => "Adjustments", "adjustments", "write them to an adjustments table";
    Reopen => "Reopen", "reopen", "reopen the partition";
});

choice!(Restate {
    AfterAllGold => "AfterAllGold", "after_all_gold", "after all gold has landed";
    AtOnce => "AtOnce", "at_once", "at once";
});

#[cfg(test)]
mod tests {
    use super::*;

    /// `C`'s words are usable, and its file names are `files`, pinned: a
    /// saved design names each choice so (`design::json` writes and reads
    /// these), and a file outlives the code, so changing one here breaks
    /// every file saved before.
    fn check<C: Choice + std::fmt::Debug>(files: &[&str]) {
        let written: Vec<&str> = C::ALL.iter().map(|c| c.file()).collect();
        assert_eq!(written, files, "a saved file's name changed");
        let mut names = Vec::new();
        for c in C::ALL {
            assert!(!c.label().is_empty());
            names.push(c.name());
        }
        check_words::<C>();
        let count = names.len();
        crate::lean::order::sort(&mut names);
        names.dedup();
        assert_eq!(names.len(), count, "two variants share a name");
    }

    #[test]
    fn every_choice_has_distinct_words_and_files_keep_their_names() {
        check::<CommitOrder>(&["StateAfterWrite", "StateBeforeWrite"]);
        check::<WatermarkColumn>(&["ArrivedAt", "UpdatedAt", "EventTime"]);
        check::<ListDate>(&["EventDate", "ChangeDate"]);
        check::<LogicVersion>(&["Fixed", "Broken"]);
        check::<Layer>(&["Bronze", "Silver"]);
        check::<PartitionKey>(&["EventDate", "ProcessingDate"]);
        check::<MergeKey>(&["Key", "RowId"]);
        check::<BackfillShape>(&["PerDate", "TwoPhases", "Together"]);
        check::<Markers>(&["Off", "AfterPartition", "BeforePartition"]);
        check::<AfterFinal>(&["Drop", "Adjustments", "Reopen"]);
        check::<Restate>(&["AfterAllGold", "AtOnce"]);
        check::<StateKind>(&["Watermark", "PartitionList", "None", "TrailingWindow"]);
        check::<WriteKind>(&["Append", "OverwritePartition", "Merge", "ReplaceTable"]);
    }

    fn check_words<C: Choice + std::fmt::Debug>() {
        for c in C::ALL {
            assert_eq!(C::from_file(c.file()), Some(*c));
            assert_eq!(C::from_name(c.name()), Some(*c));
        }
    }

    /// The kinds' file names are the tags the writer puts on the variants
    /// that carry settings.
    #[test]
    fn names_read_as_a_list() {
        assert_eq!(CommitOrder::names_listed(), "after or before");
        assert_eq!(Markers::names_listed(), "off, after or before");
    }
}
