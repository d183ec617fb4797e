pub mod backfill;
pub mod lateness;
pub mod link;
pub mod state_write;
