//! The currency-bug backfill lab (SPEC 6): the simulated August, the drift
//! query's answer, the plan for a chosen first date and concurrency, the
//! backfill run with interruptions, and the commands that match the plan.

pub mod case;
pub mod clicker;
pub mod guess;
pub mod outcome;
pub mod query;
pub mod reconcile;
pub mod restatement;
pub mod run;
pub mod session;
pub mod view;

pub use case::{August, Case, Choices, Concurrency, PlanStart};
