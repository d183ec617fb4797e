//! Long work a bounded step at a time. The daily simulation, a scenario
//! check and the smallest-case search each take one; the page runs any of
//! them through one slice driver and paints between two steps, and native
//! code runs them to the end.

/// Work taken a bounded step at a time.
pub trait Stepwise {
    /// Takes the next bounded step; true once the work is finished. A step
    /// after the end does nothing and says true again.
    fn step(&mut self) -> bool;

    /// Takes every step left.
    fn run_to_end(&mut self) {
        while !self.step() {}
    }
}
