//! The bundle's own tools: plain code in place of a well-kept crate or a
//! std facility that costs the wasm too much. `README.md` beside this file
//! says which, the rule each keeps, and how to measure one.

pub mod order;
pub mod sorted;
