//! The five design scenarios: their stories and numbers, the scripts the
//! engine replays, the requirement rules, the grader and the shrinker.

pub mod catalog;
pub mod clicks;
pub mod grade;
pub mod mobile;
pub mod orders;
pub mod progress;
pub mod replay;
pub mod report;
pub mod shrink;
