//! Long work a bounded step at a time. The daily simulation, a scenario
//! check and the smallest-case search each take one; the page's one slice
//! driver steps a check (the simulation inside it, and each candidate of
//! the search) and paints between two steps; native code runs any of them
//! to the end.

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
