//! The six scenarios' stories, one module each: its numbers, the script
//! made from them, its palette and its rules with their judges. A seventh
//! scenario is a module here, a line in `scenarios::SCENARIOS` and an arm
//! in `running`.

pub mod clicks;
pub mod currency;
pub mod history;
pub mod mobile;
pub mod orders;
pub mod outage;

use super::scenario::Running;

/// What runs and judges scenario `number` (`Scenario::running`). Found by
/// number, not held by the `Scenario`: a page's first screen reads the
/// scenarios, and this way its code reaches no script maker and no judge.
pub(crate) fn running(number: u8) -> &'static Running {
    match number {
        1 => &clicks::RUNNING,
        2 => &orders::RUNNING,
        3 => &mobile::RUNNING,
        4 => &currency::RUNNING,
        5 => &history::RUNNING,
        // Only the six scenario modules make a `Scenario`, numbered 1 to
        // 6 (a test holds every scenario to its own `Running`).
        _ => &outage::RUNNING,
    }
}
