pub mod lateness;
pub mod state_write;
