//! What the class page needs once work is handed in: reading the files and
//! links, each design's check, and the results' tables. Reached only
//! through `MARKING`, a chunk of the class part's wasm of its own
//! (`ui::later`), so the page answers (a file chosen, links pasted) before
//! it has come; what was handed in meanwhile waits (`Class::take`).

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

use super::{grading, hand_in, tables, Class};
use crate::class::results::Row;
use crate::class::Submission;
use crate::ui::later::Later;
use crate::ui::slices::{Halt, Slices};

/// Work files read and handed in.
pub type Read = Pin<Box<dyn Future<Output = ()>>>;

/// A submission's row, or why grading halted and how many designs of it
/// were done by then.
pub type Graded<'a> = Pin<Box<dyn Future<Output = Result<Row, (Halt, usize)>> + 'a>>;

pub struct Marking {
    /// Reads work files one after another and hands each in (or skips it).
    pub files: fn(Class, Vec<web_sys::File>) -> Read,
    /// Reads pasted share links (each named student graded on their own
    /// data under the class's code, when there is one), hands in what it
    /// read, and gives back the lines it could not read.
    pub links: fn(Class, &str, &str) -> String,
    /// Grades each design of a submission, a slice at a time.
    pub row: for<'a> fn(Class, &'a Submission, &'a mut Slices) -> Graded<'a>,
    /// The class's tallies, a row per student and the gradebook.
    pub results: fn(Class) -> AnyView,
}

fn files(class: Class, given: Vec<web_sys::File>) -> Read {
    Box::pin(hand_in::read_files(class, given))
}

fn row<'a>(class: Class, submission: &'a Submission, slices: &'a mut Slices) -> Graded<'a> {
    Box::pin(grading::row(class, submission, slices))
}

fn results(class: Class) -> AnyView {
    view! { <tables::Results class=class /> }.into_any()
}

pub static MARKING: Marking = Marking {
    files,
    links: hand_in::read_links,
    row,
    results,
};

/// The class part's way to fetch it (`src/bin/partition-lab-class.rs`).
pub static LATER: Later<Marking> = Later::new();
