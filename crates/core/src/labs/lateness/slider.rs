//! The allowed lateness as the slider and the address write it: a number
//! of days up to MAX_DAYS, or `never`. Below the lab's model, its query and
//! its prediction, which all read it.

use crate::engine::lateness::Lateness;

/// The slider's range: 0..=14 days, then "never finalise".
pub const MAX_DAYS: u32 = 14;

/// `2`, `never`: the lateness as the address writes it.
pub fn lateness_value(lateness: Lateness) -> String {
    match lateness {
        Lateness::Days(n) => n.to_string(),
        Lateness::Never => "never".to_string(),
    }
}

/// `0`..`14` or `never`, as the slider offers them.
pub fn read_lateness(given: &str) -> Option<Lateness> {
    let value = given.trim().to_ascii_lowercase();
    match value.parse::<u32>() {
        Ok(n) if n <= MAX_DAYS => Some(Lateness::Days(n)),
        _ if value == "never" => Some(Lateness::Never),
        _ => None,
    }
}
