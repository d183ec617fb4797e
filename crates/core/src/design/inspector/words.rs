//! The canvas's own choices in the vocabulary's words: which kind of state
//! a node keeps, which kind of write a target does, and a backfill's layer,
//! shape, markers and restatement. The vocabulary spells the engine's
//! choices and lends its macro; the design types use it, never the reverse.

use crate::design::graph::{BackfillShape, Layer, Markers, Restate, StateChoice, WriteChoice};
use crate::vocabulary::choice;

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

choice!(Layer {
    Bronze => "Bronze", "bronze", "bronze";
    Silver => "Silver", "silver", "silver";
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

choice!(Restate {
    AfterAllGold => "AfterAllGold", "after_all_gold", "after all gold has landed";
    AtOnce => "AtOnce", "at_once", "at once";
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::pinned;

    #[test]
    fn the_designs_choices_keep_their_file_names() {
        pinned::<Layer>(&["Bronze", "Silver"]);
        pinned::<BackfillShape>(&["PerDate", "TwoPhases", "Together"]);
        pinned::<Markers>(&["Off", "AfterPartition", "BeforePartition"]);
        pinned::<Restate>(&["AfterAllGold", "AtOnce"]);
        pinned::<StateKind>(&["Watermark", "PartitionList", "None", "TrailingWindow"]);
        pinned::<WriteKind>(&["Append", "OverwritePartition", "Merge", "ReplaceTable"]);
    }

    #[test]
    fn markers_read_as_a_list() {
        use crate::vocabulary::Choice;
        assert_eq!(Markers::names_listed(), "off, after or before");
    }
}
