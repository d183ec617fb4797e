//! The app's own teaching text that is data rather than layout: the
//! glossary and the map of the chapter's ideas.

pub mod glossary;
pub mod idea_map;
pub mod lesson;
