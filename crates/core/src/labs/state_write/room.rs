//! What a room reads from the back: the six pipelines' silver at the run
//! on show, one line each, one short entry per day (how many orders are
//! right, doubled, filed under the wrong day, missing), so every pipeline
//! fits one projector screen. Built from the same cell views as the full
//! cells, so it can say nothing they do not.

use crate::engine::calendar::Day;

use super::view::{CellView, ChipMark};

/// One day of one pipeline, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayCount {
    pub day: Day,
    pub fine: usize,
    pub duplicates: usize,
    pub wrong_day: usize,
    pub missing: usize,
    pub written: bool,
}

impl DayCount {
    /// "4 ✓", "3 ✓ · 1 ✕", "4 ✓ · 4 ❐": glyphs the legend names, counts
    /// in digits, nothing by colour alone.
    pub fn short(&self) -> String {
        let mut parts = vec![format!("{} ✓", self.fine)];
        if self.duplicates > 0 {
            parts.push(format!("{} ❐", self.duplicates));
        }
        if self.wrong_day > 0 {
            parts.push(format!("{} ↷", self.wrong_day));
        }
        if self.missing > 0 {
            parts.push(format!("{} ✕", self.missing));
        }
        parts.join(" · ")
    }

    /// The same in words, for a screen reader.
    pub fn words(&self) -> String {
        let mut parts = vec![format!("{} in place", self.fine)];
        if self.duplicates > 0 {
            parts.push(format!("{} doubled", self.duplicates));
        }
        if self.wrong_day > 0 {
            parts.push(format!("{} under the wrong day", self.wrong_day));
        }
        if self.missing > 0 {
            parts.push(format!("{} missing", self.missing));
        }
        if self.written {
            parts.push("written by this run".to_string());
        }
        parts.join(", ")
    }
}

/// A pipeline's days at the run on show.
pub fn days(view: &CellView) -> Vec<DayCount> {
    view.partitions
        .iter()
        .map(|p| {
            let count = |mark| p.chips.iter().filter(|c| c.mark == mark).count();
            DayCount {
                day: p.day,
                fine: count(ChipMark::Fine),
                duplicates: count(ChipMark::Duplicate),
                wrong_day: count(ChipMark::WrongDay),
                missing: p.missing.len(),
                written: p.written,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::state_write::view::cell_view;
    use crate::labs::state_write::{run, Cell, Controls};

    /// Every chip and every missing order of the full cell is counted once.
    #[test]
    fn the_room_view_counts_exactly_what_the_cells_draw() {
        let controls = Controls::default();
        for (cell, outcome) in run(&controls) {
            for index in 0..outcome.runs.len() {
                let Some(view) = cell_view(cell, &outcome, index) else {
                    continue;
                };
                let counted = days(&view);
                assert_eq!(counted.len(), view.partitions.len());
                for (c, p) in counted.iter().zip(&view.partitions) {
                    assert_eq!(
                        c.fine + c.duplicates + c.wrong_day,
                        p.chips.len(),
                        "{cell:?}"
                    );
                    assert_eq!(c.missing, p.missing.len());
                    assert_eq!(c.duplicates, p.duplicates, "{cell:?} {}", p.day);
                }
            }
        }
        let append = run(&controls)
            .into_iter()
            .find(|(c, _)| *c == Cell::WatermarkAppend)
            .and_then(|(c, o)| cell_view(c, &o, o.runs.len() - 1))
            .expect("the last run");
        assert!(days(&append)
            .iter()
            .any(|d| d.duplicates > 0 && d.short().contains("❐")));
    }
}
