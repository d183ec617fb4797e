//! Processing state as it stands between runs.

use crate::lean::sorted::SortedSet;
use std::fmt;

use super::calendar::{weekday_short, Day, Instant};
use super::config::ProcessingState;

/// What the pipeline has written down about where it got to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateValue {
    /// The highest value of the watermark column read so far; `None` before the first run.
    Watermark(Option<Instant>),
    /// The dates marked complete.
    Done(SortedSet<Day>),
    /// Full refresh keeps nothing.
    Nothing,
}

impl StateValue {
    pub fn initial(config: ProcessingState) -> Self {
        match config {
            ProcessingState::Watermark { .. } => StateValue::Watermark(None),
            ProcessingState::PartitionList { .. } => StateValue::Done(SortedSet::new()),
            ProcessingState::None | ProcessingState::TrailingWindow { .. } => StateValue::Nothing,
        }
    }
}

impl fmt::Display for StateValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateValue::Watermark(None) => write!(f, "watermark: not set"),
            StateValue::Watermark(Some(mark)) => write!(
                f,
                "watermark: {} {}",
                weekday_short(mark.date()),
                super::calendar::mm_dd_time(*mark)
            ),
            StateValue::Done(days) if days.is_empty() => write!(f, "done: none"),
            StateValue::Done(days) => {
                write!(f, "done: ")?;
                for (n, day) in days.iter().enumerate() {
                    let sep = if n == 0 { "" } else { ", " };
                    write!(
                        f,
                        "{sep}{} {}",
                        weekday_short(*day),
                        super::calendar::mm_dd(*day)
                    )?;
                }
                Ok(())
            }
            StateValue::Nothing => write!(f, "no state"),
        }
    }
}
