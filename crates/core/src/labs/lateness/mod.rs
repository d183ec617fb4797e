//! The allowed-lateness lab (SPEC 5): a month of events per arrival
//! profile, and what each allowed lateness means for it.

pub mod arrival_csv;
// Written by a test from the engine (`model::tests`, PARTITION_LAB_BAKE=1)
// and left as it writes it, so a bake again differs only in its numbers.
#[rustfmt::skip]
mod baked;
pub mod chart;
pub mod compare;
pub mod figures;
pub mod guess;
pub mod late;
pub mod model;
pub mod query;
pub mod slider;
pub mod your_data;

pub use model::{
    august, day_status, late_sentence, lost_sentence, policy_name, study, AfterPolicy, DayStatus,
    Profile, Settings, CLOSE_DAYS, DEFAULT_RUN, MAX_DAYS, TARGETS,
};
