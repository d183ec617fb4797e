//! The five design scenarios. For now: what each is about; the event
//! scripts, rules and grader arrive with the grading work.

pub mod catalog;
