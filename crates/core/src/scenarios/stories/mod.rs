//! The six scenarios' stories, one module each: its numbers, the script
//! made from them, its palette and its rules with their judges. A seventh
//! scenario is a module here, a line in `scenarios::SCENARIOS` and an arm
//! in `scenarios::running`.

pub mod clicks;
pub mod currency;
pub mod history;
pub mod mobile;
pub mod orders;
pub mod outage;
