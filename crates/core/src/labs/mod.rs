pub mod backfill;
pub mod dates;
pub mod lateness;
pub mod link;
pub mod pool;
pub mod state_write;
pub mod tally;
