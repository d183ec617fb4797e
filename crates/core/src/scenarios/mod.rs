//! The six design scenarios: their stories and numbers, the scripts the
//! engine replays, the requirement rules, the grader and the shrinker, and
//! a student's work across scenarios as one file (`work`).

pub mod backfilled;
pub mod catalog;
pub mod clicks;
pub mod currency;
pub mod export;
pub mod grade;
pub mod history;
pub mod judge;
pub mod mobile;
pub mod orders;
pub mod outage;
pub mod progress;
pub mod replay;
pub mod report;
pub mod sample;
pub mod shrink;
pub mod work;
