//! Every choice a student makes, spelled once.
//!
//! Each choice (state saved before or after the write, a backfill's shape,
//! what happens to rows after final, ...) has one table below giving each
//! variant its three words:
//! - `file`: its name in a saved design file. Files outlive releases, so
//!   these never change, whatever the Rust variant is called; a test pins
//!   them, and `design::files::json` writes and reads files with them.
//! - `name`: its short name in forms and addresses (`?commit=before`).
//! - `label`: what the inspector shows.
//!
//! The file reader, the inspector's form and the lab queries all read these
//! tables; nothing else spells a variant. The engine's choices are spelled
//! here; the canvas's own (`design::inspector::words`) with the same macro, so the
//! vocabulary knows no design type and the design uses its words.

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

choice!(PartitionKey {
    EventDate => "EventDate", "event", "event date";
    ProcessingDate => "ProcessingDate", "processing", "processing date (the day it ran)";
});

choice!(MergeKey {
    Key => "Key", "key", "the business key (click / order id)";
    RowId => "RowId", "row", "the row id (one per change row)";
});

choice!(AfterFinal {
    Drop => "Drop", "drop", "drop them";
    Adjustments => "Adjustments", "adjustments", "write them to an adjustments table";
    Reopen => "Reopen", "reopen", "reopen the partition";
});

/// `C`'s words are usable, and its file names are `files`, pinned: a
/// saved design names each choice so (`design::files::json` writes and reads
/// these), and a file outlives the code, so changing one breaks every file
/// saved before.
#[cfg(test)]
pub(crate) fn pinned<C: Choice + std::fmt::Debug>(files: &[&str]) {
    let written: Vec<&str> = C::ALL.iter().map(|c| c.file()).collect();
    assert_eq!(written, files, "a saved file's name changed");
    let mut names = Vec::new();
    for c in C::ALL {
        assert!(!c.label().is_empty());
        assert_eq!(C::from_file(c.file()), Some(*c));
        assert_eq!(C::from_name(c.name()), Some(*c));
        names.push(c.name());
    }
    let count = names.len();
    crate::lean::order::sort(&mut names);
    names.dedup();
    assert_eq!(names.len(), count, "two variants share a name");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_has_distinct_words_and_files_keep_their_names() {
        pinned::<CommitOrder>(&["StateAfterWrite", "StateBeforeWrite"]);
        pinned::<WatermarkColumn>(&["ArrivedAt", "UpdatedAt", "EventTime"]);
        pinned::<ListDate>(&["EventDate", "ChangeDate"]);
        pinned::<LogicVersion>(&["Fixed", "Broken"]);
        pinned::<PartitionKey>(&["EventDate", "ProcessingDate"]);
        pinned::<MergeKey>(&["Key", "RowId"]);
        pinned::<AfterFinal>(&["Drop", "Adjustments", "Reopen"]);
    }

    #[test]
    fn names_read_as_a_list() {
        assert_eq!(CommitOrder::names_listed(), "after or before");
        assert_eq!(AfterFinal::names_listed(), "drop, adjustments or reopen");
    }
}
