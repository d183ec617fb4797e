//! How a node's settings are edited and said: the inspector's field tables
//! (`form`), the design's own choices in the vocabulary's words (`words`),
//! and a design described in a student's words (`describe`).

pub mod describe;
pub mod form;
pub mod words;
