pub mod backfill;
pub mod lateness;
pub mod state_write;
