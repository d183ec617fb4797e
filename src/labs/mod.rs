pub mod state_write;
